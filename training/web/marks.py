"""Marks of the truth in the full view's log: one small marker per game, in ``MARKERS``.

A marker is called with the position just before an action, and returns the action's mark: a
string, None (nothing worth marking), or a function that reads the position after the action
and returns the mark then (a search's verdict is known only once the cards are open). The marks
are what no seat could see when it happened: whether a declaration was true, whether a search
caught a lie, what a seat held when it let something pass. They appear in ``views.full_log``
only, never in a seat's log. Per game:

* **Smuggle**: each declaration (and Diplomatic Bag claim) ``true`` or ``false``: the hand's
  dutiable items are exactly those declared (the Bag held); each search, by the Officer or an
  Informer, ``caught``, ``truthful: not caught`` or ``real bag``, the engine's verdict.
* **CIQ** has no declarations: shipped cards are face up, so a Smuggle is public. Hidden is
  whether the target holds a face card to Fire its customs worker with (it is always asked).
  The Smuggled card is marked with that; the Fire decision ``caught`` (Fired) or ``not
  caught``, with whether a face card was held.
* **Illegal** has neither declarations nor searches (a Tax Inspection opens a hand but judges
  nothing). Its hidden answers are marked: letting a Takeover or a hassle pass while holding
  the Magnum or without it (everyone who might hold it is asked), and declining a trade while
  holding the cards asked for or without them (config ``trading``).
* **Humble smuggle** has no searches: the face-down selections are revealed together and the
  round's rule alone discards. The action that reveals them (the last pass of the black-card
  play) is marked with the rule and each seat's card, discarded or scored.
* **Import / Export**: every declared action is played face up; the sealed Import bids are
  what is hidden. The bid that completes a round (or the action after which the engine placed
  a forced last bid) is marked with every bid and the winner.

The bluffing analytics of ``smuggle analyze`` (``training.tournament.analytics_*``) look for the
same events: the CIQ and Illegal markers read "could Fire" and "could accept" from the legal
actions as they do, and the Import / Export marker reuses its reading of an Import round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from smuggle_envs.games.ciq import actions as ciq_actions
from smuggle_envs.games.ciq.vocab import FIRE_DECISION
from smuggle_envs.games.humble_smuggle import actions as humble_actions
from smuggle_envs.games.humble_smuggle.vocab import PLAY as HUMBLE_PLAY
from smuggle_envs.games.humble_smuggle.vocab import Reveal as HumbleReveal
from smuggle_envs.games.humble_smuggle.vocab import rule_family
from smuggle_envs.games.illegal import actions as illegal_actions
from smuggle_envs.games.illegal.vocab import REACT, TRADE_ANSWER
from smuggle_envs.games.smuggle import actions as smuggle_actions
from smuggle_envs.games.smuggle.vocab import DECLARE, LYING, OFFICER, REAL_BAG, RECEIVE
from training.tournament.analytics_import_export import decision_note as import_note

Settle = Callable[[Any], str | None]
"""Reads the position after the action; returns its mark."""
Mark = str | Settle | None
Marker = Callable[[Any, int], Mark]


# ----- Smuggle -------------------------------------------------------------------------------------
def smuggle(state: Any, action: int) -> Mark:
    """A declaration true or false; a search caught or not (settled from the reveal)."""
    A = smuggle_actions
    phase = state.phase
    if phase == DECLARE:
        hand = state.hand.tolist()
        if action == A.CLAIM_BAG:
            lie = hand[A.BAG] == 0
        else:  # the complete truth: exactly the dutiable items declared (RESOLUTIONS 2.a.2)
            lie = tuple(hand[: A.NUM_ITEMS]) != tuple(A.DECLARATIONS[action])
        return "false" if lie else "true"
    if (phase == OFFICER and action == A.SEARCH) or (phase == RECEIVE and action == A.INFORM):
        return _smuggle_verdict
    return None


def _smuggle_verdict(state: Any) -> str | None:
    reveal = state.last_reveal
    if reveal is None:
        return None
    return {LYING: "caught", REAL_BAG: "real bag"}.get(reveal.outcome, "truthful: not caught")


# ----- CIQ -------------------------------------------------------------------------------------
def _can_fire(state: Any) -> bool:
    """At a Fire decision: the target may Fire, i.e. holds a face card (KEEP is always legal)."""
    A = ciq_actions
    return any(A.FIRE <= a < A.GIVE for a in state.legal_actions())


def ciq(state: Any, action: int) -> Mark:
    """A Smuggle marked with whether the target can Fire; the Fire decision caught or not."""
    A = ciq_actions
    if state.phase == FIRE_DECISION:
        if A.FIRE <= action < A.GIVE:
            return "caught"
        return "not caught: held a face card" if _can_fire(state) else "not caught: no face card"
    if A.SHIP <= action < A.SABOTAGE:
        return _ciq_smuggled
    return None


def _ciq_smuggled(state: Any) -> str | None:
    # Only a Smuggled (Illegal) card ends a shipment at a Fire decision.
    if state.phase != FIRE_DECISION:
        return None
    return "smuggled: target holds a face card" if _can_fire(state) else "smuggled: target has no face card"


# ----- Illegal ---------------------------------------------------------------------------------
def illegal(state: Any, action: int) -> Mark:
    """What a seat held when it let a Magnum window pass or declined a trade."""
    A = illegal_actions
    phase = state.phase
    if phase == REACT and action == A.LET_PASS:
        return "let pass: held the Magnum" if state.hands[state.decider][A.MAGNUM] else "let pass: no Magnum"
    if phase == TRADE_ANSWER and action == A.DECLINE:
        # The engine lets only a partner holding every card asked for accept (as the analytics read it).
        able = A.ACCEPT in state.legal_actions()
        return "declined: held the cards" if able else "declined: lacked the cards"
    return None


# ----- Humble smuggle --------------------------------------------------------------------------
def humble_smuggle(state: Any, action: int) -> Mark:
    """The reveal of the face-down selections, on the pass that ends the black-card play."""
    if state.phase != HUMBLE_PLAY or action != humble_actions.PASS:
        return None
    before = state.last

    def revealed(after: Any) -> str | None:
        last = after.last  # a new record at each reveal
        return None if last is None or last is before else _reveal_text(last)

    return revealed


def _reveal_text(last: HumbleReveal) -> str:
    def card(s: int) -> str:
        v, shown = last.cards[s], last.values[s]
        return f"P{s} {v}" + (f" ({shown})" if shown != v else "")  # the value with Play cards

    seats = range(len(last.cards))
    discarded = [card(s) for s in seats if s in last.discarded]
    if last.centre_discarded:
        discarded.append(f"centre {last.centre}")
    scored = [card(s) for s in seats if s not in last.discarded]
    return (
        f"reveal ({rule_family(last.rule)}): discarded {', '.join(discarded) or 'none'}; "
        f"scored {', '.join(scored) or 'none'}"
    )


# ----- Import / Export -------------------------------------------------------------------------
def import_export(state: Any, action: int) -> Mark:
    """The sealed bids of an Import round, marked on the action that completes them.

    The engine applies a forced bid (fewer than 2 credits: only 0) by itself, so the round may
    complete inside the action: its ``auto_listeners`` tell those decisions, until settled."""
    notes = [import_note(state, action)]

    def listen(st: Any, player: int, auto_action: int) -> None:
        notes.append(import_note(st, auto_action))

    state.auto_listeners.append(listen)

    def settle(after: Any) -> str | None:
        state.auto_listeners.remove(listen)
        rounds = [_bids_text(note) for note in notes if note is not None and note[0] == "bids"]
        return "; ".join(rounds) or None

    return settle


def _bids_text(note: tuple[Any, ...]) -> str:
    _, _ship, bidders, bids, _credits, (winner, _price, tied, *_) = note
    tie = " (tie)" if len(tied) > 1 else ""
    return f"bids {', '.join(f'P{q} {bids[q]}' for q in bidders)}: P{winner} wins{tie}"


MARKERS: dict[str, Marker] = {
    "smuggle_v0": smuggle,
    "ciq_v0": ciq,
    "illegal_v0": illegal,
    "humble_smuggle_v0": humble_smuggle,
    "import_export_v0": import_export,
}


def mark(state: Any, action: int) -> Mark:
    """The mark of ``action``, about to be taken in ``state`` (see the module docstring)."""
    marker = MARKERS.get(state.game.env_id)
    return None if marker is None else marker(state, action)
