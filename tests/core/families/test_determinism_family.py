"""Determinism, RLCard style, for every registered game: a game is a function of (config, seed,
actions) only, whatever the global RNGs (``random``, ``numpy.random``) do in between, in the
engine at every player count and through the env; different seeds deal different games; clones are independent and continue
exactly like the original, chance included; replays reproduce the game. (The hash seed is
``tests/core/test_all_games_contract.py``'s.)"""

from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs.core import Replay

from ._games import CASES, EVERY_COUNT, IDS, config_id, facts, play, shared_mutables, snapshot


def _noise(k: int) -> None:
    """Draw from and reseed both global RNGs; ``k`` differs between the runs compared."""
    random.seed(k)
    np.random.seed(k % 2**32)
    random.getrandbits(64), np.random.rand(3)


def _variant_cases(counts) -> list:
    """Every (env id, player count) given at the default config, and each game's variant at 4 players."""
    return [pytest.param(env_id, n, {}, id=f"{env_id}-{n}p") for env_id, n in counts] + [
        pytest.param(env_id, 4, facts(env_id).variant, id=f"{env_id}-4p-{config_id(facts(env_id).variant)}")
        for env_id in smuggle_envs.ENV_IDS
    ]


def _long_enough(env_id: str, config: dict) -> int:
    """Decisions a random game surely takes (a variant may make games shorter than the default)."""
    return facts(env_id).game_length_at_least if not config else 10


def _mid_game(game, seed: int, steps: int):
    """A position ``steps`` random actions into a game that is not over yet (next seed if it is)."""
    for s in range(seed, seed + 20):
        state = play(game.new_initial_state(s), random.Random(s), steps)
        if not state.is_terminal():
            return state
    raise AssertionError(f"every game ended within {steps} actions")


def _view(env) -> dict:
    """What a learner reads at this step: last() for the agent to move, and every observation."""
    obs, reward, terminated, truncated, _ = env.last()
    return {
        "agent": env.agent_selection,
        "last": (obs["observation"].tolist(), obs["action_mask"].tolist(), reward, terminated, truncated),
        "observations": {a: env.unwrapped.observe(a)["observation"].tolist() for a in env.possible_agents},
        "flags": (dict(env.rewards), dict(env.terminations), dict(env.truncations)),
    }


@pytest.mark.parametrize("env_id, n, config", _variant_cases(CASES))
def test_two_envs_same_seed_same_actions_with_global_rng_noise(env_id, n, config):
    env_a, env_b = (smuggle_envs.make(env_id, num_players=n, reward_mode="score", **config) for _ in range(2))
    policy = random.Random(100 + n)
    _noise(1)
    env_a.reset(seed=17 * n)
    _noise(2)
    env_b.reset(seed=17 * n)
    steps = 0
    while env_a.agents:
        _noise(steps)
        view = _view(env_a)
        _noise(steps + 7919)
        assert _view(env_b) == view, f"step {steps}"
        _obs, mask, _reward, terminated, truncated = view["last"]
        action = None if terminated or truncated else policy.choice(np.flatnonzero(mask).tolist())
        _noise(steps * 3 + 1)
        env_a.step(action)
        _noise(steps * 5 + 2)
        env_b.step(action)
        steps += 1
    assert env_b.agents == [] and steps > _long_enough(env_id, config)
    assert snapshot(env_a.unwrapped.game_state) == snapshot(env_b.unwrapped.game_state)


