"""The Agent protocol shared by every policy: random, rule-based, search, trained.

An agent sees exactly what a PettingZoo agent sees: its observation vector and its action mask.
Rule-based bots read the observation by piece name through the game's observation layout, so
they can never use hidden information.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    name: str

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; ``seed`` fixes the agent's own randomness."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Choose one action whose mask entry is 1."""


class RandomAgent:
    """Uniformly random over the legal actions."""

    name = "random"

    def __init__(self, game=None, seed: int | None = None):
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("the action mask has no legal action: this agent is not to act")
        return int(legal[self.rng.randrange(legal.size)])
