"""Named-pieces observation layouts (OpenSpiel's observer "pieces").

A layout is an ordered list of :class:`Piece` objects. It fixes each piece's offset in the flat
float32 vector, so encoders, tests, bots and documentation all address pieces by name, and
``layout.table()`` renders the documentation straight from the code.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# How a piece gathered from a byte-buffer state (``core.fields``) reads its source field for the
# observer, seat p of n, where k is the piece's size:
SEAT_MODES = {
    "all": "the field as it is (size k)",
    "rotated": "one value per seat, rotated so the observer's comes first (size n)",
    "own": "the observer's row of a per-seat field (size n * k)",
    "own_rotated": "the observer's row of a seat-by-seat field of k / n values per seat, rotated (size n * k)",
    "rotated_grid": "a seat-by-seat field, both seats rotated (size n * n)",
    "rotated_rows": "one row of k / n values per seat, rows rotated (size k)",
    "own_flags": "the observer's flag in each of the source fields, one-hot per seat (each of size n)",
    "own_then_rotated_rows": "like rotated_rows, the observer's row from the first source field and the "
    "others' rows from the second (each of size k)",
    "others_rows": "the observer's row of a seat-by-seat field of k / n values, rows rotated, its own row "
    "zero (size n * k)",
    "open_rows": "like rotated_rows, but a seat's row only while its bit is set in the variant (size k)",
}


@dataclass(frozen=True)
class Piece:
    """One named piece of an observation: its size, meaning and bounds (they write the docs), and,
    for a game whose states keep their facts in byte fields (``core.fields.ByteGame``), how it is
    gathered: ``source``, the byte field (or fields, for ``own_flags``) it reads, None for a piece
    the game writes itself; ``seats``, how the observer's seat picks and rotates it
    (``SEAT_MODES``); ``scale``, the factor (or one per position) the byte is multiplied by; and
    ``variant``: gathered only in that variant of the game's gather table (zero in the others),
    for a piece only some observers see (Smuggle: 1 = the observer holds the live hand); an
    ``open_rows`` piece reads the variant as a bit mask of seats instead (Illegal: open hands). The
    piece is the one declaration: the byte fields, the gather indices and the scales are made
    from it."""

    name: str
    size: int
    description: str
    low: float = 0.0
    high: float = 1.0
    source: str | tuple[str, ...] | None = None
    seats: str = "all"
    scale: float | tuple[float, ...] = 1.0
    variant: int | None = None

    def __post_init__(self) -> None:
        if self.seats not in SEAT_MODES:
            raise ValueError(f"piece {self.name!r}: seats must be one of {sorted(SEAT_MODES)}, got {self.seats!r}")
        if isinstance(self.scale, tuple) and len(self.scale) != self.size:
            raise ValueError(f"piece {self.name!r}: {len(self.scale)} scales for {self.size} positions")


class ObservationLayout:
    def __init__(self, pieces: list[Piece]):
        if not pieces:
            raise ValueError("an observation layout needs at least one piece")
        for piece in pieces:
            if piece.low > piece.high:
                raise ValueError(f"piece {piece.name!r} has low {piece.low} > high {piece.high}")
        names = [p.name for p in pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate piece names in layout: {names}")
        self.pieces = tuple(pieces)
        self._slices: dict[str, slice] = {}
        offset = 0
        for piece in pieces:
            if piece.size <= 0:
                raise ValueError(f"piece {piece.name!r} has size {piece.size}")
            self._slices[piece.name] = slice(offset, offset + piece.size)
            offset += piece.size
        self.size = offset
        self.low = np.concatenate([np.full(p.size, p.low, np.float32) for p in pieces])
        self.high = np.concatenate([np.full(p.size, p.high, np.float32) for p in pieces])

    def __len__(self) -> int:
        return self.size

    def __contains__(self, name: str) -> bool:
        return name in self._slices

    def slice(self, name: str) -> slice:
        try:
            return self._slices[name]
        except KeyError:
            raise KeyError(f"no piece {name!r}; pieces are {list(self._slices)}") from None

    def get(self, observation: np.ndarray, name: str) -> np.ndarray:
        """The values of one piece inside a flat observation vector."""
        return observation[..., self.slice(name)]

    def split(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        return {name: observation[..., s] for name, s in self._slices.items()}

    def table(self) -> str:
        """A Markdown table of the layout: offset, size, name, bounds, meaning."""
        rows = ["| offset | size | piece | range | meaning |", "|---:|---:|---|---|---|"]
        for piece in self.pieces:
            s = self._slices[piece.name]
            rng = f"[{_fmt(piece.low)}, {_fmt(piece.high)}]"
            rows.append(f"| {s.start} | {piece.size} | `{piece.name}` | {rng} | {piece.description} |")
        rows.append(f"| | **{self.size}** | total | | |")
        return "\n".join(rows)


def _fmt(x: float) -> str:
    if np.isinf(x):
        return "-inf" if x < 0 else "inf"
    return f"{x:g}"
