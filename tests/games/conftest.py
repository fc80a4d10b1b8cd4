"""What the game tests share: ``same_observations``, the check that an encoder made faster still
writes, byte for byte, what the encoder it replaced wrote (kept in the tests as the reference)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest


def _assert_same(state: Any, player: int, reference: Any, where: str) -> None:
    fast = state.observation(player)
    slow = reference.encode(state, player)
    assert fast.dtype == np.float32 and fast.shape == slow.shape, where
    if fast.tobytes() != slow.tobytes():
        layout = state.game.observation_layout
        pieces = [
            name for name, values in layout.split(fast).items() if values.tobytes() != layout.get(slow, name).tobytes()
        ]
        raise AssertionError(f"{where}, seat {player}: pieces {pieces} differ from the reference")


def check_same_observations(game: Any, reference: Any, seeds: range, *, world_steps: int = 2) -> int:
    """Random games of ``game`` from each seed: at every decision, and at the end, every seat's
    ``observation`` must be byte-identical to ``reference.encode`` (an object with the old
    encoder's ``encode(state, player)``). Every 7th decision the game goes on in a clone, and every
    11th a seat's resampled world is checked too, for ``world_steps`` random decisions. Returns
    the number of observations compared, so a caller can check the games were not empty."""
    n, compared = game.num_players, 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        step = 0
        while True:
            for p in range(n):
                _assert_same(state, p, reference, f"seed {seed}, decision {step}")
            compared += n
            if state.is_terminal():
                break
            if step % 7 == 3:
                state = state.clone()
            if step % 11 == 5:
                world = state.resample(step % n, rng.getrandbits(32))
                for k in range(world_steps + 1):
                    for p in range(n):
                        _assert_same(world, p, reference, f"seed {seed}, decision {step}, world step {k}")
                    compared += n
                    if world.is_terminal():
                        break
                    world.apply_action(rng.choice(world.legal_actions()))
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    return compared


@pytest.fixture
def same_observations() -> Callable[..., int]:
    """``check_same_observations`` (see there)."""
    return check_same_observations


def check_notes_survive_resampling(
    game: Any,
    seeds: range,
    every: int,
    rng: random.Random,
    *,
    tries: int = 1,
    chance: Callable[[list[str]], list[str]] = lambda notes: notes,
    max_steps: int = 10_000,
) -> tuple[int, int]:
    """A game's step notes (``State.step_notes``) tell a seat only what it may know: at every
    ``every``-th step of random games, for every seat but the actor, the same action in a world
    redrawn from that seat's information (up to ``tries`` worlds) gives the same notes whenever
    the seat cannot tell the two worlds apart after the step (its table text and observation
    agree; a search that lays open a different hand is told differently, rightly). ``chance``
    drops the lines that chance may change between such worlds (a card turned over from a pile
    that then moves whole). Returns (pairs compared, of those with a note)."""
    compared = told = 0
    for seed in seeds:
        state = game.new_initial_state(seed)
        for step in range(max_steps):
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            if step % every == 0:
                for truth, same in _notes_in_worlds(state, action, rng, tries):
                    assert chance(same) == chance(truth), (seed, step, action)
                    compared += 1
                    told += bool(truth)
            state.apply_action(action)
    return compared, told


def _notes_in_worlds(before: Any, action: int, rng: random.Random, tries: int) -> list[tuple[list[str], list[str]]]:
    """(the viewer's true notes, its notes in a resampled world it cannot tell apart) for every
    viewer but the actor where one of ``tries`` worlds fits."""
    after = before.clone()
    after.apply_action(action)
    pairs = []
    for viewer in range(before.game.num_players):
        if viewer == before.current_player():
            continue
        seen = (after.render(viewer), after.observation(viewer).tobytes())
        for _ in range(tries):
            world = before.resample(viewer, rng)
            if action not in world.legal_actions():
                continue
            world_after = world.clone()
            world_after.apply_action(action)
            if (world_after.render(viewer), world_after.observation(viewer).tobytes()) == seen:
                truth = after.step_notes(before, action, viewer)
                pairs.append((truth, world_after.step_notes(world, action, viewer)))
                break
    return pairs


@pytest.fixture
def notes_survive_resampling() -> Callable[..., int]:
    """``check_notes_survive_resampling`` (see there)."""
    return check_notes_survive_resampling
