"""Named integer fields in one byte buffer: the state's facts, ready to be gathered.

A game declares its small-integer facts (counts, flags, one-hot seats) as named windows of one
``bytearray``. The rules read and write the windows like lists (``memoryview`` slices), and the
observation encoder turns the whole buffer into an observation with one numpy gather and one
multiply, instead of assembling Python lists every step. A trailing zero byte gives gathers a
place to read "nothing" from.
"""

from __future__ import annotations


class ByteFields:
    def __init__(self) -> None:
        self.offsets: dict[str, tuple[int, int]] = {}
        self.size = 0

    def add(self, name: str, size: int) -> ByteFields:
        if name in self.offsets:
            raise ValueError(f"field {name!r} declared twice")
        self.offsets[name] = (self.size, size)
        self.size += size
        return self

    @property
    def zero(self) -> int:
        """Index of the always-zero byte after the last field."""
        return self.size

    def start(self, name: str) -> int:
        return self.offsets[name][0]

    def new_buffer(self) -> bytearray:
        return bytearray(self.size + 1)

    def views(self, buf: bytearray) -> dict[str, memoryview]:
        mv = memoryview(buf)
        return {name: mv[a : a + size] for name, (a, size) in self.offsets.items()}


def set_one_hot(view: memoryview, old: int, new: int) -> None:
    """Move a one-hot flag from ``old`` to ``new``; -1 means "no one"."""
    if old >= 0:
        view[old] = 0
    if new >= 0:
        view[new] = 1
