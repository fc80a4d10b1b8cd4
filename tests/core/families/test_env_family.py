"""The AEC env of every registered game (``core.env.GameEnv`` over its ``Game``): PettingZoo's own
``api_test`` and ``seed_test`` at every player count, the registry entry and the constructors,
spaces, observations and masks that follow the state, rewards at the end, ``max_turns``
truncation, and refused actions that change nothing, in the env and in the state."""

from __future__ import annotations

import importlib
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import smuggle_envs
from smuggle_envs.core.env import GameEnv
from smuggle_envs.core.errors import ConfigError, GameOverError, IllegalActionError, MalformedActionError
from smuggle_envs.core.outcomes import REWARD_MODES, winners
from smuggle_envs.core.outcomes import rewards as outcome_rewards

from ._games import (
    CASES,
    EVERY_COUNT,
    EVERY_COUNT_IDS,
    IDS,
    KNOWN_GAMES,
    config_id,
    facts,
    play,
    player_counts,
    snapshot,
)

pytestmark = pytest.mark.filterwarnings("ignore:Observation")  # api_test's note on float observations


def _act(env, rng: random.Random) -> int:
    """A random legal action of the agent to move, read from its mask."""
    return int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))


def _some_count(env_id: str) -> int:
    """Three players where the game allows it (the tables with every role), else the fewest."""
    counts = player_counts(env_id)
    return 3 if 3 in counts else counts[0]


def test_every_registered_game_has_its_facts():
    assert set(KNOWN_GAMES) == set(smuggle_envs.ENV_IDS), "add the game's Facts to tests/core/families/_games.py"
    for env_id in smuggle_envs.ENV_IDS:
        f = facts(env_id)
        # what the hidden-information family cannot do without: what a seat knows, what a redraw
        # moves (and how often at least), and the observation pieces that say who decides
        assert f.title and f.hidden and set(f.moved_at_least) == set(f.hidden), env_id
        assert f.known(smuggle_envs.make_game(env_id).new_initial_state(0), 0) is not None, env_id
        assert f.flow and f.flow_sweeps and f.flow_compared_at_least > 0, env_id


# ----- PettingZoo's own tests ------------------------------------------------------------------
@pytest.mark.parametrize("env_id, n", EVERY_COUNT, ids=EVERY_COUNT_IDS)
def test_api_test(env_id, n):
    api_test(smuggle_envs.make(env_id, num_players=n), num_cycles=200)


@pytest.mark.parametrize("env_id, n", EVERY_COUNT, ids=EVERY_COUNT_IDS)
def test_seed_test(env_id, n):
    seed_test(lambda: smuggle_envs.make(env_id, num_players=n), num_cycles=200)


OPTION_CASES = [
    pytest.param(env_id, n, options, id=f"{env_id}-{n}p-{config_id(options)}")
    for env_id, n in EVERY_COUNT
    for options in facts(env_id).api_options
]


@pytest.mark.parametrize("env_id, n, options", OPTION_CASES)
def test_api_test_and_seed_test_with_game_options(env_id, n, options):
    api_test(smuggle_envs.make(env_id, num_players=n, **options), num_cycles=200)
    seed_test(lambda: smuggle_envs.make(env_id, num_players=n, **options), num_cycles=200)


@pytest.mark.parametrize(
    "env_options", [{"reward_mode": "rank"}, {"reward_mode": "score", "max_turns": 40}], ids=config_id
)
@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_api_test_with_env_options(env_id, env_options):
    variant = facts(env_id).variant
    api_test(smuggle_envs.make(env_id, num_players=_some_count(env_id), **variant, **env_options), num_cycles=100)


