"""CIQ's observation: named pieces, seat-relative (the observer is seat 0, then clockwise).

Everything here is public or known to the observer: its own hand and the exact contents of its
own Export pile (it saw every card go in and come out), every Tolerance pile (top card and
contents) and Import pile (both face up), the size of every pile and hand and of the Stock, for
other seats the cards everyone saw go into their Export piles and not come out (an upper bound:
their own draws from it are private), the cards on the table face up, the cards the observer
cannot place, and the compound move in progress (shipment so far, Sabotage card, smuggled card).
The Stock's contents and order, other players' hands, which of the cards seen going into another
Export pile are still there, and the state's RNG never enter.

Speed: the state keeps its small-integer facts in one byte buffer (``CIQGame.fields``), in
absolute seat order. An observation is one numpy gather (a precomputed index per observer does
the seat rotation and picks the observer's private fields) and one multiply by a per-position
scale; pile sizes, which can exceed a byte, are 16-bit counters gathered the same way.
"""

from __future__ import annotations

import numpy as np

from ...core.fields import GatherTable
from ...core.layout import ObservationLayout, Piece
from .actions import CARD_BITS, NUM_KINDS
from .game import CIQGame
from .state import CIQStateBase
from .vocab import HAND_SCALE, NUM_PHASES, PILE_SCALE, SHIP_FLAGS, TOLERANCE_SCALE

INF = float("inf")
SEATS = "one-hot, seat-relative (0 = you, then clockwise)"
KINDS = "per card kind (clubs 2..A, diamonds, hearts, spades, then the Joker), count / copies of that kind in play"
CARD = "suit one-hot (clubs, diamonds, hearts, spades) then rank one-hot (2 .. A)"
# Pieces written as floats after the gather (sizes can exceed a byte), in layout order.
FLOAT_PIECES = ("hand_size", "import_size", "export_size", "tolerance_size", "stock", "turns")


def build_layout(game: CIQGame) -> ObservationLayout:
    """The pieces, each declared once: its meaning and bounds, and where it is gathered from (the
    byte field, the seat rotation, the scale); the state's observed byte fields are made from them."""
    n = game.num_players
    per_kind = tuple(1.0 / c for c in game.kind_counts)  # a count over the copies of its kind in play
    return ObservationLayout([*_turn_pieces(n, per_kind), *_pile_pieces(n, per_kind), *_move_pieces(per_kind)])


def _turn_pieces(n: int, per_kind: tuple[float, ...]) -> list[Piece]:
    # the sizes (hand_size .. turns) are written as floats after the gather: they can exceed a byte
    return [
        Piece(
            "phase",
            NUM_PHASES,
            "decision in progress: choose an action, open a sabotage or shipment "
            "(target chosen), second sabotage card, ship after the sabotage or stop, shipping, "
            "target fires or keeps its customs worker, shipper transfers cards from hand",
            source="phase",
        ),
        Piece("turn", n, f"whose turn it is, {SEATS}", source="turn", seats="rotated"),
        Piece(
            "target",
            n,
            f"the opponent being sabotaged / shipped to this turn, {SEATS}",
            source="target",
            seats="rotated",
        ),
        Piece("my_hand", NUM_KINDS, f"your hand, {KINDS}", source="hand", seats="own", scale=per_kind),
        Piece("hand_size", n, "cards in hand per seat / 7 (seat-relative)", 0.0, INF),
        Piece("import_size", n, "cards in each Import pile / 54 (seat-relative)", 0.0, INF),
        Piece("export_size", n, "cards in each Export pile / 54 (seat-relative)", 0.0, INF),
        Piece("tolerance_size", n, "cards in each Tolerance pile / 10 (seat-relative)", 0.0, INF),
        Piece("stock", 1, "cards left in the Stock / all cards"),
        Piece("turns", 1, "turns played / the turn limit (/ 1000 without a limit)", 0.0, INF),
    ]


