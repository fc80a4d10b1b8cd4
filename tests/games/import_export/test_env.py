"""Import / Export through the generic AEC wrapper: its own cap on turns. (PettingZoo's api_test
and seed_test with and without the modules, spaces, masks and out-of-turn decisions, refused
actions, determinism, clones and replays, as for every game: ``tests/core/families/``.)"""

import random

import numpy as np
import pytest

from smuggle_envs.core.env import GameEnv
from smuggle_envs.core.errors import GameOverError
from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export import actions as A


def _act(env, rng):
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(rng.choice(np.flatnonzero(mask)))


def test_turn_cap_is_reported_as_truncation():
    env = GameEnv(ImportExportGame(num_players=2, turn_limit=2))
    env.reset(seed=0)
    rng = random.Random(0)
    while not (any(env.terminations.values()) or any(env.truncations.values())):
        env.step(_act(env, rng))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env.game_state.is_truncated() and env.game_state.turn == 2
    with pytest.raises(GameOverError):  # the game is over: nothing more is applied
        env.game_state.apply_action(A.DRAW)
    assert ImportExportGame(num_players=2).config.turn_limit == 400  # the default cap
