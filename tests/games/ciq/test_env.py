"""ciq_v0 through the generic AEC wrapper: CIQ's own cases. (PettingZoo's api_test and seed_test,
constructors, spaces, masks, rewards and ``max_turns`` truncation, as for every game:
``tests/core/families/test_env_family.py``.)"""

import random

import numpy as np
import pytest

from smuggle_envs import ciq_v0
from smuggle_envs.games.ciq import actions as A


def _act(env, rng):
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(rng.choice(np.flatnonzero(mask)))


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
    # The winner got rid of every card: its score is the top one, 0, and so is its reward.
    env = ciq_v0.raw_env(num_players=3, reward_mode=reward_mode)
    env.reset(seed=5)
    rng = random.Random(5)
    while not env.game_state.is_terminal():
        env.step(_act(env, rng))
    state = env.game_state
    assert state.winners
    scores = state.scores()
    assert all(scores[w] == 0 == max(scores) for w in state.winners)
    winner = env.possible_agents[state.winners[0]]
    assert env.rewards[winner] == max(env.rewards.values())


def test_turn_limit_is_a_draw_reported_as_truncation():
    env = ciq_v0.raw_env(num_players=3, turn_limit=5)
    env.reset(seed=1)
    rng = random.Random(1)
    while not env.game_state.is_terminal():
        env.step(_act(env, rng))
    assert env.game_state.drawn_game and env.game_state.is_truncated()
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {a: 0.0 for a in env.possible_agents}