def _pile_pieces(n: int, per_kind: tuple[float, ...]) -> list[Piece]:
    return [
        Piece(
            "tolerance_top",
            n * CARD_BITS,
            f"top card of each Tolerance pile (the Import Tolerance), seat-major: {CARD}; all 0 = no Tolerance pile",
            source="tolerance_top",
            seats="rotated_rows",
        ),
        Piece(
            "tolerance_cards",
            n * NUM_KINDS,
            f"every card in each Tolerance pile, seat-major, {KINDS}",
            source="tolerance",
            seats="rotated_rows",
            scale=per_kind * n,
        ),
        Piece(
            "import_cards",
            n * NUM_KINDS,
            f"each Import pile (face up), seat-major, {KINDS}",
            source="import",
            seats="rotated_rows",
            scale=per_kind * n,
        ),
        Piece(
            "export_cards",
            n * NUM_KINDS,
            "seat 0: the exact contents of your Export pile; other seats: the cards everyone saw go "
            f"into their Export pile and not come out (an upper bound), seat-major, {KINDS}",
            source=("export", "export_public"),
            seats="own_then_rotated_rows",
            scale=per_kind * n,
        ),
    ]


def _move_pieces(per_kind: tuple[float, ...]) -> list[Piece]:
    return [
        Piece(
            "public_cards",
            NUM_KINDS,
            f"every card face up on the table (Tolerance and Import piles), {KINDS}",
            source="public",
            scale=per_kind,
        ),
        Piece(
            "unseen",
            NUM_KINDS,
            f"cards you cannot place (Stock, other hands, other Export piles): all cards minus your hand, "
            f"your Export pile and the face-up cards, {KINDS}",
            source="unseen",
            seats="own",
            scale=per_kind,
        ),
        Piece("shipment", NUM_KINDS, f"cards shipped so far this turn, {KINDS}", source="shipment", scale=per_kind),
        Piece(
            "shipment_last",
            CARD_BITS,
            f"the shipped card the next one must match: {CARD}; 0 after a Joker",
            source="shipment_last",
        ),
        Piece(
            "shipment_flags",
            SHIP_FLAGS,
            "1 if: the last card was a Joker (the next is bribed), an Illegal card "
            "was smuggled (the shipment is over), the target fired its customs worker",
            source="shipment_flags",
        ),
        Piece(
            "sabotage_card",
            NUM_KINDS,
            "the first card of a Sabotage in progress, one-hot per card kind",
            source="sabotage",
        ),
        Piece("smuggled", CARD_BITS, f"the smuggled Illegal card: {CARD}", source="smuggled"),
    ]


# Pieces written as floats after the gather (sizes can exceed a byte), in layout order.
FLOAT_PIECES = ("hand_size", "import_size", "export_size", "tolerance_size", "stock", "turns")


class CIQEncoder:
    """The gather table of the pieces' declarations for one game (one player count); the pile
    sizes and counters are written after the gather."""

    def __init__(self, game: CIQGame):
        n = self.n = game.num_players
        layout = game.observation_layout
        table = GatherTable(layout, game.fields, n)
        self.scale = table.scale
        first, last = layout.slice(FLOAT_PIECES[0]), layout.slice(FLOAT_PIECES[-1])
        # hand, import, export, tolerance sizes per seat, then the Stock size and turns played:
        # 16-bit counters (``CIQStateBase.sbuf``), gathered seat-relative like the bytes
        self.float_sl = slice(first.start, last.stop)
        self.float_scale = np.array(
            [1 / HAND_SCALE] * n
            + [1 / PILE_SCALE] * (2 * n)
            + [1 / TOLERANCE_SCALE] * n
            + [1 / game.total_cards, 1 / (game.config.turn_limit or 1000)],
            np.float32,
        )
        self._rows = [table.row(p) for p in range(n)]
        self._size_rows = [
            np.array([b * n + (p + i) % n for b in range(4) for i in range(n)] + [4 * n, 4 * n + 1], np.intp)
            for p in range(n)
        ]

    def encode(self, state: CIQStateBase, player: int) -> np.ndarray:
        """The observation of ``player``, a valid seat (core's ``State.observation`` checks it)."""
        obs = state.np_buf[self._rows[player]] * self.scale
        np.multiply(state.np_sizes[self._size_rows[player]], self.float_scale, out=obs[self.float_sl])
        return obs
