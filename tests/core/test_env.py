"""The generic AEC wrapper (core.env.GameEnv) over Smuggle: PettingZoo API, rewards, truncation,
refused actions, rendering and constructor arguments."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import smuggle_envs
from smuggle_envs import smuggle_v0
from smuggle_envs.core.env import GameEnv
from smuggle_envs.core.errors import ConfigError, GameOverError, IllegalActionError, MalformedActionError
from smuggle_envs.core.outcomes import REWARD_MODES
from smuggle_envs.core.outcomes import rewards as outcome_rewards
from smuggle_envs.games.smuggle.vocab import DECLARE, DISCARD

from ._support import PLAYER_COUNTS, legal_from_mask, snapshot_env

SETTINGS = settings(max_examples=15, deadline=None)


def _act(env, rng):
    """A random legal action for the agent to move, read from its mask."""
    mask = env.observe(env.agent_selection)["action_mask"]
    return rng.choice(legal_from_mask(mask))


def _advance(env, steps, rng):
    """Up to ``steps`` live steps (stops early at the end of the game)."""
    for _ in range(steps):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            return
        env.step(_act(env, rng))


def _play_to_end(env, rng):
    """Play live steps until every agent is done; return the number of steps."""
    count = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(_act(env, rng))
        count += 1
    return count


# ----- PettingZoo's own tests ----------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_api_test(num_players):
    api_test(smuggle_v0.env(num_players=num_players), num_cycles=300)


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_seed_test(num_players):
    seed_test(lambda: smuggle_v0.env(num_players=num_players), num_cycles=300)


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("kwargs", [{"reward_mode": "rank"}, {"reward_mode": "score", "max_turns": 40}])
def test_api_test_other_options(kwargs):
    api_test(smuggle_v0.env(num_players=4, **kwargs), num_cycles=300)


# ----- constructors --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "constructor, wrapped",
    [
        (lambda **kw: smuggle_v0.env(**kw), True),
        (lambda **kw: smuggle_v0.raw_env(**kw), False),
        (lambda **kw: smuggle_envs.make("smuggle_v0", **kw), True),
        (lambda **kw: smuggle_envs.raw_env("smuggle_v0", **kw), False),
    ],
)
def test_constructors(constructor, wrapped):
    env = constructor(num_players=5, reward_mode="rank", max_turns=50)
    assert isinstance(env, OrderEnforcingWrapper) == wrapped
    raw = env.unwrapped
    assert isinstance(raw, GameEnv)
    assert raw.game.num_players == 5 and raw.reward_mode == "rank" and raw.max_turns == 50
    assert env.possible_agents == [f"player_{i}" for i in range(5)]
    assert env.metadata["name"] == "smuggle_v0"
    env.reset(seed=3)
    assert env.agents == env.possible_agents
    reference = smuggle_v0.raw_env(num_players=5)
    reference.reset(seed=3)
    for agent in env.possible_agents:
        np.testing.assert_array_equal(env.observe(agent)["observation"], reference.observe(agent)["observation"])
    env.step(_act(raw, random.Random(0)))
    assert raw.turns == 1


def test_defaults():
    env = smuggle_v0.raw_env()
    assert env.possible_agents == [f"player_{i}" for i in range(4)]
    assert env.reward_mode == "win_loss" and env.max_turns is None and env.render_mode is None


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"render_mode": "x"}, "render_mode"),
        ({"render_mode": "rgb_array"}, "render_mode"),
        ({"reward_mode": "x"}, "reward_mode"),
        ({"reward_mode": None}, "reward_mode"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": -5}, "max_turns"),
        ({"max_turns": 1.5}, "max_turns"),
        ({"max_turns": True}, "max_turns"),
        ({"max_turns": "10"}, "max_turns"),
    ],
)
@pytest.mark.parametrize("constructor", [smuggle_v0.env, smuggle_v0.raw_env])
def test_bad_constructor_arguments(constructor, kwargs, name):
    with pytest.raises(ConfigError, match=name):
        constructor(**kwargs)


@pytest.mark.parametrize("perspective", [4, -1, 1.5, "0"])
def test_bad_render_perspective(perspective):
    with pytest.raises(ConfigError, match="render_perspective"):
        smuggle_v0.raw_env(num_players=4, render_mode="ansi", render_perspective=perspective)


@pytest.mark.parametrize("seed", [1.5, "1", True, [1]])
def test_reset_with_a_bad_seed(seed):
    env = smuggle_v0.env()
    with pytest.raises(ConfigError, match="seed"):
        env.reset(seed=seed)


def test_use_before_reset():
    env = smuggle_v0.raw_env()
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")


# ----- observations --------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_observation_dicts_and_masks(num_players):
    env = smuggle_v0.raw_env(num_players=num_players)
    env.reset(seed=num_players)
    layout = env.game.observation_layout
    rng = random.Random(num_players)
    for _ in range(25):
        current = env.agent_selection
        assert current == f"player_{env.game_state.current_player()}"
        for agent in env.possible_agents:
            obs = env.observe(agent)
            assert set(obs) == {"observation", "action_mask"}
            assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (layout.size,)
            assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (env.game.num_actions,)
            assert env.observation_space(agent).contains(obs)
            np.testing.assert_array_equal(obs["observation"], env.game_state.observation(env.agent_name_mapping[agent]))
            if agent == current:
                np.testing.assert_array_equal(obs["action_mask"], env.game_state.legal_action_mask())
                assert obs["action_mask"].sum() > 0
            else:
                assert not obs["action_mask"].any()
        # observations are copies: scribbling on one changes nothing
        obs = env.observe(current)
        obs["observation"][:] = 7
        obs["action_mask"][:] = 1
        assert not np.array_equal(env.observe(current)["observation"], obs["observation"])
        assert env.observe(current)["action_mask"].sum() < env.game.num_actions
        env.step(_act(env, rng))


def test_spaces():
    env = smuggle_v0.raw_env(num_players=3)
    for agent in env.possible_agents:
        assert env.action_space(agent).n == env.game.num_actions == 510
        space = env.observation_space(agent)
        assert space["observation"].shape == (env.game.observation_layout.size,)
        assert space["observation"].dtype == np.float32
        np.testing.assert_array_equal(space["observation"].low, env.game.observation_layout.low)
        assert space["action_mask"].dtype == np.int8


# ----- rewards -------------------------------------------------------------------------------
@pytest.mark.parametrize("reward_mode", REWARD_MODES)
@pytest.mark.parametrize("num_players", [3, 6])
def test_rewards_match_outcomes(reward_mode, num_players):
    env = smuggle_v0.raw_env(num_players=num_players, reward_mode=reward_mode)
    env.reset(seed=40 + num_players)
    rng = random.Random(num_players)
    summed = {a: 0.0 for a in env.possible_agents}
    while not env.game_state.is_terminal():
        agent = env.agent_selection
        assert env._cumulative_rewards[agent] == 0.0
        env.step(_act(env, rng))
        for a, r in env.rewards.items():
            summed[a] += r
        if not env.game_state.is_terminal():
            assert all(r == 0.0 for r in env.rewards.values())
            assert all(r == 0.0 for r in env._cumulative_rewards.values())
            assert not any(env.terminations.values()) and not any(env.truncations.values())
    state = env.game_state
    expected = outcome_rewards(state.scores(), reward_mode, env.game.score_scale)
    expected = dict(zip(env.possible_agents, expected))
    assert env.rewards == pytest.approx(expected)
    assert env._cumulative_rewards == pytest.approx(expected)
    assert summed == pytest.approx(expected)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    # each agent reads its reward from last() as it is stepped out with None
    seen = {}
    while env.agents:
        agent = env.agent_selection
        obs, reward, terminated, truncated, _ = env.last()
        assert terminated and not truncated
        assert not obs["action_mask"].any()
        seen[agent] = reward
        env.step(None)
    assert seen == pytest.approx(expected)
    if reward_mode != "win_loss":
        assert sum(seen.values()) == pytest.approx(0.0, abs=1e-9)


def test_cumulative_rewards_over_agent_iter():
    env = smuggle_v0.env(num_players=4, reward_mode="score")
    env.reset(seed=9)
    rng = random.Random(9)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
        else:
            assert reward == 0.0
            env.step(rng.choice(legal_from_mask(obs["action_mask"])))
    state = env.unwrapped.game_state
    expected = outcome_rewards(state.scores(), "score", env.unwrapped.game.score_scale)
    assert final == pytest.approx(dict(zip(env.possible_agents, expected)))
    assert env.agents == []


def test_reset_starts_afresh():
    env = smuggle_v0.raw_env(num_players=4)
    env.reset(seed=1)
    _play_to_end(env, random.Random(1))
    while env.agents:
        env.step(None)
    env.reset(seed=1)
    fresh = smuggle_v0.raw_env(num_players=4)
    fresh.reset(seed=1)
    assert snapshot_env(env) == snapshot_env(fresh)
    assert env.turns == 0 and env.game_state.history == []


# ----- truncation ----------------------------------------------------------------------------
@pytest.mark.parametrize("max_turns", [1, 7, 60])
def test_max_turns_truncates(max_turns):
    env = smuggle_v0.raw_env(num_players=4, max_turns=max_turns, reward_mode="score")
    env.reset(seed=2)
    rng = random.Random(2)
    for turn in range(max_turns):
        assert not any(env.truncations.values())
        env.step(_act(env, rng))
        assert env.turns == turn + 1
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert not env.game_state.is_terminal()
    assert all(r == 0.0 for r in env.rewards.values())
    assert all(r == 0.0 for r in env._cumulative_rewards.values())
    for agent in env.possible_agents:
        assert not env.observe(agent)["action_mask"].any()
    before = snapshot_env(env)
    with pytest.raises(GameOverError):
        env.step(int(env.game_state.legal_actions()[0]))
    assert snapshot_env(env) == before
    removed = []
    while env.agents:
        obs, reward, terminated, truncated, _ = env.last()
        assert truncated and not terminated and reward == 0.0 and not obs["action_mask"].any()
        removed.append(env.agent_selection)
        env.step(None)
    assert sorted(removed) == env.possible_agents
    assert env.game_state.history == before["state"]["history"]


def _truncated_and_emptied():
    env = smuggle_v0.raw_env(num_players=4, max_turns=5)
    env.reset(seed=1)
    _advance(env, 5, random.Random(1))
    assert all(env.truncations.values())
    while env.agents:
        env.step(None)
    return env


def test_observe_after_truncated_agents_are_removed():
    env = _truncated_and_emptied()
    for agent in env.possible_agents:
        assert not env.observe(agent)["action_mask"].any()


def test_step_after_truncated_agents_are_removed():
    env = _truncated_and_emptied()
    history = list(env.game_state.history)
    try:
        with pytest.raises(GameOverError):
            env.step(int(env.game_state.legal_actions()[0]))
    finally:
        assert env.game_state.history == history


# ----- refused steps -------------------------------------------------------------------------
bad_actions = st.one_of(
    st.floats(),
    st.booleans(),
    st.text(max_size=2),
    st.integers(-(10**6), -1),
    st.integers(510, 10**6),
    st.integers(0, 509),
    st.integers(0, 509).map(np.float32),
    st.integers(0, 509).map(lambda a: np.array([a])),
)


@given(st.sampled_from(PLAYER_COUNTS), st.integers(0, 2**32), st.integers(0, 150), bad_actions, st.booleans())
@SETTINGS
def test_refused_step_leaves_env_unchanged(num_players, seed, steps, action, wrapped):
    env = smuggle_v0.env(num_players=num_players) if wrapped else smuggle_v0.raw_env(num_players=num_players)
    env.reset(seed=seed)
    _advance(env.unwrapped, steps, random.Random(seed))
    raw = env.unwrapped
    finished = raw.terminations[raw.agent_selection]
    legal = set(raw.game_state.legal_actions())
    if type(action) is int and action in legal:
        action = next(a for a in range(510) if a not in legal)
    before = snapshot_env(env)
    with pytest.raises(GameOverError if finished else (IllegalActionError, MalformedActionError)):
        env.step(action)
    assert snapshot_env(env) == before
    if finished:
        env.step(None)
        assert len(raw.agents) == num_players - 1
    else:
        env.step(_act(raw, random.Random(0)))  # and the env still works
        assert raw.turns == before["turns"] + 1


@pytest.mark.parametrize(
    "action, error",
    [
        (510, IllegalActionError),
        (-1, IllegalActionError),
        (1.0, MalformedActionError),
        (True, MalformedActionError),
        ("0", MalformedActionError),
        (np.array(0), MalformedActionError),
        (None, MalformedActionError),
    ],
)
def test_refused_step_errors(action, error):
    env = smuggle_v0.env(num_players=4)
    env.reset(seed=0)
    before = snapshot_env(env)
    with pytest.raises(error):
        env.step(action)
    assert snapshot_env(env) == before


def test_masked_out_step_names_the_legal_actions():
    env = smuggle_v0.raw_env(num_players=4)
    env.reset(seed=0)
    env.step(0)  # declare nothing: the Officer decides
    assert env.agent_selection == "player_0"
    before = snapshot_env(env)
    with pytest.raises(IllegalActionError, match=r"legal actions: 496 \(search\), 497 \(let pass\)"):
        env.step(0)
    assert snapshot_env(env) == before


def test_none_for_a_live_agent_raises():
    env = smuggle_v0.raw_env(num_players=3)
    env.reset(seed=0)
    _advance(env, 10, random.Random(0))
    before = snapshot_env(env)
    with pytest.raises(MalformedActionError, match="None"):
        env.step(None)
    assert snapshot_env(env) == before


@pytest.mark.parametrize("action", [0, 496, np.int64(497), 509])
def test_step_after_game_over_raises(action):
    env = smuggle_v0.raw_env(num_players=4)
    env.reset(seed=12)
    _play_to_end(env, random.Random(12))
    assert env.game_state.is_terminal() and all(env.terminations.values())
    before = snapshot_env(env)
    with pytest.raises(GameOverError):
        env.step(action)
    assert snapshot_env(env) == before
    env.step(None)  # the proper way out still works
    assert len(env.agents) == 3
    before = snapshot_env(env)
    with pytest.raises(GameOverError):
        env.step(action)
    assert snapshot_env(env) == before
    while env.agents:
        env.step(None)
    with pytest.raises(GameOverError):  # and after every agent has left
        env.step(action)
    assert env.game_state.history == before["state"]["history"]


# ----- rendering -----------------------------------------------------------------------------
def _env_at_a_declaration_with_money_moved(render_mode, **kwargs):
    """An env in mid-game (declaring or discarding), after some money changed hands."""
    env = smuggle_v0.raw_env(num_players=4, render_mode=render_mode, **kwargs)
    env.reset(seed=5)
    rng = random.Random(5)
    while True:
        env.step(_act(env, rng))
        state = env.game_state
        if state.phase in (DECLARE, DISCARD) and len(set(state.scores())) > 2:
            return env


def test_render_ansi_shows_every_players_money():
    env = _env_at_a_declaration_with_money_moved("ansi")
    text = env.render()
    assert isinstance(text, str)
    for p, money in enumerate(env.game_state.scores()):
        assert f"P{p}: £{int(money)}" in text
    assert text == env.game_state.render()


def test_render_ansi_at_the_end():
    env = smuggle_v0.raw_env(num_players=3, render_mode="ansi")
    env.reset(seed=4)
    _play_to_end(env, random.Random(4))
    text = env.render()
    assert "game over" in text
    for money in env.game_state.scores():
        assert f"£{int(money)}" in text


def test_render_perspective():
    env = smuggle_v0.raw_env(num_players=4, render_mode="ansi", render_perspective=2)
    env.reset(seed=0)
    text = env.render()
    assert "P2 (you)" in text and text == env.game_state.render(2)
    everyone = smuggle_v0.raw_env(num_players=4, render_mode="ansi")
    everyone.reset(seed=0)
    assert "(you)" not in everyone.render() and "live hand" in everyone.render()


def test_render_human_prints(capsys):
    env = smuggle_v0.raw_env(num_players=4, render_mode="human")
    env.reset(seed=0)
    capsys.readouterr()
    assert env.render() is None
    printed = capsys.readouterr().out
    assert printed == env.game_state.render() + "\n"
    assert "£3000" in printed


def test_render_without_mode_warns():
    env = smuggle_v0.raw_env(num_players=4)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None


def test_no_output_without_render_mode(capsys):
    env = smuggle_v0.raw_env(num_players=4)
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _advance(env, 30, random.Random(0))
    assert capsys.readouterr().out == ""


def test_render_ansi_in_every_phase():
    """Regression: render.py read a missing ``state.duty_paid`` once a declaration was made."""
    env = smuggle_v0.raw_env(num_players=4, render_mode="ansi")
    env.reset(seed=0)
    rng = random.Random(0)
    phases = set()
    while not env.game_state.is_terminal():
        text = env.render()
        assert isinstance(text, str) and "Smuggle |" in text
        phases.add(env.game_state.phase)
        env.step(_act(env, rng))
    assert len(phases) == 4  # declare, officer, next player, discard
    assert "game over" in env.render()


def test_render_human_prints_every_step(capsys):
    env = smuggle_v0.raw_env(num_players=4, render_mode="human")
    env.reset(seed=0)
    steps = _play_to_end(env, random.Random(0))
    out = capsys.readouterr().out
    assert steps > 50 and out.count("Smuggle |") == steps
    assert out.endswith(env.game_state.render() + "\n") and "game over" in out
