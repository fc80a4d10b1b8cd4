"""Illegal's rules engine: config, Game and State.

Quotations are from the rulebook; "R4.n" refers to resolution n of the rulebook resolutions.
``docs/rules/illegal.md`` quotes both, maps every rule and card to the code here and to its test,
and records every interpretation with its reason.

A turn is a sequence of atomic decisions of the player to move (``active``): an optional trade
offer, the turn's play (a card with its target and business choices, or a discard), free extras
(a second, legal business; three identical cards discarded; the Magnum), then "end the turn".
Decisions that belong to someone else are states whose current player is that someone: a Magnum
reaction window, the business a victim loses, the card every player passes left after a Paranoia
card, the answer to a trade. The flow (who decides next) depends only on public information, so
it never reveals a hidden card; choices whose options are public and single are made
automatically, choices from a hand are always asked.

What other seats see of a decision (``action_to_string(action, viewer)``): everything but the
card passed left after a Paranoia card, which goes face down ("each player passes a card face
down to the player on his left"); cards played, discarded, offered and traded are all shown.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ...core.checks import is_int
from ...core.errors import ConfigError
from ...core.fields import ByteGame, ByteState, set_one_hot
from ...core.game import TERMINAL, GameConfig
from ...core.layout import ObservationLayout
from . import actions as A
from .actions import (
    BRIBE,
    BUSINESS_KINDS,
    FIRST_BUSINESS,
    FIRST_HASSLE,
    MAGNUM,
    MARKET,
    NUM_BUSINESSES,
    NUM_HASSLES,
    NUM_ILLEGAL,
    NUM_KINDS,
    PARANOIA_KINDS,
    RELATIVES,
)
from .data import IllegalData, load
from .encoder import IllegalEncoder, build_layout
from .render import render
from .vocab import (
    AFTER_PARANOIA,
    AFTER_TURN,
    EUROS,
    EXTRA,
    LOSE,
    LOSES_ALL,
    LOSES_CODES,
    LOSES_ONE,
    LOSES_TOP,
    LOSS_ANY,
    LOSS_CODES,
    LOSS_ILLEGAL,
    LOSS_NONE,
    NUM_PHASES,
    OVER,
    PASS,
    PAY,
    PHASE_NAMES,
    PLAY,
    REACT,
    T_ACCOUNTING,
    T_BRIBE,
    T_HASSLE,
    T_ILLEGAL,
    T_LEGAL,
    T_MAGNUM,
    T_MARKET,
    T_PARANOIA,
    T_RELATIVES,
    T_SOLUTION,
    T_TAKEOVER,
    TAKE,
    TARGET,
    TRADE_ANSWER,
    TRADE_GIVE,
    TRADE_PARTNER,
    TRADE_WANT,
    TYPE_CODES,
    W_HASSLE,
    W_TAKEOVER,
)

__all__ = [  # the vocabulary stays importable from here (``from ...illegal.rules import PLAY``)
    "AFTER_PARANOIA",
    "AFTER_TURN",
    "EXTRA",
    "FULL_GAME",
    "LOSE",
    "LOSES_ALL",
    "LOSES_ONE",
    "LOSES_TOP",
    "LOSS_ANY",
    "LOSS_ILLEGAL",
    "LOSS_NONE",
    "NUM_PHASES",
    "OVER",
    "PASS",
    "PAY",
    "PHASE_NAMES",
    "PLAY",
    "REACT",
    "TAKE",
    "TARGET",
    "TRADE_ANSWER",
    "TRADE_GIVE",
    "TRADE_PARTNER",
    "TRADE_WANT",
    "T_ACCOUNTING",
    "T_BRIBE",
    "T_HASSLE",
    "T_ILLEGAL",
    "T_LEGAL",
    "T_MAGNUM",
    "T_MARKET",
    "T_PARANOIA",
    "T_RELATIVES",
    "T_SOLUTION",
    "T_TAKEOVER",
    "W_HASSLE",
    "W_TAKEOVER",
    "IllegalConfig",
    "IllegalGame",
    "IllegalState",
]


@dataclasses.dataclass(frozen=True)
class IllegalConfig(GameConfig):
    """Rule variants. Defaults follow ``docs/rules/illegal.md``.

    * ``first_player``: the seat left of the dealer, who plays first (in later hands the dealer
      rotates, so the first player moves one seat clockwise each hand).
    * ``hand_size``: the hand is refilled to this many cards after each turn (None: 7, R4.1).
    * ``refill``: ``"hand"`` draws up to ``hand_size``; ``"one"`` draws one card per turn.
    * ``discard``: ``"voluntary"`` lets a player discard any one non-Paranoia card as his turn
      (R4.4); ``"strict"`` only when he cannot play any card.
    * ``takeover``: ``"any"`` lets Hostile Takeover / Relatives take any business; ``"smallest"``
      only one of the target's lowest-valued businesses (Grass, as the translator suggests).
    * ``stock_out``: ``"end"`` ends the hand when a player must draw and the stock is empty
      (R4.3); ``"play_on"`` plays on without drawing until a hand is empty.
    * ``trading``: trades with the active player (R4.9): once per turn, before the play, the
      active player offers cards and names the cards he wants, the partner accepts or declines;
      the swap is public. On in the full game, off by default (hard for learning agents).
    * ``trade_max``: at most this many cards on each side of a trade (1: one-for-one).
    * ``trade_unequal``: the two sides may differ in size (never empty: no gifts).
    * ``target_score``: None plays one hand; a number plays hands, the dealer rotating, until a
      player's total reaches it (the rulebook: 500,000 or 1,000,000 Euros).
    * ``max_hands``: a multi-hand game also ends after this many hands (a safety stop).
    """

    num_players: int = 4
    first_player: int = 0
    hand_size: int | None = None
    refill: str = "hand"
    discard: str = "voluntary"
    takeover: str = "any"
    stock_out: str = "end"
    trading: bool = False
    trade_max: int = 1
    trade_unequal: bool = False
    target_score: int | None = None
    max_hands: int = 20

    def validate(self, min_players: int, max_players: int) -> None:
        super().validate(min_players, max_players)
        n = self.num_players
        if not is_int(self.first_player) or not 0 <= self.first_player < n:
            raise ConfigError(f"first_player must be a seat in [0, {n}), got {self.first_player!r}")
        if self.hand_size is not None and (not is_int(self.hand_size) or not 1 <= self.hand_size <= 15):
            raise ConfigError(f"hand_size must be None or an int from 1 to 15, got {self.hand_size!r}")
        for name, allowed in (
            ("refill", ("hand", "one")),
            ("discard", ("voluntary", "strict")),
            ("takeover", ("any", "smallest")),
            ("stock_out", ("end", "play_on")),
        ):
            if getattr(self, name) not in allowed:
                raise ConfigError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")
        for name in ("trading", "trade_unequal"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be a bool, got {getattr(self, name)!r}")
        if not is_int(self.trade_max) or not 1 <= self.trade_max <= 7:
            raise ConfigError(f"trade_max must be an int from 1 to 7, got {self.trade_max!r}")
        if self.target_score is not None and (not is_int(self.target_score) or self.target_score <= 0):
            raise ConfigError(f"target_score must be None or a positive int, got {self.target_score!r}")
        if not is_int(self.max_hands) or not 1 <= self.max_hands <= 255:
            raise ConfigError(f"max_hands must be an int from 1 to 255, got {self.max_hands!r}")


FULL_GAME = {"trading": True}
"""Options for the full game of the rulebook (trading on); the defaults are the training game."""


class IllegalGame(ByteGame):
    env_id = "illegal_v0"
    config_class = IllegalConfig
    min_players = 2
    max_players = 6
    num_actions = A.NUM_ACTIONS
    config: IllegalConfig

    def __init__(self, config: IllegalConfig | None = None, **kwargs: Any):
        super().__init__(config, **kwargs)
        d: IllegalData = load()
        c = self.config
        self.data = d
        self.hand_size = d.hand_size if c.hand_size is None else c.hand_size
        if self.hand_size * c.num_players > d.playable_cards:
            raise ConfigError(f"{c.num_players} hands of {self.hand_size} need more than {d.playable_cards} cards")
        self.kind_names = d.names
        self.kind_counts = d.counts
        self.deck_template = tuple(k for k in range(NUM_KINDS) for _ in range(d.counts[k]))
        self.types = tuple(TYPE_CODES[t] if k != BRIBE else T_BRIBE for k, t in enumerate(A.KIND_TYPES))
        self.values = d.values  # per kind
        self.biz_values = tuple(d.values[FIRST_BUSINESS + b] for b in range(NUM_BUSINESSES))
        self.penalties = d.penalties
        self.lost_turns = d.lost_turns
        self.loses = tuple(LOSES_CODES.get(x, -1) for x in d.loses)
        self.turn_loss = tuple(LOSS_CODES[d.turn_loss[FIRST_HASSLE + h]] for h in range(NUM_HASSLES))
        self.open_hand = tuple(d.open_hand[FIRST_HASSLE + h] for h in range(NUM_HASSLES))
        self.blocks_legal = tuple(d.blocks_legal[FIRST_HASSLE + h] for h in range(NUM_HASSLES))
        # a solution kind -> the hassle index it removes (-1: any, the Bribe)
        self.solves = tuple(d.solves[k] - FIRST_HASSLE if d.solves[k] >= 0 else -1 for k in range(NUM_KINDS))
        self.trade_limit = c.trade_max if c.trading else 0
        self.no_known = bytes(NUM_KINDS)
        self.strict_discard = c.discard == "strict"
        self.masks: dict[tuple[int, ...], np.ndarray] = {}  # legal actions -> mask, shared

    def _build_layout(self) -> ObservationLayout:
        return build_layout(self)

    def _field_sizes(self) -> Iterable[tuple[str, int]]:
        """The state's small-integer facts, in one buffer the encoder gathers from."""
        n = self.num_players
        return (
            ("phase", NUM_PHASES),
            ("active", n),
            ("decider", n),
            ("market", n),
            ("hassle", n * NUM_HASSLES),
            ("table", n * NUM_BUSINESSES),
            ("hand_size", n),
            ("skip", n),
            ("hands", n * NUM_KINDS),
            ("known", n * n * NUM_KINDS),
            ("pending", n * NUM_KINDS),
            ("discard", NUM_KINDS),
            ("deck", 1),
            ("card", NUM_KINDS),
            ("target", n),
            ("business", NUM_BUSINESSES),
            ("slots", 2),
            ("magnum", 1),
            ("window", 2),
            ("give", NUM_KINDS),
            ("want", NUM_KINDS),
            ("partner", n),
            ("hands_played", 1),
        )

    def _make_encoder(self) -> IllegalEncoder:
        return IllegalEncoder(self)

    @property
    def score_scale(self) -> float:
        return float(EUROS)

    def kind(self, card: int | str) -> int:
        return A.kind(card)

    def new_initial_state(self, seed: int | None = None) -> IllegalState:
        return IllegalState(self, seed)

    def action_to_string(self, action: int) -> str:
        return A.action_text(action)


