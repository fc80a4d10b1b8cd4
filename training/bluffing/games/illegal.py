"""Illegal's claims: Magnum windows let pass, and trades declined, each with the cards in hand.

Illegal hides the hands, and two decisions are all the table hears of them. Neither can be
challenged by the rules, so both are claims without calls (``challenged`` and ``caught`` None):

* ``let_pass`` (a seat asked, in a reaction window after a Hostile Takeover or Relatives, or a
  hassle that stays, whether to play the Magnum): "let it happen" says "no Magnum here" — the
  engine asks every seat that might hold it, so the answer is the only thing it could claim.
  ``truth``: the seat held no Magnum. A seat without it can only let it pass (``forced``), which
  the table cannot tell either. ``payoff``: its score change until the window closes (a
  takeover it let through resolves then: the business moves).
* ``trade`` (the partner asked for cards in a trade, config ``trading``, declines): "decline the
  trade" says "I lack the cards" — the engine lets only a partner holding every card asked for
  accept, and nobody else can tell. ``truth``: the partner lacked them (declining was its only
  choice). Accepted trades claim nothing (they show the cards) and are no rows. ``payoff``: its
  score change over the decision (a declined trade moves nothing: 0).

``facing``: None everywhere: no seat ever decides on another's let-pass or decline (no call).

``questions`` (``training.bluffing.questions``): the let-pass is still a claim the next seats
asked face. In a Magnum window, each seat asked after the first faces the let-pass just made,
"P{q} holds no Magnum" (``q`` the seat asked before it; the game has one Magnum), with the claims'
truth, read on the world's hand of ``q``. A seat holding the Magnum itself knows the answer (1).
Declined trades (config ``trading``) are not asked about: the request is cleared by the decline,
and the proposer's next decision does not hinge on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from smuggle_envs.core.game import State
from smuggle_envs.games.illegal import IllegalState
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import REACT, TRADE_ANSWER, W_TAKEOVER

from .. import Facing
from ._common import GameClaims, Labeller, heard, no_facing, resolved_after_one

ENV_ID = "illegal_v0"


def _window_closed(state: State[Any]) -> bool:
    """The reaction window is over (and a takeover it let through has moved the business)."""
    return cast(IllegalState, state).window < 0


def _window_text(st: IllegalState) -> str:
    """What the window is about, as the table saw it played."""
    what = "takeover" if st.window == W_TAKEOVER else "hassle"
    if st.card < 0:
        return what
    target = f" on P{st.target}" if st.target >= 0 else ""
    return f"{what}: {A.KIND_NAMES[st.card]} by P{st.active}{target}"


def _asked_text(st: IllegalState) -> str:
    """The cards the proposer asked for (public: the request is said aloud)."""
    names = [f"{A.KIND_NAMES[k]} x{n}" if n > 1 else A.KIND_NAMES[k] for k, n in enumerate(st.want) if n]
    return ", ".join(names) or "nothing"


class IllegalLabeller(Labeller):
    """Drafts every let-pass of a Magnum window and every declined trade, with the hand's truth."""

    def decide(self, state: State[Any], step: int, seat: int, action: int) -> bool:
        st = cast(IllegalState, state)
        if st.phase == REACT and action == A.LET_PASS:
            claim = f"{heard(st, action)} ({_window_text(st)})"
            truth = st.hands[seat][A.MAGNUM] == 0
            self.draft(st, step, action, "let_pass", "claim", claim=claim, resolved=_window_closed, truth=truth)
            return True
        if st.phase == TRADE_ANSWER and action == A.DECLINE:
            claim = f"{heard(st, action)} (asked for {_asked_text(st)})"
            truth = A.ACCEPT not in st.legal_actions()  # only a partner holding every card may accept
            self.draft(st, step, action, "trade", "claim", claim=claim, resolved=resolved_after_one, truth=truth)
            return True
        return False


def holds_no_magnum(q: int) -> Callable[[State[Any]], bool]:
    """The let-pass claim of seat ``q`` in any world: its hand there holds no Magnum."""

    def truth(world: State[Any]) -> bool:
        return cast(IllegalState, world).hands[q][A.MAGNUM] == 0

    return truth


def questions(state: State[Any], seat: int) -> Facing | None:
    """A seat asked in a Magnum window after another seat let it pass faces that let-pass: "P{q}
    holds no Magnum" (None elsewhere)."""
    st = cast(IllegalState, state)
    if st.phase != REACT or seat != st.decider or st.ask_i == 0:
        return None
    q = st.asked[st.ask_i - 1]  # asked just before: its let-pass is the last action
    claim = f"P{q} holds no Magnum ({_window_text(st)})"
    last = len(st.history) - 1
    step = last if last >= 0 and st.history[last] == A.LET_PASS else None
    return Facing(seat, "react", claim, q, step, holds_no_magnum(q))


CLAIMS = GameClaims(IllegalLabeller, no_facing)
"""Illegal's part of the bluffing kit (``training.bluffing.games.CLAIMS`` files it under ``ENV_ID``)."""

__all__ = ["CLAIMS", "ENV_ID", "IllegalLabeller", "holds_no_magnum", "questions"]
