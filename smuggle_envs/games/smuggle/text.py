"""Smuggle's text for people and language models (``smuggle_envs.text``, the terminal game): the
card glossary (every card kind with its duty and fine), the cards a seat holds in private, and
the notes of a step (a search's verdict and who paid whom, a new round, the end of the game).
``rules.py`` binds them as ``SmuggleGame.card_glossary``, ``SmuggleState._private_cards`` and
``SmuggleState._step_notes``.

Every note is built from public facts (money, roles, the hand a search lays open, the round), so
any seat may be told all of them; only the private cards depend on the viewer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.game import State
from . import actions as A
from .game import SmuggleGame
from .state import SmuggleStateBase
from .vocab import DECLARE, LYING, OFFICER, OVER, REAL_BAG, RECEIVE, TRUTHFUL, Reveal

Payment = tuple[int, int, int, str]  # (payer, payee, amount, what for)


def gbp(amount: int) -> str:
    """Money as the table text writes it ("£200", "-£50")."""
    return f"£{amount}" if amount >= 0 else f"-£{-amount}"


# ----- the glossary --------------------------------------------------------------------------------
def card_glossary(game: SmuggleGame) -> list[tuple[str, str]]:
    """Every card kind of the pack, in the pack's order, with its duty and fine (the board's
    table, which a newcomer lacks), then the Diplomatic Bag and the luggage."""
    d = game.data
    entries = [
        (
            name,
            f"dutiable item ({d.item_counts[i]} in the pack): duty {gbp(d.duties[i])} when declared and believed; "
            f"fine {gbp(d.fines[i])} for each one found in a hand that did not tell the complete truth",
        )
        for i, name in enumerate(d.item_names)
    ]
    informer = (
        f"an Informer who challenges a real Bag pays {gbp(d.defamation)}"
        if game.config.informer_pays_real_bag
        else "an Informer's challenge of a real Bag is free"
    )
    entries.append(
        (
            game.kind_names[A.BAG],
            f"one card: claim it instead of declaring (diplomatic immunity). Believed, the cards pass on and "
            f"no duty is paid. Searched: a real Bag is discarded with the hand and the Officer pays the "
            f"holder {gbp(d.defamation)} ({informer}); a false claim pays {gbp(d.false_bag_fine)} plus the fine "
            f"on every dutiable card. A player passed the Bag must discard it",
        )
    )
    entries.append(
        (
            game.kind_names[A.LUGGAGE],
            f"plain luggage ({d.luggage_count} in the pack): no duty, no fine; a hand of luggage declared "
            f"as nothing is the truth",
        )
    )
    return entries


# ----- the private cards ---------------------------------------------------------------------------
def private_cards(st: SmuggleStateBase, viewer: int) -> list[str]:
    """The live hand while ``viewer`` holds it (declaring, waiting for the Officer and the next
    player, or discarding after accepting), as its own table text shows it; else none. The cards a
    seat passed on are no longer its own: its table text lists them apart."""
    if viewer != st.holder or st.phase == OVER:
        return []
    names = st.game.kind_names
    return [names[k] for k in st.hand_cards()]


# ----- the notes of a step -------------------------------------------------------------------------
def step_notes(after: SmuggleStateBase, before: State[Any], action: int, viewer: int) -> list[str]:
    """What every seat is told happened in the step from ``before`` to ``after`` beyond the action
    itself. ``viewer`` does not change them: everything they say is public."""
    if not isinstance(before, SmuggleStateBase):  # core types it as any game's state
        raise TypeError(f"before must be a Smuggle state, got {type(before).__name__}")
    notes: list[str] = []
    if before.phase == OFFICER and action == A.LET_PASS:
        notes += _let_pass_notes(after, before)
    elif (before.phase, action) in ((OFFICER, A.SEARCH), (RECEIVE, A.INFORM)):
        notes += _search_notes(after, before)
    elif before.phase == RECEIVE and action == A.ACCEPT:
        name = after.game.seat_name(before.receiver)
        notes.append(f"{name} takes the cards unseen (no money changes hands), discards one face up and draws one")
    notes += _flow_notes(after, before)
    return notes


def _let_pass_notes(after: SmuggleStateBase, before: SmuggleStateBase) -> list[str]:
    """The Officer believed the declaration: the duty declared is paid (none for a Bag claim)."""
    seat = after.game.seat_name
    holder, officer = before.holder, before.officer
    paid = after.money[officer] - before.money[officer]
    onward = f"; the cards go face down to {seat(after.receiver)}" if after.phase == RECEIVE else ""
    if before.decl_action == A.CLAIM_BAG:
        return [f"not searched: no duty under diplomatic immunity{onward}"]
    return [f"not searched: {seat(holder)} pays the Officer ({seat(officer)}) {gbp(paid)} duty{onward}"]


def _search_notes(after: SmuggleStateBase, before: SmuggleStateBase) -> list[str]:
    """The hand laid open, the verdict, and every payment the search made, in the rules' order."""
    game = after.game
    reveal = after.last_reveal
    assert reveal is not None  # a search always lays a hand open
    seat = game.seat_name
    searcher = (
        f"the Informer ({seat(before.receiver)})" if reveal.by_informer else f"the Officer ({seat(before.officer)})"
    )
    opened = A.declaration_text(reveal.counts, game.kind_names)
    notes = [f"{searcher} searches {seat(reveal.seat)}: {opened} -> {_verdict(before, reveal)}"]
    payments = _search_payments(before, reveal)
    if _net(payments, before.n) != [a - b for a, b in zip(after.money, before.money)]:
        # A player who could not pay was put out (bankruptcy "eliminate") and paid only what he
        # had: say what moved rather than what was owed.
        notes.append("money: " + _changes(before, after))
    elif payments:
        text = "; ".join(
            f"{seat(payer)} pays {seat(payee)} {gbp(amount)} {why}" for payer, payee, amount, why in payments
        )
        if len(payments) > 1:
            text += f" (net: {_changes(before, after)})"
        notes.append(text)
    else:
        notes.append("no money changes hands")
    return notes


