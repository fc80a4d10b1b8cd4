"""Text rendering of a Smuggle table, whole or from one seat's point of view."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import declaration_text
from .state import SmuggleStateBase
from .vocab import DISCARD, OVER, PHASE_NAMES, REAL_BAG, RECEIVE, TRUTHFUL


def _money(amount: int) -> str:
    """ "-£175", never "£-175"."""
    return f"-£{-amount}" if amount < 0 else f"£{amount}"


def _cards(counts: Sequence[int], names: Sequence[str]) -> str:
    parts = [f"{names[k]} x{c}" if c > 1 else names[k] for k, c in enumerate(counts) if c]
    return ", ".join(parts) if parts else "-"


def _passed_text(state: SmuggleStateBase) -> str:
    """The note on a declaration the Officer let pass: the duty it paid, or none for a Bag claim
    (diplomatic immunity pays nothing: "duty paid" would be false)."""
    if not state.f_duty_paid[0]:  # the flag marks a hand the Officer let pass, the Bag's too
        return ""
    if state.declaration is None:
        return "  (not searched: no duty under diplomatic immunity, passed on)"
    return f"  (duty paid: £{state.game.declared_duty[state.decl_action]}, passed on)"


def render(state: SmuggleStateBase, player: int | None = None) -> str:
    game = state.game
    names = game.kind_names
    lines = [
        f"Smuggle | round {min(state.rounds_played + 1, state.n)}/{state.n} | "
        f"Officer: P{state.officer} | pack: {len(state.deck)} card{'' if len(state.deck) == 1 else 's'}"
    ]
    seats = []
    for s in range(state.n):
        tags = []
        if s == state.officer and state.phase != OVER:
            tags.append("Officer")
        if s == state.holder:
            tags.append("holder")
        if s == state.receiver and state.phase == RECEIVE:
            tags.append("to decide")
        if not state.active[s]:
            tags.append("out")
        you = " (you)" if s == player else ""
        seats.append(f"P{s}{you}: {_money(state.money[s])}" + (f" [{', '.join(tags)}]" if tags else ""))
    lines.append("  " + " | ".join(seats))
    lines.append(f"  open suitcase: {_cards(state.suitcase.tolist(), names)}")
    if state.last_discard is not None:
        # Face up, so public; shown because the discard that ends a round leaves no other trace
        # (the round's suitcase is reshuffled into the next pack).
        seat, kind = state.last_discard
        lines.append(f"  last discard: P{seat} {names[kind]}")
    if state.last_reveal is not None:
        seat, counts, outcome, by_informer = state.last_reveal
        verdict = "truthful" if outcome == TRUTHFUL else "real Bag" if outcome == REAL_BAG else "caught lying"
        who = "the Informer" if by_informer else "the Officer"
        lines.append(f"  last search: P{seat} by {who}: {_cards(counts, names)} -> {verdict}")
    if state.phase == OVER:
        best = max(state.money)
        won = [f"P{s}" for s in range(state.n) if state.money[s] == best]
        lines.append(f"  game over; winner: {', '.join(won)} with {_money(best)}")
        return "\n".join(lines)
    declared = state.declaration
    if state.phase != DISCARD and state.decl_action >= 0:
        said = "the Diplomatic Bag" if declared is None else declaration_text(declared, names)
        lines.append(f"  P{state.holder} declared: {said}" + _passed_text(state))
    if player is None or player == state.holder:
        lines.append(f"  live hand (P{state.holder}): {_cards(state.hand.tolist(), names)}")
    elif any(state.known[player]):
        lines.append(f"  you passed on, still in the hand: {_cards(state.known[player].tolist(), names)}")
    lines.append(f"  now: P{state.current_player()} - {PHASE_NAMES[state.phase]}")
    return "\n".join(lines)