@pytest.mark.parametrize("env_id, n, config", _variant_cases(EVERY_COUNT))
def test_engine_same_seed_same_actions_same_game_with_global_rng_noise(env_id, n, config):
    game = smuggle_envs.make_game(env_id, num_players=n, **config)
    policy = random.Random(1000 + n)
    _noise(1)
    a = game.new_initial_state(17 * n)
    _noise(2)
    b = game.new_initial_state(17 * n)
    assert snapshot(a) == snapshot(b)
    while not a.is_terminal():
        _noise(len(a.history))
        p = a.current_player()
        np.testing.assert_array_equal(a.observation(p), b.observation(p))
        assert list(a.legal_actions()) == list(b.legal_actions())
        action = policy.choice(a.legal_actions())
        _noise(action)
        a.apply_action(action)
        _noise(action + 1)
        b.apply_action(action)
    assert b.is_terminal() and len(a.history) > _long_enough(env_id, config)
    assert snapshot(a) == snapshot(b)
    # the history alone, applied to a fresh deal under more noise, is the same game again
    again = game.new_initial_state(17 * n)
    for action in a.history:
        _noise(action * 7)
        again.apply_action(action)
    assert snapshot(again) == snapshot(a)


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_different_seeds_deal_different_games(env_id, n):
    game = smuggle_envs.make_game(env_id, num_players=n)
    states = [game.new_initial_state(seed) for seed in range(20)]
    for deck in facts(env_id).deal:
        assert len({tuple(getattr(s, deck)) for s in states}) == 20, deck
    openings = {b"".join(s.observation(p).tobytes() for p in range(n)) for s in states[:8]}
    assert len(openings) == 8, "what the seats see of the deal differs too"
    seeds = set()
    for _ in range(4):  # a game without a seed draws a fresh one, not from the global RNGs
        random.seed(0)
        np.random.seed(0)
        seeds.add(game.new_initial_state().seed)
    assert len(seeds) == 4


@pytest.mark.parametrize("env_id, n, config", _variant_cases(CASES))
def test_clones_are_independent_and_continue_identically(env_id, n, config):
    game = smuggle_envs.make_game(env_id, num_players=n, **config)
    state = _mid_game(game, 3, 40)
    before = snapshot(state)
    observations = [state.observation(p) for p in range(n)]
    twin = state.clone()
    assert snapshot(twin) == before and twin.game is state.game
    mine, its = vars(state), vars(twin)
    allowed = {"game", *facts(env_id).shared_by_clones}
    shared = [path for name in mine if name not in allowed for path in shared_mutables(mine[name], its.get(name), name)]
    assert not shared, f"the clone shares {shared} with the original"
    play(twin, random.Random(9))  # the clone plays on to the end; the original does not move
    assert twin.is_terminal() and snapshot(state) == before
    for p in range(n):
        np.testing.assert_array_equal(state.observation(p), observations[p])
    # a fresh clone and the original continue identically, chance (the state's RNG) included
    twin = state.clone()
    r1, r2 = random.Random(2), random.Random(2)
    while not state.is_terminal():
        state.apply_action(r1.choice(state.legal_actions()))
        twin.apply_action(r2.choice(twin.legal_actions()))
        assert snapshot(twin) == snapshot(state), len(state.history)
    assert twin.is_terminal() and twin.scores() == state.scores()


@pytest.mark.parametrize("env_id, n, config", _variant_cases(CASES))
def test_json_replay_round_trip(env_id, n, config):
    game = smuggle_envs.make_game(env_id, num_players=n, **config)
    state = play(game.new_initial_state(55), random.Random(0))
    text = state.to_replay().to_json()
    replay = Replay.from_json(text)
    assert (replay.env_id, replay.seed) == (env_id, 55)
    assert replay.config == json.loads(json.dumps(game.config.to_dict()))
    assert json.loads(text)["actions"] == state.history
    again = replay.final_state()
    assert again.game.config == game.config
    assert again.is_terminal() and again.scores() == state.scores() and snapshot(again) == snapshot(state)
    for p in range(n):
        np.testing.assert_array_equal(again.observation(p), state.observation(p))


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_replay_of_an_unfinished_game(env_id, n):
    state = _mid_game(smuggle_envs.make_game(env_id, num_players=n), 12, 40)
    again = Replay.from_json(state.to_replay().to_json()).final_state()
    assert again.current_player() == state.current_player()
    assert list(again.legal_actions()) == list(state.legal_actions())
    assert snapshot(again) == snapshot(state)
    for p in range(n):
        np.testing.assert_array_equal(again.observation(p), state.observation(p))


@pytest.mark.parametrize("env_id", [e for e in smuggle_envs.ENV_IDS if facts(e).arrange])
def test_a_position_laid_out_by_hand_cannot_be_replayed(env_id):
    f = facts(env_id)
    state = smuggle_envs.make_game(env_id, num_players=3).new_initial_state(0)
    f.arrange(state)
    with pytest.raises(ValueError, match=rf"cannot be replayed.*{re.escape(f.arranged_by)}"):
        state.to_replay()
    if f.arrange_only_before_the_first_action:
        state.apply_action(state.legal_actions()[0])
        with pytest.raises(RuntimeError, match="before the first action"):
            f.arrange(state)
