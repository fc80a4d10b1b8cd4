"""illegal_v0 through the generic AEC wrapper: Illegal's own cases. (PettingZoo's api_test and
seed_test, the registry and constructors, masks, refused actions, determinism and replays, as for
every game: ``tests/core/families/``.)"""

import numpy as np

from smuggle_envs import illegal_v0
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import PASS


def test_out_of_turn_decisions_are_agent_selections():
    # A Paranoia card: every player in turn passes a card; the env asks each agent in order.
    env = illegal_v0.raw_env(num_players=3)
    env.reset(seed=0)
    state = env.game_state
    state.arrange(hands={0: ["death in the family", "alibi", "alibi"]})
    env.agent_selection = "player_0"
    env.step(A.play("death in the family"))
    order = []
    while state.phase == PASS:
        order.append(env.agent_selection)
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert order == ["player_0", "player_1", "player_2"]
