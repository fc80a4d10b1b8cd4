"""What another seat sees of an action (``State.action_to_string(action, viewer)``).

Every CIQ decision is public (cards are shipped, sabotaged, hired, fired and transferred face up;
a target is named; a draw does not show the card), so every seat reads the full text.

The random-game checks that every seat reads another seat's action only as far as it saw it
are shared by every game: ``tests/core/families/test_visibility_family.py``. Here: the scripted
cases.

A Fire's face card goes to the bottom of the target's Export pile, which the target may draw
out again before it next decides (the Stock gone, the pile short); the observation records
another seat's Export pile only as the cards seen to go in and not come out, so the table text
keeps the last Fire (``last_fire``) to tell the two Fires apart, as everyone saw them.
"""

from __future__ import annotations

import random

import smuggle_envs
from smuggle_envs.games.ciq import actions as A


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
