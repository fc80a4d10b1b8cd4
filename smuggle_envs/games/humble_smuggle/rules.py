"""Humble smuggle's rules engine: config, Game and State.

Section numbers in comments are those of the rulebook and "R3.n" the resolutions of its
ambiguities, both quoted and mapped to the code here and to their tests in
``docs/rules/humble_smuggle.md``, which also records each interpretation. The vocabulary (phases,
round rules, symbols, Play effects, the reveal record) lives in ``vocab.py``.

A round is a sequence of atomic decisions, one seat at a time:

* ``DRAFT``: in turn order from the first player, each seat takes one centre card (public);
* ``SELECT``: in the same order, each seat lays one hand card face down (hidden: the others see
  only *that* it chose);
* ``PLAY``: round-robin from the first player, each seat plays one Play card onto any face-down
  white card or passes; a full lap of passes ends the phase (R3.7). Who attached a card to which
  white card is public, its kind is not;
* reveal, resolution, Play cards to the discard pile and black draws are automatic; a seat over
  the hand limit of 3 black cards then decides its discards (``DISCARD``, face down: the others
  see only *that* it discarded) before the next seat draws; the centre is cleaned up and refilled
  and the first player passes clockwise.

``action_to_string(action, viewer)`` follows the same split: a seat other than the actor reads
"player 1 selects a card face down", "player 1 plays a Play card face down on player 2's card",
"player 1 discards a black card face down"; drafts and passes are public in full.

Python lists hold the state (the hot path is plain ints and lists); every fact an observation
shows is mirrored in one byte buffer (``HumbleSmuggleGame.fields``) that the encoder gathers
from. ``_rebuild_fields`` recomputes that buffer from the lists (used by ``resample`` and the
scenario hook, and by the invariant tests to check the incremental updates).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import product
from typing import Any

import numpy as np

from ...core.checks import is_int
from ...core.errors import ConfigError
from ...core.fields import ByteGame, ByteState, set_one_hot
from ...core.game import TERMINAL, GameConfig
from ...core.layout import ObservationLayout
from . import actions as A
from .actions import MAX_PLAYERS, NUM_BLACK_KINDS, NUM_PLAY_KINDS
from .data import NUM_WHITE, HumbleData, WhiteCard, load
from .encoder import HumbleSmuggleEncoder, build_layout
from .render import render
from .vocab import (
    ADD,
    DISCARD,
    DOUBLE,
    DOUBLE_UP,
    DRAFT,
    EFFECT_CODES,
    HIGH_LOW,
    NO_SYMBOL,
    NUM_PHASE_FLAGS,
    NUM_RULE_KINDS,
    NUM_SYMBOLS,
    OVER,
    PLAY,
    SAFE_ZONE,
    SELECT,
    STANDARD,
    STAR,
    SYMBOL_UP,
    ZERO,
    Reveal,
)

W = NUM_WHITE  # 79
NK = NUM_BLACK_KINDS  # 23
NP = NUM_PLAY_KINDS  # 7


@dataclasses.dataclass(frozen=True)
class HumbleSmuggleConfig(GameConfig):
    """Rule variants. Defaults follow ``docs/rules/humble_smuggle.md``.

    * ``first_player``: the seat that is first player in round 1; ``None`` draws it from the
      state's seeded RNG (R3.11: the rulebook's "second-oldest player" is a seat chosen by chance).
    * ``end_card_depth``: white cards above the End-of-Game (80) card; ``None`` takes the
      data file's number for the player count (45 / 53 / 62 / 69 for 2 / 3 / 4 / 5 players).
    * ``discard_count``: how Double Up's "two highest" and Symbol Up's "that many highest"
      count: ``"cards"`` takes whole tie groups from the top until at least that many cards are
      chosen (R3.3); ``"values"`` takes that many distinct highest values (every card of each).
    * ``stars_need_a_symbol``: a star only completes a set that has at least one real symbol
      (from a white or a Hold card); by default a star may count as any symbol (figure 5).
    """

    num_players: int = 4
    first_player: int | None = None
    end_card_depth: int | None = None
    discard_count: str = "cards"
    stars_need_a_symbol: bool = False

    def validate(self, min_players: int, max_players: int) -> None:
        super().validate(min_players, max_players)
        n = self.num_players
        fp = self.first_player
        if fp is not None and (not is_int(fp) or not 0 <= fp < n):
            raise ConfigError(f"first_player must be None or a seat in [0, {n}), got {fp!r}")
        depth = self.end_card_depth
        if depth is not None:
            low, high = 3 * n, NUM_WHITE - (n + 1)
            if not is_int(depth) or not low <= depth <= high:
                raise ConfigError(
                    f"end_card_depth must be None or an int in [{low}, {high}] for {n} players "
                    f"(the hands are dealt above the 80, a full centre follows it), got {depth!r}"
                )
        if self.discard_count not in ("cards", "values"):
            raise ConfigError(f"discard_count must be 'cards' or 'values', got {self.discard_count!r}")
        if not isinstance(self.stars_need_a_symbol, bool):
            raise ConfigError(f"stars_need_a_symbol must be a bool, got {self.stars_need_a_symbol!r}")


class HumbleSmuggleGame(ByteGame):
    env_id = "humble_smuggle_v0"
    config_class = HumbleSmuggleConfig
    min_players = 2
    max_players = MAX_PLAYERS
    num_actions = A.NUM_ACTIONS
    config: HumbleSmuggleConfig

    def __init__(self, config: HumbleSmuggleConfig | None = None, **kwargs: Any):
        super().__init__(config, **kwargs)
        self.data: HumbleData = load()
        d = self.data
        n, c = self.num_players, self.config
        self.end_depth = c.end_card_depth if c.end_card_depth is not None else d.cards_above[n]
        self.safe_zone_min = d.end_value  # the "≥80" icon
        sym_index = {s: i for i, s in enumerate(d.symbols)}
        sym_index[d.wild_symbol] = STAR
        self.symbol_names = (*d.symbols, d.wild_symbol)
        # Per white value (index 0 unused): points, symbol, draws, round-rule kind.
        self.points = (0, *(w.points for w in d.white))
        self.symbol = (NO_SYMBOL, *(NO_SYMBOL if w.symbol is None else sym_index[w.symbol] for w in d.white))
        self.draws = (0, *(w.draws for w in d.white))
        self.rule_of = (-1, *(_rule_kind(w, sym_index) for w in d.white))
        self.rule_names = ("Standard", "Double Up", "High & Low", *(f"Symbol Up ({s})" for s in d.symbols), "Safe Zone")
        # Black kinds: Play kinds 0..6, then each Hold card 7..22.
        self.black_names = A.black_names(d)
        self.effect = tuple(EFFECT_CODES[p.effect] for p in d.play)
        self.amount = tuple(p.amount for p in d.play)
        self.hold_symbols = tuple(tuple(sym_index[s] for s in h.symbols) for h in d.hold)
        self.hold_bonus = tuple(h.bonus for h in d.hold)
        self.black_template = tuple(
            [k for k, p in enumerate(d.play) for _ in range(p.count)] + [NP + h for h in range(len(d.hold))]
        )
        self.black_kind_counts = tuple(self.black_template.count(k) for k in range(NK))
        # The Play actions of each Play kind, one per target seat (legal_actions joins them).
        self.play_actions = tuple(tuple(A.play(k, t) for t in range(n)) for k in range(NP))
        self.limit = d.black_limit
        # Best points for c copies of one symbol, splitting into sets of at most the largest size.
        table = dict(d.set_points)
        best: list[int] = [0] * (W + 40)
        for count in range(1, len(best)):
            best[count] = max(table.get(size, 0) + best[count - size] for size in range(1, min(count, max(table)) + 1))
        self.set_best = tuple(best)
        self._set_score: Callable[[tuple[int, ...], int, tuple[int, ...]], int] = lru_cache(maxsize=65536)(
            self._set_score_uncached
        )

    def _field_sizes(self) -> Iterable[tuple[str, int]]:
        """The state's small-integer facts, absolute seat order, in one buffer."""
        n = self.num_players
        return (
            ("phase", NUM_PHASE_FLAGS),
            ("first", n),
            ("to_act", n),
            ("drafted", n),
            ("selected", n),
            ("passes", 1),
            ("round", 1),
            ("final", 1),
            ("deck", 1),
            ("rounds_left", 1),
            ("bdeck", 1),
            ("bdisc", 1),
            ("bdisc_seen", NP),
            ("centre", W),
            ("centre_rules", NUM_RULE_KINDS),
            ("rule", NUM_RULE_KINDS),
            ("hand", n * W),
            ("sel", n * W),
            ("known", n * W),
            ("out", W),
            ("black", n * NK),
            ("black_count", n),
            ("attach", n * n),
            ("my_attach", n * n * NP),
            ("sym", n * (NUM_SYMBOLS + 1)),
            ("points", n),
            ("nscored", n),
            ("last_card", n),
            ("last_mods", n * NP),
            ("last_discarded", n),
            ("last_centre", 1),
            ("last_centre_discarded", 1),
            ("last_rule", NUM_RULE_KINDS),
        )

    def _build_layout(self) -> ObservationLayout:
        return build_layout(self)

    def _make_encoder(self) -> HumbleSmuggleEncoder:
        return HumbleSmuggleEncoder(self)

    @property
    def score_scale(self) -> float:
        return 10.0

    def new_initial_state(self, seed: int | None = None) -> HumbleSmuggleState:
        return HumbleSmuggleState(self, seed)

    def action_to_string(self, action: int) -> str:
        return A.action_text(action, self.data)

    def black_kind(self, card: int | str) -> int:
        """A black kind from its index or name: "+10", "shield", "play -20", "hold anchor/barrel/compass +1"."""
        if isinstance(card, str):
            for k, name in enumerate(self.black_names):
                if card in (name, name.removeprefix("play "), name.removeprefix("hold ")):
                    return k
            raise ValueError(f"no black card {card!r}; kinds are {self.black_names}")
        if not 0 <= card < NK:
            raise ValueError(f"black kind {card} is out of range [0, {NK})")
        return card

    # ----- final scoring (section 7) -------------------------------------------------------
    def set_points(self, counts: Sequence[int], stars: int, holds: Iterable[int]) -> int:
        """Best symbol-set points for white symbol ``counts`` (5), ``stars`` and Hold cards
        (Hold indices 0-15): each Hold card counts as one of its three symbols and each star as
        any symbol, chosen to score best (section 7.3, figure 5, R3.10)."""
        return self._set_score(tuple(counts), stars, tuple(sorted(holds)))

    def _set_score_uncached(self, counts: tuple[int, ...], stars: int, holds: tuple[int, ...]) -> int:
        best = 0
        for choice in product(*(self.hold_symbols[h] for h in holds)):
            c = list(counts)
            for s in choice:
                c[s] += 1
            best = max(best, self._with_stars(c, stars))
        return best

    def _with_stars(self, c: list[int], stars: int) -> int:
        table = self.set_best
        allowed = [i for i in range(NUM_SYMBOLS) if c[i] or not self.config.stars_need_a_symbol]
        fixed = sum(table[c[i]] for i in range(NUM_SYMBOLS) if i not in allowed)
        # dp[r]: best points of the symbols seen so far using r stars
        dp = [0] + [-1] * stars
        for i in allowed:
            new = [-1] * (stars + 1)
            for r in range(stars + 1):
                if dp[r] < 0:
                    continue
                for j in range(stars - r + 1):
                    v = dp[r] + table[c[i] + j]
                    if v > new[r + j]:
                        new[r + j] = v
            dp = new
        return fixed + max(dp)


