"""Fixtures of the bluffing kit's tests: a small tournament of every game, stored once per session
(three seats, the rule bot and two random agents, 6 games: 2 deals, each in 3 seatings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ._support import play_tournament


@pytest.fixture(scope="session")
def stored(tmp_path_factory):
    """``stored(env_id)``: the path of the game's small tournament database, played once."""
    made: dict[str, Path] = {}

    def get(env_id: str) -> Path:
        if env_id not in made:
            folder = tmp_path_factory.mktemp(env_id)
            made[env_id] = play_tournament(env_id, folder / "t.sqlite")
        return made[env_id]

    return get
