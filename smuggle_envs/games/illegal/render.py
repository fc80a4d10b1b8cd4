"""Text rendering of an Illegal table, whole or from one seat's point of view."""

from __future__ import annotations

from collections.abc import Iterable

from .actions import FIRST_BUSINESS, FIRST_HASSLE, KIND_NAMES, NUM_BUSINESSES, NUM_KINDS
from .state import IllegalStateBase
from .vocab import OVER, PASS, PHASE_NAMES


def _cards(counts: Iterable[int]) -> str:
    parts = [f"{KIND_NAMES[k]} x{c}" if c > 1 else KIND_NAMES[k] for k, c in enumerate(counts) if c]
    return ", ".join(parts) if parts else "-"


def _euros(x: int) -> str:
    return f"{x:,} EUR"


def render(state: IllegalStateBase, player: int | None = None) -> str:
    """The table as text: every card when ``player`` is None, else what that seat has seen."""
    g = state.game
    title = f"Illegal | hand {state.rounds_played + (state.phase != OVER)}"
    if g.config.target_score is not None:
        title += f" (to {_euros(g.config.target_score)})"
    lines = [title + f" | stock: {len(state.deck)} cards"]
    for q in range(state.n):
        lines.extend(_seat_lines(state, q, player))
    lines.append(f"  discard pile: {_cards(state.discards.tolist())}")
    if state.phase == OVER:
        lines.extend(_game_over_lines(state))
    else:
        lines.extend(_pending_lines(state))
        lines.append(f"  now: P{state.current_player()} - {PHASE_NAMES[state.phase]}")
    return "\n".join(lines)


def _seat_tags(state: IllegalStateBase, q: int) -> list[str]:
    tags = []
    if q == state.active and state.phase != OVER:
        tags.append("to move")
    if q == state.decider and q != state.active and state.phase != OVER:
        tags.append("deciding")
    if state.skip[q]:
        tags.append(f"loses {state.skip[q]} turn{'s' if state.skip[q] > 1 else ''}")
    return tags


def _seat_lines(state: IllegalStateBase, q: int, player: int | None) -> list[str]:
    """Seat ``q``'s market, businesses and hand (as much of it as ``player`` has seen)."""
    tags = _seat_tags(state, q)
    you = " (you)" if q == player else ""
    market = "Market Open" if state.market[q] else "no market"
    h = state.hassle[q]
    if h >= 0:
        market += f" covered by {KIND_NAMES[FIRST_HASSLE + h]}"
    table = [0] * NUM_KINDS
    for b in range(NUM_BUSINESSES):
        table[FIRST_BUSINESS + b] = state.tables[q][b]
    head = f"  P{q}{you}: {market}; businesses {_cards(table)} = {_euros(state.table_value(q))}"
    if state.rounds_played:
        head += f"; total {_euros(state.totals[q])}"
    lines = [head + (f" [{', '.join(tags)}]" if tags else "")]
    if player is None or player == q or state.is_open(q):
        label = "open hand" if state.is_open(q) else "hand"
        lines.append(f"      {label} ({state.hsize[q]}): {_cards(state.hands[q].tolist())}")
        if (player is None or player == q) and state.pending[q] >= 0:
            lines.append(f"      chosen to pass left: {KIND_NAMES[state.pending[q]]}")
    else:
        known = state.known[player][q].tolist()
        extra = f"; you know of: {_cards(known)}" if any(known) else ""
        lines.append(f"      hand: {state.hsize[q]} cards{extra}")
    return lines


def _game_over_lines(state: IllegalStateBase) -> list[str]:
    scores = state.scores()
    best = max(scores)
    won = [f"P{q}" for q in range(state.n) if scores[q] == best]
    lines = []
    if state.last_scores is not None:
        lines.append("  last accounting: " + ", ".join(f"P{q} {_euros(s)}" for q, s in enumerate(state.last_scores)))
    lines.append(f"  game over; winner: {', '.join(won)} with {_euros(int(best))}")
    return lines


def _pending_lines(state: IllegalStateBase) -> list[str]:
    """The card being resolved, the trade on offer and the passing, where there are any."""
    lines = []
    if state.card >= 0:
        what = f"  resolving: P{state.active} plays {KIND_NAMES[state.card]}"
        if state.target >= 0:
            what += f" on P{state.target}"
        if state.biz >= 0:
            what += f", taking {KIND_NAMES[FIRST_BUSINESS + state.biz]}"
        lines.append(what)
    if state.n_give:
        lines.append(
            f"  trade: P{state.active} offers {_cards(state.give.tolist())}"
            + (f" for {_cards(state.want.tolist())}" if state.n_want else "")
            + (f" to P{state.partner}" if state.partner >= 0 else "")
        )
    if state.phase == PASS:
        lines.append(
            "  passing left: "
            + ", ".join(f"P{s}" for s in state.pass_order[: state.pass_i])
            + (" have chosen" if state.pass_i else "nobody has chosen yet")
        )
    return lines
