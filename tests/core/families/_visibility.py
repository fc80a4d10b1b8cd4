"""The check behind every "what may a seat see of an action" test (``State.action_to_string``).

At a position where ``actor`` decides, for every other seat ``viewer``:

(a) redrawing what the viewer cannot see (``resample(viewer)``) never changes the viewer's text of
    an action legal in both worlds;
(b) two legal actions after which the viewer's observation and its rendered table are alike read
    alike to the viewer, unless they leave no trace for anyone (every seat's observation and the
    full table alike): only a public action can do that (a Raid on a table with nothing to raid
    goes straight to the discard pile, whether played or discarded), and the viewer saw it made.

The actor and the full view read the full text.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any


def check_action_strings(state: Any, rng: random.Random, max_actions: int = 40) -> int:
    """Run (a) and (b) at ``state`` for every viewer; returns how many viewers were checked."""
    game = state.game
    n, actor = game.num_players, state.current_player()
    legal = state.legal_actions()
    for action in legal:
        assert state.action_to_string(action, actor) == state.action_to_string(action) == game.action_to_string(action)
    sample = legal if len(legal) <= max_actions else rng.sample(legal, max_actions)
    children = []
    for action in sample:
        child = state.clone()
        child.apply_action(action)
        trace = (tuple(child.observation(p).tobytes() for p in range(n)), child.render())
        children.append((action, child, trace))
    checked = 0
    for viewer in range(n):
        if viewer == actor:
            continue
        other = state.resample(viewer, rng)
        for action in set(legal) & set(other.legal_actions()):  # (a)
            assert state.action_to_string(action, viewer) == other.action_to_string(action, viewer), (viewer, action)
        seen: dict[tuple[bytes, str], tuple[int, str, object]] = {}
        for action, child, trace in children:  # (b)
            key = (child.observation(viewer).tobytes(), child.render(viewer))
            text = state.action_to_string(action, viewer)
            if key not in seen:
                seen[key] = (action, text, trace)
                continue
            first, first_text, first_trace = seen[key]
            assert first_text == text or first_trace == trace, (
                f"{game.action_to_string(first)!r} and {game.action_to_string(action)!r} look alike to seat "
                f"{viewer} but read {first_text!r} and {text!r}"
            )
        checked += 1
    return checked


def positions(
    game: Any,
    seeds: range,
    every: int,
    policy: Callable[[Any, random.Random], int],
    always: Callable[[Any], bool] = lambda state: False,
    max_steps: int = 1500,
) -> Iterator[tuple[Any, random.Random]]:
    """(position, rng) pairs of random games: every ``every`` decisions, and whenever ``always``."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        step = 0
        while not state.is_terminal() and step < max_steps:
            if state.legal_actions() and (step % every == 0 or always(state)):
                yield state, rng
            state.apply_action(policy(state, rng))
            step += 1