# ----- the registry and the constructors -------------------------------------------------------
@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_registry_and_constructors(env_id):
    f = facts(env_id)
    counts = player_counts(env_id)
    assert {"env_id": env_id, "game": f.title, "players": f.players} in smuggle_envs.registry.describe()
    assert f.players == f"{counts[0]}-{counts[-1]}"
    module = importlib.import_module(f"smuggle_envs.{env_id}")
    n = counts[-1]
    constructors = [
        (module.env, True),
        (module.raw_env, False),
        (lambda **kw: smuggle_envs.make(env_id, **kw), True),
        (lambda **kw: smuggle_envs.raw_env(env_id, **kw), False),
    ]
    for make, wrapped in constructors:
        env = make(num_players=n, reward_mode="rank", max_turns=500, **f.variant)
        assert isinstance(env, OrderEnforcingWrapper) == wrapped
        raw = env.unwrapped
        assert isinstance(raw, GameEnv) and (raw.reward_mode, raw.max_turns) == ("rank", 500)
        assert raw.game.num_players == n
        for option, value in f.variant.items():
            assert getattr(raw.game.config, option) == value, option
        assert env.possible_agents == [f"player_{i}" for i in range(n)]
        assert env.metadata["name"] == env_id
        assert env.action_space("player_0").n == raw.game.num_actions == f.num_actions
        assert env.observation_space("player_0")["observation"].shape == (raw.game.observation_layout.size,)
        env.reset(seed=1)
        assert env.agents == env.possible_agents
        assert env.agent_selection == f"player_{raw.game_state.current_player()}"
    assert module.raw_env().game.num_players == 4
    for make in (module.env, module.raw_env, lambda **kw: smuggle_envs.make(env_id, **kw)):
        with pytest.raises(ConfigError, match="num_players"):
            make(players=3)
    for n in (counts[0] - 1, counts[-1] + 1):
        with pytest.raises(ConfigError, match="num_players"):
            module.env(num_players=n)


@pytest.mark.parametrize("env_id, n", EVERY_COUNT, ids=EVERY_COUNT_IDS)
def test_spaces(env_id, n):
    f = facts(env_id)
    env = smuggle_envs.raw_env(env_id, num_players=n)
    layout = env.game.observation_layout
    assert env.possible_agents == [f"player_{i}" for i in range(n)]
    for agent in env.possible_agents:
        assert env.action_space(agent).n == f.num_actions
        space = env.observation_space(agent)
        assert space["observation"].shape == (layout.size,) and space["observation"].dtype == np.float32
        np.testing.assert_array_equal(space["observation"].low, layout.low)
        np.testing.assert_array_equal(space["observation"].high, layout.high)
        assert space["action_mask"].shape == (f.num_actions,) and space["action_mask"].dtype == np.int8
    if n in f.observation_sizes:
        assert layout.size == f.observation_sizes[n]


# ----- observations and masks --------------------------------------------------------------------
OBS_CASES = [pytest.param(env_id, n, {}, id=i) for (env_id, n), i in zip(CASES, IDS)] + [
    pytest.param(env_id, 4, facts(env_id).variant, id=f"{env_id}-4p-{config_id(facts(env_id).variant)}")
    for env_id in smuggle_envs.ENV_IDS
]


@pytest.mark.parametrize("env_id, n, config", OBS_CASES)
def test_observations_and_masks_follow_the_state(env_id, n, config):
    f = facts(env_id)
    env = smuggle_envs.raw_env(env_id, num_players=n, **config)
    env.reset(seed=4)
    if f.turn_holder:  # the seat whose turn it is decides first
        assert env.game_state.current_player() == getattr(env.game_state, f.turn_holder)
    rng = random.Random(4)
    num_actions = env.game.num_actions
    out_of_turn = 0
    for step in range(400):  # over several games if they are short
        if env.terminations[env.agent_selection]:
            env.reset(seed=step)
        state, current = env.game_state, env.agent_selection
        assert current == f"player_{state.current_player()}"
        if f.turn_holder:
            out_of_turn += state.current_player() != getattr(state, f.turn_holder)
        for agent in env.possible_agents:
            obs = env.observe(agent)
            assert set(obs) == {"observation", "action_mask"}
            assert env.observation_space(agent).contains(obs)
            assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (num_actions,)
            np.testing.assert_array_equal(obs["observation"], state.observation(env.agent_name_mapping[agent]))
            if agent == current:
                np.testing.assert_array_equal(obs["action_mask"], state.legal_action_mask())
                assert np.flatnonzero(obs["action_mask"]).tolist() == list(state.legal_actions())
            else:
                assert not obs["action_mask"].any()
        scribbled = env.observe(current)  # a copy: scribbling on it changes nothing
        for array in scribbled.values():
            array[:] = 1
        fresh = env.observe(current)
        assert fresh["action_mask"].sum() == len(state.legal_actions())
        assert not np.array_equal(fresh["observation"], scribbled["observation"])
        env.step(_act(env, rng))
    if config:
        assert out_of_turn >= f.out_of_turn_at_least


