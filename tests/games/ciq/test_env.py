"""ciq_v0 through the generic AEC wrapper: PettingZoo's api_test and seed_test for 2 to 6
players, constructors, masks, rewards, the turn limit and env truncation."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import smuggle_envs
from smuggle_envs import ciq_v0
from smuggle_envs.core.errors import ConfigError
from smuggle_envs.core.outcomes import rewards as outcome_rewards
from smuggle_envs.games.ciq import actions as A

PLAYERS = (2, 3, 4, 5, 6)


def _act(env, rng):
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("num_players", PLAYERS)
def test_api_test(num_players):
    api_test(ciq_v0.env(num_players=num_players), num_cycles=200)


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("num_players", PLAYERS)
def test_seed_test(num_players):
    seed_test(lambda: ciq_v0.env(num_players=num_players), num_cycles=200)


@pytest.mark.filterwarnings("ignore:Observation")
def test_api_test_with_truncation_and_score_rewards():
    api_test(ciq_v0.env(num_players=3, reward_mode="score", max_turns=40), num_cycles=100)


def test_registry_and_constructors():
    assert "ciq_v0" in smuggle_envs.ENV_IDS
    assert {"env_id": "ciq_v0", "game": "CIQ (Jason Reed)", "players": "2-6"} in smuggle_envs.registry.describe()
    for make in (ciq_v0.env, ciq_v0.raw_env, lambda **kw: smuggle_envs.make("ciq_v0", **kw)):
        env = make(num_players=5, reward_mode="rank", ace_is_face=True)
        env.reset(seed=1)
        raw = env.unwrapped
        assert raw.game.num_players == 5 and raw.game.config.ace_is_face and raw.reward_mode == "rank"
        assert env.possible_agents == [f"player_{i}" for i in range(5)]
        assert env.metadata["name"] == "ciq_v0"
        assert env.action_space("player_0").n == 274
        assert env.observation_space("player_0")["observation"].shape == (311 + 182 * 5,)
    with pytest.raises(ConfigError, match="num_players"):
        ciq_v0.env(players=3)


@pytest.mark.parametrize("num_players", [2, 4])
def test_observations_and_masks_follow_the_state(num_players):
    env = ciq_v0.raw_env(num_players=num_players)
    env.reset(seed=num_players)
    rng = random.Random(num_players)
    for _ in range(120):
        if env.terminations[env.agent_selection]:
            break
        current = env.agent_selection
        assert current == f"player_{env.game_state.current_player()}"
        for agent in env.possible_agents:
            obs = env.observe(agent)
            assert env.observation_space(agent).contains(obs)
            seat = env.agent_name_mapping[agent]
            np.testing.assert_array_equal(obs["observation"], env.game_state.observation(seat))
            if agent == current:
                assert obs["action_mask"].tolist() == env.game_state.legal_action_mask().tolist()
                assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == list(env.game_state.legal_actions())
            else:
                assert not obs["action_mask"].any()
        env.step(_act(env, rng))


def test_the_target_decides_out_of_turn_in_the_env():
    env = ciq_v0.raw_env(num_players=3)
    env.reset(seed=0)
    env.game_state.arrange(
        hands={0: ["6h", "10h", "3c", "4c", "5c", "7c", "8c"], 2: ["Qs", "3s", "8s", "9c", "9d", "7s", "2s"]},
        tolerance={2: ["9s"]},
    )
    for action in (A.target(2), A.ship("6h"), A.ship("10h")):
        env.step(action)
    assert env.agent_selection == "player_2"
    mask = env.observe("player_2")["action_mask"]
    assert set(np.flatnonzero(mask).tolist()) == {A.fire("Qs"), A.KEEP}
    env.step(A.KEEP)
    assert env.agent_selection == "player_1"  # P0's turn is over, P1 is next


@pytest.mark.parametrize("reward_mode", ["win_loss", "rank", "score"])
def test_rewards_at_the_end(reward_mode):
    env = ciq_v0.raw_env(num_players=3, reward_mode=reward_mode)
    env.reset(seed=5)
    rng = random.Random(5)
    while not env.game_state.is_terminal():
        env.step(_act(env, rng))
    state = env.game_state
    assert state.winners
    expected = dict(zip(env.possible_agents, outcome_rewards(state.scores(), reward_mode, env.game.score_scale)))
    assert env.rewards == pytest.approx(expected)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    winner = env.possible_agents[state.winners[0]]
    assert env.rewards[winner] == max(env.rewards.values())


def test_turn_limit_is_a_draw_reported_as_truncation_and_so_is_max_turns():
    env = ciq_v0.raw_env(num_players=3, turn_limit=5)
    env.reset(seed=1)
    rng = random.Random(1)
    while not env.game_state.is_terminal():
        env.step(_act(env, rng))
    assert env.game_state.drawn_game and env.game_state.is_truncated()
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {a: 0.0 for a in env.possible_agents}
    env = ciq_v0.raw_env(num_players=3, max_turns=25)
    env.reset(seed=1)
    for _ in range(25):
        env.step(_act(env, rng))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {a: 0.0 for a in env.possible_agents}