_LET_PASS_ONLY = (A.LET_PASS,)


class IllegalState(ByteState[IllegalGame]):
    """An Illegal position.

    Per-seat counts (hands, tables, markets, hand sizes, lost turns, what each seat knows of each
    other hand) and the pending decision's context live in one byte buffer (``buf``, see
    ``IllegalGame.fields``) that the rules use through list-like windows and the encoder gathers
    from. ``known[o][q]`` counts cards that seat ``o`` knows to be in seat ``q``'s hand (passed,
    traded or seen in an open hand, and not seen to leave since): a lower bound that only
    information ``o`` has can change.
    """

    _over = OVER

    _lists = ("deck", "totals", "hassle", "nbiz", "nill", "pending", "options", "asked", "pass_order")
    _legal: tuple[int, ...] | None  # the legal actions, cached until the phase or the decider changes
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
        self._new_hand()

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

    # ----- contract --------------------------------------------------------------------------
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

    def _render(self, player: int | None) -> str:
        return render(self, player)

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

    # ----- legal actions ---------------------------------------------------------------------
    def legal_actions(self) -> tuple[int, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == PLAY:
            return self._play_actions(main=True)
        if phase == EXTRA:
            return self._play_actions(main=False)
        if phase == REACT:
            s = self.decider
            if not self.hands[s][MAGNUM]:
                return _LET_PASS_ONLY
            acts = [A.PLAY + MAGNUM] if self.any_hassle else []
            acts.append(A.LET_PASS)
            if self.window == W_TAKEOVER:
                acts.append(A.CANCEL)
            return tuple(acts)
        if phase in (TARGET, TRADE_PARTNER):
            n, actor = self.n, self.decider
            return tuple(sorted(A.TARGET + (q - actor) % n for q in self.options))
        if phase == TAKE:
            return tuple(A.TAKE + b for b in self.options)
        if phase == LOSE:
            return tuple(A.LOSE + b for b in self.options)
        if phase == PAY:
            hand = self.hands[self.decider]
            return tuple(A.PAY + b for b in range(NUM_BUSINESSES) if hand[FIRST_BUSINESS + b])
        if phase == PASS:
            hand = self.hands[self.decider]
            return tuple(A.PASS_CARD + k for k in range(NUM_KINDS) if hand[k])
        if phase == TRADE_GIVE:
            hand, give = self.hands[self.decider], self.give
            acts = []
            if self.n_give < self.game.trade_limit:
                acts = [A.GIVE + k for k in range(NUM_KINDS) if hand[k] > give[k]]
            acts.append(A.DONE if self.n_give else A.NO_TRADE)
            return tuple(acts)
        if phase == TRADE_WANT:
            want, counts = self.want, self.game.kind_counts
            acts = [A.WANT + k for k in range(NUM_KINDS) if want[k] < counts[k]]
            if self.n_want and self.game.config.trade_unequal:  # equal sizes: done at n_give
                acts.append(A.DONE)
            return tuple(acts)
        if phase == TRADE_ANSWER:
            hand, want = self.hands[self.decider], self.want
            if all(hand[k] >= want[k] for k in range(NUM_KINDS)):
                return (A.ACCEPT, A.DECLINE)
            return (A.DECLINE,)
        return ()

    def _play_actions(self, main: bool) -> tuple[int, ...]:
        """PLAY (the turn's play still to make) or EXTRA (made: only free extras remain)."""
        g, p, n = self.game, self.active, self.n
        types = g.types
        market, hassle = self.market, self.hassle
        mk, h = market[p], hassle[p]
        uncovered = mk and h < 0
        legal_ok = mk and not (h >= 0 and g.blocks_legal[h]) and (main or not self.bonus_used)
        plays, discards, triples = [], [], []
        victims = takeable = None
        k = -1
        for c in self.hands[p]:
            k += 1
            if not c:
                continue
            if c >= 3:
                triples.append(A.TRIPLE + k)
            t = types[k]
            if t == T_LEGAL:
                ok = legal_ok
            elif t == T_MAGNUM:
                ok = self.any_hassle
            elif not main:
                continue
            elif t in (T_ILLEGAL, T_ACCOUNTING):
                ok = uncovered
            elif t == T_PARANOIA:
                plays.append(k)  # always playable, never discarded alone
                continue
            elif t == T_MARKET:
                ok = not mk
            elif t == T_HASSLE:
                if victims is None:
                    victims = any(market[q] and hassle[q] < 0 for q in range(n) if q != p)
                ok = victims
            elif t == T_SOLUTION:
                ok = g.solves[k] in hassle
            elif t == T_BRIBE:
                ok = self.any_hassle and self._holds_business(p)
            else:  # takeover, relatives
                if takeable is None:
                    takeable = any(market[q] and self.nbiz[q] for q in range(n) if q != p)
                ok = (uncovered and takeable) if t == T_TAKEOVER else (mk and (takeable or h >= 0))
            if ok:
                plays.append(k)  # PLAY + k == k
            if main:
                discards.append(A.DISCARD + k)
        if main:
            if plays and g.strict_discard:
                return tuple(plays + triples)
            return tuple(plays + discards + triples)
        triples.append(A.END_TURN)
        return tuple(plays + triples)

    def _holds_business(self, p: int) -> bool:
        hand = self.hands[p]
        return any(hand[k] for k in BUSINESS_KINDS)

    def legal_action_mask(self) -> np.ndarray:
        legal = self.legal_actions()
        masks = self.game.masks
        mask = masks.get(legal)
        if mask is None:
            if len(masks) > 100_000:
                masks.clear()
            mask = masks[legal] = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
            mask[list(legal)] = 1
        return mask.copy()

    # ----- the step --------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        self._legal = None
        phase = self.phase
        if phase in (PLAY, EXTRA):
            if action < A.DISCARD:
                self._play(action)
            elif action < A.TRIPLE:
                self._discard_turn(action - A.DISCARD)
            elif action < A.TARGET:
                self._triple(action - A.TRIPLE)
            else:
                self._end_turn()
        elif phase == TARGET:
            self._on_target((self.decider + action - A.TARGET) % self.n)
        elif phase == TAKE:
            self._on_take(action - A.TAKE)
        elif phase == LOSE:
            self._on_lose(action - A.LOSE)
        elif phase == PAY:
            self._on_pay(action - A.PAY)
        elif phase == PASS:
            self._on_pass(action - A.PASS_CARD)
        elif phase == REACT:
            self._on_react(action)
        else:
            self._on_trade(action)

    # ----- hands and knowledge ---------------------------------------------------------------
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

    # ----- tables ----------------------------------------------------------------------------
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

    def _lose_business(self, q: int, b: int) -> None:
        """A business leaves ``q``'s table for the discard pile."""
        self._drop_business(q, b)
        self.discards[FIRST_BUSINESS + b] += 1
        self._check_hassle(q)

    def _check_hassle(self, q: int) -> None:
        """Raid goes once the victim has no illegal business, Protection Money once he has no
        business at all (R4.6), whenever that happens."""
        h = self.hassle[q]
        if h >= 0:
            loss = self.game.turn_loss[h]
            if (loss == LOSS_ILLEGAL and not self.nill[q]) or (loss == LOSS_ANY and not self.nbiz[q]):
                self._remove_hassle(q)

    def _remove_hassle(self, q: int) -> None:
        h = self.hassle[q]
        self.discards[FIRST_HASSLE + h] += 1
        was_open = self.open_mask >> q & 1
        self._set_hassle(q, -1)
        if was_open:
            # "Only then may one return one's cards to one's hand": everyone saw them.
            hand = bytes(self.hands[q])
            for o in range(self.n):
                if o != q:
                    self.known[o][q][:] = hand

    # ----- the turn --------------------------------------------------------------------------
    def _start_turn(self, seat: int) -> None:
        n, skip = self.n, self.skip
        while skip[seat]:  # R4.8: a lost turn is skipped whole, draw included
            skip[seat] -= 1
            seat = (seat + 1) % n
        set_one_hot(self.f_active, self.active, seat)
        self.active = seat
        self.main_used = self.bonus_used = False
        self.f_slots[0] = self.f_slots[1] = 0
        self._set_decider(seat)
        self._set_phase(TRADE_GIVE if self.game.trade_limit else PLAY)

    def _resume(self) -> None:
        """Back to the player to move once a card is resolved; a hand emptied ends the game."""
        if 0 in self.hsize:
            self._end_hand()
            return
        self._set_card(-1)
        self._set_target(-1)
        self._set_biz(-1)
        self._set_decider(self.active)
        self._set_phase(EXTRA if self.main_used else PLAY)

    def _use_slot(self, k: int) -> None:
        """One card per turn, plus one legal business (R4.2); the Magnum is free."""
        t = self.game.types[k]
        if t == T_LEGAL and not self.bonus_used:
            self.bonus_used = True
            self.f_slots[1] = 1
        elif t != T_MAGNUM:
            self.main_used = True
            self.f_slots[0] = 1

    def _play(self, k: int) -> None:
        g, p = self.game, self.active
        self._from_hand(p, k)
        self._use_slot(k)
        self._set_card(k)
        t = g.types[k]
        n, market, hassle = self.n, self.market, self.hassle
        if t in (T_ILLEGAL, T_LEGAL):
            self._add_business(p, k - FIRST_BUSINESS)
            self._resume()
        elif t == T_MARKET:
            market[p] = 1
            self._resume()
        elif t == T_ACCOUNTING:
            self.discards[k] += 1
            self._end_hand()  # "The game is over."
        elif t == T_HASSLE:
            self._choose_target([q for q in range(n) if q != p and market[q] and hassle[q] < 0])
        elif t == T_SOLUTION:
            h = g.solves[k]
            self._choose_target([q for q in range(n) if hassle[q] == h])
        elif t == T_BRIBE:
            self._choose_target([q for q in range(n) if hassle[q] >= 0])
        elif t == T_PARANOIA:
            self._paranoia(k)
        elif t == T_MAGNUM:
            self.magnum_actor = p
            self.f_magnum[0] = 1
            self._choose_target([q for q in range(n) if hassle[q] >= 0])
        else:  # Hostile Takeover, Relatives
            targets = [q for q in range(n) if q != p and market[q] and self.nbiz[q]]
            if targets:
                self._choose_target(targets)
            else:  # Relatives that only sends the hassle away
                self.discards[k] += 1
                self._remove_hassle(p)
                self._resume()

    def _discard_turn(self, k: int) -> None:
        p = self.active
        self._from_hand(p, k)
        self.discards[k] += 1
        self.main_used = True
        self.f_slots[0] = 1
        self._resume()

    def _triple(self, k: int) -> None:
        p = self.active
        for _ in range(3):
            self._from_hand(p, k)
        self.discards[k] += 3
        self._resume()

    def _end_turn(self) -> None:
        p = self.active
        h = self.hassle[p]
        if h >= 0:  # Raid, Protection Money: one business a turn
            loss = self.game.turn_loss[h]
            table = self.tables[p]
            if loss == LOSS_ILLEGAL:
                options = [b for b in range(NUM_ILLEGAL) if table[b]]
            elif loss == LOSS_ANY:
                options = [b for b in range(NUM_BUSINESSES) if table[b]]
            else:
                options = None
            if options:
                self._ask_lose(p, options, AFTER_TURN)
                return
        self._finish_turn()

    def _finish_turn(self) -> None:
        g, p = self.game, self.active
        need = g.hand_size - self.hsize[p] if g.config.refill == "hand" else 1
        for _ in range(need):
            if not self.deck:
                if g.config.stock_out == "end":  # R4.3: a draw that cannot be made ends it
                    self._end_hand()
                    return
                break
            self._draw(p)
        self._start_turn((p + 1) % self.n)

    # ----- targets and resolutions ----------------------------------------------------------
    def _choose_target(self, targets: list[int]) -> None:
        if len(targets) == 1:
            self._on_target(targets[0])
            return
        self.options = targets
        actor = self.magnum_actor if self.magnum_actor >= 0 else self.active
        self._set_decider(actor)
        self._set_phase(TARGET)

    def _on_target(self, q: int) -> None:
        if self.magnum_actor >= 0:
            self._magnum_removes(q)
            return
        g, k, p = self.game, self.card, self.active
        self._set_target(q)
        t = g.types[k]
        if t == T_HASSLE:
            h = k - FIRST_HASSLE
            self._set_hassle(q, h)
            self._check_hassle(q)  # a Raid on a table with no illegal business goes
            if self.hassle[q] == h:
                self._open_window(W_HASSLE)
            else:
                self._resume()
        elif t == T_SOLUTION:
            self.discards[k] += 1
            self._remove_hassle(q)
            self._resume()
        elif t == T_BRIBE:
            self._set_decider(p)
            self._set_phase(PAY)
        else:  # Hostile Takeover, Relatives
            table = self.tables[q]
            options = [b for b in range(NUM_BUSINESSES) if table[b]]
            if g.config.takeover == "smallest":
                low = min(g.biz_values[b] for b in options)
                options = [b for b in options if g.biz_values[b] == low]
            if len(options) == 1:
                self._on_take(options[0])
            else:
                self.options = options
                self._set_decider(p)
                self._set_phase(TAKE)

    def _on_take(self, b: int) -> None:
        self._set_biz(b)
        self._open_window(W_TAKEOVER)

    def _on_pay(self, b: int) -> None:
        p, k = self.active, FIRST_BUSINESS + b
        self._from_hand(p, k)
        self.discards[k] += 1
        self.discards[BRIBE] += 1
        self._remove_hassle(self.target)
        self._resume()

    def _resolve_takeover(self, cancelled: bool) -> None:
        p, q, b, k = self.active, self.target, self.biz, self.card
        self.discards[k] += 1
        if not cancelled:
            self._drop_business(q, b)
            self._add_business(p, b)
            if k == RELATIVES and self.hassle[p] >= 0:
                self._remove_hassle(p)
            self._check_hassle(q)
        self._resume()

    # ----- the Magnum ------------------------------------------------------------------------
    def _reaction_seats(self) -> list[int]:
        """Who is asked, in turn from the player to move's left, whether to use the Magnum: every
        seat that might hold it as far as the table can tell (R4.10). Asking only its holder
        would tell everyone where it is."""
        p, n = self.active, self.n
        if self.discards[MAGNUM]:
            return []
        seats = [(p + i) % n for i in range(1, n)]
        mask = self.open_mask
        if mask:
            for q in range(n):
                if mask >> q & 1 and self.hands[q][MAGNUM]:
                    return [q] if q != p else []
            seats = [q for q in seats if not mask >> q & 1]
        hsize = self.hsize
        return [q for q in seats if hsize[q]]

    def _open_window(self, window: int) -> None:
        asked = self._reaction_seats()
        if not asked:
            self._close_window(window, cancelled=False)
            return
        self.window = window
        self.f_window[window] = 1
        self.asked, self.ask_i = asked, 0
        self._set_decider(asked[0])
        self._set_phase(REACT)

    def _on_react(self, action: int) -> None:
        s = self.decider
        if action == A.LET_PASS:
            self.ask_i += 1
            if self.ask_i < len(self.asked):
                self._set_decider(self.asked[self.ask_i])
                self._legal = None
            else:
                self._close_window(self.window, cancelled=False)
        elif action == A.CANCEL:
            self._from_hand(s, MAGNUM)
            self.discards[MAGNUM] += 1
            self._close_window(self.window, cancelled=True)
        else:  # play the Magnum on a hassle, off turn
            self._from_hand(s, MAGNUM)
            self.magnum_actor = s
            self.f_magnum[0] = 1
            self._choose_target([q for q in range(self.n) if self.hassle[q] >= 0])

    def _magnum_removes(self, q: int) -> None:
        self.discards[MAGNUM] += 1
        self._remove_hassle(q)
        self.magnum_actor = -1
        self.f_magnum[0] = 0
        if self.window >= 0:
            self._close_window(self.window, cancelled=False)
        else:
            self._resume()

    def _close_window(self, window: int, cancelled: bool) -> None:
        if self.window >= 0:
            self.f_window[self.window] = 0
            self.window = -1
        if window == W_TAKEOVER:
            self._resolve_takeover(cancelled)
        else:
            self._resume()

    # ----- losses and Paranoia ---------------------------------------------------------------
    def _ask_lose(self, q: int, options: list[int], after: int) -> None:
        self.lose_after = after
        if len(options) == 1:
            self._on_lose(options[0], q)
            return
        self.options = options
        self._set_decider(q)
        self._set_phase(LOSE)

    def _on_lose(self, b: int, q: int | None = None) -> None:
        self._lose_business(self.decider if q is None else q, b)
        if self.lose_after == AFTER_TURN:
            self._finish_turn()
        else:
            self._start_pass()

    def _paranoia(self, k: int) -> None:
        g, p = self.game, self.active
        self.discards[k] += 1
        self.skip[p] += g.lost_turns[k]
        table = self.tables[p]
        held = [b for b in range(NUM_BUSINESSES) if table[b]]
        mode = g.loses[k]
        if mode == LOSES_ALL:
            for b in held:
                while table[b]:
                    self._drop_business(p, b)
                    self.discards[FIRST_BUSINESS + b] += 1
            self._check_hassle(p)
            self._start_pass()
        elif not held:
            self._start_pass()
        else:
            if mode == LOSES_TOP:
                top = max(g.biz_values[b] for b in held)
                held = [b for b in held if g.biz_values[b] == top]
            self._ask_lose(p, held, AFTER_PARANOIA)

    def _start_pass(self) -> None:
        """ "After the play of a Paranoia card, each player passes a card face down to the player
        on his left": chosen one by one from the player to move on, then moved together."""
        p, n, hsize = self.active, self.n, self.hsize
        self.pass_order = [s for s in ((p + i) % n for i in range(n)) if hsize[s]]
        self.pass_i = 0
        self._set_decider(self.pass_order[0])
        self._set_phase(PASS)

    def _on_pass(self, k: int) -> None:
        s = self.decider
        self.pending[s] = k
        self.f_pending[s * NUM_KINDS + k] = 1
        self.pass_i += 1
        if self.pass_i < len(self.pass_order):
            self._set_decider(self.pass_order[self.pass_i])
            self._legal = None
            return
        n, known, hands, hsize, pending = self.n, self.known, self.hands, self.hsize, self.pending
        moves = [(s, pending[s]) for s in self.pass_order]
        for s, k in moves:
            hands[s][k] -= 1
            hsize[s] -= 1
            self.f_pending[s * NUM_KINDS + k] = 0
            pending[s] = -1
        for s, k in moves:
            r = (s + 1) % n
            hands[r][k] += 1
            hsize[r] += 1
            # The receiver knows what left the passer's hand; everyone else only that something
            # did, so what they were sure of in that hand is forgotten.
            for o in range(n):
                if o == s:
                    continue
                row = known[o][s]
                if o == r:
                    if row[k]:
                        row[k] -= 1
                else:
                    row[:] = self.game.no_known
        for s, k in moves:
            known[s][(s + 1) % n][k] += 1
        self._resume()

    # ----- trading (R4.9) --------------------------------------------------------------------
    def _on_trade(self, action: int) -> None:
        g, p = self.game, self.active
        if action == A.NO_TRADE:
            self._resume()
        elif self.phase == TRADE_GIVE:
            if action == A.DONE:
                self._to_want()
                return
            k = action - A.GIVE
            self.give[k] += 1
            self.n_give += 1
            for o in range(self.n):  # the offer shows the card: it is in his hand
                if o != p and self.known[o][p][k] < self.give[k]:
                    self.known[o][p][k] = self.give[k]
            if self.n_give == g.trade_limit:
                self._to_want()
        elif self.phase == TRADE_WANT:
            if action != A.DONE:
                self.want[action - A.WANT] += 1
                self.n_want += 1
            limit = g.trade_limit if g.config.trade_unequal else self.n_give
            if action == A.DONE or self.n_want == limit:
                n, want_n = self.n, self.n_want
                partners = [q for q in range(n) if q != p and self.hsize[q] >= want_n]
                if not partners:
                    self._end_trade()
                elif len(partners) == 1:
                    self._to_answer(partners[0])
                else:
                    self.options = partners
                    self._set_phase(TRADE_PARTNER)
            else:
                self._legal = None
        elif self.phase == TRADE_PARTNER:
            self._to_answer((p + action - A.TARGET) % self.n)
        else:  # TRADE_ANSWER
            q = self.decider
            if action == A.ACCEPT:
                give, want = bytes(self.give), bytes(self.want)
                for k in range(NUM_KINDS):
                    for _ in range(give[k]):
                        self._from_hand(p, k)
                        self._to_hand_public(q, k)
                    for _ in range(want[k]):
                        self._from_hand(q, k)
                        self._to_hand_public(p, k)
            self._end_trade()

    def _to_want(self) -> None:
        self._set_phase(TRADE_WANT)

    def _to_answer(self, q: int) -> None:
        self.partner = q
        self.f_partner[q] = 1
        self._set_decider(q)
        self._set_phase(TRADE_ANSWER)

    def _end_trade(self) -> None:
        self.give[:] = self.game.no_known
        self.want[:] = self.game.no_known
        self.n_give = self.n_want = 0
        if self.partner >= 0:
            self.f_partner[self.partner] = 0
            self.partner = -1
        self._resume()

    # ----- hands (deals) and the end ---------------------------------------------------------
    def _new_hand(self) -> None:
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
        self.rng.shuffle(self.deck)
        for q in range(n):
            for _ in range(g.hand_size):
                self._draw(q)
        # The dealer rotates: the player left of the dealer opens each hand.
        self._start_turn((g.config.first_player + self.rounds_played) % n)

    def _end_hand(self) -> None:
        """Accounting (R4.11); another hand follows until a total reaches ``target_score``."""
        c = self.game.config
        scores = [self.accounting(q) for q in range(self.n)]
        self.last_scores = scores
        self.totals = [t + s for t, s in zip(self.totals, scores)]
        self.rounds_played += 1
        if c.target_score is None or max(self.totals) >= c.target_score or self.rounds_played >= c.max_hands:
            self._set_decider(-1)
            self._set_phase(OVER)
            self.f_hands_played[0] = self.rounds_played
            return
        self._new_hand()

    # ----- scenarios -------------------------------------------------------------------------
    def arrange(
        self,
        hands: Mapping[int, Sequence[str | int]] | None = None,
        tables: Mapping[int, Sequence[str | int]] | None = None,
        markets: Iterable[int] | None = None,
        hassles: Mapping[int, str | int] | None = None,
        stock: Sequence[str | int] | None = None,
        discards: Iterable[str | int] | None = None,
        skip: Mapping[int, int] | None = None,
        active: int | None = None,
    ) -> None:
        """Scenario hook for tests and tutorials: before the first action, lay out a position.

        ``hands``, ``tables`` (businesses) and ``discards`` map seats (or, for ``discards``, are)
        lists of card names; ``markets`` lists the seats with a Market Open (every seat with a
        business or a hassle gets one anyway); ``hassles`` maps seats to a hassle name; ``stock``
        lists the next draws, first drawn first; ``skip`` maps seats to lost turns; ``active``
        is the seat to move. Every card comes out of the 106: seats without a given hand are
        dealt at random from what is left, and the rest of the stock stays shuffled.
        """
        if self.history:
            raise RuntimeError("arrange() only works before the first action")
        g, n = self.game, self.n
        hands, tables, hassles = dict(hands or {}), dict(tables or {}), dict(hassles or {})
        pool = list(g.deck_template)

        def take(card: str | int) -> int:
            k = g.kind(card)
            if k not in pool:
                raise ValueError(f"no {g.kind_names[k]} card left to place")
            pool.remove(k)
            return k

        first = (g.config.first_player + self.rounds_played) % n if active is None else active
        self._new_hand()
        for q in range(n):
            self.hands[q][:] = self.game.no_known
            self.hsize[q] = 0
        opened = set(markets or ()) | set(tables) | set(hassles)
        for q in sorted(opened):
            take(MARKET)
            self.market[q] = 1
        for q, cards in tables.items():
            for card in cards:
                self._add_business(q, A.business(take(card)))
        for q, card in hassles.items():
            k = take(card)
            if k - FIRST_HASSLE not in range(NUM_HASSLES):
                raise ValueError(f"{card!r} is not a hassle")
            self._set_hassle(q, k - FIRST_HASSLE)
            self._check_hassle(q)
            if self.hassle[q] < 0:
                raise ValueError(f"a {card} cannot stay on seat {q}'s table: it needs a business to take")
        for card in discards or ():
            self.discards[take(card)] += 1
        for q, cards in hands.items():
            for card in cards:
                self.hands[q][take(card)] += 1
                self.hsize[q] += 1
        top = [take(card) for card in stock or ()]
        self.rng.shuffle(pool)
        for q in range(n):
            if q not in hands:
                for _ in range(g.hand_size):
                    k = pool.pop()
                    self.hands[q][k] += 1
                    self.hsize[q] += 1
        self.deck = pool + top[::-1]
        self.f_deck[0] = len(self.deck)
        for q, turns in (skip or {}).items():
            self.skip[q] = turns
        set_one_hot(self.f_active, self.active, -1)
        self.active = -1
        self._start_turn(first)
        self._not_replayable = "its position was laid out with arrange()"

    # ----- copies (``clone`` is core's: the buffer, RNG, history and ``_lists``) --------------
    def _resample(self, player: int, rng: random.Random) -> IllegalState:
        """Redraw what ``player`` cannot see: the other closed hands (keeping the cards it knows
        are there), the stock's order, the cards others have chosen to pass and not yet passed,
        and the state's own RNG. Open hands (Tax Inspection) stay as they are."""
        new = self.clone()
        new.rng = self._fresh_rng(rng)
        if self.phase == OVER:
            rng.shuffle(new.deck)
            return new
        n, K = self.n, NUM_KINDS
        hidden = [q for q in range(n) if q != player and not self.open_mask >> q & 1]
        sure = {q: bytes(self.known[player][q]) for q in hidden}
        unknown = list(self.deck)
        for q in hidden:
            hand = self.hands[q]
            for k in range(K):
                unknown += [k] * (hand[k] - sure[q][k])
        # A player in the middle of paying for a Bribe holds a business card (he could not have
        # played the Bribe otherwise): redraw until that holds.
        payer = (
            self.active
            if (self.phase == PAY or (self.phase == TARGET and self.card == BRIBE and self.magnum_actor < 0))
            else -1
        )
        for _attempt in range(1000):
            pool = list(unknown)
            rng.shuffle(pool)
            drawn = {}
            for q in hidden:
                counts = list(sure[q])
                for _ in range(self.hsize[q] - sum(counts)):
                    counts[pool.pop()] += 1
                drawn[q] = counts
            if payer not in drawn or any(drawn[payer][k] for k in BUSINESS_KINDS):
                break
        else:  # pragma: no cover - the real hand is one answer
            raise RuntimeError("resample found no hand for the Bribe payer")
        for q in hidden:
            new.hands[q][:] = bytes(drawn[q])
        new.deck = pool
        # Cards others chose to pass are hidden until they move: any card of their hand.
        for q in range(n):
            if q != player and self.pending[q] >= 0:
                new.f_pending[q * K + self.pending[q]] = 0
                cards = new.hand_cards(q)
                k = cards[rng.randrange(len(cards))]
                new.pending[q] = k
                new.f_pending[q * K + k] = 1
        # What other seats know must fit the redrawn hands (only ``player``'s view stays exact).
        for o in range(n):
            if o == player:
                continue
            for q in hidden:
                row, hand = new.known[o][q], new.hands[q]
                for k in range(K):
                    if row[k] > hand[k]:
                        row[k] = hand[k]
        new._legal = None
        return new
