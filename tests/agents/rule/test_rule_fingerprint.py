"""The rule bots choose exactly the actions they chose when the fingerprint was stored
(``rule_fingerprint.py``): a faster bot plays the same game."""

from __future__ import annotations

import json

import pytest

from .rule_fingerprint import CASES, DATA, fingerprint

STORED = {(f["env_id"], f["players"]): f for f in json.loads(DATA.read_text())}


@pytest.mark.parametrize(("env_id", "players", "games"), [(e, n, g) for e, counts, g in CASES for n in counts])
def test_rule_bots_play_the_stored_actions(env_id: str, players: int, games: int) -> None:
    assert fingerprint(env_id, players, games) == STORED[(env_id, players)]
