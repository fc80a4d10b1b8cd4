"""humble_smuggle_v0 through the generic AEC wrapper: PettingZoo's api_test and seed_test for 2 to
5 players, constructors, spaces, masks, rewards, truncation, clones and replays."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import smuggle_envs
from smuggle_envs import humble_smuggle_v0
from smuggle_envs.core import Replay
from smuggle_envs.core.errors import ConfigError, IllegalActionError, MalformedActionError
from smuggle_envs.core.outcomes import rewards as outcome_rewards

PLAYERS = (2, 3, 4, 5)


def _act(env, rng):
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("num_players", PLAYERS)
def test_api_test(num_players):
    api_test(humble_smuggle_v0.env(num_players=num_players), num_cycles=200)


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("num_players", PLAYERS)
def test_seed_test(num_players):
    seed_test(lambda: humble_smuggle_v0.env(num_players=num_players), num_cycles=200)


@pytest.mark.filterwarnings("ignore:Observation")
def test_api_test_with_truncation_and_rank_rewards():
    api_test(humble_smuggle_v0.env(num_players=3, reward_mode="rank", max_turns=40), num_cycles=100)


def test_registry_and_constructors():
    assert "humble_smuggle_v0" in smuggle_envs.ENV_IDS
    assert {
        "env_id": "humble_smuggle_v0",
        "game": "Humble smuggle",
        "players": "2-5",
    } in smuggle_envs.registry.describe()
    for make in (
        humble_smuggle_v0.env,
        humble_smuggle_v0.raw_env,
        lambda **kw: smuggle_envs.make("humble_smuggle_v0", **kw),
    ):
        env = make(num_players=5, reward_mode="score", first_player=2, discard_count="values")
        env.reset(seed=1)
        raw = env.unwrapped
        assert raw.game.num_players == 5 and raw.game.config.discard_count == "values"
        assert raw.game_state.first == 2 and env.agent_selection == "player_2"
        assert env.metadata["name"] == "humble_smuggle_v0"
        assert env.action_space("player_0").n == 217
        assert env.observation_space("player_0")["observation"].shape == (386 + 108 * 5 + 25,)
    assert humble_smuggle_v0.raw_env().game.num_players == 4
    with pytest.raises(ConfigError, match="num_players"):
        humble_smuggle_v0.env(players=3)
    with pytest.raises(ConfigError):
        humble_smuggle_v0.env(num_players=6)


@pytest.mark.parametrize("num_players", [2, 5])
def test_observations_and_masks_follow_the_state(num_players):
    env = humble_smuggle_v0.raw_env(num_players=num_players)
    env.reset(seed=num_players)
    rng = random.Random(num_players)
    while not env.terminations[env.agent_selection]:
        current = env.agent_selection
        assert current == f"player_{env.game_state.current_player()}"
        for agent in env.possible_agents:
            obs = env.observe(agent)
            assert env.observation_space(agent).contains(obs)
            np.testing.assert_array_equal(obs["observation"], env.game_state.observation(env.agent_name_mapping[agent]))
            if agent == current:
                assert np.flatnonzero(obs["action_mask"]).tolist() == list(env.game_state.legal_actions())
            else:
                assert not obs["action_mask"].any()
        env.step(_act(env, rng))


@pytest.mark.parametrize("reward_mode", ["win_loss", "rank", "score"])
def test_rewards_match_the_final_scores(reward_mode):
    env = humble_smuggle_v0.env(num_players=4, reward_mode=reward_mode)
    env.reset(seed=5)
    rng = random.Random(5)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
        else:
            assert reward == 0.0
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.unwrapped.game_state
    expected = outcome_rewards(state.scores(), reward_mode, env.unwrapped.game.score_scale)
    assert final == pytest.approx(dict(zip(env.possible_agents, expected)))


def test_refused_actions_change_nothing():
    state = smuggle_envs.make_game("humble_smuggle_v0", num_players=3).new_initial_state(0)
    before = (state.observation(0).tolist(), list(state.centre), [list(h) for h in state.hands])
    legal = set(state.legal_actions())
    for bad in (next(a for a in range(217) if a not in legal), 217, -1):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
    for bad in (1.0, "3", True, None):
        with pytest.raises(MalformedActionError):
            state.apply_action(bad)
    assert before == (state.observation(0).tolist(), list(state.centre), [list(h) for h in state.hands])
    state.apply_action(np.int64(min(legal)))  # numpy ints are fine


def test_clone_is_independent_and_continues_identically():
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=4)
    state = game.new_initial_state(11)
    rng = random.Random(1)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
    copy = state.clone()
    snapshot = (bytes(state.buf), state.rng.getstate(), list(state.deck), [list(h) for h in state.hands])
    other = random.Random(2)
    while not copy.is_terminal():
        copy.apply_action(other.choice(copy.legal_actions()))
    assert snapshot == (bytes(state.buf), state.rng.getstate(), list(state.deck), [list(h) for h in state.hands])
    # the same actions from a clone give the same game, RNG included (black reshuffles)
    twin = state.clone()
    for s in (state, twin):
        r = random.Random(3)
        while not s.is_terminal():
            s.apply_action(r.choice(s.legal_actions()))
    assert state.history == twin.history and bytes(state.buf) == bytes(twin.buf)


def test_replay_reproduces_the_game():
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=3, end_card_depth=30)
    state = game.new_initial_state(99)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    replay = Replay.from_json(state.to_replay().to_json())
    final = replay.final_state()
    assert final.scores() == state.scores() and bytes(final.buf) == bytes(state.buf)


def test_arranged_states_refuse_to_replay(table):
    t = table(hands={0: [45, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]})
    with pytest.raises(ValueError, match="arrange"):
        t.state.to_replay()
    t.draft(*[a + 1 for a in t.state.legal_actions()[:1]])
    with pytest.raises(RuntimeError):
        t.state.arrange(first=1)
