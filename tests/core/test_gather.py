"""Observation pieces declared once: a piece says where it is gathered from (``Piece.source``,
``seats``, ``scale``, ``variant``) and core makes the byte fields and the gather indices of it
(``core.fields.fields_of``, ``GatherTable``)."""

from __future__ import annotations

import numpy as np
import pytest

from smuggle_envs.core.fields import ByteFields, GatherTable, fields_of
from smuggle_envs.core.layout import SEAT_MODES, ObservationLayout, Piece

N = 3


def _row(piece: Piece, observer: int, variant: int = 0) -> list[int]:
    """The buffer positions ``observer`` reads for ``piece``, as offsets into its (only) field, or
    -1 for the always-zero byte."""
    layout = ObservationLayout([piece])
    fields = ByteFields(fields_of(layout, N))
    row = GatherTable(layout, fields, N).row(observer, variant)
    return [-1 if i == fields.zero else int(i) for i in row]


@pytest.mark.parametrize(
    ("seats", "size", "observer", "expected"),
    [
        ("all", 2, 1, [0, 1]),
        ("rotated", N, 1, [1, 2, 0]),
        ("own", 2, 1, [2, 3]),
        ("own_rotated", N, 1, [4, 5, 3]),  # row 1 of a 3 x 3 field, from seat 1 on
        ("rotated_rows", 2 * N, 2, [4, 5, 0, 1, 2, 3]),
        ("others_rows", N, 1, [-1, 5, 3]),  # the observer's own entry is zero
        ("rotated_grid", N * N, 1, [4, 5, 3, 7, 8, 6, 1, 2, 0]),
    ],
)
def test_each_seat_mode_reads_the_observer_s_view(seats, size, observer, expected):
    assert _row(Piece("x", size, "", source="f", seats=seats), observer) == expected


def test_open_rows_show_only_the_seats_in_the_variant_mask():
    piece = Piece("x", N, "", source="f", seats="open_rows")
    assert _row(piece, 0, variant=0b100) == [-1, -1, 2]
    assert _row(piece, 1, variant=0b011) == [1, -1, 0]


def test_own_flags_and_two_source_rows():
    flags = Piece("role", 2, "", source=("a", "b"), seats="own_flags")
    layout = ObservationLayout([flags])
    fields = ByteFields(fields_of(layout, N))
    assert list(GatherTable(layout, fields, N).row(2)) == [2, N + 2]
    mixed = Piece("x", N, "", source=("mine", "seen"), seats="own_then_rotated_rows")
    layout = ObservationLayout([mixed])
    fields = ByteFields(fields_of(layout, N))
    assert list(GatherTable(layout, fields, N).row(1)) == [1, N + 2, N + 0]  # own from "mine", others "seen"


def test_a_piece_outside_its_variant_or_without_source_reads_zero_and_keeps_its_scale():
    layout = ObservationLayout(
        [Piece("held", 1, "", source="h", scale=0.25, variant=1), Piece("money", 2, "", -1.0, 1.0)]
    )
    fields = ByteFields(fields_of(layout, N))
    table = GatherTable(layout, fields, N)
    assert list(table.row(0, 0)) == [fields.zero] * 3 and list(table.row(0, 1)) == [0, fields.zero, fields.zero]
    assert table.scale.tolist() == [0.25, 1.0, 1.0] and table.scale.dtype == np.float32


def test_a_field_read_by_several_pieces_is_declared_once_in_first_use_order():
    layout = ObservationLayout(
        [
            Piece("role", 2, "", source=("officer", "holder"), seats="own_flags"),
            Piece("holder", N, "", source="holder", seats="rotated"),
            Piece("officer", N, "", source="officer", seats="rotated"),
            Piece("hand", 4, "", source="hands", seats="own"),
        ]
    )
    assert fields_of(layout, N) == [("officer", N), ("holder", N), ("hands", 4 * N)]


def test_pieces_that_disagree_on_a_field_s_size_are_refused():
    layout = ObservationLayout([Piece("a", 2, "", source="f"), Piece("b", 3, "", source="f")])
    with pytest.raises(ValueError, match="byte field 'f' is 2 long for one piece, 3 for 'b'"):
        fields_of(layout, N)


def test_a_bad_declaration_is_refused_when_made():
    with pytest.raises(ValueError, match="seats must be one of"):
        Piece("x", 2, "", source="f", seats="sideways")
    with pytest.raises(ValueError, match="1 scales for 2 positions"):
        Piece("x", 2, "", source="f", scale=(0.5,))
    assert set(SEAT_MODES) >= {"all", "rotated", "own"}
