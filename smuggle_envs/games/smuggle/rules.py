"""Smuggle's rules engine: config, Game and State.

Rule numbers in comments are those of the rulebook and "R2.n" the resolutions of its ambiguities,
both quoted and mapped to the code here and to their tests in ``docs/rules/smuggle.md``. The
vocabulary (phases, outcomes, the search record) lives in ``vocab.py``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from operator import mul
from typing import Any

import numpy as np

from ...core.checks import is_int
from ...core.errors import ConfigError
from ...core.fields import ByteGame, ByteState, set_one_hot
from ...core.game import TERMINAL, GameConfig
from ...core.layout import ObservationLayout
from . import actions as A
from .actions import BAG, HAND_SIZE, NUM_ITEMS, NUM_KINDS
from .data import SmuggleData, load
from .encoder import SmuggleEncoder, build_layout
from .render import render
from .vocab import (
    DECLARE,
    DISCARD,
    DUTY_UNIT,
    LYING,
    NUM_PHASE_FLAGS,
    NUM_SEARCH_RECORDS,
    OFFICER,
    OVER,
    R_BAG_FALSE,
    R_CAUGHT,
    R_INFORM_HIT,
    R_INFORMED_ON,
    R_INFORMS,
    R_NEXT_DECISIONS,
    R_OFF_HIT,
    R_OFF_SEARCH,
    R_SEARCHED,
    R_TRUTHFUL,
    REAL_BAG,
    RECEIVE,
    TRUTHFUL,
    Reveal,
)


@dataclasses.dataclass(frozen=True)
class SmuggleConfig(GameConfig):
    """Rule variants. Defaults follow ``docs/rules/smuggle.md``.

    * ``money_per_player``: starting money of each player (proposed 3000; R2 (b)).
    * ``pot``: instead, a total divided equally, the remainder out of the game (Contraband: 10000).
    * ``bankruptcy``: ``"loan"`` lets a balance go negative (borrowing, rule 13, R2.9);
      ``"eliminate"`` puts a player who cannot pay out of the game.
    * ``informer_pays_real_bag``: the next player who challenges a real Diplomatic Bag pays the
      defamation money (R2.7); False makes that challenge free.
    * ``first_officer``: the seat that is Customs Officer in the first round.
    """

    num_players: int = 4
    money_per_player: int | None = None
    pot: int | None = None
    bankruptcy: str = "loan"
    informer_pays_real_bag: bool = True
    first_officer: int = 0

    def validate(self, min_players: int, max_players: int) -> None:
        super().validate(min_players, max_players)
        if self.money_per_player is not None and self.pot is not None:
            raise ConfigError("give money_per_player or pot, not both")
        for name in ("money_per_player", "pot"):
            value = getattr(self, name)
            if value is not None and (not is_int(value) or value <= 0):
                raise ConfigError(f"{name} must be a positive int, got {value!r}")
        if self.bankruptcy not in ("loan", "eliminate"):
            raise ConfigError(f"bankruptcy must be 'loan' or 'eliminate', got {self.bankruptcy!r}")
        if not isinstance(self.informer_pays_real_bag, bool):
            raise ConfigError("informer_pays_real_bag must be a bool")
        if not is_int(self.first_officer) or not 0 <= self.first_officer < self.num_players:
            raise ConfigError(f"first_officer must be a seat in [0, {self.num_players}), got {self.first_officer!r}")


class SmuggleGame(ByteGame):
    env_id = "smuggle_v0"
    config_class = SmuggleConfig
    min_players = 3
    max_players = 6
    num_actions = A.NUM_ACTIONS
    config: SmuggleConfig

    def __init__(self, config: SmuggleConfig | None = None, **kwargs: Any):
        super().__init__(config, **kwargs)
        self.data: SmuggleData = load()
        d, c = self.data, self.config
        if c.pot is not None:
            # Rule 1: money that will not divide (in whole notes) is out of the game.
            share = c.pot // c.num_players // d.denomination * d.denomination
        else:
            share = c.money_per_player if c.money_per_player is not None else d.money_per_player
        if share <= 0:
            raise ConfigError(f"pot {c.pot} is too small to give each of {c.num_players} players a note")
        self.starting_money = share
        self.kind_names = A.kind_names(d.item_names)
        self.deck_template = tuple(
            kind for kind, count in enumerate((*d.item_counts, d.bag_count, d.luggage_count)) for _ in range(count)
        )
        self.no_known = bytes(self.num_players * NUM_KINDS)
        self.kind_fines = (*d.fines, 0, 0)  # the Bag and luggage carry no fine
        self.kind_counts = tuple(self.deck_template.count(k) for k in range(NUM_KINDS))
        self.declared_duty = tuple(sum(n * du for n, du in zip(counts, d.duties)) for counts in A.DECLARATIONS)

    def _field_sizes(self) -> Iterable[tuple[str, int]]:
        """The state's small-integer facts, in the buffer the encoder gathers from."""
        n = self.num_players
        return (
            ("phase", NUM_PHASE_FLAGS),
            ("officer", n),
            ("holder", n),
            ("receiver", n),
            ("declaration", NUM_ITEMS),
            ("bag_claim", 1),
            ("duty_paid", 1),
            ("declarations", n),
            ("bag_claims", n),
            ("mean_declared_duty", n),
            ("hand", NUM_KINDS),
            ("known", n * NUM_KINDS),
            ("active", n),
            ("officer_done", n),
            ("suitcase", NUM_KINDS),
            ("last_reveal", NUM_KINDS),
            ("last_reveal_seat", n),
            ("last_reveal_outcome", 4),
            ("deck", 1),
            ("round", 1),
            ("search_record", n * NUM_SEARCH_RECORDS),
            ("received_from", n * n),
            ("received_lies", n * n),
        )

    def _build_layout(self) -> ObservationLayout:
        return build_layout(self)

    def _make_encoder(self) -> SmuggleEncoder:
        return SmuggleEncoder(self)

    @property
    def score_scale(self) -> float:
        return float(self.starting_money)

    def kind(self, card: int | str) -> int:
        """A card kind from its index or name ("wine", "diplomatic bag", "luggage", ...)."""
        if isinstance(card, str):
            try:
                return self.kind_names.index(card)
            except ValueError:
                raise ValueError(f"no card kind {card!r}; kinds are {self.kind_names}") from None
        if not 0 <= card < NUM_KINDS:
            raise ValueError(f"card kind {card} is out of range [0, {NUM_KINDS})")
        return card

    def new_initial_state(self, seed: int | None = None) -> SmuggleState:
        return SmuggleState(self, seed)

    def action_to_string(self, action: int) -> str:
        return A.action_text(action, self.data.item_names)


