"""An example agent package for smuggle_envs.

``FirstLegalAgent`` implements the Agent protocol (``name``, ``reset``, ``act``) and nothing else;
it imports nothing of smuggle_envs. Seat it three ways:

* ``py:smuggle_agent_example:FirstLegalAgent;pick=last`` (no install needed, only an import path);
* ``greedy_example``, the entry point this package's pyproject.toml declares (once installed);
* ``training.bench.run_bench(FirstLegalAgent(game), "smuggle_v0")`` from Python.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np


class FirstLegalAgent:
    """Plays the first legal action (or the last, pick=last), random one time in ten."""

    name = "first_legal"

    def __init__(self, game: Any = None, pick: str = "first", seed: int | None = None):
        if pick not in ("first", "last"):
            raise ValueError(f"pick is first or last, not {pick!r}")
        self.pick = pick
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if self.rng.random() < 0.1:
            return int(legal[self.rng.randrange(legal.size)])
        return int(legal[0] if self.pick == "first" else legal[-1])
