"""Playing whole games between agents, straight on the engine (no env overhead), through the
core :class:`~smuggle_envs.core.driver.Driver`, so the termination contract is the core's: a
game stopped by ``max_decisions`` or by the game's own cap is truncated, has no winner and pays
nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from smuggle_envs.core.driver import BaseObserver, Driver, Observer, Policy
from smuggle_envs.core.game import Game, State

from .base import Agent, decide


def agents_policy(agents: Sequence[Agent]) -> Policy:
    """The driver policy of a table of agents: seat ``p`` acts on its own observation and mask,
    exactly what a PettingZoo agent sees (a search agent on its seat's view: ``decide``)."""

    def policy(state: State[Any], player: int) -> int:
        return decide(agents[player], state, player)

    return policy


class _StepCallback(BaseObserver):
    def __init__(self, on_step: Callable[[State[Any], int, int], None]):
        self.on_step = on_step

    def on_action(self, state: State[Any], player: int, action: int) -> None:
        self.on_step(state, player, action)


def play(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    observers: Iterable[Observer] = (),
    max_decisions: int | None = None,
) -> Driver:
    """Play one game, seat ``i`` played by ``agents[i]``; returns the finished driver (its
    ``state``, ``terminated``/``truncated``, ``returns(mode)`` and ``winning_seats()``)."""
    if len(agents) != game.num_players:
        raise ValueError(
            f"{game.env_id} with {game.num_players} players needs {game.num_players} agents, got {len(agents)}"
        )
    driver = Driver(game, max_decisions=max_decisions, observers=observers)
    for i, agent in enumerate(agents):
        agent.reset(seed * 1000 + i)
    driver.reset(seed)
    driver.play(agents_policy(agents))
    return driver


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    on_step: Callable[[State[Any], int, int], None] | None = None,
    max_decisions: int | None = None,
) -> State[Any]:
    """Play one game and return its final state (see :func:`play` for the outcome).

    ``on_step(state, player, action)`` is called before each action is applied. A game that
    reaches ``max_decisions`` stops unfinished (``state.is_terminal()`` is False)."""
    observers = [] if on_step is None else [_StepCallback(on_step)]
    return play(game, agents, seed, observers, max_decisions).state
