"""The Agent protocol shared by every policy: random, rule-based, search, trained.

An agent sees exactly what a PettingZoo agent sees: its observation vector and its action mask.
Rule-based bots read the observation by piece name through the game's observation layout, so
they can never use hidden information.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from smuggle_envs.core.game import Game


@runtime_checkable
class Agent(Protocol):
    name: str

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; ``seed`` fixes the agent's own randomness."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Choose one action whose mask entry is 1."""


def legal_of(action_mask: np.ndarray) -> np.ndarray:
    """The legal action ids of a mask, or a clear error when the agent is not to act."""
    legal = np.flatnonzero(action_mask)
    if legal.size == 0:
        raise ValueError("the action mask has no legal action: this agent is not to act")
    return legal


class SeededAgent:
    """An agent with its own seeded RNG, re-seeded by ``reset(seed)``: the base of the library's
    agents, so a game between them is a function of its seeds."""

    name = "agent"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)


class RuleAgent(SeededAgent):
    """Base of the rule bots: one env (``env_id``), a seeded RNG, and the observation read by piece
    name (``self._slices[name]``), never anything hidden."""

    name = "rule"
    env_id: ClassVar[str]

    def __init__(self, game: Game, seed: int | None = None):
        if game.env_id != self.env_id:
            raise ValueError(f"{type(self).__name__} plays {self.env_id}, not {game.env_id}")
        super().__init__(seed)
        self.n = game.num_players
        layout = game.observation_layout
        self._slices = {piece.name: layout.slice(piece.name) for piece in layout.pieces}


class RandomAgent(SeededAgent):
    """Uniformly random over the legal actions."""

    name = "random"

    def __init__(self, game: Game | None = None, seed: int | None = None):
        super().__init__(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = legal_of(action_mask)
        return int(legal[self.rng.randrange(legal.size)])