def _rule_kind(card: WhiteCard, sym_index: Mapping[str, int]) -> int:
    if card.rule == "symbol_up":
        assert card.rule_symbol is not None  # data.py checks that Symbol Up names a symbol
        return SYMBOL_UP + sym_index[card.rule_symbol]
    return {"standard": STANDARD, "double_up": DOUBLE_UP, "high_low": HIGH_LOW, "safe_zone": SAFE_ZONE}[card.rule]


class HumbleSmuggleState(ByteState[HumbleSmuggleGame]):
    """A Humble smuggle position.

    White cards are their values 1-79. ``hands[s]`` is seat s's hand (not its face-down card),
    ``sel[s]`` its face-down selection (0: none), ``known[s]`` the cards of s's hand and
    selection that everyone saw it draft (public), ``scored[s]`` its scored cards. ``deck`` is the
    white deck (``pop()`` draws the top), ``end_left`` the white cards still above the 80 (-1 once
    the 80 is out). Black kinds are 0-6 (Play) and 7-22 (Hold); ``black[s]`` counts seat s's hand
    per kind, ``attached[t]`` lists (attacher, kind) on seat t's face-down card, ``bdisc_public``
    the revealed Play cards in the black discard pile and ``bdisc_hidden`` (seat, kind) of the
    cards discarded face down for the hand limit.
    """

    _over = OVER

    # Seats and the phase are plain attributes mirrored as one-hot flags in their byte fields by
    # setters (``ByteState._set_phase``, ``_set_actor``, ``_set_first``): a class-level descriptor
    # (even one with only ``__set__``) takes every read off CPython 3.11's specialised fast path.
    _lists = ("deck", "bdeck", "centre", "bdisc_public", "bdisc_hidden", "sel", "white_discards", "pending")
    _nested = ("hands", "known", "scored", "black", "attached")

    def __init__(self, game: HumbleSmuggleGame, seed: int | None):
        super().__init__(game, seed)
        n = self.n = game.num_players
        self.buf = game.fields.new_buffer()
        self._bind()
        rng = self.rng
        # Setup 1: shuffle the 79, insert the 80 (kept as a count of the cards above it).
        self.deck = list(range(1, W + 1))
        rng.shuffle(self.deck)
        self.end_left = game.end_depth
        self.final = False
        # Setup 3: shuffle the black cards.
        self.bdeck = list(game.black_template)
        rng.shuffle(self.bdeck)
        self.bdisc_public: list[int] = []
        self.bdisc_hidden: list[tuple[int, int]] = []
        # Setup 5: the first player (R3.11: by chance unless configured).
        fp = game.config.first_player
        self.first = -1
        self._set_first(rng.randrange(n) if fp is None else fp)
        self.phase = OVER
        self.actor = -1
        self.rounds_played = 0
        self.rule = -1
        self.drafts = 0
        self.passes = 0
        self.centre: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.sel = [0] * n
        self.scored: list[list[int]] = [[] for _ in range(n)]
        self.white_discards: list[int] = []
        self.black: list[list[int]] = [[0] * NK for _ in range(n)]
        self.attached: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.pending = [0] * n
        self.draw_idx = 0
        self.last: Reveal | None = None
        # Setup 2: three white cards each, then players + 1 face up in the centre.
        data = game.data
        for s in range(n):
            for _ in range(data.white_hand):
                v = self._draw_white()
                self.hands[s].append(v)
                self.f_hand[s * W + v - 1] = 1
        # Setup 3: two black cards each.
        for s in range(n):
            self._draw_black(s, data.black_deal)
        self.f_bdeck[0] = len(self.bdeck)
        self._refill()
        self._start_round()

    def _bind(self) -> None:
        self.np_buf = np.frombuffer(self.buf, np.uint8)
        v = self.game.fields.views(self.buf)
        self.f_phase, self.f_first, self.f_to_act = v["phase"], v["first"], v["to_act"]
        self.f_drafted, self.f_selected, self.f_passes = v["drafted"], v["selected"], v["passes"]
        self.f_round, self.f_final, self.f_deck, self.f_rounds_left = (
            v["round"],
            v["final"],
            v["deck"],
            v["rounds_left"],
        )
        self.f_bdeck, self.f_bdisc, self.f_bdisc_seen = v["bdeck"], v["bdisc"], v["bdisc_seen"]
        self.f_centre, self.f_centre_rules, self.f_rule = v["centre"], v["centre_rules"], v["rule"]
        self.f_hand, self.f_sel, self.f_known, self.f_out = v["hand"], v["sel"], v["known"], v["out"]
        self.f_black, self.f_black_count = v["black"], v["black_count"]
        self.f_attach, self.f_my_attach = v["attach"], v["my_attach"]
        self.f_sym, self.f_points, self.f_nscored = v["sym"], v["points"], v["nscored"]
        self.f_last_card, self.f_last_mods, self.f_last_discarded = v["last_card"], v["last_mods"], v["last_discarded"]
        self.f_last_centre, self.f_last_centre_discarded = v["last_centre"], v["last_centre_discarded"]
        self.f_last_rule = v["last_rule"]

    # ----- contract --------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.actor if self.phase != OVER else TERMINAL

    def legal_actions(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == DRAFT:
            return tuple([v - 1 for v in sorted(self.centre)])
        if phase == SELECT:
            return tuple([A.SELECT + v - 1 for v in sorted(self.hands[self.actor])])
        if phase == PLAY:
            b, by_kind = self.black[self.actor], self.game.play_actions
            actions: list[int] = []
            for k in range(NP):
                if b[k]:
                    actions += by_kind[k]
            actions.append(A.PASS)
            return tuple(actions)
        if phase == DISCARD:
            b = self.black[self.actor]
            return tuple([A.DISCARD + k for k in range(NK) if b[k]])
        return ()

    def legal_action_mask(self) -> np.ndarray:
        # A handful of legal actions: set them in a fresh byte string (faster than numpy's
        # fancy indexing for so few entries).
        mask = bytearray(A.NUM_ACTIONS)
        for a in self.legal_actions():
            mask[a] = 1
        return np.frombuffer(mask, np.int8)

    def _is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase == DRAFT:
            return action < A.SELECT and action + 1 in self.centre
        if phase == SELECT:
            return A.SELECT <= action < A.PLAY and action - A.SELECT + 1 in self.hands[self.actor]
        if phase == PLAY:
            if action == A.PASS:
                return True
            if not A.PLAY <= action < A.PASS:
                return False
            kind, offset = divmod(action - A.PLAY, MAX_PLAYERS)
            return offset < self.n and self.black[self.actor][kind] > 0
        if phase == DISCARD:
            return action >= A.DISCARD and self.black[self.actor][action - A.DISCARD] > 0
        return False

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def points(self, holds: bool | None = None) -> list[int]:
        """Final-scoring points of every seat (section 7): tens digits of scored white cards,
        Hold bonuses, and the best symbol sets. Hold cards are hidden until the end, so by
        default they count only once the game is over; before that the points are what the
        whole table can count. ``holds=True`` counts the Hold cards in hand now."""
        if holds is None:
            holds = self.phase == OVER
        game = self.game
        pts, syms = game.points, game.symbol
        result = []
        for s in range(self.n):
            counts = [0] * (NUM_SYMBOLS + 1)
            total = 0
            for v in self.scored[s]:
                total += pts[v]
                if syms[v] >= 0:
                    counts[syms[v]] += 1
            held: tuple[int, ...] = ()
            if holds:
                b = self.black[s]
                held = tuple(k - NP for k in range(NP, NK) if b[k] for _ in range(b[k]))
                total += sum(game.hold_bonus[h] for h in held)
            total += game.set_points(tuple(counts[:NUM_SYMBOLS]), counts[STAR], held)
            result.append(total)
        return result

    def scores(self) -> list[float]:
        """Points plus the tie-breaker (most scored white cards) as hundredths: a seat scores
        ``points + scored cards / 100``, so ties on points go to more scored cards and a tie on
        both is shared (section 7, "Tiebreakers"). At most 79 cards are scored, so the fraction
        never reaches a whole point. Before the end, hidden Hold cards do not count (see
        ``points``), so no score reveals a hidden card."""
        return [p + len(sc) / 100 for p, sc in zip(self.points(), self.scored)]

    def _render(self, player: int | None) -> str:
        return render(self, player)

    def _public_action_string(self, action: int) -> str:
        """What the other seats see: the draft and a pass in full; a selection, the kind of a
        Play card (not who attached it where) and a hand-limit discard are face down."""
        actor = self.actor
        if A.SELECT <= action < A.PLAY:
            return f"player {actor} selects a card face down"
        if A.PLAY <= action < A.PASS:
            target = (actor + (action - A.PLAY) % MAX_PLAYERS) % self.n
            where = "their own card" if target == actor else f"player {target}'s card"
            return f"player {actor} plays a Play card face down on {where}"
        if action >= A.DISCARD:
            return f"player {actor} discards a black card face down"
        return self.game.action_to_string(action)

    # ----- the step --------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == DRAFT:
            self._draft(action + 1)
        elif phase == SELECT:
            self._select(action - A.SELECT + 1)
        elif phase == PLAY:
            if action == A.PASS:
                self._pass()
            else:
                kind, offset = divmod(action - A.PLAY, MAX_PLAYERS)
                self._play(kind, (self.actor + offset) % self.n)
        else:
            self._discard(action - A.DISCARD)

    def _set_actor(self, seat: int) -> None:
        set_one_hot(self.f_to_act, self.actor, seat)
        self.actor = seat

    def _set_first(self, seat: int) -> None:
        set_one_hot(self.f_first, self.first, seat)
        self.first = seat

    # Step 1: draft, in turn order from the first player (public).
    def _draft(self, v: int) -> None:
        actor, game = self.actor, self.game
        self.centre.remove(v)
        self.f_centre[v - 1] = 0
        self.f_centre_rules[game.rule_of[v]] -= 1
        self.hands[actor].append(v)
        self.f_hand[actor * W + v - 1] = 1
        self.known[actor].append(v)
        self.f_known[actor * W + v - 1] = 1
        self.f_drafted[actor] = 1
        self.drafts += 1
        if self.drafts < self.n:
            self._set_actor((actor + 1) % self.n)
            return
        # Section 8 / R3.1: the icon of the one card left in the centre is the round rule.
        self.rule = game.rule_of[self.centre[0]]
        self.f_rule[self.rule] = 1
        self._set_phase(SELECT)
        self._set_actor(self.first)

    # Step 2: secret selection, taken in turn order and hidden from the others.
    def _select(self, v: int) -> None:
        actor, n = self.actor, self.n
        self.hands[actor].remove(v)
        self.f_hand[actor * W + v - 1] = 0
        self.sel[actor] = v
        self.f_sel[actor * W + v - 1] = 1
        self.f_selected[actor] = 1
        nxt = (actor + 1) % n
        if nxt != self.first:
            self._set_actor(nxt)
            return
        self._set_phase(PLAY)
        self.passes = 0
        self.f_passes[0] = 0
        self._set_actor(self.first)

    # Step 3: Play cards onto face-down white cards, round-robin until a full lap of passes.
    def _play(self, kind: int, target: int) -> None:
        actor, n = self.actor, self.n
        self.black[actor][kind] -= 1
        self.f_black[actor * NK + kind] -= 1
        self.f_black_count[actor] -= 1
        self.attached[target].append((actor, kind))
        self.f_attach[target * n + actor] += 1
        self.f_my_attach[(actor * n + target) * NP + kind] += 1
        self.passes = 0
        self.f_passes[0] = 0
        self._set_actor((actor + 1) % n)

    def _pass(self) -> None:
        self.passes += 1
        if self.passes < self.n:
            self.f_passes[0] = self.passes
            self._set_actor((self.actor + 1) % self.n)
            return
        self._resolve()

    # Steps 4-5: reveal and resolution.
    def effective_value(self, seat: int) -> tuple[int, bool]:
        """(effective value, shielded) of ``seat``'s face-down card with its Play cards:
        max(0, (0 if a Zero else printed) x 2^Doubles + the sum of +/- cards)."""
        v = self.sel[seat]
        att = self.attached[seat]
        if not att:
            return v, False
        effect, amount = self.game.effect, self.game.amount
        zero = shield = False
        doubles = add = 0
        for _, k in att:
            e = effect[k]
            if e == ADD:
                add += amount[k]
            elif e == ZERO:
                zero = True
            elif e == DOUBLE:
                doubles += 1
            else:
                shield = True
        value = (0 if zero else v) * (1 << doubles) + add
        return (value if value > 0 else 0), shield

    def _resolve(self) -> None:
        game, n = self.game, self.n
        centre_card = self.centre[0]
        rule = self.rule
        values = [0] * n
        shielded = [False] * n
        for s in range(n):
            values[s], shielded[s] = self.effective_value(s)
        # Candidates: every revealed card but the shielded ones; the centre card (id n) counts.
        cands = [(values[s], s) for s in range(n) if not shielded[s]]
        cands.append((centre_card, n))
        k = 0
        if rule == HIGH_LOW:
            hi = max(c[0] for c in cands)
            lo = min(c[0] for c in cands)
            chosen = {i for value, i in cands if value in (hi, lo)}
        else:
            if rule == STANDARD:
                k = 1
            elif rule == DOUBLE_UP:
                k = 2
            elif rule == SAFE_ZONE:
                cands = [c for c in cands if c[0] >= game.safe_zone_min]
                k = 1
            else:  # Symbol Up: that symbol on the revealed white cards, centre included (R3.4)
                symbol, sym = rule - SYMBOL_UP, game.symbol
                k = sum(1 for s in range(n) if sym[self.sel[s]] == symbol) + (sym[centre_card] == symbol)
            chosen = _top(cands, k, game.config.discard_count == "values")
        self._record_reveal(values, chosen, centre_card)
        # Discarded cards go to the discard pile; the others score; draws follow (R3.8).
        pts, syms, draws = game.points, game.symbol, game.draws
        pending = self.pending
        for s in range(n):
            v = self.sel[s]
            att = self.attached[s]
            self.f_out[v - 1] = 1
            if v in self.known[s]:
                self.known[s].remove(v)
                self.f_known[s * W + v - 1] = 0
            self.f_sel[s * W + v - 1] = 0
            self.f_selected[s] = 0
            self.sel[s] = 0
            if s in chosen:
                self.white_discards.append(v)
                pending[s] = len(att)
            else:
                self.scored[s].append(v)
                self.f_points[s] += pts[v]
                self.f_nscored[s] += 1
                if syms[v] >= 0:
                    self.f_sym[s * (NUM_SYMBOLS + 1) + syms[v]] += 1
                pending[s] = draws[v]
            if att:
                for attacher, kind in att:  # Play cards to the black discard pile (R3.9)
                    self.bdisc_public.append(kind)
                    self.f_bdisc_seen[kind] += 1
                    self.f_attach[s * n + attacher] = 0
                    self.f_my_attach[(attacher * n + s) * NP + kind] = 0
                self.attached[s] = []
        self.f_bdisc[0] = len(self.bdisc_public) + len(self.bdisc_hidden)
        # Step 6 (clean-up, first half): the centre card is discarded whatever the rule did.
        self.white_discards.append(centre_card)
        self.f_out[centre_card - 1] = 1
        self.f_centre[centre_card - 1] = 0
        self.f_centre_rules[game.rule_of[centre_card]] = 0
        self.centre = []
        self.f_rule[rule] = 0
        self.f_passes[0] = 0
        self.passes = 0
        self.draw_idx = 0
        self._set_phase(DISCARD)  # while drawing; _continue_draws moves on
        self._continue_draws()

    def _record_reveal(self, values, chosen, centre_card) -> None:
        n = self.n
        mods = self.f_last_mods
        mods[:] = bytes(n * NP)
        for s in range(n):
            self.f_last_card[s] = self.sel[s]
            self.f_last_discarded[s] = s in chosen
            for _, kind in self.attached[s]:
                mods[s * NP + kind] += 1
        self.f_last_centre[0] = centre_card
        self.f_last_centre_discarded[0] = n in chosen
        if self.last is not None:
            self.f_last_rule[self.last[6]] = 0
        self.f_last_rule[self.rule] = 1
        self.last = Reveal(
            list(self.sel),
            values,
            [list(a) for a in self.attached],
            [s for s in range(n) if s in chosen],
            centre_card,
            n in chosen,
            self.rule,
        )

    def _continue_draws(self) -> None:
        """Black draws in turn order from the first player; a seat over the limit discards
        (its own decisions) before the next seat draws (section 5.5, Q2)."""
        n, limit = self.n, self.game.limit
        while self.draw_idx < n:
            s = (self.first + self.draw_idx) % n
            if self.pending[s]:
                self._draw_black(s, self.pending[s])
                self.pending[s] = 0
            if self.f_black_count[s] > limit:
                self._set_actor(s)
                return
            self.draw_idx += 1
        self._end_round()

    def _discard(self, kind: int) -> None:
        actor = self.actor
        self.black[actor][kind] -= 1
        self.f_black[actor * NK + kind] -= 1
        self.f_black_count[actor] -= 1
        self.bdisc_hidden.append((actor, kind))  # face down: nobody else learns the kind
        self.f_bdisc[0] += 1
        if self.f_black_count[actor] <= self.game.limit:
            self.draw_idx += 1
            self._continue_draws()

    def _draw_black(self, seat: int, count: int) -> None:
        bdeck, hand = self.bdeck, self.black[seat]
        for _ in range(count):
            if not bdeck:
                if not (self.bdisc_public or self.bdisc_hidden):
                    break  # Q1: nothing left to reshuffle
                bdeck.extend(self.bdisc_public)
                bdeck.extend(k for _, k in self.bdisc_hidden)
                self.rng.shuffle(bdeck)
                self.bdisc_public = []
                self.bdisc_hidden = []
                self.f_bdisc[0] = 0
                self.f_bdisc_seen[:] = bytes(NP)
            k = bdeck.pop()
            hand[k] += 1
            self.f_black[seat * NK + k] += 1
            self.f_black_count[seat] += 1
        self.f_bdeck[0] = len(bdeck)

    def _draw_white(self) -> int:
        """The top white card; passing the 80 on the way reveals it (the next round is final)."""
        if self.end_left == 0:
            self.end_left = -1
            self.final = True
            self.f_final[0] = 1
        elif self.end_left > 0:
            self.end_left -= 1
        v = self.deck.pop()
        self.f_deck[0] = len(self.deck)
        return v

    def _refill(self) -> None:
        """Step 6: refill the centre to players + 1 (the 80 takes no slot, R3.6)."""
        rules = self.game.rule_of
        while len(self.centre) < self.n + 1:
            v = self._draw_white()
            self.centre.append(v)
            self.f_centre[v - 1] = 1
            self.f_centre_rules[rules[v]] += 1
        self.f_rounds_left[0] = self.rounds_left()

    def rounds_left(self) -> int:
        """Rounds still to play, this one included (public: the 80's position is printed)."""
        if self.phase == OVER and self.rounds_played:
            return 0
        if self.final:
            return 1
        return 2 + self.end_left // (self.n + 1)

    def _end_round(self) -> None:
        self.rounds_played += 1
        self.f_round[0] = self.rounds_played
        if self.final:  # section 6: the 80's round was the last
            self._set_phase(OVER)
            self._set_actor(-1)
            self.f_rounds_left[0] = 0
            return
        self._refill()
        self._set_first((self.first + 1) % self.n)  # step 7: clockwise
        self._start_round()

    def _start_round(self) -> None:
        self.f_drafted[:] = bytes(self.n)
        self.drafts = 0
        self.rule = -1
        self._set_phase(DRAFT)
        self._set_actor(self.first)

    # ----- byte mirror -----------------------------------------------------------------------
    def _rebuild_fields(self) -> bytearray:
        """The byte buffer recomputed from the Python lists (what the incremental updates keep)."""
        game, n = self.game, self.n
        buf = game.fields.new_buffer()
        v = game.fields.views(buf)
        if self.phase < OVER:
            v["phase"][self.phase] = 1
            v["to_act"][self.actor] = 1
        v["first"][self.first] = 1
        for i in range(self.drafts):
            v["drafted"][(self.first + i) % n] = 1
        for s in range(n):
            v["selected"][s] = self.sel[s] > 0
        v["passes"][0] = self.passes
        v["round"][0] = self.rounds_played
        v["final"][0] = self.final
        v["deck"][0] = len(self.deck)
        v["rounds_left"][0] = self.rounds_left() if self.phase != OVER else 0
        v["bdeck"][0] = len(self.bdeck)
        v["bdisc"][0] = len(self.bdisc_public) + len(self.bdisc_hidden)
        for k in self.bdisc_public:
            v["bdisc_seen"][k] += 1
        for c in self.centre:
            v["centre"][c - 1] = 1
            v["centre_rules"][game.rule_of[c]] += 1
        if self.rule >= 0 and self.phase in (SELECT, PLAY):
            v["rule"][self.rule] = 1
        for s in range(n):
            for c in self.hands[s]:
                v["hand"][s * W + c - 1] = 1
            if self.sel[s]:
                v["sel"][s * W + self.sel[s] - 1] = 1
            for c in self.known[s]:
                v["known"][s * W + c - 1] = 1
            for c in self.scored[s]:
                v["out"][c - 1] = 1
                v["points"][s] += game.points[c]
                v["nscored"][s] += 1
                if game.symbol[c] >= 0:
                    v["sym"][s * (NUM_SYMBOLS + 1) + game.symbol[c]] += 1
            for k in range(NK):
                v["black"][s * NK + k] = self.black[s][k]
            v["black_count"][s] = sum(self.black[s])
            for attacher, kind in self.attached[s]:
                v["attach"][s * n + attacher] += 1
                v["my_attach"][(attacher * n + s) * NP + kind] += 1
        for c in self.white_discards:
            v["out"][c - 1] = 1
        if self.last is not None:
            sel, _, attached, discarded, centre_card, centre_out, rule = self.last
            for s in range(n):
                v["last_card"][s] = sel[s]
                v["last_discarded"][s] = s in discarded
                for _, kind in attached[s]:
                    v["last_mods"][s * NP + kind] += 1
            v["last_centre"][0] = centre_card
            v["last_centre_discarded"][0] = centre_out
            v["last_rule"][rule] = 1
        return buf

    def _reload_fields(self) -> None:
        self.buf[:] = self._rebuild_fields()

    # ----- scenarios -------------------------------------------------------------------------
    def arrange(
        self,
        *,
        hands=None,
        centre=None,
        black=None,
        deck_top=(),
        black_top=(),
        black_discard=(),
        black_hidden=None,
        first: int | None = None,
        end_left: int | None = None,
    ) -> None:
        """Scenario hook for tests and tutorials, before the first action.

        ``hands``: {seat: [white values]} (3 each); ``centre``: the players + 1 centre values;
        ``black``: {seat: [black kinds or names]}; ``deck_top`` / ``black_top``: cards to draw
        next, first drawn first; ``black_discard``: Play cards to put face up in the discard pile
        (as if revealed), ``black_hidden``: {seat: [black kinds]} it discarded face down; ``first``: the first player; ``end_left``: white cards left above the 80 (0: the next
        refill reveals it). Cards come from wherever they were; the rest stay
        shuffled. The state is then not replayable from its seed."""
        if self.history:
            raise RuntimeError("arrange() only works before the first action")
        game, n = self.game, self.n
        pool = self.deck + self.centre + [c for h in self.hands for c in h]
        bpool = self.bdeck + [k for s in range(n) for k in range(NK) for _ in range(self.black[s][k])]

        def take(values, where, what):
            for c in values:
                if c not in where:
                    raise ValueError(f"{what} {c} is not available (twice, or out of range)")
                where.remove(c)
            return list(values)

        hands = {s: list(hs) for s, hs in (hands or {}).items()}
        for s, hs in hands.items():
            self.hands[s] = take(hs, pool, "white card")
        black = {s: [game.black_kind(k) for k in ks] for s, ks in (black or {}).items()}
        for s, ks in black.items():
            self.black[s] = [0] * NK
            for k in take(ks, bpool, "black card of kind"):
                self.black[s][k] += 1
        if centre is not None:
            if len(centre) != n + 1:
                raise ValueError(f"the centre holds {n + 1} cards")
            self.centre = take(centre, pool, "white card")
        deck_top = take(deck_top, pool, "white card")
        black_top = take([game.black_kind(k) for k in black_top], bpool, "black card of kind")
        self.bdisc_public = take([game.black_kind(k) for k in black_discard], bpool, "black card of kind")
        if any(k >= NP for k in self.bdisc_public):
            raise ValueError("only Play cards lie face up in the black discard pile")
        self.bdisc_hidden = [
            (s, k)
            for s, ks in (black_hidden or {}).items()
            for k in take([game.black_kind(k) for k in ks], bpool, "black card of kind")
        ]
        # Seats not named keep their hand size, refilled from the pool.
        for s in range(n):
            if s not in hands:
                self.hands[s] = [pool.pop() for _ in range(len(self.hands[s]))]
            if s not in black:
                count = sum(self.black[s])
                self.black[s] = [0] * NK
                for _ in range(count):
                    self.black[s][bpool.pop()] += 1
        if centre is None:
            self.centre = [pool.pop() for _ in range(n + 1)]
        self.deck = pool + deck_top[::-1]
        self.bdeck = bpool + black_top[::-1]
        if first is not None:
            self._set_first(first)
            self.actor = first
        if end_left is not None:
            if not 0 <= end_left <= len(self.deck):
                raise ValueError(f"end_left must be in [0, {len(self.deck)}]")
            self.end_left = end_left
        self._reload_fields()
        self._not_replayable = "its cards were arranged with arrange()"

    # ----- copies ----------------------------------------------------------------------------
    def _resample(self, player: int, rng: random.Random) -> HumbleSmuggleState:
        """Redraw what ``player`` cannot see, consistently with what it saw: the white deck's
        order and the cards of other hands that nobody saw drafted; which card of each other
        seat's hand lies face down; other seats' black hands (until they are shown for final
        scoring), the kinds of the Play cards they attached (still Play cards), their face-down
        discards and the black deck; the RNG."""
        new = self.clone()
        new.rng = self._fresh_rng(rng)
        n = self.n
        others = [q for q in range(n) if q != player]
        # White: unknown hand cards of the others and the deck form one pool.
        pool = list(self.deck)
        unknown = {}
        for q in others:
            held = self.hands[q] + ([self.sel[q]] if self.sel[q] else [])
            rest = list(held)
            for c in self.known[q]:
                rest.remove(c)
            unknown[q] = len(rest)
            pool += rest
        rng.shuffle(pool)
        for q in others:
            held = list(self.known[q]) + [pool.pop() for _ in range(unknown[q])]
            if self.sel[q]:
                new.sel[q] = held.pop(rng.randrange(len(held)))
            new.hands[q] = held
        new.deck = pool
        # Black: the others' hands, their attached (unrevealed) Play cards, their face-down
        # discards and the deck form one pool; attached slots take Play kinds only.
        # At the end every black hand has been shown for final scoring: those stay.
        redraw = others if self.phase != OVER else []
        bpool = list(self.bdeck)
        for q in redraw:
            bpool += [k for k in range(NK) for _ in range(self.black[q][k])]
        slots = []
        for t in range(n):
            for i, (attacher, kind) in enumerate(self.attached[t]):
                if attacher != player:
                    slots.append((t, i))
                    bpool.append(kind)
        hidden_slots = [i for i, (q, _) in enumerate(self.bdisc_hidden) if q != player]
        bpool += [self.bdisc_hidden[i][1] for i in hidden_slots]
        rng.shuffle(bpool)
        for t, i in slots:
            j = next(j for j, k in enumerate(bpool) if k < NP)
            new.attached[t][i] = (self.attached[t][i][0], bpool.pop(j))
        for q in redraw:
            count = sum(self.black[q])
            new.black[q] = [0] * NK
            for _ in range(count):
                new.black[q][bpool.pop()] += 1
        for i in hidden_slots:
            new.bdisc_hidden[i] = (self.bdisc_hidden[i][0], bpool.pop())
        new.bdeck = bpool
        new._reload_fields()
        return new


def _top(cands, k: int, by_values: bool) -> set:
    """Ids of the cards discarded as "the k highest" with tie groups (R3.3): whole groups from
    the top until at least k cards (or, by values, the k highest distinct values)."""
    if k <= 0 or not cands:
        return set()
    values = sorted({c[0] for c in cands}, reverse=True)
    if by_values:
        threshold = values[min(k, len(values)) - 1]
    else:
        taken = 0
        threshold = values[-1]
        for value in values:
            taken += sum(1 for c in cands if c[0] == value)
            if taken >= k:
                threshold = value
                break
    return {i for value, i in cands if value >= threshold}
