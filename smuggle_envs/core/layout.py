"""Named-pieces observation layouts (OpenSpiel's observer "pieces").

A layout is an ordered list of :class:`Piece` objects. It fixes each piece's offset in the flat
float32 vector, so encoders, tests, bots and documentation all address pieces by name, and
``layout.table()`` renders the documentation straight from the code.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Piece:
    name: str
    size: int
    description: str
    low: float = 0.0
    high: float = 1.0


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
