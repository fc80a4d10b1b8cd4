"""CIQ's claims: smuggles, and the target's Fire decisions that answer them.

Every shipped card is face up, so what a smuggle bets on is the one thing hidden: whether the
target holds a face card (J, Q, K; the Ace with ``ace_is_face``) to Fire its customs worker with.
The engine asks the target every time (KEEP is always legal), so the decision tells nobody.

* **Claim** ``smuggle`` (the shipper): the Illegal card that ends a shipment (over the target's
  Import Tolerance, not bribed by a Joker), passed off as if the customs worker could not stop it.
  ``truth``: the target held no face card (it could not Fire). ``challenged`` and ``caught``: the
  target Fired (a Fire needs a face card, so only a false claim is ever caught). ``payoff``: the
  cards the smuggled card moved off the shipper's side, its own result only (the engine's
  ``smuggled_worth``, exact; 0 when Fired against) — the cards shipped before it in the same
  shipment transfer the same either way.
* **Call** ``fire`` (the target, at its Fire decision): ``truth``: the smuggle's; ``challenged``
  and ``caught``: it Fired. ``payoff``: its own score change from the smuggled card: minus the
  Tolerance pile a Fire sends to its Export pile (the face card goes there too, from its hand:
  no change), or minus the smuggled card's worth when it keeps.

``facing``: the target at its Fire decision faces the smuggle (it knows its own hand: the truth is
certain for it); the shipper, while an Illegal card is on offer in a shipment, faces the same
question before smuggling: "the target holds no face card". Both evaluate it on the world's
target hand.
"""

from __future__ import annotations

from typing import Any, cast

from smuggle_envs.core.game import State
from smuggle_envs.games.ciq import CIQState
from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.vocab import FIRE_DECISION, SHIPPING
from training.claims.ciq import holds_face_card, is_fire, may_fire, smuggled

from .. import Facing
from ._common import Draft, GameClaims, Labeller, heard

ENV_ID = "ciq_v0"


def _no_face_card(world: State[Any]) -> bool:
    return not holds_face_card(cast(CIQState, world))


def is_illegal(state: CIQState, action: int) -> bool:
    """``action`` ships an Illegal card: over the target's Import Tolerance and not bribed."""
    if action >= A.SABOTAGE or state.bribe:
        return False
    tolerance = state.tol_value[state.target]
    return bool(tolerance) and state.game.values[action - A.SHIP] > tolerance


def _claim_text(state: CIQState, text: str) -> str:
    """A smuggle as the table saw it: the card shipped, over the target's tolerance."""
    t = state.target
    return f"{text} (Illegal: over P{t}'s Import Tolerance {state.tol_value[t]})"


class CIQLabeller(Labeller):
    """Drafts each Illegal card shipped (kept if it ends the shipment at a Fire decision) and the
    Fire decision that answers it."""

    def __init__(self) -> None:
        super().__init__()
        self.smuggle: Draft | None = None  # the last smuggle, its Fire decision due

    def decide(self, state: State[Any], step: int, seat: int, action: int) -> bool:
        st = cast(CIQState, state)
        if st.phase == FIRE_DECISION and self.smuggle is not None:
            self._fire(st, step, action, self.smuggle)
            return True
        if st.phase == SHIPPING and is_illegal(st, action):
            self.smuggle = self.draft(st, step, action, "smuggle", "claim", claim=_claim_text(st, heard(st, action)))
            return True
        return False

    def applied(self, state: State[Any], step: int) -> None:
        st, smuggle = cast(CIQState, state), self.smuggle
        if smuggle is not None and smuggle.step == step:
            if smuggled(st):  # the Illegal card ended the shipment at the target's Fire decision
                smuggle.truth = not may_fire(st)
            else:  # never, by the rules (an Illegal card always ends it), but never a false row
                self.drafts.remove(smuggle)
                self.smuggle = None

    def _fire(self, st: CIQState, step: int, action: int, smuggle: Draft) -> None:
        fired = is_fire(action)
        worth = st.smuggled_worth()
        self.draft(
            st,
            step,
            action,
            "fire",
            "call",
            claim=smuggle.claim,
            truth=smuggle.truth,
            challenged=fired,
            caught=fired,
            payoff=float(-len(st.tol[st.target]) if fired else -worth),
            called_step=smuggle.step,
            claimant=smuggle.seat,
        )
        smuggle.challenged = smuggle.caught = fired
        smuggle.payoff = float(0 if fired else worth)
        self.smuggle = None


def facing(state: State[Any], seat: int) -> Facing | None:
    """The target at its Fire decision faces the smuggle; the shipper, with an Illegal card on
    offer, faces the question the smuggle would bet on."""
    st = cast(CIQState, state)
    if st.phase == FIRE_DECISION and seat == st.target:
        step = len(st.history) - 1  # the smuggled card, which ended the shipment
        claim = _claim_text(st, st.action_to_string(st.history[step], viewer=seat))
        return Facing(seat, "fire", claim, st.turn, step, _no_face_card)
    if st.phase == SHIPPING and seat == st.turn and any(is_illegal(st, a) for a in st.legal_actions()):
        return Facing(seat, "smuggle", f"P{st.target} holds no face card", None, None, _no_face_card)
    return None


def challenge(state: State[Any], action: int) -> bool:
    """At the target's Fire decision: ``action`` Fires (the labeller's ``challenged``)."""
    return is_fire(action)


CLAIMS = GameClaims(CIQLabeller, facing, challenge=challenge)
"""CIQ's part of the bluffing kit (``training.bluffing.games.CLAIMS`` files it under ``ENV_ID``)."""

__all__ = ["CLAIMS", "ENV_ID", "CIQLabeller", "challenge", "facing", "is_illegal"]
