"""Determinism, RLCard style: a game is a function of (config, seed, actions) only, whatever the
global RNGs (``random``, ``numpy.random``) or the hash seed do in between."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smuggle_envs import smuggle_v0
from smuggle_envs.core.errors import ConfigError

from ._support import PLAYER_COUNTS, game, legal_from_mask, play_random, snapshot_state


@pytest.fixture(autouse=True)
def _restore_global_rngs():
    """These tests reseed the global RNGs on purpose; give other tests theirs back."""
    py_state, np_state = random.getstate(), np.random.get_state()
    yield
    random.setstate(py_state)
    np.random.set_state(np_state)


def _noise(k: int) -> None:
    """Use and reseed both global RNGs; ``k`` differs between the two envs compared."""
    random.random()
    np.random.rand()
    random.seed(k)
    np.random.seed(k % 2**32)
    random.random()
    np.random.rand(3)
    random.getrandbits(64)


def _view(env):
    """What a learner sees at this step: last() for the agent to move, every agent's observation."""
    obs, reward, terminated, truncated, _info = env.last()
    return {
        "agent": env.agent_selection,
        "obs": obs["observation"].tolist(),
        "mask": obs["action_mask"].tolist(),
        "reward": reward,
        "terminated": terminated,
        "truncated": truncated,
        "all_obs": {a: env.unwrapped.observe(a)["observation"].tolist() for a in env.possible_agents},
        "rewards": dict(env.rewards),
        "terminations": dict(env.terminations),
        "truncations": dict(env.truncations),
    }


@pytest.mark.parametrize("reward_mode", ["win_loss", "score"])
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_two_envs_same_seed_same_actions_with_global_rng_noise(num_players, reward_mode):
    env_a = smuggle_v0.env(num_players=num_players, reward_mode=reward_mode)
    env_b = smuggle_v0.env(num_players=num_players, reward_mode=reward_mode)
    policy = random.Random(1000 + num_players)
    for episode in range(2):
        seed = 17 * num_players + episode
        _noise(1)
        env_a.reset(seed=seed)
        _noise(2)
        env_b.reset(seed=seed)
        steps = 0
        while env_a.agents:
            _noise(steps)
            view_a = _view(env_a)
            _noise(steps + 99991)
            view_b = _view(env_b)
            assert view_a == view_b, f"episode {episode}, step {steps}"
            if view_a["terminated"] or view_a["truncated"]:
                action = None
            else:
                action = policy.choice(legal_from_mask(np.array(view_a["mask"])))
            _noise(steps * 7 + 3)
            env_a.step(action)
            _noise(steps * 11 + 5)
            env_b.step(action)
            steps += 1
        assert env_b.agents == []
        assert steps > 50
        assert env_a.unwrapped.game_state.history == env_b.unwrapped.game_state.history
        assert snapshot_state(env_a.unwrapped.game_state) == snapshot_state(env_b.unwrapped.game_state)


def test_reset_with_the_same_seed_repeats_the_episode():
    env = smuggle_v0.env(num_players=4)
    runs = []
    for k in range(2):
        _noise(k)
        env.reset(seed=123)
        policy = random.Random(5)
        trace = []
        while env.agents:
            view = _view(env)
            trace.append(view)
            action = None if view["terminated"] else policy.choice(legal_from_mask(np.array(view["mask"])))
            _noise(len(trace) + 1000 * k)
            env.step(action)
        runs.append(trace)
    assert len(runs[0]) > 50 and runs[0] == runs[1]


def test_different_seeds_give_different_episodes():
    def first_obs(seed):
        env = smuggle_v0.raw_env(num_players=4)
        env.reset(seed=seed)
        return tuple(env.observe(env.agent_selection)["observation"].tolist()), tuple(env.game_state.deck)

    results = [first_obs(seed) for seed in range(12)]
    assert len({deck for _, deck in results}) == 12
    assert len({obs for obs, _ in results}) > 1  # opening hands differ too


def test_reset_without_seed_draws_a_fresh_one():
    env = smuggle_v0.raw_env(num_players=4)
    seeds = set()
    for _ in range(5):
        random.seed(0)
        np.random.seed(0)  # fresh seeds do not come from global RNGs
        env.reset()
        seeds.add(env.game_state.seed)
    assert len(seeds) == 5


# ----- engine level --------------------------------------------------------------------------
@given(st.sampled_from(PLAYER_COUNTS), st.integers(0, 2**64), st.integers(0, 2**32), st.integers(0, 400))
@settings(max_examples=15, deadline=None)
def test_engine_same_config_seed_actions_same_state(num_players, seed, policy_seed, steps):
    g = game(num_players)
    a = g.new_initial_state(seed)
    _noise(policy_seed)
    b = g.new_initial_state(seed)
    assert snapshot_state(a) == snapshot_state(b)
    play_random(a, random.Random(policy_seed), steps)
    for action in a.history:
        _noise(action)
        b.apply_action(action)
        random.shuffle(list(range(5)))
    assert snapshot_state(a) == snapshot_state(b)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_engine_different_seeds_different_deals(num_players):
    g = game(num_players)
    decks = {tuple(g.new_initial_state(seed).deck) for seed in range(30)}
    assert len(decks) == 30
    hands = {g.new_initial_state(seed).hand.tobytes() for seed in range(30)}
    assert len(hands) > 5
    # and the deals of later rounds differ too: same actions, different seeds
    a = play_random(g.new_initial_state(1), random.Random(0), 60)
    b = g.new_initial_state(2)
    for action in a.history:
        if action not in b.legal_actions():
            break
        b.apply_action(action)
    assert snapshot_state(a)["hidden"] != snapshot_state(b)["hidden"]


@pytest.mark.parametrize("seed", [1, 5, 2**40])
def test_negative_seeds_are_refused_or_distinct(seed):
    g = game(4)
    try:
        negative = g.new_initial_state(-seed)
    except ConfigError:
        return
    assert negative.deck != g.new_initial_state(seed).deck


def test_same_config_object_or_kwargs_same_game():
    from smuggle_envs.games.smuggle import SmuggleConfig, SmuggleGame

    a = SmuggleGame(SmuggleConfig(num_players=5, first_officer=2)).new_initial_state(44)
    b = game(5, first_officer=2).new_initial_state(44)
    play_random(a, random.Random(3))
    play_random(b, random.Random(3))
    assert snapshot_state(a) == snapshot_state(b)
