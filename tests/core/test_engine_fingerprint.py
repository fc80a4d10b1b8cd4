"""Every game's engine does exactly what it did when the fingerprint was stored
(``engine_fingerprint.py``): observations, masks, texts, resamples and returns of seeded games,
at every player count."""

from __future__ import annotations

import json

import pytest

from .engine_fingerprint import DATA, cases, fingerprint

STORED = json.loads(DATA.read_text())


def test_every_game_and_player_count_is_stored():
    assert sorted(STORED) == sorted(f"{e}@{n}" for e, n in cases())


@pytest.mark.parametrize(("env_id", "players"), cases())
def test_the_engine_does_what_it_did(env_id: str, players: int) -> None:
    assert fingerprint(env_id, players) == STORED[f"{env_id}@{players}"]
