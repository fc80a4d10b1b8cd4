"""ObservationLayout: offsets, sizes, bounds, access by name and the documentation table."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from smuggle_envs.core.layout import ObservationLayout, Piece

from ._support import PLAYER_COUNTS, game, play_random

INF = float("inf")


@pytest.fixture
def layout():
    return ObservationLayout(
        [
            Piece("alpha", 3, "three flags"),
            Piece("beta", 1, "a money value", -INF, INF),
            Piece("gamma", 2, "two counts", 0.0, 5.0),
            Piece("delta", 4, "four negatives", -2.5, 0.0),
        ]
    )


def test_offsets_and_sizes(layout):
    assert layout.slice("alpha") == slice(0, 3)
    assert layout.slice("beta") == slice(3, 4)
    assert layout.slice("gamma") == slice(4, 6)
    assert layout.slice("delta") == slice(6, 10)
    assert layout.size == 10
    assert len(layout) == 10
    assert [p.name for p in layout.pieces] == ["alpha", "beta", "gamma", "delta"]


def test_contains(layout):
    assert "gamma" in layout
    assert "epsilon" not in layout


def test_low_and_high_arrays(layout):
    assert layout.low.dtype == np.float32 and layout.high.dtype == np.float32
    assert layout.low.shape == layout.high.shape == (10,)
    np.testing.assert_array_equal(layout.low, [0, 0, 0, -INF, 0, 0, -2.5, -2.5, -2.5, -2.5])
    np.testing.assert_array_equal(layout.high, [1, 1, 1, INF, 5, 5, 0, 0, 0, 0])


@pytest.mark.parametrize("names", [["a", "b", "a"], ["x", "x"]])
def test_duplicate_names_rejected(names):
    with pytest.raises(ValueError, match="duplicate") as info:
        ObservationLayout([Piece(name, 1, "") for name in names])
    assert repr(names[-1]) in str(info.value)


@pytest.mark.parametrize("size", [0, -1])
def test_non_positive_sizes_rejected(size):
    with pytest.raises(ValueError, match="bad"):
        ObservationLayout([Piece("ok", 2, ""), Piece("bad", size, "")])


def test_get_reads_one_piece(layout):
    obs = np.arange(10, dtype=np.float32)
    np.testing.assert_array_equal(layout.get(obs, "alpha"), [0, 1, 2])
    np.testing.assert_array_equal(layout.get(obs, "beta"), [3])
    np.testing.assert_array_equal(layout.get(obs, "gamma"), [4, 5])
    np.testing.assert_array_equal(layout.get(obs, "delta"), [6, 7, 8, 9])


def test_get_works_on_a_batch(layout):
    batch = np.arange(30, dtype=np.float32).reshape(3, 10)
    np.testing.assert_array_equal(layout.get(batch, "gamma"), [[4, 5], [14, 15], [24, 25]])


def test_get_unknown_piece_names_the_pieces(layout):
    with pytest.raises(KeyError) as info:
        layout.get(np.zeros(10), "epsilon")
    message = str(info.value)
    assert "epsilon" in message
    for name in ("alpha", "beta", "gamma", "delta"):
        assert name in message


def test_split_covers_the_vector_in_order(layout):
    obs = np.arange(10, dtype=np.float32) * 1.5
    parts = layout.split(obs)
    assert list(parts) == ["alpha", "beta", "gamma", "delta"]
    np.testing.assert_array_equal(np.concatenate(list(parts.values())), obs)
    for name, values in parts.items():
        np.testing.assert_array_equal(values, layout.get(obs, name))


def test_table_lists_every_piece_and_the_total(layout):
    table = layout.table()
    lines = table.splitlines()
    assert lines[0].startswith("| offset | size | piece |")
    assert len(lines) == 2 + len(layout.pieces) + 1
    rows = lines[2:-1]
    for row, piece in zip(rows, layout.pieces):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[0] == str(layout.slice(piece.name).start)
        assert cells[1] == str(piece.size)
        assert cells[2] == f"`{piece.name}`"
        assert cells[4] == piece.description
    assert "[-inf, inf]" in rows[1]
    assert "[0, 5]" in rows[2]
    assert "[-2.5, 0]" in rows[3]
    assert "**10**" in lines[-1] and "total" in lines[-1]


def test_pieces_are_immutable():
    piece = Piece("a", 1, "")
    with pytest.raises(dataclasses.FrozenInstanceError):
        piece.size = 2


def _documented_shape():
    """(a, b) from the "Observation shape | (a + b * n,)" row of the Smuggle module docstring."""
    import re

    import smuggle_envs.games.smuggle as smuggle

    match = re.search(r"Observation shape\s*\|\s*\((\d+) \+ (\d+) \* n,\)", smuggle.__doc__)
    assert match, "the Smuggle docstring documents the observation shape as (a + b * n,)"
    return int(match.group(1)), int(match.group(2))


def test_smuggle_documented_example_shape():
    import smuggle_envs.games.smuggle as smuggle

    size4 = game(4).observation_layout.size
    assert f"({size4} for 4 players)" in smuggle.__doc__


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_smuggle_layout_matches_its_observations(num_players):
    g = game(num_players)
    layout = g.observation_layout
    base, per_seat = _documented_shape()
    assert layout.size == base + per_seat * num_players  # as the game's module docstring says
    offset = 0
    for piece in layout.pieces:  # pieces tile the vector with no gaps
        assert layout.slice(piece.name) == slice(offset, offset + piece.size)
        offset += piece.size
    assert offset == layout.size
    table = layout.table()
    assert all(f"`{p.name}`" in table for p in layout.pieces)
    assert f"**{layout.size}**" in table
    state = g.new_initial_state(num_players)
    rng = random.Random(num_players)
    for _ in range(40):
        for p in range(num_players):
            obs = state.observation(p)
            assert obs.shape == (layout.size,) and obs.dtype == np.float32
            assert np.all(obs >= layout.low) and np.all(obs <= layout.high)
        play_random(state, rng, 5)
