"""The perfect-recall check behind every "a sampled world agrees with everything the seat has
seen" test (``State.resample``).

A seat's information set after a step can be reached two ways:

* **resample now**: ``resample(viewer)`` of the position after the step;
* **resample before, then step**: ``resample(viewer)`` of the position before the step, then an
  action the viewer cannot tell from the one made (the same action if the viewer made it, else a
  legal action that reads the same to the viewer), kept only if the viewer's observation after it
  is the one it really got.

Both routes must describe the same set of worlds. The check compares what every *other* seat
would observe in the worlds of each route (their hands, their private knowledge: the facts the
viewer is unsure of): a fact that is certain along one route (the same in every world) must not
be contradicted in a third or more of the worlds of the other. A ``resample`` that copies a hidden
fact from the truth (a hand kept as it is during another seat's decision) is certain where the
stepped worlds vary; one that forgets what an earlier step showed (a card known to be in a hand
dropped when the observation moves on) varies where the stepped worlds, drawn while it still
remembered, agree. By induction over the steps of a game, no sampled world contradicts the seat's
observation history. A step too unlikely to reproduce from the viewer's information set (a reveal
that must show exactly the real cards) is not checked there (too few stepped worlds); each
game's own tests check its reveals directly (e.g. Import / Export's Hawaiian Salt).

The thresholds keep the check exact in practice: a fact that holds in ``1 - e`` of the true
information set looks certain in ``samples`` worlds with probability ``(1 - e) ** samples``, so
only facts with ``e`` near zero look certain, and those are contradicted in a quarter of the other
route's worlds only if the route is wrong.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

CONTRADICTED = 1 / 3  # the share of the other route's worlds that may disagree with a certain fact


def _facts(world: Any, viewer: int) -> np.ndarray:
    """What the other seats would observe in ``world``: the facts the viewer may be unsure of."""
    n = world.game.num_players
    return np.concatenate([world.observation(q) for q in range(n) if q != viewer])


def _stepped_worlds(before: Any, action: int, after: Any, viewer: int, rng: random.Random, samples: int) -> list:
    """Worlds of the "resample before, then step" route; fewer than ``samples`` if most are rejected."""
    actor = before.current_player()
    seen = before.action_to_string(action, viewer)
    target = after.observation(viewer).tobytes()
    worlds: list = []
    for _ in range(samples * 8):
        world = before.resample(viewer, rng)
        legal = world.legal_actions()
        if actor == viewer:
            alike = [action] if action in legal else []
        else:
            alike = [b for b in legal if world.action_to_string(b, viewer) == seen]
        if not alike:
            continue
        world.apply_action(rng.choice(alike))
        if world.is_terminal() == after.is_terminal() and world.observation(viewer).tobytes() == target:
            worlds.append(world)
            if len(worlds) == samples:
                break
    return worlds


def _disagreement(certain_in: np.ndarray, other: np.ndarray) -> tuple[int, float] | None:
    """The coordinate most contradicted: certain in ``certain_in``, differing in ``other``."""
    certain = (certain_in == certain_in[0]).all(axis=0)
    if not certain.any():
        return None
    wrong = (other[:, certain] != certain_in[0, certain]).mean(axis=0)
    worst = int(wrong.argmax())
    if wrong[worst] < CONTRADICTED:
        return None
    return int(np.flatnonzero(certain)[worst]), float(wrong[worst])


def _piece_name(game: Any, viewer: int, index: int) -> str:
    """Which seat's observation, and which piece of it, a coordinate of ``_facts`` is."""
    size = len(game.observation_layout)
    seats = [q for q in range(game.num_players) if q != viewer]
    seat, offset = seats[index // size], index % size
    for piece in game.observation_layout.pieces:
        span = game.observation_layout.slice(piece.name)
        if span.start <= offset < span.stop:
            return f"seat {seat}'s {piece.name!r}[{offset - span.start}]"
    return f"seat {seat}'s coordinate {offset}"


def check_recall(before: Any, action: int, after: Any, rng: random.Random, samples: int = 64) -> int:
    """Compare the two routes at the step ``before --action--> after`` for every seat that can
    resample after it; returns how many seats had enough stepped worlds to be checked."""
    if after.is_terminal():
        return 0
    game = before.game
    checked = 0
    for viewer in range(game.num_players):
        stepped = _stepped_worlds(before, action, after, viewer, rng, samples)
        if len(stepped) < samples:
            continue  # the step is too unlikely from the viewer's information set to sample
        fresh = np.stack([_facts(after.resample(viewer, rng), viewer) for _ in range(samples)])
        routed = np.stack([_facts(world, viewer) for world in stepped])
        for name, certain_in, other in (("the stepped worlds", routed, fresh), ("resample", fresh, routed)):
            found = _disagreement(certain_in, other)
            assert found is None, (
                f"{game.action_to_string(action)!r} by seat {before.current_player()}: for seat {viewer}, "
                f"{_piece_name(game, viewer, found[0])} is certain in {name} but differs in "
                f"{found[1]:.0%} of the other route's worlds"
            )
        checked += 1
    return checked