def _verdict(before: SmuggleStateBase, reveal: Reveal) -> str:
    """The search's outcome in words."""
    if reveal.outcome == REAL_BAG:
        return "the Diplomatic Bag is real"
    if reveal.outcome == TRUTHFUL:
        return "truthful"
    return "a false Diplomatic Bag claim" if before.decl_action == A.CLAIM_BAG else "caught lying"


def _search_payments(before: SmuggleStateBase, reveal: Reveal) -> list[Payment]:
    """The payments of rules 7-9, 11B and 14 for the hand ``reveal`` laid open, as owed (before
    any player runs out of money), from public facts: the declaration and the open hand."""
    game, d = before.game, before.data
    holder, officer, informer = reveal.seat, before.officer, before.receiver
    searcher = informer if reveal.by_informer else officer
    fines = sum(c * f for c, f in zip(reveal.counts, game.kind_fines))
    if reveal.outcome == REAL_BAG:
        if reveal.by_informer and not game.config.informer_pays_real_bag:
            return []
        return [(searcher, holder, d.defamation, "compensation")]
    if reveal.outcome == TRUTHFUL:
        compensation = (searcher, holder, d.defamation, "compensation")
        if reveal.by_informer:
            return [compensation]  # the duty was paid when the Officer let it pass (R2.5)
        return [compensation, (holder, officer, game.declared_duty[before.decl_action], "duty")]
    assert reveal.outcome == LYING
    if before.decl_action == A.CLAIM_BAG:
        owed = [(holder, officer, d.false_bag_fine + fines, f"({gbp(d.false_bag_fine)} for the false claim + fines)")]
    else:
        owed = [(holder, officer, fines, "in fines")]
    if reveal.by_informer:
        owed.append((officer, informer, d.informer_reward, "informer's reward"))
    return owed


def _net(payments: Sequence[Payment], n: int) -> list[int]:
    """Each seat's money change if ``payments`` were paid in full."""
    net = [0] * n
    for payer, payee, amount, _ in payments:
        net[payer] -= amount
        net[payee] += amount
    return net


def _changes(before: SmuggleStateBase, after: SmuggleStateBase) -> str:
    """Each seat's money change in the step, "P1 +£50, P0 -£50", gains first."""
    seat = after.game.seat_name
    moved = [(a - b, s) for s, (a, b) in enumerate(zip(after.money, before.money)) if a != b]
    moved.sort(key=lambda change: (-change[0], change[1]))
    return ", ".join(f"{seat(s)} {'+' if diff > 0 else '-'}{gbp(abs(diff))}" for diff, s in moved) or "no change"


def _flow_notes(after: SmuggleStateBase, before: SmuggleStateBase) -> list[str]:
    """Players put out, a fresh hand after a search, the end of a round, a new round, the end."""
    seat = after.game.seat_name
    notes = [
        f"{seat(s)} cannot pay and is out of the game"
        for s in range(after.n)
        if before.active[s] and not after.active[s]
    ]
    if after.rounds_played > before.rounds_played:
        notes += _round_notes(after, before)
    elif after.phase == DECLARE and after.holder != before.holder:
        # a search (or a player put out while paying duty) ends the hand: a fresh one is dealt
        notes.append(f"{seat(after.holder)} draws four fresh cards and declares next")
    return notes


def _round_notes(after: SmuggleStateBase, before: SmuggleStateBase) -> list[str]:
    """The round just ended (and why), then the next round's roles or the final result."""
    seat = after.game.seat_name
    n, done = after.n, after.rounds_played
    if not after.active[before.officer]:
        why = f"the Officer ({seat(before.officer)}) is out"
    elif sum(after.active) < 3:
        why = "fewer than three players are left"
    else:
        why = "the pack has run out"
    notes = [f"round {done} of {n} is over: {why}"]
    if after.phase == OVER:
        money = ", ".join(f"{seat(s)} {gbp(m)}" for s, m in enumerate(after.money))
        best = max(after.money)
        won = ", ".join(seat(s) for s in range(n) if after.money[s] == best)
        notes.append(f"game over: final money {money}; winner: {won} with {gbp(best)}")
        return notes
    notes.append(
        f"round {done + 1} of {n} begins: {seat(after.officer)} is the Customs Officer; the pack is reshuffled "
        f"and {seat(after.holder)} draws four cards and declares"
    )
    return notes
