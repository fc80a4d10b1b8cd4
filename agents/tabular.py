"""``tabular:PATH``: a fixed policy stored as a table, observation -> action probabilities.

The table is a JSON file written by :func:`save_table`::

    {"env_id": "os_kuhn_poker_v0", "num_players": 2, "note": "CFR average policy, 3 iterations",
     "policy": {"<observation key>": {"0": 0.25, "1": 0.75}, ...}}

The key of an observation is :func:`observation_key`: the hex of its float32 bytes, exact and
cheap. Such a table is a complete policy where the observation determines the information state,
as it does for the OpenSpiel games of ``smuggle_envs.pyspiel_game`` (their observation is the
perfect-recall ``information_state_tensor``): an equilibrium or a CFR iterate computed by
OpenSpiel then plays in every tool of the library (``smuggle match``, ``smuggle exploit``,
tournaments). An observation missing from the table is played uniformly over the legal actions
and counted in ``misses``, so a partial table (a sampled MCCFR policy) still plays.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .base import SeededAgent, legal_of

if TYPE_CHECKING:
    from smuggle_envs.core.game import Game


def observation_key(observation: np.ndarray) -> str:
    """The table key of an observation: the hex of its float32 bytes."""
    return np.asarray(observation, dtype=np.float32).tobytes().hex()


def save_table(
    path: str | os.PathLike[str],
    env_id: str,
    num_players: int,
    policy: Mapping[str, Mapping[int, float]],
    note: str = "",
) -> Path:
    """Write a policy table (``observation key -> {action: probability}``) as ``TabularAgent`` reads it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {k: {str(a): float(p) for a, p in probs.items()} for k, probs in policy.items()}
    data = {"env_id": env_id, "num_players": num_players, "note": note, "policy": body}
    path.write_text(json.dumps(data, sort_keys=True) + "\n", encoding="utf-8")
    return path


class TabularAgent(SeededAgent):
    """A policy table from a JSON file (``tabular:PATH``): samples the stored probabilities."""

    name = "tabular"

    def __init__(self, game: Game, path: str = "", seed: int | None = None):
        super().__init__(seed)
        if not path:
            raise ValueError("the tabular agent needs a table: tabular:PATH (a JSON file from save_table)")
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("env_id") != game.env_id or data.get("num_players") != game.num_players:
            raise ValueError(
                f"{path} is a table of {data.get('env_id')} at {data.get('num_players')} players, "
                f"not of {game.env_id} at {game.num_players}"
            )
        self.table: dict[str, dict[int, float]] = {
            key: {int(a): float(p) for a, p in probs.items()} for key, probs in data["policy"].items()
        }
        self.misses = 0  # decisions at an observation the table lacks (played uniformly)

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> dict[int, float]:
        """The stored distribution over the legal actions (uniform where the table has none)."""
        legal = [int(a) for a in legal_of(action_mask)]
        stored = self.table.get(observation_key(observation))
        if stored is None:
            return {a: 1.0 / len(legal) for a in legal}
        total = sum(stored.get(a, 0.0) for a in legal)
        if total <= 0.0:  # the table gives no weight to any legal action: it is not this position's
            return {a: 1.0 / len(legal) for a in legal}
        return {a: stored.get(a, 0.0) / total for a in legal}

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if observation_key(observation) not in self.table:
            self.misses += 1
        probs = self.action_probabilities(observation, action_mask)
        actions = list(probs)
        return int(self.rng.choices(actions, weights=[probs[a] for a in actions])[0])
