"""Determinism: a game is a function of (config, seed, actions) whatever the global RNGs
(``random``, ``numpy.random``) or the hash seed do in between."""

import random

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs import humble_smuggle_v0


@pytest.fixture(autouse=True)
def _restore_global_rngs():
    py_state, np_state = random.getstate(), np.random.get_state()
    yield
    random.setstate(py_state)
    np.random.set_state(np_state)


def _noise(k):
    random.random()
    np.random.rand()
    random.seed(k)
    np.random.seed(k % 2**32)
    random.getrandbits(64)
    np.random.rand(3)


def _view(env):
    obs, reward, terminated, truncated, _ = env.last()
    return (
        env.agent_selection,
        obs["observation"].tolist(),
        obs["action_mask"].tolist(),
        reward,
        terminated,
        truncated,
        {a: env.unwrapped.observe(a)["observation"].tolist() for a in env.possible_agents},
    )


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_two_envs_same_seed_same_actions_with_global_rng_noise(num_players):
    env_a = humble_smuggle_v0.env(num_players=num_players, reward_mode="score")
    env_b = humble_smuggle_v0.env(num_players=num_players, reward_mode="score")
    policy = random.Random(num_players)
    seed = 31 * num_players
    _noise(1)
    env_a.reset(seed=seed)
    _noise(2)
    env_b.reset(seed=seed)
    steps = 0
    while env_a.agents:
        _noise(steps)
        view = _view(env_a)
        _noise(steps + 7777)
        assert view == _view(env_b), steps
        action = None if view[4] or view[5] else policy.choice(np.flatnonzero(view[2]).tolist())
        _noise(steps * 3 + 1)
        env_a.step(action)
        _noise(steps * 5 + 2)
        env_b.step(action)
        steps += 1
    assert env_b.agents == [] and steps > 80
    a, b = env_a.unwrapped.game_state, env_b.unwrapped.game_state
    assert a.history == b.history and bytes(a.buf) == bytes(b.buf) and a.scores() == b.scores()


def test_different_seeds_deal_differently_and_no_seed_draws_a_fresh_one():
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=4)
    assert len({tuple(game.new_initial_state(s).deck) for s in range(20)}) == 20
    assert len({tuple(game.new_initial_state(s).bdeck) for s in range(20)}) == 20
    seeds = set()
    for _ in range(4):
        random.seed(0)
        np.random.seed(0)
        seeds.add(game.new_initial_state().seed)
    assert len(seeds) == 4
