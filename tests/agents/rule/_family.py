"""Checks every rule bot meets, shared by the per-game tests of ``tests/agents/rule/``: built by
``make_agent("rule", game)``, refuses an empty mask and other games, beats random agents with its
seat rotated, plays only legal actions, and gives the same choices for the same seeds. Each game's
test module calls them with its own game, sizes and bounds (the numbers its docs quote)."""

from __future__ import annotations

import collections
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from agents import Agent, make_agent
from agents.arena import play_game
from agents.base import RandomAgent


def check_built_by_make_agent(game, cls: type) -> None:
    """``make_agent("rule", game)`` builds ``cls``, an ``Agent`` named "rule"."""
    agent = make_agent("rule", game, seed=1)
    assert isinstance(agent, cls) and isinstance(agent, Agent)
    assert agent.name == "rule"


def check_refuses_an_empty_mask(game, cls: type, seat: int = 0) -> None:
    """Asked to act with no legal action, the bot says so (ValueError) instead of guessing."""
    state = game.new_initial_state(0)
    with pytest.raises(ValueError):
        cls(game, seed=0).act(state.observation(seat), np.zeros(game.num_actions, np.int8))


def check_refuses_another_game(cls: type, other_game, match: str | None = None) -> None:
    """The bot of one game cannot be built for another."""
    with pytest.raises(ValueError, match=match):
        cls(other_game)


@dataclass
class Record:
    """A bot's games against random agents: wins (a shared top score counts) and the summed edge
    (its score minus the table's mean score)."""

    games: int
    wins: int = 0
    edge_sum: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def edge(self) -> float:
        return self.edge_sum / self.games


def top_score(state, seat: int) -> bool:
    """A win: the top score, shared or not."""
    scores = state.scores()
    return scores[seat] == max(scores)


def against_random(
    game,
    cls: type,
    games: int,
    *,
    game_seed: Callable[[int], int] = lambda g: g,
    won: Callable[[Any, int], bool] = top_score,
    play: Callable[[Any, int, int], Any] | None = None,
) -> Record:
    """``games`` games of one bot against random agents, its seat rotated: in game ``g`` the bot
    (seeded ``g``) sits at seat ``g % n``, random agent ``i`` is seeded ``g * 10 + i``, and the deal
    is ``game_seed(g)``. ``won(final state, seat)`` says whether the bot won; ``play(game, seat,
    g)`` replaces the arena (returning the final state)."""
    n = game.num_players
    record = Record(games)
    for g in range(games):
        seat = g % n
        if play is not None:
            state = play(game, seat, g)
        else:
            agents = [RandomAgent(game, seed=g * 10 + i) for i in range(n)]
            agents[seat] = cls(game, seed=g)
            state = play_game(game, agents, seed=game_seed(g))
        assert state.is_terminal()
        scores = state.scores()
        record.wins += won(state, seat)
        record.edge_sum += scores[seat] - sum(scores) / n
    return record


def mixed_table(game, cls: type, g: int) -> list:
    """Rule bots in every seat of even games and on even seats of odd ones, random agents
    elsewhere; agent ``i`` of game ``g`` seeded ``g * 10 + i``."""
    return [
        cls(game, seed=g * 10 + i) if g % 2 == 0 or i % 2 == 0 else RandomAgent(game, seed=g * 10 + i)
        for i in range(game.num_players)
    ]


def legal_phases(
    games: Sequence,
    cls: type,
    rounds: int,
    game_seed: Callable[[int], int],
    table: Callable[[Any, type, int], list] = mixed_table,
) -> collections.Counter:
    """Play ``rounds`` games of each game in ``games`` (seats from ``table``, deal
    ``game_seed(g)``) to the end, checking every action of a rule bot is legal; returns how many
    decisions the bots made in each phase."""
    phases: collections.Counter = collections.Counter()
    for game in games:
        for g in range(rounds):
            agents = table(game, cls, g)

            def check(state, player, action, agents=agents):
                if isinstance(agents[player], cls):
                    assert action in state.legal_actions(), (state.phase, action)
                    phases[state.phase] += 1

            assert play_game(game, agents, seed=game_seed(g), on_step=check).is_terminal()
    return phases


def check_same_seed_same_choices(game, cls: type, seed: int = 7) -> None:
    """A table of bots seeded 0, 1, ... plays the same game twice, move for move."""
    n = game.num_players
    runs = [play_game(game, [cls(game, seed=i) for i in range(n)], seed=seed).history for _ in range(2)]
    assert runs[0] == runs[1]
