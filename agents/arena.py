"""Playing whole games between agents, straight on the engine (no env overhead)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from smuggle_envs.core.game import Game, State

from .base import Agent


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    on_step: Callable[[State, int, int], None] | None = None,
    max_decisions: int | None = None,
) -> State:
    """Play one game, seat ``i`` played by ``agents[i]``; returns the final state.

    ``on_step(state, player, action)`` is called before each action is applied. A game that
    reaches ``max_decisions`` stops unfinished (check ``state.is_terminal()``).
    """
    if len(agents) != game.num_players:
        raise ValueError(
            f"{game.env_id} with {game.num_players} players needs {game.num_players} agents, got {len(agents)}"
        )
    state = game.new_initial_state(seed)
    for i, agent in enumerate(agents):
        agent.reset(seed * 1000 + i)
    decisions = 0
    while not state.is_terminal():
        if max_decisions is not None and decisions >= max_decisions:
            break
        player = state.current_player()
        action = agents[player].act(state.observation(player), state.legal_action_mask())
        if on_step is not None:
            on_step(state, player, action)
        state.apply_action(action)
        decisions += 1
    return state
