"""What another seat sees of an action (``State.action_to_string(action, viewer)``).

Every CIQ decision is public (cards are shipped, sabotaged, hired, fired and transferred face up;
a target is named; a draw does not show the card), so every seat reads the full text. Checked on
random games at the smallest and largest tables:

(a) a viewer's text of an action never depends on what the viewer cannot see: resampling the
    hidden cards from its seat never changes it;
(b) two actions after which the viewer's observation and view of the table are alike read alike
    to it, unless the difference left a trace somewhere else (another seat's observation or the
    whole table): then it was public when made and an automatic continuation erased it from the
    viewer's observation (two hand cards transferred in either order when both go; see below).

A Fire's face card goes to the bottom of the target's Export pile, which the target may draw
out again before it next decides (the Stock gone, the pile short); the observation records
another seat's Export pile only as the cards seen to go in and not come out, so the table text
keeps the last Fire (``last_fire``) to tell the two Fires apart, as everyone saw them.
"""

from __future__ import annotations

import random

import pytest

import smuggle_envs
from smuggle_envs.games.ciq import actions as A


def _check_position(state, rng: random.Random) -> None:
    game = state.game
    n, actor, legal = game.num_players, state.current_player(), state.legal_actions()
    children = []
    for action in legal:
        child = state.clone()
        child.apply_action(action)
        everything = (tuple(child.observation(p).tobytes() for p in range(n)), child.render())
        children.append((action, child, everything))
    for viewer in range(n):
        if viewer == actor:
            continue
        other = state.resample(viewer, rng)
        for action in set(legal) & set(other.legal_actions()):  # (a)
            assert state.action_to_string(action, viewer) == other.action_to_string(action, viewer)
        seen: dict[tuple[bytes, str], tuple[int, str, object]] = {}
        for action, child, everything in children:  # (b)
            key = (child.observation(viewer).tobytes(), child.render(viewer))
            text = state.action_to_string(action, viewer)
            if key not in seen:
                seen[key] = (action, text, everything)
                continue
            first, first_text, first_everything = seen[key]
            if first_text != text and first_everything != everything:
                pytest.fail(f"{A.action_text(first)!r} and {A.action_text(action)!r} look alike to seat {viewer}")


@pytest.mark.parametrize("n", [2, 6])
def test_other_seats_see_what_the_table_shows(n):
    game = smuggle_envs.make_game("ciq_v0", num_players=n)
    for seed in range(24 // n):
        rng, state = random.Random(seed), game.new_initial_state(seed)
        while not state.is_terminal():
            if len(state.history) % 2 == 0:
                _check_position(state, rng)
            state.apply_action(rng.choice(state.legal_actions()))


def test_every_action_reads_the_same_to_every_seat():
    """No CIQ decision is secret: the actor and every other seat read the full text."""
    game = smuggle_envs.make_game("ciq_v0", num_players=3)
    state = game.new_initial_state(5)
    rng = random.Random(5)
    for _ in range(300):
        if state.is_terminal():
            break
        for action in state.legal_actions():
            full = A.action_text(action)
            assert {state.action_to_string(action, v) for v in range(3)} == {full}
            assert state.action_to_string(action) == full
        state.apply_action(rng.choice(state.legal_actions()))
