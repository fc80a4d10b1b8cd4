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

from ...core.fields import ByteFields
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
    n = game.num_players
    return ObservationLayout(
        [
            Piece(
                "phase",
                NUM_PHASES,
                "decision in progress: choose an action, open a sabotage or shipment "
                "(target chosen), second sabotage card, ship after the sabotage or stop, shipping, "
                "target fires or keeps its customs worker, shipper transfers cards from hand",
            ),
            Piece("turn", n, f"whose turn it is, {SEATS}"),
            Piece("target", n, f"the opponent being sabotaged / shipped to this turn, {SEATS}"),
            Piece("my_hand", NUM_KINDS, f"your hand, {KINDS}"),
            Piece("hand_size", n, "cards in hand per seat / 7 (seat-relative)", 0.0, INF),
            Piece("import_size", n, "cards in each Import pile / 54 (seat-relative)", 0.0, INF),
            Piece("export_size", n, "cards in each Export pile / 54 (seat-relative)", 0.0, INF),
            Piece("tolerance_size", n, "cards in each Tolerance pile / 10 (seat-relative)", 0.0, INF),
            Piece("stock", 1, "cards left in the Stock / all cards"),
            Piece("turns", 1, "turns played / the turn limit (/ 1000 without a limit)", 0.0, INF),
            Piece(
                "tolerance_top",
                n * CARD_BITS,
                f"top card of each Tolerance pile (the Import Tolerance), seat-major: {CARD}; all 0 = no Tolerance pile",
            ),
            Piece("tolerance_cards", n * NUM_KINDS, f"every card in each Tolerance pile, seat-major, {KINDS}"),
            Piece("import_cards", n * NUM_KINDS, f"each Import pile (face up), seat-major, {KINDS}"),
            Piece(
                "export_cards",
                n * NUM_KINDS,
                "seat 0: the exact contents of your Export pile; other seats: the cards everyone saw go "
                f"into their Export pile and not come out (an upper bound), seat-major, {KINDS}",
            ),
            Piece("public_cards", NUM_KINDS, f"every card face up on the table (Tolerance and Import piles), {KINDS}"),
            Piece(
                "unseen",
                NUM_KINDS,
                f"cards you cannot place (Stock, other hands, other Export piles): all cards minus your hand, "
                f"your Export pile and the face-up cards, {KINDS}",
            ),
            Piece("shipment", NUM_KINDS, f"cards shipped so far this turn, {KINDS}"),
            Piece("shipment_last", CARD_BITS, f"the shipped card the next one must match: {CARD}; 0 after a Joker"),
            Piece(
                "shipment_flags",
                SHIP_FLAGS,
                "1 if: the last card was a Joker (the next is bribed), an Illegal card "
                "was smuggled (the shipment is over), the target fired its customs worker",
            ),
            Piece("sabotage_card", NUM_KINDS, "the first card of a Sabotage in progress, one-hot per card kind"),
            Piece("smuggled", CARD_BITS, f"the smuggled Illegal card: {CARD}"),
        ]
    )


# Pieces of one block per seat, rotated so the observer's block comes first.
_PER_SEAT = {
    "turn": ("turn", 1),
    "target": ("target", 1),
    "tolerance_top": ("tolerance_top", CARD_BITS),
    "tolerance_cards": ("tolerance", NUM_KINDS),
    "import_cards": ("import", NUM_KINDS),
}
_DIRECT = {
    "phase": "phase",
    "public_cards": "public",
    "shipment": "shipment",
    "shipment_last": "shipment_last",
    "shipment_flags": "shipment_flags",
    "sabotage_card": "sabotage",
    "smuggled": "smuggled",
}
_COUNTS = {"my_hand", "tolerance_cards", "import_cards", "export_cards", "public_cards", "unseen", "shipment"}


class CIQEncoder:
    """Precomputed gather indices and scales for one game (one player count)."""

    def __init__(self, game: CIQGame):
        n = self.n = game.num_players
        layout, fields = game.observation_layout, game.fields
        zero = fields.zero
        self.gather = np.full((n, layout.size), zero, np.intp)
        self.scale = np.ones(layout.size, np.float32)
        per_kind = np.array([1.0 / c for c in game.kind_counts], np.float32)
        for piece in layout.pieces:
            sl = layout.slice(piece.name)
            name = piece.name
            if name in _COUNTS:
                self.scale[sl] = np.tile(per_kind, piece.size // NUM_KINDS)
            for p in range(n):
                self.gather[p, sl] = self._source(name, piece.size, fields, p)
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
        self._rows = [self.gather[p] for p in range(n)]
        self._size_rows = [
            np.array([b * n + (p + i) % n for b in range(4) for i in range(n)] + [4 * n, 4 * n + 1], np.intp)
            for p in range(n)
        ]

    def _source(self, name: str, size: int, fields: ByteFields, p: int) -> list[int]:
        n, zero = self.n, fields.zero
        if name in FLOAT_PIECES:
            return [zero] * size  # written after the gather
        if name in ("my_hand", "unseen"):
            start = fields.start("hand" if name == "my_hand" else "unseen") + p * NUM_KINDS
            return list(range(start, start + NUM_KINDS))
        if name == "export_cards":
            out: list[int] = []
            for i in range(n):
                q = (p + i) % n
                field = "export" if i == 0 else "export_public"
                start = fields.start(field) + q * NUM_KINDS
                out += range(start, start + NUM_KINDS)
            return out
        if name in _PER_SEAT:
            field, block = _PER_SEAT[name]
            start = fields.start(field)
            return [start + ((p + i // block) % n) * block + i % block for i in range(size)]
        start = fields.start(_DIRECT[name])
        return list(range(start, start + size))

    def encode(self, state: CIQStateBase, player: int) -> np.ndarray:
        """The observation of ``player``, a valid seat (core's ``State.observation`` checks it)."""
        obs = state.np_buf[self._rows[player]] * self.scale
        np.multiply(state.np_sizes[self._size_rows[player]], self.float_scale, out=obs[self.float_sl])
        return obs
