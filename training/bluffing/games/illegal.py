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

``questions`` (``training.bluffing.questions``): the hidden cards a seat faces at its decision,
one question a decision. Each is fixed from public information only (so every world the seat
cannot tell apart asks the same), and its truth reads only the world it is given (a world
resampled for the seat answers for itself, so both posteriors of ``beliefs`` apply):

* in a Magnum window (decision ``react``): each seat asked after the first faces the let-pass
  just made, "P{q} holds no Magnum" (``q`` asked just before it; the ``let_pass`` row's truth);
  the first seat asked, when seats are still to be asked after it, faces "one of P{a}, P{b}
  holds the Magnum" ("P{a} holds the Magnum" when one is left): whether a seat after it could
  still stop the play. A seat holding the Magnum knows both answers (the game has one).
* after a declined trade (config ``trading``; ``play``): the proposer, at its play that follows
  the decline at once, faces "P{q} lacked the cards asked for (...)" (``q`` the partner): the
  partner's hand in the world lacks at least one of them, the ``trade`` row's truth (nothing has
  moved since). The decline clears the request, so the cards and the partner are read back from
  the history, which holds what the table heard: the request said aloud, the partner chosen.
  Other seats are not asked: in the proposer's turn they decide only in a Magnum window or a
  pass, which ask their own question, and after it the partner may have passed a card or played
  the Magnum (from its own turn on, played and drawn too), so the hand a world holds then need
  not be the one that declined.
* at its turn's play otherwise (``play``): the next seat clockwise under a hassle with a closed
  hand, "P{q} holds a card that lifts its {hassle}": its solution, a Bribe with a business card
  to pay for it, Relatives or the Magnum (Tax Inspection opens the hand it hits, so it is never
  asked about). Each turn the seat stays under it is the table's evidence.
* passing a card left after a Paranoia card (``pass``): a seat whose right-hand neighbour has
  chosen faces "P{r}'s face-down card to P{s} is a Paranoia card", read on the card chosen in
  the world (``pending``; a resampled world redraws it from ``r``'s hand). Paranoia cards cost
  their holder at the accounting and cannot be discarded alone, so passing one left is the way
  to be rid of it; the seat receives the card when every seat has chosen.

The let-pass, the decline and the neighbour's pass are claims or choices of a seat
(``claimant``, ``claim_step``: the policy-aware posterior reweights from them); "one of ...
holds the Magnum" and the hassle question are facts nobody stated (both None).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from smuggle_envs.core.game import State
from smuggle_envs.games.illegal import IllegalState
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import PASS, PLAY, REACT, TRADE_ANSWER, W_TAKEOVER
from training.claims.illegal import could_accept, holds_magnum

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


def _asked_text(want: Sequence[int]) -> str:
    """The cards the proposer asked for, as counts per kind (public: the request is said aloud)."""
    names = [f"{A.KIND_NAMES[k]} x{n}" if n > 1 else A.KIND_NAMES[k] for k, n in enumerate(want) if n]
    return ", ".join(names) or "nothing"


class IllegalLabeller(Labeller):
    """Drafts every let-pass of a Magnum window and every declined trade, with the hand's truth."""

    def decide(self, state: State[Any], step: int, seat: int, action: int) -> bool:
        st = cast(IllegalState, state)
        if st.phase == REACT and action == A.LET_PASS:
            claim = f"{heard(st, action)} ({_window_text(st)})"
            truth = not holds_magnum(st, seat)
            self.draft(st, step, action, "let_pass", "claim", claim=claim, resolved=_window_closed, truth=truth)
            return True
        if st.phase == TRADE_ANSWER and action == A.DECLINE:
            claim = f"{heard(st, action)} (asked for {_asked_text(st.want)})"
            truth = not could_accept(st)  # only a partner holding every card may accept
            self.draft(st, step, action, "trade", "claim", claim=claim, resolved=resolved_after_one, truth=truth)
            return True
        return False


# ----- questions ----------------------------------------------------------------------------------
# Each truth reads only the world it is handed, never the position the question was asked in:
# a world resampled for the seat answers for itself, which is what lets ``beliefs`` estimate a
# posterior from it. What a question is about (seats, cards asked) is fixed from public
# information when it is asked, so every world the seat cannot tell apart gets the same question.
Truth = Callable[[State[Any]], bool]


def holds_no_magnum(q: int) -> Truth:
    """The let-pass claim of seat ``q`` in any world: its hand there holds no Magnum."""

    def truth(world: State[Any]) -> bool:
        return not holds_magnum(cast(IllegalState, world), q)

    return truth


def magnum_among(seats: tuple[int, ...]) -> Truth:
    """One of ``seats`` holds the Magnum in the world (the game has one)."""

    def truth(world: State[Any]) -> bool:
        st = cast(IllegalState, world)
        return any(holds_magnum(st, q) for q in seats)

    return truth


def lacks(q: int, want: tuple[int, ...]) -> Truth:
    """A declined trade's claim in any world: seat ``q``'s hand there lacks at least one of the
    cards asked for (``want``: counts per kind)."""

    def truth(world: State[Any]) -> bool:
        hand = cast(IllegalState, world).hands[q]
        return any(hand[k] < n for k, n in enumerate(want) if n)

    return truth


def can_lift(q: int, cards: tuple[int, ...]) -> Truth:
    """Seat ``q``'s hand in the world holds a card that lifts its hassle: one of ``cards`` (its
    solution, Relatives, the Magnum), or a Bribe with a business card to pay for it."""

    def truth(world: State[Any]) -> bool:
        hand = cast(IllegalState, world).hands[q]
        if any(hand[k] for k in cards):
            return True
        return bool(hand[A.BRIBE]) and any(hand[k] for k in A.BUSINESS_KINDS)

    return truth


def passes_paranoia(r: int) -> Truth:
    """The card seat ``r`` chose to pass left is, in the world, a Paranoia card."""

    def truth(world: State[Any]) -> bool:
        return cast(IllegalState, world).pending[r] in A.PARANOIA_KINDS

    return truth


def _react_question(st: IllegalState, seat: int) -> Facing | None:
    """In a Magnum window: the let-pass just made, or, for the first seat asked, whether a seat
    asked after it holds the Magnum (it could still stop the play)."""
    window = _window_text(st)
    if st.ask_i > 0:
        q = st.asked[st.ask_i - 1]  # asked just before: its let-pass is the last action
        last = len(st.history) - 1
        step = last if last >= 0 and st.history[last] == A.LET_PASS else None
        return Facing(seat, "react", f"P{q} holds no Magnum ({window})", q, step, holds_no_magnum(q))
    later = tuple(st.asked[1:])
    if not later:
        return None  # the only seat asked: nobody after it, so the answer is its own hand
    seats = ", ".join(f"P{q}" for q in later)
    who = f"one of {seats}" if len(later) > 1 else seats
    return Facing(seat, "react", f"{who} holds the Magnum ({window})", None, None, magnum_among(later))


def _declined(st: IllegalState) -> tuple[int, tuple[int, ...]] | None:
    """The trade the last action declined: its partner and the counts asked for. The decline
    clears the request, so it is read back from the history, which holds only what the table
    heard: the request, the partner chosen, the decline."""
    h = st.history
    i = len(h) - 1
    if i < 1 or h[i] != A.DECLINE:
        return None
    p, partner = st.active, -1  # the decline hands the turn straight back to the proposer
    i -= 1
    if A.TARGET <= h[i] < A.TAKE:  # the proposer chose the partner (an offset from itself)
        partner = (p + h[i] - A.TARGET) % st.n
        i -= 1
    if i >= 0 and h[i] == A.DONE:  # an unequal request closed by hand
        i -= 1
    want = [0] * A.NUM_KINDS
    while i >= 0 and A.WANT <= h[i] < A.END_TURN:
        want[h[i] - A.WANT] += 1
        i -= 1
    if partner < 0:
        # The engine picked the only seat holding enough cards; nothing has moved since, so the
        # hand sizes still single it out.
        partner = next((q for q in range(st.n) if q != p and st.hsize[q] >= sum(want)), -1)
    return (partner, tuple(want)) if partner >= 0 and any(want) else None


def _trade_question(st: IllegalState, seat: int) -> Facing | None:
    """The proposer, at its play right after a declined trade, faces the decline."""
    found = _declined(st)
    if found is None:
        return None
    partner, want = found
    claim = f"P{partner} lacked the cards asked for ({_asked_text(want)})"
    return Facing(seat, "play", claim, partner, len(st.history) - 1, lacks(partner, want))


def _lifting(st: IllegalState, h: int) -> tuple[int, ...]:
    """The cards that lift hassle ``h`` on their own: its solution (the game's data), Relatives
    and the Magnum (a Bribe also needs a business card: ``can_lift`` reads it apart)."""
    g = st.game
    return tuple(k for k in range(A.NUM_KINDS) if g.solves[k] == h or k in (A.RELATIVES, A.MAGNUM))


def _hassle_question(st: IllegalState, seat: int) -> Facing | None:
    """At its turn's play, a seat faces the next hassled seat clockwise whose hand is closed:
    can it lift its hassle? (Tax Inspection opens the hand it hits, so never that one.)"""
    for i in range(1, st.n):
        q = (seat + i) % st.n
        h = st.hassle[q]
        if h >= 0 and not st.is_open(q):
            claim = f"P{q} holds a card that lifts its {A.KIND_NAMES[A.FIRST_HASSLE + h]}"
            return Facing(seat, "play", claim, None, None, can_lift(q, _lifting(st, h)))
    return None


def _pass_question(st: IllegalState, seat: int) -> Facing | None:
    """Passing a card left after a Paranoia card, a seat faces the card its right-hand neighbour
    chose to pass to it (face down until every seat has chosen)."""
    r = (seat - 1) % st.n
    if st.pending[r] < 0:
        return None  # it passes after the seat (the seat passes first) or had no card to pass
    # The passes go clockwise, so the neighbour's choice is the last action.
    claim = f"P{r}'s face-down card to P{seat} is a Paranoia card"
    return Facing(seat, "pass", claim, r, len(st.history) - 1, passes_paranoia(r))


def questions(state: State[Any], seat: int) -> Facing | None:
    """The question ``seat`` faces at its decision (None: none): in a Magnum window the Magnum,
    passing a card the neighbour's pass, at its turn's play the trade it was just refused or the
    next closed hand under a hassle (see the module docstring)."""
    st = cast(IllegalState, state)
    if seat != st.decider:
        return None
    if st.phase == REACT:
        return _react_question(st, seat)
    if st.phase == PASS:
        return _pass_question(st, seat)
    if st.phase == PLAY and seat == st.active:
        found = _trade_question(st, seat)
        return found if found is not None else _hassle_question(st, seat)
    return None


CLAIMS = GameClaims(IllegalLabeller, no_facing)
"""Illegal's part of the bluffing kit (``training.bluffing.games.CLAIMS`` files it under ``ENV_ID``)."""

__all__ = [
    "CLAIMS",
    "ENV_ID",
    "IllegalLabeller",
    "can_lift",
    "holds_no_magnum",
    "lacks",
    "magnum_among",
    "passes_paranoia",
    "questions",
]
