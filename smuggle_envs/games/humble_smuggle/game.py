"""Humble smuggle's config (the rule variants) and ``HumbleSmuggleGame``, the game.

``HumbleSmuggleGame`` fixes once what the state, the steps and the encoder read their game through.
It sits below them, so it imports none of them: ``rules.py`` declares on it the state, the
observation layout and the encoder (``HumbleSmuggleGame.declare``), once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import product
from typing import Any

from ...core.checks import is_int
from ...core.errors import ConfigError
from ...core.fields import ByteGame
from ...core.game import GameConfig
from . import actions as A
from .actions import MAX_PLAYERS, NK, NP, W
from .data import NUM_WHITE, HumbleData, WhiteCard, load
from .vocab import (
    ADD,
    DOUBLE,
    DOUBLE_UP,
    EFFECT_CODES,
    HIGH_LOW,
    NO_SYMBOL,
    NUM_SYMBOLS,
    SAFE_ZONE,
    STANDARD,
    STAR,
    SYMBOL_UP,
    ZERO,
)


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
    """Everything a game of Humble smuggle fixes once, from its config and the card data: per white
    value its points, symbol, draws and round rule, the black cards, the symbol-set scoring
    (section 7) (its byte fields are those its observation pieces read: ``encoder.build_layout``). ``rules.py`` declares its state,
    layout and encoder."""

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

    @property
    def score_scale(self) -> float:
        return 10.0

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

    # ----- Play cards (section 5) -----------------------------------------------------------
    def effective_value(self, card: int, kinds: Iterable[int]) -> tuple[int, bool]:
        """(effective value, shielded) of the face-down white ``card`` with Play cards of the
        black ``kinds`` on it: max(0, (0 if a Zero else printed) x 2^Doubles + the sum of +/-
        cards). The one definition: the state's ``effective_value`` and the rule bot's guesses
        both read it."""
        effect, amount = self.effect, self.amount
        zero = shield = False
        doubles = add = 0
        for k in kinds:
            e = effect[k]
            if e == ADD:
                add += amount[k]
            elif e == ZERO:
                zero = True
            elif e == DOUBLE:
                doubles += 1
            else:
                shield = True
        value = (0 if zero else card) * (1 << doubles) + add
        return (value if value > 0 else 0), shield

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