# ----- rewards and truncation --------------------------------------------------------------------
@pytest.mark.parametrize("reward_mode", REWARD_MODES)
@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_rewards_at_the_end_follow_the_scores(env_id, n, reward_mode):
    f = facts(env_id)
    env = smuggle_envs.make(env_id, num_players=n, reward_mode=reward_mode)
    env.reset(seed=5)
    rng = random.Random(5)
    final, steps = {}, 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        assert not truncated
        if terminated:
            assert not obs["action_mask"].any()
            final[agent] = reward
            env.step(None)
        else:
            assert reward == 0.0 and not any(env.unwrapped.terminations.values())
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    state, game = env.unwrapped.game_state, env.unwrapped.game
    assert state.is_terminal() and not state.is_truncated() and steps >= f.game_length_at_least
    scores = state.scores()
    expected = dict(zip(env.possible_agents, outcome_rewards(scores, reward_mode, game.score_scale)))
    assert final == pytest.approx(expected)
    assert max(final.values()) == pytest.approx(min(final[f"player_{w}"] for w in winners(scores)))
    if reward_mode == "score":
        assert game.score_scale == f.score_scale
        mean = sum(scores) / n
        assert [final[f"player_{p}"] for p in range(n)] == pytest.approx([(s - mean) / f.score_scale for s in scores])
    with pytest.raises(GameOverError):  # every agent has left
        env.unwrapped.step(0)


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_max_turns_truncates_with_zero_rewards(env_id):
    env = smuggle_envs.raw_env(env_id, num_players=_some_count(env_id), reward_mode="score", max_turns=10)
    env.reset(seed=1)
    rng = random.Random(1)
    for _ in range(10):
        assert not any(env.truncations.values())
        env.step(_act(env, rng))
    assert not env.game_state.is_terminal() and env.turns == 10
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {a: 0.0 for a in env.possible_agents}
    assert not env.observe(env.agent_selection)["action_mask"].any()
    with pytest.raises(GameOverError):
        env.step(0)
    while env.agents:
        env.step(None)


# ----- refused actions ---------------------------------------------------------------------------
def _env_snapshot(env) -> dict:
    return {
        "state": snapshot(env.game_state),
        "agent": env.agent_selection,
        "agents": list(env.agents),
        "observations": {a: {k: v.tolist() for k, v in env.observe(a).items()} for a in env.possible_agents},
        "flags": (dict(env.rewards), dict(env._cumulative_rewards), dict(env.terminations), dict(env.truncations)),
        "turns": env.turns,
    }


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_refused_actions_change_nothing_in_the_env(env_id, n):
    env = smuggle_envs.raw_env(env_id, num_players=n)
    env.reset(seed=2)
    rng = random.Random(2)
    for _ in range(10):
        env.step(_act(env, rng))
    legal = set(env.game_state.legal_actions())
    before = _env_snapshot(env)
    bad = next(a for a in range(env.game.num_actions) if a not in legal)
    for action in (bad, env.game.num_actions, -1):
        with pytest.raises(IllegalActionError, match="legal actions"):
            env.step(action)
    for action in (1.0, "2", True, None, np.array(0)):
        with pytest.raises(MalformedActionError):
            env.step(action)
    assert _env_snapshot(env) == before
    env.step(_act(env, rng))  # and the env goes on
    assert env.turns == before["turns"] + 1


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_refused_actions_change_nothing_in_the_state(env_id, n):
    game = smuggle_envs.make_game(env_id, num_players=n)
    state = play(game.new_initial_state(9), random.Random(9), 25)
    before = snapshot(state)
    observations = [state.observation(p) for p in range(n)]
    legal = list(state.legal_actions())
    illegal = next(a for a in range(game.num_actions) if a not in legal)
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(illegal)
    assert f"action {illegal} ({game.action_to_string(illegal)}) is not legal for player" in str(err.value)
    assert list(err.value.legal_actions) == legal
    for action in (game.num_actions, -1):
        with pytest.raises(IllegalActionError, match="out of range"):
            state.apply_action(action)
    for action in (1.0, "3", True, None):
        with pytest.raises(MalformedActionError):
            state.apply_action(action)
    assert snapshot(state) == before
    for p in range(n):
        np.testing.assert_array_equal(state.observation(p), observations[p])
    state.apply_action(np.int64(legal[0]))  # a numpy int is an int
    assert state.history[-1] == legal[0] and type(state.history[-1]) is int


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_actions_after_the_end_are_refused(env_id):
    game = smuggle_envs.make_game(env_id, num_players=_some_count(env_id))
    state = play(game.new_initial_state(0), random.Random(0))
    assert state.is_terminal() and list(state.legal_actions()) == []
    before = snapshot(state)
    for action in (0, game.num_actions - 1):
        with pytest.raises(GameOverError):
            state.apply_action(action)
    assert snapshot(state) == before
