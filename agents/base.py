"""The Agent protocol shared by every policy: random, rule-based, search, trained.

An agent sees exactly what a PettingZoo agent sees: its observation vector and its action mask.
Rule-based bots read the observation by piece name through the game's observation layout, so
they can never use hidden information.

A search agent (IS-MCTS and the like) needs more: worlds to simulate. It implements
``act_in(view)`` instead of ``act``, and gets a :class:`SeatView`, which exposes its seat's
observation and legal actions and ``sample_world(rng)``, a full game state drawn from the seat's
information set (``State.resample(seat, rng)``), its view as text (``text(log)``, what the
language-model agent reads), and nothing else of the true state. Every tool asks an agent for
its move through :func:`decide`, which hands each kind what it may use.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from smuggle_envs.core.game import Game, State
    from smuggle_envs.text import TextObservation


@runtime_checkable
class Agent(Protocol):
    name: str

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; ``seed`` fixes the agent's own randomness."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Choose one action whose mask entry is 1."""


class SeatView:
    """What a search agent may use of the game at its decision: its own seat's observation and
    legal actions, the game, and worlds sampled from its information set. The true state stays
    private to the view (a search agent must never read it)."""

    __slots__ = ("__state", "game", "player")

    def __init__(self, state: State[Any], player: int):
        self.__state = state
        self.game = state.game
        self.player = player

    def observation(self) -> np.ndarray:
        return self.__state.observation(self.player)

    def legal_actions(self) -> tuple[int, ...]:
        return self.__state.legal_actions()

    def legal_action_mask(self) -> np.ndarray:
        return self.__state.legal_action_mask()

    def sample_world(self, rng: Any = None) -> State[Any]:
        """A full state consistent with everything this seat has observed, hidden cards redrawn."""
        return self.__state.resample(self.player, rng)

    def step(self) -> int:
        """How many actions the game has had so far (every seat sees that a move was made)."""
        return len(self.__state.history)

    def text(self, log: Any = None, *, history: int | None = 40) -> TextObservation:
        """The seat's view as text (``smuggle_envs.text.observe``): its table, the last
        ``history`` lines of its log (``log``, a ``SeatLog`` brought up to date here, or None)
        and its numbered legal actions. Only what the seat may know is written."""
        from smuggle_envs.text import observe

        return observe(self.__state, self.player, log, history=history)


def decide(agent: Any, state: State[Any], player: int) -> int:
    """The move of ``agent`` playing seat ``player`` in ``state``: a search agent (``act_in``)
    gets a :class:`SeatView`, every other agent its observation and mask."""
    act_in = getattr(agent, "act_in", None)
    if act_in is not None:
        return int(act_in(SeatView(state, player)))
    return int(agent.act(state.observation(player), state.legal_action_mask()))


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
