"""Illegal's observation: named pieces, seat-relative (the observer is seat 0, then clockwise).

Everything here is public or the observer's own: its hand, every table (Market Open, hassle,
businesses), hand sizes, lost turns, the hands laid open under Tax Inspection, the discard pile,
the decision in progress (card, target, business, trade offer), the cards the observer knows to
be in each other hand (passed, traded, seen open), and the card it has chosen to pass. Other
closed hands, the stock's order, the cards others chose to pass and the State's RNG never enter.

Speed: the state keeps its small-integer facts in one byte buffer (``IllegalGame.fields``), in
absolute seat order. An observation is one numpy gather from that buffer and one multiply by a
per-position scale. The gather index depends on the observer and on which hands lie open, so one
index array is built per (observer, set of open hands) the first time it is needed and cached;
the multi-hand totals, the one piece that is not a small integer, are written afterwards.
"""

from __future__ import annotations

import numpy as np

from ...core.layout import ObservationLayout, Piece
from .actions import FIRST_BUSINESS, FIRST_HASSLE, KIND_NAMES, NUM_BUSINESSES, NUM_HASSLES, NUM_KINDS
from .game import IllegalGame
from .state import IllegalStateBase
from .vocab import EUROS, HAND_SCALE, LOST_TURNS_SCALE, NUM_PHASES, PHASE_NAMES

INF = float("inf")
SEATS = "one-hot, seat-relative (0 = you, then clockwise)"


def build_layout(game: IllegalGame) -> ObservationLayout:
    n = game.num_players
    kinds = "per card kind / cards of that kind"
    seatwise = "per seat (seat-relative, seat-major)"
    businesses = ", ".join(KIND_NAMES[FIRST_BUSINESS : FIRST_BUSINESS + NUM_BUSINESSES])
    hassles = ", ".join(KIND_NAMES[FIRST_HASSLE : FIRST_HASSLE + NUM_HASSLES])
    return ObservationLayout(
        [
            Piece("phase", NUM_PHASES, "decision in progress: " + ", ".join(PHASE_NAMES[:NUM_PHASES])),
            Piece("active", n, f"the player whose turn it is, {SEATS}"),
            Piece("decider", n, f"the player deciding now, {SEATS}"),
            Piece("my_hand", NUM_KINDS, f"your hand, {kinds} (order: " + ", ".join(KIND_NAMES) + ")"),
            Piece("market", n, "1 if the seat has a Market Open (seat-relative)"),
            Piece("hassle", n * NUM_HASSLES, f"{seatwise}: the hassle on its Market Open, one-hot ({hassles})"),
            Piece(
                "table",
                n * NUM_BUSINESSES,
                f"{seatwise}: businesses on its table, count / cards of that business ({businesses})",
            ),
            Piece("hand_size", n, "cards in hand per seat / 7", 0.0, INF),
            Piece("lost_turns", n, "turns each seat still has to sit out / 2", 0.0, INF),
            Piece(
                "open_hands",
                n * NUM_KINDS,
                f"{seatwise}: the hand of a seat under Tax Inspection (open), {kinds}; 0 if closed",
            ),
            Piece(
                "known",
                n * NUM_KINDS,
                f"{seatwise}: cards you know are in that seat's hand (you passed or traded them, or saw the hand open, and have not seen them leave), {kinds}",
            ),
            Piece("my_pass", NUM_KINDS, "the card you chose to pass left, not yet passed (one-hot)"),
            Piece("discard", NUM_KINDS, f"the discard pile, {kinds}"),
            Piece("deck", 1, "cards left in the stock / 106"),
            Piece("card", NUM_KINDS, "the card being resolved (one-hot)"),
            Piece("target", n, f"its target, {SEATS}"),
            Piece("business", NUM_BUSINESSES, "the business being taken (one-hot)"),
            Piece("slots", 2, "this turn: the play is made; the extra legal business is played"),
            Piece("magnum", 1, "1 while the Magnum's target (a hassle) is being chosen"),
            Piece("window", 2, "Magnum reaction window open on: a takeover, a hassle"),
            Piece("trade_give", NUM_KINDS, f"cards offered in the trade being made, {kinds}"),
            Piece("trade_want", NUM_KINDS, f"cards asked for in return, {kinds}"),
            Piece("trade_partner", n, f"the player asked to trade, {SEATS}"),
            Piece("hands_played", 1, "hands finished / max_hands (multi-hand games)"),
            Piece("totals", n, "Euros from finished hands / 100,000, per seat (multi-hand games)", -INF, INF),
        ]
    )


