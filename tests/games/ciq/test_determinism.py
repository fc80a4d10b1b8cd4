"""Determinism: a CIQ game is a function of (config, seed, actions) only, whatever the global RNGs
or the hash seed do in between; clones continue exactly like the original."""

import random

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs import ciq_v0


@pytest.fixture(autouse=True)
def _restore_global_rngs():
    py_state, np_state = random.getstate(), np.random.get_state()
    yield
    random.setstate(py_state)
    np.random.set_state(np_state)


def _noise(k: int) -> None:
    random.random()
    np.random.rand()
    random.seed(k)
    np.random.seed(k % 2**32)
    random.random()
    np.random.rand(3)


def _snapshot(state):
    return (
        bytes(state.buf),
        bytes(state.sbuf),
        list(state.stock),
        [sorted(e) for e in state.exp],
        [list(t) for t in state.tol],
        list(state.history),
        state.rng.getstate(),
        state.phase,
        state.turns,
        list(state.winners),
    )


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_two_envs_same_seed_same_actions_with_global_rng_noise(num_players):
    env_a = ciq_v0.env(num_players=num_players)
    env_b = ciq_v0.env(num_players=num_players)
    policy = random.Random(100 + num_players)
    seed = 7 * num_players
    _noise(1)
    env_a.reset(seed=seed)
    _noise(2)
    env_b.reset(seed=seed)
    steps = 0
    while env_a.agents:
        _noise(steps)
        obs_a = env_a.last()
        _noise(steps + 7919)
        obs_b = env_b.last()
        assert env_a.agent_selection == env_b.agent_selection
        np.testing.assert_array_equal(obs_a[0]["observation"], obs_b[0]["observation"])
        np.testing.assert_array_equal(obs_a[0]["action_mask"], obs_b[0]["action_mask"])
        assert obs_a[1:4] == obs_b[1:4]
        if obs_a[2] or obs_a[3]:
            action = None
        else:
            action = int(policy.choice(np.flatnonzero(obs_a[0]["action_mask"])))
        _noise(steps * 3 + 1)
        env_a.step(action)
        _noise(steps * 5 + 2)
        env_b.step(action)
        steps += 1
    assert steps > 30
    assert _snapshot(env_a.unwrapped.game_state) == _snapshot(env_b.unwrapped.game_state)


def test_different_seeds_deal_differently():
    game = smuggle_envs.make_game("ciq_v0", num_players=4)
    deals = {(tuple(s.stock), bytes(s.buf)) for s in (game.new_initial_state(seed) for seed in range(20))}
    assert len(deals) == 20


def test_clone_continues_exactly_like_the_original_and_is_independent():
    game = smuggle_envs.make_game("ciq_v0", num_players=4)
    rng = random.Random(0)
    state = game.new_initial_state(3)
    for _ in range(80):
        state.apply_action(rng.choice(state.legal_actions()))
    copy = state.clone()
    assert _snapshot(copy) == _snapshot(state)
    before = _snapshot(state)
    play = random.Random(9)
    while not copy.is_terminal():
        copy.apply_action(play.choice(copy.legal_actions()))
    assert _snapshot(state) == before, "playing the clone leaves the original untouched"
    again = state.clone()
    play = random.Random(9)
    while not state.is_terminal():
        state.apply_action(play.choice(state.legal_actions()))
    assert _snapshot(state) == _snapshot(copy)  # same actions, same RNG: same game
    assert again.history != state.history


def test_replay_round_trip():
    game = smuggle_envs.make_game("ciq_v0", num_players=3, ace_is_face=True)
    state = game.new_initial_state(11)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    replay = type(state.to_replay()).from_json(state.to_replay().to_json())
    assert _snapshot(replay.final_state()) == _snapshot(state)
