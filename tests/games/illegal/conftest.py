"""Fixtures for scripted Illegal scenarios."""

import pytest

from smuggle_envs.games.illegal import IllegalGame
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import LOSE, PASS, REACT, TAKE, TARGET, TRADE_PARTNER

FILLERS = (A.ALIBI, A.WHITE_COAT, A.INFORMANT, A.MISTER_ZERO, A.MARKET)


class Table:
    """A game laid out with ``state.arrange`` (``scenarios.arrange``) and driven by rulebook-named moves.

    Four players by default; P0 is to move unless ``active`` says otherwise. ``hands`` and
    ``tables`` map seats to card names, ``markets`` lists seats with a Market Open (seats with
    businesses or a hassle get one anyway), ``hassles`` maps seats to a hassle, ``stock`` lists
    the next draws. Targets are given as absolute seats and turned into seat offsets here.
    """

    def __init__(
        self,
        num_players=4,
        *,
        seed=0,
        hands=None,
        tables=None,
        markets=None,
        hassles=None,
        stock=None,
        discards=None,
        skip=None,
        active=None,
        fill=True,
        **config,
    ):
        self.game = IllegalGame(num_players=num_players, **config)
        self.state = self.game.new_initial_state(seed)
        if hands is not None and fill:
            hands = self._filled(hands, tables, markets, hassles, stock, discards)
        self.state.arrange(
            hands=hands,
            tables=tables,
            markets=markets,
            hassles=hassles,
            stock=stock,
            discards=discards,
            skip=skip,
            active=active,
        )

    def _filled(self, hands, tables, markets, hassles, stock, discards):
        """Hands shorter than 7 are topped up with cards that do nothing without the matching
        hassle (Solutions), taken from what the scenario leaves."""
        left = list(self.game.kind_counts)
        named = [c for cards in hands.values() for c in cards] + [c for cards in (tables or {}).values() for c in cards]
        named += list((hassles or {}).values()) + list(stock or ()) + list(discards or ())
        named += ["market open"] * len(set(markets or ()) | set(tables or {}) | set(hassles or {}))
        for card in named:
            left[A.kind(card)] -= 1
        filled = {}
        for seat, cards in hands.items():
            cards = list(cards)
            for k in FILLERS:
                while len(cards) < self.game.hand_size and left[k] > 0:
                    cards.append(A.KIND_NAMES[k])
                    left[k] -= 1
            filled[seat] = cards
        return filled

    @property
    def n(self):
        return self.game.num_players

    # moves -------------------------------------------------------------------------------
    def act(self, *actions):
        for action in actions:
            self.state.apply_action(action)
        return self

    def target(self, seat):
        s = self.state
        if s.phase in (TARGET, TRADE_PARTNER):
            return self.act(A.target((seat - s.decider) % self.n))
        return self

    def play(self, card, on=None, take=None, pay=None):
        """Play ``card``; ``on`` is its target seat, ``take`` the business to take, ``pay`` the
        business card that pays for a Bribe (each applied when the engine asks for it)."""
        self.act(A.play(card))
        if on is not None:
            self.target(on)
        if take is not None and self.state.phase == TAKE:
            self.act(A.take(take))
        if pay is not None:
            self.act(A.pay(pay))
        return self

    def discard(self, card):
        return self.act(A.discard(card))

    def triple(self, card):
        return self.act(A.triple(card))

    def end_turn(self):
        return self.act(A.END_TURN)

    def let_pass(self, times=1):
        for _ in range(times):
            self.act(A.LET_PASS)
        return self

    def all_let_pass(self):
        while self.state.phase == REACT:
            self.act(A.LET_PASS)
        return self

    def react_until(self, seat):
        """Let the reaction window run until ``seat`` decides."""
        while self.state.phase == REACT and self.state.decider != seat:
            self.act(A.LET_PASS)
        assert self.state.decider == seat
        return self

    def lose(self, card):
        if self.state.phase == LOSE:
            self.act(A.lose(card))
        return self

    def pass_first(self):
        """Every player passes a card left (a filler if it has one)."""
        while self.state.phase == PASS:
            legal = self.state.legal_actions()
            fillers = [a for a in legal if a - A.PASS_CARD in FILLERS]
            self.act((fillers or legal)[0])
        return self

    def pass_cards(self, *cards):
        """Each player, in order, passes the named card left."""
        for card in cards:
            assert self.state.phase == PASS
            self.act(A.pass_card(card))
        return self

    def idle(self):
        """The player to move discards a card (a filler if it has one) and ends the turn."""
        discards = [a for a in self.state.legal_actions() if A.DISCARD <= a < A.TRIPLE]
        fillers = [a for a in discards if a - A.DISCARD in FILLERS]
        return self.act((fillers or discards)[0]).end_turn()

    def drain_stock(self, keep=0):
        """Move all but ``keep`` cards of the stock to the discard pile (cards stay conserved)."""
        s = self.state
        while len(s.deck) > keep:
            s.discards[s.deck.pop()] += 1
        s.f_deck[0] = len(s.deck)
        return self

    # reading -------------------------------------------------------------------------------
    def hand(self, seat):
        return sorted(self.game.kind_names[k] for k in self.state.hand_cards(seat))

    def table(self, seat):
        t = self.state.tables[seat]
        return sorted(A.KIND_NAMES[A.FIRST_BUSINESS + b] for b in range(A.NUM_BUSINESSES) for _ in range(t[b]))

    def hassle(self, seat):
        h = self.state.hassle[seat]
        return None if h < 0 else A.KIND_NAMES[A.FIRST_HASSLE + h]

    def legal(self):
        return [self.game.action_to_string(a) for a in self.state.legal_actions()]

    def can(self, action):
        return action in self.state.legal_actions()

    def can_play(self, card):
        return self.can(A.play(card))

    def discarded(self, card):
        return self.state.discards[A.kind(card)]


@pytest.fixture
def table():
    return Table