# Pieces holding one value per seat, rotated so the observer comes first.
_PER_SEAT = {"active", "decider", "market", "hand_size", "lost_turns", "target", "trade_partner"}
_FIELD = {
    "lost_turns": "skip",
    "my_pass": "pending",
    "trade_give": "give",
    "trade_want": "want",
    "trade_partner": "partner",
}


class IllegalEncoder:
    """Gather indices (cached per observer and open-hand set) and scales for one game."""

    def __init__(self, game: IllegalGame):
        self.game = game
        self.n = game.num_players
        self.layout = game.observation_layout
        self.fields = game.fields
        self.totals_slice = self.layout.slice("totals")
        self.scale = np.ones(self.layout.size, np.float32)
        for piece in self.layout.pieces:
            self.scale[self.layout.slice(piece.name)] = _scale(piece.name, game)
        self._cache: dict[tuple[int, int], np.ndarray] = {}

    def gather(self, p: int, open_mask: int) -> np.ndarray:
        key = (p, open_mask)
        index = self._cache.get(key)
        if index is None:
            index = np.concatenate(
                [np.asarray(self._source(piece, p, open_mask), np.intp) for piece in self.layout.pieces]
            )
            self._cache[key] = index
        return index

    def _source(self, piece: Piece, p: int, open_mask: int) -> list[int]:
        n, f, name, zero, K = self.n, self.fields, piece.name, self.fields.zero, NUM_KINDS
        seats = [(p + i) % n for i in range(n)]
        if name == "totals":
            return [zero] * n  # written as floats after the gather
        if name == "my_hand":
            return [f.start("hands") + p * K + k for k in range(K)]
        if name == "my_pass":
            return [f.start("pending") + p * K + k for k in range(K)]
        if name == "open_hands":
            start = f.start("hands")
            return [start + q * K + k if open_mask >> q & 1 else zero for q in seats for k in range(K)]
        if name == "known":
            start = f.start("known")
            return [zero if q == p else start + (p * n + q) * K + k for q in seats for k in range(K)]
        if name == "hassle":
            start = f.start("hassle")
            return [start + q * NUM_HASSLES + h for q in seats for h in range(NUM_HASSLES)]
        if name == "table":
            start = f.start("table")
            return [start + q * NUM_BUSINESSES + b for q in seats for b in range(NUM_BUSINESSES)]
        start = f.start(_FIELD.get(name, name))
        if name in _PER_SEAT:
            return [start + q for q in seats]
        return list(range(start, start + piece.size))

    def encode(self, state: IllegalStateBase, player: int) -> np.ndarray:
        """The observation of ``player``, a valid seat (core's ``State.observation`` checks it)."""
        key = (player, state.open_mask)
        index = self._cache.get(key)
        if index is None:
            index = self.gather(player, state.open_mask)
        obs = state.np_buf[index] * self.scale
        if state.rounds_played:
            totals = state.totals
            obs[self.totals_slice] = [t / EUROS for t in totals[player:] + totals[:player]]
        return obs


def _scale(name: str, game: IllegalGame) -> float | list[float]:
    n = game.num_players
    per_kind = [1.0 / c for c in game.kind_counts]
    if name in ("my_hand", "discard", "trade_give", "trade_want"):
        return per_kind
    if name in ("open_hands", "known"):
        return per_kind * n
    if name == "table":
        return [1.0 / game.kind_counts[FIRST_BUSINESS + b] for b in range(NUM_BUSINESSES)] * n
    if name == "hand_size":
        return HAND_SCALE
    if name == "lost_turns":
        return LOST_TURNS_SCALE
    if name == "deck":
        return 1.0 / sum(game.kind_counts)
    if name == "hands_played":
        return 1.0 / game.config.max_hands
    return 1.0