_DECLARE_ACTIONS = tuple(range(A.NUM_DECLARATIONS + 1))  # every declaration + the Bag claim
_OFFICER_ACTIONS = (A.SEARCH, A.LET_PASS)
_RECEIVE_ACTIONS = (A.ACCEPT, A.INFORM)
_DECLARED = tuple(list(c) for c in A.DECLARATIONS)
_DECLARED_BYTES = tuple(bytes(c) for c in A.DECLARATIONS)
_NO_CARDS = bytes(NUM_KINDS)
_NO_ITEMS = bytes(NUM_ITEMS)


def _mask(actions: Sequence[int]) -> np.ndarray:
    m = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    m[list(actions)] = 1
    return m


_MASKS = {DECLARE: _mask(_DECLARE_ACTIONS), OFFICER: _mask(_OFFICER_ACTIONS), RECEIVE: _mask(_RECEIVE_ACTIONS)}


class SmuggleState(ByteState[SmuggleGame]):
    """A Smuggle position.

    The live hand is the four cards in play: held by ``holder`` while declaring, still his while
    the Officer and then the next player (``receiver``) decide, and the receiver's once accepted.
    ``hand`` counts it per card kind; its first ``kept`` cards were kept from a passed hand, so
    they are never the Bag (rule 15). ``known[p]`` counts the cards of the live hand that seat
    ``p`` saw when it passed them on. Counts and flags live in one byte buffer (``buf``, see
    ``SmuggleGame._field_sizes``) that the rules use through list-like windows.

    Every action is public (declarations, searches, accepting or informing, face-up discards),
    so ``action_to_string`` shows each seat the full text. ``last_discard`` (seat, card kind)
    keeps the last discard on the table's text: the discard that ends a round leaves no other
    trace, as the open suitcase goes back into the next pack.
    """

    _over = OVER

    # Seats and the phase are plain attributes mirrored as one-hot flags in their byte fields by
    # setters (``ByteState._set_phase``, ``_set_holder``, ...): they are read several times a
    # decision, and a class-level descriptor (even one with only ``__set__``) takes every read
    # off CPython 3.11's specialised fast path (a read measured 22 ns against 12 ns).
    _lists = ("money", "declared_duty", "deck")

    def __init__(self, game: SmuggleGame, seed: int | None):
        super().__init__(game, seed)
        n = self.n = game.num_players
        self.data = game.data
        self.buf = game.fields.new_buffer()
        self._bind()
        self.money = [game.starting_money] * n
        self.declared_duty = [0] * n
        for s in range(n):
            self.active[s] = 1
        self.phase = OVER
        self.holder = self.receiver = self.officer = -1
        self._set_officer(game.config.first_officer)
        self.rounds_played = 0
        self.last_reveal: Reveal | None = None
        self.last_discard: tuple[int, int] | None = None  # (seat, card kind): public, face up
        self.hand_size = 0
        self.kept = 0
        self.decl_action = -1  # -1: nothing declared on the live hand yet
        self.deck: list[int] = []
        self._start_round()

    def _bind(self) -> None:
        self.np_buf = np.frombuffer(self.buf, np.uint8)  # a live numpy view for the encoder
        v = self.game.fields.views(self.buf)
        self.f_phase, self.f_officer, self.f_holder, self.f_receiver = (
            v["phase"],
            v["officer"],
            v["holder"],
            v["receiver"],
        )
        self.f_declaration, self.f_bag_claim, self.f_duty_paid = v["declaration"], v["bag_claim"], v["duty_paid"]
        self.declarations, self.bag_claims, self.mean_declared_duty = (
            v["declarations"],
            v["bag_claims"],
            v["mean_declared_duty"],
        )
        self.hand, self.known_all = v["hand"], v["known"]
        self.known = [self.known_all[s * NUM_KINDS : (s + 1) * NUM_KINDS] for s in range(self.game.num_players)]
        self.active, self.officer_done, self.suitcase = v["active"], v["officer_done"], v["suitcase"]
        self.f_reveal, self.f_reveal_seat, self.f_reveal_outcome = (
            v["last_reveal"],
            v["last_reveal_seat"],
            v["last_reveal_outcome"],
        )
        self.f_deck, self.f_round, self.search_record = v["deck"], v["round"], v["search_record"]
        # Private records: [receiver * n + passer] counts hands accepted from the passer, and
        # how many of them the receiver saw to be untruthful.
        self.received_from, self.received_lies = v["received_from"], v["received_lies"]

    # ----- setters that keep the one-hot fields in step (see the class attributes above) ---------
    def _set_officer(self, seat: int) -> None:
        set_one_hot(self.f_officer, self.officer, seat)
        self.officer = seat

    def _set_receiver(self, seat: int) -> None:
        set_one_hot(self.f_receiver, self.receiver, seat)
        self.receiver = seat

    def _set_holder(self, seat: int) -> None:
        set_one_hot(self.f_holder, self.holder, seat)
        self.holder = seat

    @property
    def declaration(self) -> tuple[int, ...] | None:
        """Declared item counts, or None for a Bag claim or before anything is declared."""
        if 0 <= self.decl_action < A.CLAIM_BAG:
            return A.DECLARATIONS[self.decl_action]
        return None

    # ----- contract --------------------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase in (DECLARE, DISCARD):
            return self.holder
        if phase == OFFICER:
            return self.officer
        if phase == RECEIVE:
            return self.receiver
        return TERMINAL

    def legal_actions(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == DECLARE:
            return _DECLARE_ACTIONS
        if phase == OFFICER:
            return _OFFICER_ACTIONS
        if phase == RECEIVE:
            return _RECEIVE_ACTIONS
        if phase == DISCARD:
            hand = self.hand
            if hand[BAG]:  # rule 15: a passed-on Bag must be the discard
                return (A.DISCARD + BAG,)
            return tuple([A.DISCARD + k for k in range(NUM_KINDS) if hand[k]])
        return ()

    def legal_action_mask(self) -> np.ndarray:
        mask = _MASKS.get(self.phase)
        if mask is not None:
            return mask.copy()
        return super().legal_action_mask()

    def _is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase == DECLARE:
            return action <= A.CLAIM_BAG
        if phase == OFFICER:
            return action == A.SEARCH or action == A.LET_PASS
        if phase == RECEIVE:
            return action == A.ACCEPT or action == A.INFORM
        return action in self.legal_actions()

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[float]:
        return [float(m) for m in self.money]

    def _render(self, player: int | None) -> str:
        return render(self, player)

    def hand_cards(self) -> list[int]:
        """The live hand as a sorted list of card kinds."""
        return [k for k in range(NUM_KINDS) for _ in range(self.hand[k])]

    # ----- the step --------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == DECLARE:
            self._declare(action)
        elif phase == OFFICER:
            if action == A.SEARCH:
                self._search(by_informer=False)
            else:
                self._let_pass()
        elif phase == RECEIVE:
            if action == A.INFORM:
                self._search(by_informer=True)
            else:
                self._accept()
        else:
            self._discard(action - A.DISCARD)

    def _declare(self, action: int) -> None:
        # Rule 4 / rule 14: a declaration of items, or a claim of Diplomatic Immunity.
        holder = self.holder
        self.decl_action = action
        self.declarations[holder] += 1
        if action == A.CLAIM_BAG:
            self.f_bag_claim[0] = 1
            self.bag_claims[holder] += 1
        else:
            self.f_declaration[:] = _DECLARED_BYTES[action]
            self.declared_duty[holder] += self.game.declared_duty[action]
        # The mean over all declarations (a Bag claim declares no duty), in units of 25 and
        # rounded half up, so that it fits the byte the observation reads.
        count = self.declarations[holder]
        self.mean_declared_duty[holder] = (2 * self.declared_duty[holder] + DUTY_UNIT * count) // (
            2 * DUTY_UNIT * count
        )
        self._set_phase(OFFICER)

    def _let_pass(self) -> None:
        # Rule 5: believed, the passer pays the declared duty (R2.3); a Bag claim pays nothing.
        holder = self.holder
        if self.decl_action != A.CLAIM_BAG:
            self._pay(holder, self.officer, self.game.declared_duty[self.decl_action])
            if not self.active[holder]:
                self._forfeit_hand(holder)
                return
        self.f_duty_paid[0] = 1
        # Rule 11: the cards pass face down to the next player; the passer remembers them.
        self.known[holder][:] = self.hand
        self._set_receiver(self._next_player(holder))
        self._set_phase(RECEIVE)

    def _accept(self) -> None:
        # Rule 11A: the next player takes the cards without any money changing hands (R2.4).
        # He now sees them, so he privately learns whether the passer told the truth.
        passer, receiver = self.holder, self.receiver
        self.search_record[receiver * NUM_SEARCH_RECORDS + R_NEXT_DECISIONS] += 1
        cell = receiver * self.n + passer
        self.received_from[cell] += 1
        if not self._truthful(self.hand.tolist()):
            self.received_lies[cell] += 1
        self._set_holder(receiver)
        self._set_receiver(-1)
        self._set_phase(DISCARD)

    def _discard(self, kind: int) -> None:
        # Rule 11A: discard one face up onto the open suitcase, then draw one (rule 15: the Bag).
        self.hand[kind] -= 1
        self.suitcase[kind] += 1
        self.last_discard = (self.holder, kind)
        for counts in self.known:
            if counts[kind]:
                counts[kind] -= 1
        self.kept = self.hand_size = self.hand_size - 1
        if not self.deck:
            self._end_round()  # R2.8: a draw that cannot be made ends the round
            return
        self._draw(1)
        self._new_declaration()

    def _search(self, by_informer: bool) -> None:
        """Rules 6-10, 11B and 14: open the live hand and settle duty, fines and rewards."""
        d, holder, officer = self.data, self.holder, self.officer
        informer = self.receiver if by_informer else -1
        counts = self.hand.tolist()
        fines = sum(map(mul, counts, self.game.kind_fines))
        if self.decl_action == A.CLAIM_BAG:  # a Diplomatic Bag claim (rule 14)
            if self._truthful(counts):
                outcome = REAL_BAG
                if not by_informer:
                    self._pay(officer, holder, d.defamation)
                elif self.game.config.informer_pays_real_bag:
                    self._pay(informer, holder, d.defamation)
            else:
                outcome = LYING
                self.search_record[holder * NUM_SEARCH_RECORDS + R_BAG_FALSE] += 1
                self._pay(holder, officer, d.false_bag_fine + fines)
        elif self._truthful(counts):  # the complete truth (R2.2)
            outcome = TRUTHFUL
            if by_informer:
                self._pay(informer, holder, d.defamation)  # rule 11B; duty already paid
            else:
                self._pay(officer, holder, d.defamation)  # rule 9 ...
                self._pay(holder, officer, self.game.declared_duty[self.decl_action])  # ... and duty
        else:
            outcome = LYING
            self._pay(holder, officer, fines)  # rules 7, 8: fines on everything
        if outcome == LYING and by_informer:
            self._pay(officer, informer, d.informer_reward)  # rule 11B
        self._record_search(holder, informer, outcome, by_informer)
        self._reveal(holder, counts, outcome, by_informer)
        self._to_suitcase()  # rule 10: face up on the suitcase
        if not self.active[self.officer]:
            self._end_round()
        elif by_informer:
            # Rule 11B / rule 14: the Informer (or, if he is out, the next player) restarts play.
            self._fresh_hand(informer if self.active[informer] else self._next_player(informer))
        else:
            self._fresh_hand(self._next_player(holder))

    def _truthful(self, counts: list[int]) -> bool:
        """A Bag claim is true if the Bag is held; a declaration if it matches exactly (R2.2)."""
        if self.decl_action == A.CLAIM_BAG:
            return counts[BAG] > 0
        return counts[:NUM_ITEMS] == _DECLARED[self.decl_action]

    def _record_search(self, holder: int, informer: int, outcome: int, by_informer: bool) -> None:
        rec, n_rec = self.search_record, NUM_SEARCH_RECORDS
        caught = outcome == LYING
        rec[holder * n_rec + (R_INFORMED_ON if by_informer else R_SEARCHED)] += 1
        rec[holder * n_rec + (R_CAUGHT if caught else R_TRUTHFUL)] += 1
        base = (informer if by_informer else self.officer) * n_rec
        rec[base + (R_INFORMS if by_informer else R_OFF_SEARCH)] += 1
        if by_informer:
            rec[base + R_NEXT_DECISIONS] += 1
        if caught:
            rec[base + (R_INFORM_HIT if by_informer else R_OFF_HIT)] += 1

    def _reveal(self, seat: int, counts: list[int], outcome: int, by_informer: bool) -> None:
        old = self.last_reveal
        # tuple.__new__ skips the NamedTuple's Python-level constructor (searches are frequent)
        self.last_reveal = tuple.__new__(Reveal, (seat, counts, outcome, by_informer))
        self.f_reveal[:] = bytes(counts)
        set_one_hot(self.f_reveal_seat, old.seat if old else -1, seat)
        self.f_reveal_outcome[:] = bytes((outcome == TRUTHFUL, outcome == LYING, outcome == REAL_BAG, by_informer))

    # ----- money -----------------------------------------------------------------------------
    def _pay(self, payer: int, payee: int, amount: int) -> None:
        """Rule 13: a player who cannot pay borrows (loan) or is out of the game (eliminate)."""
        money = self.money
        if money[payer] < amount and self.game.config.bankruptcy == "eliminate":
            amount = max(money[payer], 0)
            self.active[payer] = 0
        money[payer] -= amount
        money[payee] += amount

    def _forfeit_hand(self, player: int) -> None:
        """A player eliminated while paying duty: his hand is laid open and play restarts."""
        self._to_suitcase()
        if not self.active[self.officer] or sum(self.active) < 3:
            self._end_round()
        else:
            self._fresh_hand(self._next_player(player))

    # ----- flow ------------------------------------------------------------------------------
    def _next_player(self, seat: int) -> int:
        """The next active seat clockwise that is not the Officer (R2.6: passing skips him)."""
        n, active, officer = self.n, self.active, self.officer
        for step in range(1, n + 1):
            s = (seat + step) % n
            if active[s] and s != officer:
                return s
        return -1

    def _draw(self, count: int) -> None:
        deck, hand = self.deck, self.hand
        for _ in range(count):
            hand[deck.pop()] += 1
        self.hand_size += count
        self.f_deck[0] = len(deck)

    def _to_suitcase(self) -> None:
        suitcase, hand = self.suitcase, self.hand
        for k in range(NUM_KINDS):
            if hand[k]:
                suitcase[k] += hand[k]
        self._drop_hand()

    def _drop_hand(self) -> None:
        self.hand[:] = _NO_CARDS
        self.known_all[:] = self.game.no_known
        self.hand_size = self.kept = 0

    def _fresh_hand(self, seat: int) -> None:
        """Rules 3, 10, 11B: ``seat`` draws four fresh cards, or the round ends (R2.8)."""
        if seat < 0 or len(self.deck) < HAND_SIZE or sum(self.active) < 3:
            self._end_round()
            return
        self._drop_hand()
        self._draw(HAND_SIZE)
        self._set_holder(seat)
        self._new_declaration()

    def _clear_declaration(self) -> None:
        self.decl_action = -1
        self.f_declaration[:] = _NO_ITEMS
        self.f_bag_claim[0] = 0
        self.f_duty_paid[0] = 0

    def _new_declaration(self) -> None:
        self._clear_declaration()
        self._set_receiver(-1)
        self._set_phase(DECLARE)

    def _start_round(self) -> None:
        # A round is one pass through the pack with one Officer (rule 17, R2.8).
        self.deck = list(self.game.deck_template)
        self.rng.shuffle(self.deck)
        self.suitcase[:] = _NO_CARDS
        self._fresh_hand(self._next_player(self.officer))  # R2.10: left of the Officer starts

    def _end_round(self) -> None:
        # R2.8: an unresolved hand is dropped unseen; every card is reshuffled for the next round.
        self.officer_done[self.officer] = 1
        self.rounds_played += 1
        self.f_round[0] = self.rounds_played
        self._drop_hand()
        self._clear_declaration()
        self._set_holder(-1)
        self._set_receiver(-1)
        nxt = self._next_officer()
        if nxt < 0:
            self._set_phase(OVER)  # rule 17: everyone (still in) has been Officer once
            return
        self._set_officer(nxt)
        self._start_round()

    def _next_officer(self) -> int:
        if sum(self.active) < 3:
            return -1  # a round needs an Officer, a declarer and a next player
        n = self.n
        for step in range(1, n + 1):
            s = (self.officer + step) % n
            if self.active[s] and not self.officer_done[s]:
                return s
        return -1

    # ----- scenarios -------------------------------------------------------------------------
    def stack_pack(self, draws: Iterable[int | str]) -> None:
        """Scenario hook for tests and tutorials: before the first action, order the pack so the
        next draws come out as ``draws`` (card kinds or names, first drawn first), starting with
        the opening hand, which is dealt again. The rest of the pack stays shuffled."""
        if self.history:
            raise RuntimeError("stack_pack() only works before the first action")
        kinds = [self.game.kind(card) for card in draws]
        pool = self.deck + self.hand_cards()
        for card in kinds:
            if card not in pool:
                raise ValueError(f"the pack has no more {self.game.kind_names[card]} cards to stack")
            pool.remove(card)
        self.deck = pool + kinds[::-1]
        self._drop_hand()
        self._draw(HAND_SIZE)
        self._not_replayable = "its pack was stacked with stack_pack()"

    # ----- copies ----------------------------------------------------------------------------
    def _resample(self, player: int, rng: random.Random) -> SmuggleState:
        """Redraw what ``player`` cannot see: the pack's order, the live hand's cards that
        ``player`` does not know, and the state's own RNG (future shuffles)."""
        new = self.clone()
        new.rng = self._fresh_rng(rng)
        if self.phase == OVER or player == self.holder or not self.hand_size:
            rng.shuffle(new.deck)
            return new
        known = self.known[player].tolist()
        pool = self.deck + self.hand_cards()
        for k in range(NUM_KINDS):
            for _ in range(known[k]):
                pool.remove(k)
        rng.shuffle(pool)
        hand = list(known)
        drawn = sum(known)
        # Kept cards are never the Bag (rule 15), so draw those from the Bag-free part of the pool.
        while drawn < self.kept:
            card = pool.pop(next(i for i, c in enumerate(pool) if c != BAG))
            hand[card] += 1
            drawn += 1
        while drawn < self.hand_size:
            hand[pool.pop()] += 1
            drawn += 1
        new.hand[:] = bytes(hand)
        new.deck = pool
        # Other seats' memories of passed cards must fit the redrawn hand (only ``player``'s
        # view has to stay exact; theirs is hidden from him).
        for q in range(self.n):
            if q != player:
                counts = new.known[q]
                for k in range(NUM_KINDS):
                    if counts[k] > hand[k]:
                        counts[k] = hand[k]
        return new
