"""Marks of the truth in the full view's log: one small marker per game, in its plugin module.

A marker (``WebGame.mark`` of ``training/web/games/<game>.py``) is called with the position just
before an action, and returns the action's mark: a string, None (nothing worth marking), or a
function that reads the position after the action and returns the mark then (a search's verdict
is known only once the cards are open). The marks are what no seat could see when it happened:
whether a declaration was true, whether a search caught a lie, what a seat held when it let
something pass. They appear in ``views.full_log`` only, never in a seat's log. What each game
marks is in its plugin's docstring: Smuggle's declarations true or false and its searches caught
or not; a CIQ Smuggle's target able to Fire; an Illegal Magnum held while letting pass, or a
trade declined while holding the cards; the Humble smuggle reveal; Import / Export's sealed bids.

What a marker decides (was this declaration the complete truth, could the target Fire, did the
seat hold the Magnum, which face-down cards the rule scored, who won the sealed bids) it asks
``training/claims/<game>.py``, the same predicates the bluffing kit's labellers ask
(``training/bluffing/games/<game>.py``), so a replay's mark and a dataset's ``truth`` never
disagree (``tests/training/test_claims_agree.py``); the markers only word the answer. The CIQ and
Illegal ones read "could Fire" and "could accept" from the legal actions, as the bluffing
analytics of ``smuggle analyze`` do, and Import / Export's round is read as they read it.
"""

from __future__ import annotations

from typing import Any

from .games import web_game
from .games._common import Mark, Marker, Settle

__all__ = ["Mark", "Marker", "Settle", "mark"]


def mark(state: Any, action: int) -> Mark:
    """The mark of ``action``, about to be taken in ``state`` (see the module docstring)."""
    return web_game(state.game.env_id).mark(state, action)
