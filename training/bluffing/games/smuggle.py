"""Smuggle's claims: declarations and Diplomatic Bag claims, and the calls that answer them.

* **Claims** (the holder of the live hand): ``declaration`` (a multiset of dutiable items) and
  ``bag_claim`` (Diplomatic Immunity). ``truth``: the complete truth (R2.2): the hand's dutiable
  items are exactly those declared, or the Bag is held. ``challenged``: the hand was searched, by
  the Officer or by the next player as Informer; ``caught``: searched and lying (the engine's
  verdict). ``payoff``: the holder's money change from before the declaration until the live
  hand is settled (searched, or let pass and then accepted or informed on).
* **Calls**: the Officer's ``search`` or ``let_pass``, then (let pass) the next player's
  ``inform`` or ``accept``. ``truth``: the declaration's; ``challenged``: it searched (search,
  inform); ``caught``: it searched and the hand was a lie; ``payoff``: its money change from
  before its decision until the hand is settled (the duty, fines, defamation money and the
  Informer's reward it paid or took).

Money only changes hands between players, and each payment falls in one hand's windows of the
seats it involves, so a seat's payoffs add up to its money's change over the game.

``facing``: the Officer deciding whether to search, and the next player whether to inform, face
the declaration of the live hand; its truth in any world is the same complete-truth test on that
world's hand.
"""

from __future__ import annotations

from typing import Any, cast

from smuggle_envs.core.game import State
from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.rules import SmuggleState
from smuggle_envs.games.smuggle.vocab import DECLARE, DISCARD, OFFICER, OVER, RECEIVE
from training.claims.smuggle import caught, declaration_true, is_search

from .. import Facing
from ._common import Draft, GameClaims, Labeller, last_step

ENV_ID = "smuggle_v0"

_CALLS = {A.SEARCH: "search", A.LET_PASS: "let_pass", A.INFORM: "inform", A.ACCEPT: "accept"}


def _settled(state: State[Any]) -> bool:
    """The live hand is settled: a new declaration is due, the accepted hand is being discarded
    from, or the game is over."""
    return cast(SmuggleState, state).phase in (DECLARE, DISCARD, OVER)


class SmuggleLabeller(Labeller):
    """Drafts each declaration and the calls on it; settles them from the engine's verdict."""

    def __init__(self) -> None:
        super().__init__()
        self.live: Draft | None = None  # the declaration on the live hand
        self.search: Draft | None = None  # a search just made, its verdict due

    def decide(self, state: State[Any], step: int, seat: int, action: int) -> bool:
        st = cast(SmuggleState, state)
        if st.phase == DECLARE:
            decision = "bag_claim" if action == A.CLAIM_BAG else "declaration"
            truth = declaration_true(st.hand.tolist(), action)
            self.live = self.draft(st, step, action, decision, "claim", resolved=_settled, truth=truth)
            return True
        live = self.live
        if st.phase not in (OFFICER, RECEIVE) or live is None:
            return False
        searched = is_search(st, action)
        call = self.draft(
            st,
            step,
            action,
            _CALLS[action],
            "call",
            claim=live.claim,
            resolved=_settled,
            truth=live.truth,
            challenged=searched,
            caught=False if not searched else None,
            called_step=live.step,
            claimant=live.seat,
        )
        if searched:
            self.search = call
        return True

    def applied(self, state: State[Any], step: int) -> None:
        super().applied(state, step)
        st, live = cast(SmuggleState, state), self.live
        if self.search is not None and live is not None:
            self.search.caught = live.caught = caught(st)  # the search just made laid the hand open
            live.challenged = True
            self.search = None
        if live is not None and live.challenged is None and _settled(st):
            live.challenged = live.caught = False  # settled without a search


def facing(state: State[Any], seat: int) -> Facing | None:
    """The Officer (search?) or the next player (inform?) faces the live hand's declaration."""
    st = cast(SmuggleState, state)
    if st.phase == OFFICER and seat == st.officer:
        decision = "search"
    elif st.phase == RECEIVE and seat == st.receiver:
        decision = "inform"
    else:
        return None
    declared = st.decl_action
    step = last_step(st, lambda a: a <= A.CLAIM_BAG)
    claim = st.game.action_to_string(declared)  # every declaration is public: the table heard it so

    def truth(world: State[Any]) -> bool:
        return declaration_true(cast(SmuggleState, world).hand.tolist(), declared)

    return Facing(seat, decision, claim, st.holder, step, truth)


def challenge(state: State[Any], action: int) -> bool:
    """At a call: ``action`` searches the live hand (the Officer's search, the Informer's inform;
    the labeller's ``challenged``)."""
    return is_search(cast(SmuggleState, state), action)


CLAIMS = GameClaims(SmuggleLabeller, facing, challenge=challenge)
"""Smuggle's part of the bluffing kit (``training.bluffing.games.CLAIMS`` files it under ``ENV_ID``)."""

__all__ = ["CLAIMS", "ENV_ID", "SmuggleLabeller", "challenge", "facing"]
