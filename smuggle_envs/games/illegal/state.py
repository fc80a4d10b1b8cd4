"""Illegal's state: its fields (one byte buffer of per-seat counts and a few lists), and the card
moves that keep hands, tables and what each seat knows of each hand in step. What each phase
allows and what each action does is in ``steps.py``; ``rules.py`` assembles the two (and the
resample) into ``IllegalState``. ``clone`` is core's (the buffer, RNG, history and ``_lists``).
"""

from __future__ import annotations

import numpy as np

from ...core.fields import ByteState, set_one_hot
from ...core.game import TERMINAL
from .actions import BUSINESS_KINDS, NUM_BUSINESSES, NUM_HASSLES, NUM_ILLEGAL, NUM_KINDS, PARANOIA_KINDS
from .game import IllegalGame
from .vocab import AFTER_TURN, OVER, PASS


class IllegalStateBase(ByteState[IllegalGame]):
    """An Illegal position: its fields and the card moves that keep them in step (``rules.py``'s
    ``IllegalState`` adds the rules: ``steps.py``, ``resample.py``).

    Per-seat counts (hands, tables, markets, hand sizes, lost turns, what each seat knows of each
    other hand) and the pending decision's context live in one byte buffer (``buf``, see
    ``encoder.build_layout``: the fields its observation pieces read) that the rules use through
    list-like windows and the encoder gathers from. ``known[o][q]`` counts cards that seat ``o``
    knows to be in seat ``q``'s hand (passed, traded or seen in an open hand, and not seen to leave
    since): a lower bound that only information ``o`` has can change.
    """

    _over = OVER

    _lists = ("deck", "totals", "hassle", "nbiz", "nill", "pending", "options", "asked", "pass_order")
    _legal: tuple[int, ...] | None  # the legal actions, cached until the phase or the decider changes
    _not_replayable: str  # set by ``scenarios.arrange``: why ``to_replay`` refuses
    phase: int
    active: int  # whose turn it is
    decider: int  # who decides now
    card: int  # the card being resolved, -1 = none
    target: int  # its target, -1 = none
    biz: int  # the business being taken, -1 = none
    open_mask: int  # bit q: seat q plays with an open hand (Tax Inspection)
    hassle: list[int]  # per seat: the hassle index on its Market Open, -1 = none
    nbiz: list[int]  # per seat: businesses on its table
    nill: list[int]  # per seat: illegal businesses on its table
    options: list[int]  # the choices of the pending decision (targets, businesses, partners)
    asked: list[int]  # the seats asked in the Magnum reaction window, in order
    pass_order: list[int]  # the seats passing a card left, in order

    def __init__(self, game: IllegalGame, seed: int | None):
        super().__init__(game, seed)
        self.n = game.num_players
        self.buf = game.fields.new_buffer()
        self._bind()
        self.totals = [0] * self.n
        self.last_scores: list[int] | None = None
        self.rounds_played = 0  # hands finished (multi-hand games)
        self.phase = OVER
        # The first hand is dealt by ``steps.new_hand`` (``rules.IllegalState.__init__``).

    def _bind(self) -> None:
        n, K = self.n, NUM_KINDS
        self.np_buf = np.frombuffer(self.buf, np.uint8)
        v = self.game.fields.views(self.buf)
        self.v = v
        self.f_phase, self.f_active, self.f_decider = v["phase"], v["active"], v["decider"]
        self.market, self.f_hassle, self.hsize, self.skip = v["market"], v["hassle"], v["hand_size"], v["skip"]
        self.discards, self.f_deck, self.f_card, self.f_target = v["discard"], v["deck"], v["card"], v["target"]
        self.f_business, self.f_slots, self.f_magnum, self.f_window = (
            v["business"],
            v["slots"],
            v["magnum"],
            v["window"],
        )
        self.give, self.want, self.f_partner = v["give"], v["want"], v["partner"]
        self.f_pending, self.f_hands_played = v["pending"], v["hands_played"]
        hands, tables, known = v["hands"], v["table"], v["known"]
        self.hands = [hands[q * K : (q + 1) * K] for q in range(n)]
        self.tables = [tables[q * NUM_BUSINESSES : (q + 1) * NUM_BUSINESSES] for q in range(n)]
        self.known = [[known[(o * n + q) * K : (o * n + q + 1) * K] for q in range(n)] for o in range(n)]

    def _reset_hand(self) -> None:
        """Every field back to the start of a hand (the buffer zeroed), the deck in order:
        ``steps.new_hand`` shuffles and deals it."""
        g, n = self.game, self.n
        self.buf[:] = bytes(len(self.buf))
        self.f_hands_played[0] = self.rounds_played
        self.phase = OVER
        self.decider = self.active = self.card = self.target = self.biz = -1
        self.hassle = [-1] * n
        self.any_hassle = False
        self.open_mask = 0
        self.nbiz = [0] * n
        self.nill = [0] * n
        self.pending = [-1] * n
        self.main_used = self.bonus_used = False
        self.magnum_actor = self.window = self.partner = -1
        self.n_give = self.n_want = 0
        self.options = []
        self.asked = []
        self.ask_i = self.pass_i = 0
        self.pass_order = []
        self.lose_after = AFTER_TURN
        self._legal = None
        self.deck = list(g.deck_template)

    # ----- setters that keep the one-hot fields in step ------------------------------------
    # Plain attributes with setters (``ByteState._set_phase``), not descriptors: CPython 3.11
    # does not specialise attribute reads shadowed by a data descriptor, and ``phase`` and
    # ``decider`` are read at every decision. Measured (random play, 4 players, engine and
    # observation, CPU time, best of 3 x 60,000 decisions, interleaved runs): 160,000-169,500
    # decisions/s with these setters (as before) against 150,500-154,000 with the descriptors
    # (-6%). Alone, a read of a descriptor-backed attribute took 38 ns against 13 ns.
    def _set_decider(self, seat: int) -> None:
        set_one_hot(self.f_decider, self.decider, seat)
        self.decider = seat

    def _set_card(self, k: int) -> None:
        set_one_hot(self.f_card, self.card, k)
        self.card = k

    def _set_target(self, q: int) -> None:
        set_one_hot(self.f_target, self.target, q)
        self.target = q

    def _set_biz(self, b: int) -> None:
        set_one_hot(self.f_business, self.biz, b)
        self.biz = b

    def _set_hassle(self, q: int, h: int) -> None:
        old = self.hassle[q]
        if old >= 0:
            self.f_hassle[q * NUM_HASSLES + old] = 0
        if h >= 0:
            self.f_hassle[q * NUM_HASSLES + h] = 1
        self.hassle[q] = h
        self.any_hassle = max(self.hassle) >= 0
        bit = 1 << q
        if h >= 0 and self.game.open_hand[h]:
            self.open_mask |= bit
        else:
            self.open_mask &= ~bit

    # ----- public reads ------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.decider

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[float]:
        """Totals of finished hands plus, during a hand, the businesses on each table (public);
        once the game is over, the final accounting of every hand."""
        if self.phase == OVER:
            return [float(t) for t in self.totals]
        return [float(t + self.table_value(q)) for q, t in enumerate(self.totals)]

    def table_value(self, q: int) -> int:
        table = self.tables[q]
        return sum(table[b] * v for b, v in enumerate(self.game.biz_values) if table[b])

    def accounting(self, q: int) -> int:
        """The hand's final accounting for seat ``q``: businesses on the table, minus Paranoia
        cards in hand, minus the highest-valued business still in hand."""
        g, hand = self.game, self.hands[q]
        penalty = sum(hand[k] * g.penalties[k] for k in PARANOIA_KINDS)
        top = max((g.values[k] for k in BUSINESS_KINDS if hand[k]), default=0)
        return self.table_value(q) - penalty - top

    def _public_action_string(self, action: int) -> str:
        """What a seat other than the decider sees: the card passed left after a Paranoia card
        goes face down (the receiver finds it in his hand once every player has chosen); every
        other decision shows its card or choice."""
        if self.phase == PASS:
            s = self.decider
            return f"player {s} chooses a card to pass face down to player {(s + 1) % self.n}"
        return super()._public_action_string(action)

    def hand_cards(self, q: int) -> list[int]:
        hand = self.hands[q]
        return [k for k in range(NUM_KINDS) for _ in range(hand[k])]

    def is_open(self, q: int) -> bool:
        """Seat ``q`` plays with an open hand (Tax Inspection)."""
        return bool(self.open_mask >> q & 1)

    # ----- hands, knowledge and tables ----------------------------------------------------------
    def _from_hand(self, q: int, k: int) -> None:
        """A card leaves ``q``'s hand in the open: nobody can still be sure of it."""
        self.hands[q][k] -= 1
        self.hsize[q] -= 1
        for o in range(self.n):
            row = self.known[o][q]
            if row[k]:
                row[k] -= 1

    def _to_hand_public(self, q: int, k: int) -> None:
        """A card joins ``q``'s hand in the open (a trade): everyone knows it is there."""
        self.hands[q][k] += 1
        self.hsize[q] += 1
        for o in range(self.n):
            if o != q:
                self.known[o][q][k] += 1

    def _draw(self, q: int) -> None:
        k = self.deck.pop()
        self.hands[q][k] += 1
        self.hsize[q] += 1
        self.f_deck[0] = len(self.deck)

    def _add_business(self, q: int, b: int) -> None:
        self.tables[q][b] += 1
        self.nbiz[q] += 1
        if b < NUM_ILLEGAL:
            self.nill[q] += 1

    def _drop_business(self, q: int, b: int) -> None:
        self.tables[q][b] -= 1
        self.nbiz[q] -= 1
        if b < NUM_ILLEGAL:
            self.nill[q] -= 1
