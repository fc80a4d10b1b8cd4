"""Text rendering of a CIQ table, whole or from one seat's point of view."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import card_name
from .state import CIQStateBase
from .vocab import OVER, PHASE_NAMES


def _cards(kinds: Sequence[int]) -> str:
    return " ".join(card_name(k) for k in kinds) if kinds else "-"


def render(state: CIQStateBase, player: int | None = None) -> str:
    n = state.n
    lines = [f"CIQ | turn {state.turns + 1} | Stock: {len(state.stock)} cards"]
    for s in range(n):
        you = " (you)" if s == player else ""
        tags = []
        if s == state.turn and state.phase != OVER:
            tags.append("to play")
        if s == state.target and state.phase != OVER:
            tags.append("target")
        tol = state.tol[s]
        worker = f"{card_name(tol[-1])} ({len(tol)} cards)" if tol else "none (everything is Legal)"
        head = f"  P{s}{you}" + (f" [{', '.join(tags)}]" if tags else "")
        lines.append(
            f"{head}: hand {state.hand_size[s]}, Import {state.imp_size[s]}, "
            f"Export {len(state.exp[s])}, Tolerance {worker}"
        )
        if player is None or player == s:
            lines.append(f"      hand: {_cards(state.cards_of(state.hand[s]))}")
            lines.append(f"      Export pile: {_cards(sorted(state.exp[s]))}")
        if state.imp_size[s]:
            lines.append(f"      Import pile: {_cards(state.cards_of(state.imp[s]))}")
    if state.sab_card >= 0:
        lines.append(f"  sabotage: {card_name(state.sab_card)} played on P{state.target}")
    if state.ship:
        marks = []
        for i, k in enumerate(state.ship):
            mark = card_name(k)
            if i == state.smuggled:
                mark += " (smuggled" + (", worker fired)" if state.fired else ")")
            marks.append(mark)
        lines.append(f"  shipment to P{state.target}: {' '.join(marks)}")
        if state.flipped:
            lines.append(f"  turned over by Jacks: {_cards(state.flipped)}")
    if state.last_fire is not None:
        seat, card = state.last_fire
        lines.append(f"  last Fire: P{seat} fired the customs worker with {card_name(card)}")
    if state.phase == OVER:
        if state.drawn_game:
            lines.append(f"  game over: a draw at the turn limit ({state.turns} turns)")
        else:
            lines.append(f"  game over; winner: {', '.join(f'P{s}' for s in state.winners)}")
        return "\n".join(lines)
    lines.append(f"  now: P{state.current_player()} - {PHASE_NAMES[state.phase]}")
    return "\n".join(lines)
