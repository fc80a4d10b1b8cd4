"""CIQ's truths: a Fire, and whether the target of a smuggle could Fire its customs worker.

Every shipped card is face up; what is hidden is whether the target holds a face card (J, Q, K;
the Ace with ``ace_is_face``). At the Fire decision the legal actions tell it (KEEP is always
legal, a Fire only with a face card): ``may_fire``. In any other position, or in a sampled world,
the target's hand tells it: ``holds_face_card``.
"""

from __future__ import annotations

from smuggle_envs.games.ciq import CIQState
from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.vocab import FIRE_DECISION

__all__ = ["holds_face_card", "is_fire", "may_fire", "smuggled"]


def is_fire(action: int) -> bool:
    """``action`` Fires the customs worker (with one of the target's face cards)."""
    return A.FIRE <= action < A.GIVE


def may_fire(state: CIQState) -> bool:
    """At a Fire decision: the target may Fire, i.e. holds a face card."""
    return any(is_fire(a) for a in state.legal_actions())


def holds_face_card(state: CIQState) -> bool:
    """The target of the shipment holds a face card (could Fire its customs worker)."""
    hand = state.hand[state.target]
    return any(hand[k] for k in state.game.face_kinds)


def smuggled(after: CIQState) -> bool:
    """The card just shipped was smuggled: only an Illegal card ends a shipment at a Fire decision."""
    return bool(after.phase == FIRE_DECISION)
