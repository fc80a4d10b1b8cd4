"""Humble smuggle's truths: the reveal of the face-down selections, and which of them the round's
rule scored (no search: the rule alone discards)."""

from __future__ import annotations

from smuggle_envs.games.humble_smuggle.rules import HumbleSmuggleState
from smuggle_envs.games.humble_smuggle.vocab import Reveal

__all__ = ["fits_rule", "new_reveal"]


def new_reveal(state: HumbleSmuggleState, seen: Reveal | None) -> Reveal | None:
    """The reveal record of ``state`` if it is not ``seen``: the engine makes a new record at each
    reveal, so a different one means the face-down cards were just opened (None: not yet)."""
    last = state.last
    return None if last is None or last is seen else last


def fits_rule(reveal: Reveal, seat: int) -> bool:
    """``seat``'s face-down card fit the round's rule: the reveal scored it, not discarded it."""
    return seat not in reveal.discarded
