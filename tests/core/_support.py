"""Shared helpers for the core tests: random play, and snapshots to prove "nothing changed"."""

from __future__ import annotations

import functools
import random

import numpy as np

from smuggle_envs.core.game import State
from smuggle_envs.registry import make_game

PLAYER_COUNTS = (3, 4, 5, 6)


@functools.cache
def game(num_players: int = 4, **config):
    """A cached Smuggle game (games are immutable, so sharing one between tests is safe)."""
    return make_game("smuggle_v0", num_players=num_players, **config)


def play_random(state: State, rng: random.Random, steps: int | None = None) -> State:
    """Apply up to ``steps`` uniformly random legal actions (all the way to the end if None)."""
    done = 0
    while not state.is_terminal() and (steps is None or done < steps):
        state.apply_action(rng.choice(state.legal_actions()))
        done += 1
    return state


def random_state(num_players: int, seed: int, steps: int | None) -> State:
    """The state after ``steps`` random legal actions of a game dealt with ``seed``."""
    return play_random(game(num_players).new_initial_state(seed), random.Random(seed), steps)


def finished_state(num_players: int = 4, seed: int = 0) -> State:
    state = random_state(num_players, seed, None)
    assert state.is_terminal()
    return state


def snapshot_state(state: State) -> dict:
    """Everything observable about a state through the public contract, plus its RNG and hidden
    facts. (Not ``render()``: it is tested on its own, see test_env.py.)"""
    n = state.game.num_players
    return {
        "observations": [state.observation(p).tolist() for p in range(n)],
        "history": list(state.history),
        "scores": list(state.scores()),
        "current_player": state.current_player(),
        "legal_actions": list(state.legal_actions()),
        "mask": state.legal_action_mask().tolist(),
        "terminal": state.is_terminal(),
        "rng": state.rng.getstate(),
        "seed": state.seed,
        # hidden facts of the concrete game (Smuggle), so a change behind the observations shows
        "hidden": {name: _plain(getattr(state, name)) for name in HIDDEN if hasattr(state, name)},
    }


HIDDEN = ("buf", "deck", "money", "hand_size", "kept", "decl_action", "phase", "rounds_played")


def _plain(value):
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, list):
        return list(value)
    return value


def snapshot_env(env) -> dict:
    """Everything an agent or trainer can read from a (raw or wrapped) AEC env."""
    raw = env.unwrapped
    observations = {}
    for agent in raw.possible_agents:
        obs = raw.observe(agent)
        observations[agent] = (obs["observation"].tolist(), obs["action_mask"].tolist())
    return {
        "agent_selection": raw.agent_selection,
        "agents": list(raw.agents),
        "observations": observations,
        "rewards": dict(raw.rewards),
        "cumulative_rewards": dict(raw._cumulative_rewards),
        "terminations": dict(raw.terminations),
        "truncations": dict(raw.truncations),
        "infos": {a: dict(i) for a, i in raw.infos.items()},
        "turns": raw.turns,
        "state": snapshot_state(raw.game_state),
    }


def legal_from_mask(mask: np.ndarray) -> list[int]:
    return [int(a) for a in np.flatnonzero(mask)]


def illegal_in_range(state: State, rng: random.Random) -> int:
    """An in-range action that the current player may not take now."""
    legal = set(state.legal_actions())
    return rng.choice([a for a in range(state.game.num_actions) if a not in legal])
