"""Named integer fields in one byte buffer: the state's facts, ready to be gathered.

A game declares its small-integer facts (counts, flags, one-hot seats) as named windows of one
``bytearray``. The rules read and write the windows like lists (``memoryview`` slices), and the
observation encoder turns the whole buffer into an observation with one numpy gather and one
multiply, instead of assembling Python lists every step. A trailing zero byte gives gathers a
place to read "nothing" from.

:class:`ByteState` is the State base of the games built this way: it owns the generic ``clone``
and the phase setter; ``set_one_hot`` moves any other one-hot flag. Seats and phases stay plain
attributes with small setters rather than descriptors: they are read several times a decision,
and on CPython 3.11 a class-level data descriptor makes every read about twice as slow.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterable
from functools import cached_property
from typing import Any, ClassVar, TypeVar

import numpy as np

from .game import Game, State, copy_rng


class ByteFields:
    def __init__(self, sizes: Iterable[tuple[str, int]] = ()) -> None:
        self.offsets: dict[str, tuple[int, int]] = {}
        self.size = 0
        for name, size in sizes:
            self.add(name, size)

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


class ByteGame(Game):
    """A Game whose states keep their facts in ``ByteFields``: it declares the fields once
    (``_field_sizes``, name and size in order) and core builds and caches the layout of them."""

    @abstractmethod
    def _field_sizes(self) -> Iterable[tuple[str, int]]:
        """The state's byte fields, (name, size) in buffer order."""

    @cached_property
    def fields(self) -> ByteFields:
        """The state's small-integer facts, in one buffer the encoder gathers from."""
        return ByteFields(self._field_sizes())


G = TypeVar("G", bound=Game)
S = TypeVar("S", bound="ByteState[Any]")


class ByteState(State[G]):
    """A State whose small facts live in one ``bytearray`` (``buf``, laid out by ``game.fields``)
    that the rules use through list-like views bound in ``_bind``.

    ``clone`` is generic: the buffer is copied and re-bound, the RNG and history copied, and the
    mutable containers named in ``_lists`` (copied one level deep) and ``_nested`` (lists of lists,
    two levels) copied too; everything else is shared or immutable.
    """

    _lists: ClassVar[tuple[str, ...]] = ()
    _nested: ClassVar[tuple[str, ...]] = ()
    _legal: tuple[int, ...] | None = None
    buf: bytearray
    np_buf: np.ndarray

    phase: int
    f_phase: memoryview
    _over: ClassVar[int]  # the phase "game over", one past the last flag of ``f_phase``

    def _set_phase(self, phase: int) -> None:
        """Set ``phase`` and move its one-hot flag in ``f_phase`` (game over, ``_over``, sets no
        flag); drops a cached legal-action tuple (``_legal``)."""
        f, over, old = self.f_phase, self._over, self.phase
        if old < over:
            f[old] = 0
        if phase < over:
            f[phase] = 1
        self.phase = phase
        self._legal = None

    @abstractmethod
    def _bind(self) -> None:
        """Bind the views of ``self.buf`` (and ``self.np_buf``, a numpy view for the encoder)."""

    def clone(self: S) -> S:
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        new.buf = bytearray(self.buf)
        new._bind()
        new.rng = copy_rng(self.rng)
        new.history = list(self.history)
        for name in self._lists:
            d[name] = list(d[name])
        for name in self._nested:
            d[name] = [list(x) for x in d[name]]
        return new

    def _fresh_rng(self, rng: random.Random) -> random.Random:
        """The RNG of a resampled world: future chance is hidden too, so it is redrawn."""
        return random.Random(rng.getrandbits(64))
