"""The trainer's in-process vector env: SB3's ``DummyVecEnv`` over ``SelfPlayEnv`` games whose
opponents play together.

``DummyVecEnv`` steps its games one after another, and each game's opponents decide one at a
time: with league snapshots in the pool, a network's forward pass per opponent decision (about
40 µs at Smuggle's sizes) where one pass over the waiting games of the whole vector env costs
about what two do. ``SelfPlayVecEnv`` keeps everything of ``DummyVecEnv`` (buffers, seeding,
``env_method``, the auto-reset with ``terminal_observation`` and ``TimeLimit.truncated``) and
replaces its ``step_wait``: every game takes the learner's action, then
``play_opponents_together`` advances all of them to their learner's next decision, and the games
that ended are dealt again together (``reset_together``).

Each game's moves are its own seeded agents', so a run is a function of its seed, as with
``DummyVecEnv``; with no network in the pool (rule bots, random agents) the games are the same to
the bit as ``DummyVecEnv``'s; a network's samples may tip otherwise on a float rounding of its
batched forward (``agents.ppo.act_together``; tests count how often).
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv

from .single_agent import SelfPlayEnv, play_opponents_together, reset_together


class SelfPlayVecEnv(DummyVecEnv):
    """``DummyVecEnv`` over ``SelfPlayEnv`` games, their opponents' decisions taken together."""

    envs: list[SelfPlayEnv]  # type: ignore[assignment]

    def step_wait(self) -> Any:
        games = self.envs
        for game, action in zip(games, self.actions):
            game.act(action)
        play_opponents_together(games)
        ended = []
        for i, game in enumerate(games):
            obs, reward, terminated, truncated, info = game.outcome()
            self.buf_rews[i], self.buf_dones[i] = reward, terminated or truncated
            info["TimeLimit.truncated"] = truncated and not terminated
            self.buf_infos[i] = info
            if self.buf_dones[i]:
                info["terminal_observation"] = obs
                ended.append(i)
            else:
                self._save_obs(i, obs)
        for i, obs in zip(ended, reset_together([games[i] for i in ended])):
            self.reset_infos[i] = {}
            self._save_obs(i, obs)
        return self._obs_from_buf(), np.copy(self.buf_rews), np.copy(self.buf_dones), deepcopy(self.buf_infos)


__all__ = ["SelfPlayVecEnv"]
