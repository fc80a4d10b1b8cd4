"""Illegal's truths: the Magnum held by a seat asked to let a window pass, and a trade partner
able to accept (the two hidden answers the table hears)."""

from __future__ import annotations

from smuggle_envs.games.illegal import IllegalState
from smuggle_envs.games.illegal import actions as A

__all__ = ["could_accept", "holds_magnum"]


def holds_magnum(state: IllegalState, seat: int) -> bool:
    """``seat`` holds the Magnum (the game has one)."""
    return bool(state.hands[seat][A.MAGNUM])


def could_accept(state: IllegalState) -> bool:
    """At a trade answer: the partner could accept, i.e. holds every card asked for (the engine
    lets only such a partner accept, so the legal actions tell it)."""
    return A.ACCEPT in state.legal_actions()
