"""Smuggle's truths: a declaration's complete truth (R2.2), a search, and the last search's verdict."""

from __future__ import annotations

from collections.abc import Sequence

from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.rules import SmuggleState
from smuggle_envs.games.smuggle.vocab import LYING, OFFICER, RECEIVE

__all__ = ["caught", "declaration_true", "is_search", "verdict"]


def declaration_true(hand: Sequence[int], declaration: int) -> bool:
    """A declaration (action ``declaration``: one of ``DECLARATIONS`` or ``CLAIM_BAG``) of the
    hand ``hand`` (counts per card kind) is the complete truth (R2.2; rule 14 for the Bag)."""
    if declaration == A.CLAIM_BAG:
        return hand[A.BAG] > 0
    return tuple(hand[: A.NUM_ITEMS]) == tuple(A.DECLARATIONS[declaration])


def is_search(state: SmuggleState, action: int) -> bool:
    """``action`` lays the live hand open: the Officer searches, or the next player informs."""
    return (state.phase == OFFICER and action == A.SEARCH) or (state.phase == RECEIVE and action == A.INFORM)


def verdict(state: SmuggleState) -> int | None:
    """The engine's verdict on the hand the last search opened: ``TRUTHFUL``, ``LYING`` or
    ``REAL_BAG`` (None: no search yet)."""
    reveal = state.last_reveal
    return None if reveal is None else reveal.outcome


def caught(state: SmuggleState) -> bool:
    """The last search caught a lie (read just after the search)."""
    return verdict(state) == LYING
