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

from ...core.fields import GatherTable
from ...core.layout import ObservationLayout, Piece
from .actions import FIRST_BUSINESS, FIRST_HASSLE, KIND_NAMES, NUM_BUSINESSES, NUM_HASSLES, NUM_KINDS
from .game import IllegalGame
from .state import IllegalStateBase
from .vocab import EUROS, HAND_SCALE, LOST_TURNS_SCALE, NUM_PHASES, PHASE_NAMES

INF = float("inf")
SEATS = "one-hot, seat-relative (0 = you, then clockwise)"
SEATWISE = "per seat (seat-relative, seat-major)"
KINDS = "per card kind / cards of that kind"


def build_layout(game: IllegalGame) -> ObservationLayout:
    """The pieces, each declared once: its meaning and bounds, and where it is gathered from (the
    byte field, the seat rotation, the scale); the state's byte fields are made from them."""
    n = game.num_players
    per_kind = tuple(1.0 / c for c in game.kind_counts)
    return ObservationLayout([*_seat_pieces(game, n, per_kind), *_turn_pieces(game, n, per_kind)])


def _seat_pieces(game: IllegalGame, n: int, per_kind: tuple[float, ...]) -> list[Piece]:
    """The decision, and every seat's market, hassle, table, hand and what you know of it."""
    businesses = ", ".join(KIND_NAMES[FIRST_BUSINESS : FIRST_BUSINESS + NUM_BUSINESSES])
    hassles = ", ".join(KIND_NAMES[FIRST_HASSLE : FIRST_HASSLE + NUM_HASSLES])
    per_business = tuple(1.0 / game.kind_counts[FIRST_BUSINESS + b] for b in range(NUM_BUSINESSES))
    return [
        Piece("phase", NUM_PHASES, "decision in progress: " + ", ".join(PHASE_NAMES[:NUM_PHASES]), source="phase"),
        Piece("active", n, f"the player whose turn it is, {SEATS}", source="active", seats="rotated"),
        Piece("decider", n, f"the player deciding now, {SEATS}", source="decider", seats="rotated"),
        Piece(
            "my_hand",
            NUM_KINDS,
            f"your hand, {KINDS} (order: " + ", ".join(KIND_NAMES) + ")",
            source="hands",
            seats="own",
            scale=per_kind,
        ),
        Piece("market", n, "1 if the seat has a Market Open (seat-relative)", source="market", seats="rotated"),
        Piece(
            "hassle",
            n * NUM_HASSLES,
            f"{SEATWISE}: the hassle on its Market Open, one-hot ({hassles})",
            source="hassle",
            seats="rotated_rows",
        ),
        Piece(
            "table",
            n * NUM_BUSINESSES,
            f"{SEATWISE}: businesses on its table, count / cards of that business ({businesses})",
            source="table",
            seats="rotated_rows",
            scale=per_business * n,
        ),
        *_hand_pieces(n, per_kind),
    ]


def _hand_pieces(n: int, per_kind: tuple[float, ...]) -> list[Piece]:
    """Every seat's hand size and lost turns, the open hands, what you know of hands, your pass."""
    return [
        Piece("hand_size", n, "cards in hand per seat / 7", 0.0, INF, "hand_size", "rotated", HAND_SCALE),
        Piece(
            "lost_turns", n, "turns each seat still has to sit out / 2", 0.0, INF, "skip", "rotated", LOST_TURNS_SCALE
        ),
        Piece(
            "open_hands",
            n * NUM_KINDS,
            f"{SEATWISE}: the hand of a seat under Tax Inspection (open), {KINDS}; 0 if closed",
            source="hands",
            seats="open_rows",
            scale=per_kind * n,
        ),
        Piece(
            "known",
            n * NUM_KINDS,
            f"{SEATWISE}: cards you know are in that seat's hand (you passed or traded them, or saw the hand open, and have not seen them leave), {KINDS}",
            source="known",
            seats="others_rows",
            scale=per_kind * n,
        ),
        Piece(
            "my_pass",
            NUM_KINDS,
            "the card you chose to pass left, not yet passed (one-hot)",
            source="pending",
            seats="own",
        ),
    ]


def _turn_pieces(game: IllegalGame, n: int, per_kind: tuple[float, ...]) -> list[Piece]:
    """The piles, the card being resolved, the turn's slots, the trade, the hands played."""
    cards = sum(game.kind_counts)
    return [
        Piece("discard", NUM_KINDS, f"the discard pile, {KINDS}", source="discard", scale=per_kind),
        Piece("deck", 1, f"cards left in the stock / {cards}", source="deck", scale=1.0 / cards),
        Piece("card", NUM_KINDS, "the card being resolved (one-hot)", source="card"),
        Piece("target", n, f"its target, {SEATS}", source="target", seats="rotated"),
        Piece("business", NUM_BUSINESSES, "the business being taken (one-hot)", source="business"),
        Piece("slots", 2, "this turn: the play is made; the extra legal business is played", source="slots"),
        Piece("magnum", 1, "1 while the Magnum's target (a hassle) is being chosen", source="magnum"),
        Piece("window", 2, "Magnum reaction window open on: a takeover, a hassle", source="window"),
        Piece(
            "trade_give", NUM_KINDS, f"cards offered in the trade being made, {KINDS}", source="give", scale=per_kind
        ),
        Piece("trade_want", NUM_KINDS, f"cards asked for in return, {KINDS}", source="want", scale=per_kind),
        Piece("trade_partner", n, f"the player asked to trade, {SEATS}", source="partner", seats="rotated"),
        Piece(
            "hands_played",
            1,
            "hands finished / max_hands (multi-hand games)",
            source="hands_played",
            scale=1.0 / game.config.max_hands,
        ),
        # written as floats after the gather: Euros do not fit a byte
        Piece("totals", n, "Euros from finished hands / 100,000, per seat (multi-hand games)", -INF, INF),
    ]


class IllegalEncoder:
    """The gather table of the pieces' declarations for one game, its rows made per observer and
    open-hand set (``open_mask``, the variant) when first needed; totals written after it."""

    def __init__(self, game: IllegalGame):
        self.n = game.num_players
        self.layout = game.observation_layout
        self.totals_slice = self.layout.slice("totals")
        self.table = GatherTable(self.layout, game.fields, self.n)
        self.scale = self.table.scale
        self._cache = self.table.cache

    def encode(self, state: IllegalStateBase, player: int) -> np.ndarray:
        """The observation of ``player``, a valid seat (core's ``State.observation`` checks it)."""
        key = (player, state.open_mask)
        index = self._cache.get(key)
        if index is None:
            index = self.table.row(player, state.open_mask)
        obs = state.np_buf[index] * self.scale
        if state.rounds_played:
            totals = state.totals
            obs[self.totals_slice] = [t / EUROS for t in totals[player:] + totals[:player]]
        return obs
