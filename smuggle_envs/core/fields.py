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
from .layout import ObservationLayout, Piece


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


def _sources(piece: Piece) -> tuple[str, ...]:
    source = piece.source
    return () if source is None else (source,) if isinstance(source, str) else source


def _field_size(piece: Piece, n: int) -> int:
    """The size of the byte field a piece reads, from its size and seat mode."""
    return {"own": n * piece.size, "own_rotated": n * piece.size, "own_flags": n, "others_rows": n * piece.size}.get(
        piece.seats, piece.size
    )


def fields_of(layout: ObservationLayout, n: int) -> list[tuple[str, int]]:
    """The byte fields a layout's pieces read, (name, size) in the order the pieces first name
    them: a field read by several pieces is declared once, and they must agree on its size."""
    sizes: dict[str, int] = {}
    for piece in layout.pieces:
        for name in _sources(piece):
            size = _field_size(piece, n)
            if sizes.setdefault(name, size) != size:
                raise ValueError(f"byte field {name!r} is {sizes[name]} long for one piece, {size} for {piece.name!r}")
    return list(sizes.items())


def _indices(piece: Piece, fields: ByteFields, n: int, p: int, variant: int) -> list[int]:
    """Where the observer ``p`` (of ``n`` seats) reads each position of ``piece`` in the buffer,
    in gather-table ``variant``."""
    k, mode, zero = piece.size, piece.seats, fields.zero
    if piece.source is None or (piece.variant is not None and piece.variant != variant):
        return [zero] * k
    if mode == "own_flags":
        return [fields.start(name) + p for name in _sources(piece)]
    start = fields.start(_sources(piece)[0])
    if mode == "others_rows":
        r = k // n
        seats = [(p + i // r) % n for i in range(k)]
        return [zero if q == p else start + (p * n + q) * r + i % r for i, q in enumerate(seats)]
    if mode == "open_rows":
        r = k // n
        seats = [(p + i // r) % n for i in range(k)]
        return [start + q * r + i % r if variant >> q & 1 else zero for i, q in enumerate(seats)]
    if mode == "rotated":
        return [start + (p + i) % n for i in range(k)]
    if mode == "own":
        return [start + p * k + j for j in range(k)]
    if mode == "own_rotated":
        r = k // n
        return [start + (p * n + (p + i // r) % n) * r + i % r for i in range(k)]
    if mode == "rotated_grid":
        return [start + ((p + i // n) % n) * n + (p + i % n) % n for i in range(k)]
    if mode in ("rotated_rows", "own_then_rotated_rows"):
        r = k // n
        other = fields.start(_sources(piece)[-1])  # the second source (the same one for rotated_rows)
        return [(start if i < r else other) + ((p + i // r) % n) * r + i % r for i in range(k)]
    return list(range(start, start + k))


class GatherTable:
    """The gather indices and the scale of a layout whose pieces say where they come from (see
    ``Piece``): ``row(p, variant)`` are observer ``p``'s indices into the byte buffer (made once,
    then kept in ``cache``), and an observation is ``np_buf[row(p, variant)] * scale``. A piece
    with no source, or outside its variant, reads the always-zero byte (the game writes the first
    kind after the gather)."""

    def __init__(self, layout: ObservationLayout, fields: ByteFields, n: int):
        self.layout, self.fields, self.n = layout, fields, n
        self.scale = np.ones(layout.size, np.float32)
        for piece in layout.pieces:
            self.scale[layout.slice(piece.name)] = piece.scale
        self.cache: dict[tuple[int, int], np.ndarray] = {}

    def row(self, p: int, variant: int = 0) -> np.ndarray:
        index = self.cache.get((p, variant))
        if index is None:
            parts = [_indices(piece, self.fields, self.n, p, variant) for piece in self.layout.pieces]
            index = self.cache[p, variant] = np.array([i for part in parts for i in part], np.intp)
        return index


def set_one_hot(view: memoryview, old: int, new: int) -> None:
    """Move a one-hot flag from ``old`` to ``new``; -1 means "no one"."""
    if old >= 0:
        view[old] = 0
    if new >= 0:
        view[new] = 1


class ByteGame(Game):
    """A Game whose states keep their facts in ``ByteFields``: by default the fields its
    observation pieces read (``fields_of``, from the pieces' ``source`` and ``seats``), so that
    each piece is declared once; a game whose pieces do not say where they come from lists its
    fields in ``_field_sizes`` instead. Core builds and caches them."""

    def _field_sizes(self) -> Iterable[tuple[str, int]]:
        """The state's byte fields, (name, size) in buffer order."""
        return [*fields_of(self.observation_layout, self.num_players), *self._unobserved_fields()]

    def _unobserved_fields(self) -> Iterable[tuple[str, int]]:
        """Byte fields no observation piece reads (facts only the rules or the resample use),
        after the observed ones."""
        return ()

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
