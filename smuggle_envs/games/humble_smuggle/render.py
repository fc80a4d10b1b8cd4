"""Text rendering of a Humble smuggle table, whole or from one seat's point of view."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .game import HumbleSmuggleGame
from .state import HumbleSmuggleStateBase
from .vocab import OVER, PHASE_NAMES


def _card(game: HumbleSmuggleGame, v: int) -> str:
    sym = game.symbol[v]
    tags = [game.rule_names[game.rule_of[v]]]
    if sym >= 0:
        tags.append(game.symbol_names[sym])
    if game.draws[v]:
        tags.append(f"draw {game.draws[v]}")
    return f"{v} ({', '.join(tags)})"


def _cards(values: Iterable[int]) -> str:
    return ", ".join(str(v) for v in sorted(values)) or "-"


def _black(game: HumbleSmuggleGame, counts: Sequence[int]) -> str:
    parts = [f"{game.black_names[k]} x{c}" if c > 1 else game.black_names[k] for k, c in enumerate(counts) if c]
    return ", ".join(parts) or "-"


def render(state: HumbleSmuggleStateBase, player: int | None = None) -> str:
    """The table as text: every card when ``player`` is None, else what that seat has seen."""
    game, n = state.game, state.n
    full = player is None
    if state.phase == OVER:
        when = f"game over after {state.rounds_played} rounds"
    else:
        left = "final round" if state.final else f"{state.rounds_left()} rounds left"
        when = f"round {state.rounds_played + 1} ({left})"
    lines = [
        f"Humble smuggle | {when} | first player: P{state.first} | white deck: {len(state.deck)} | "
        f"black deck: {len(state.bdeck)}, discard: {len(state.bdisc_public) + len(state.bdisc_hidden)}"
    ]
    if state.centre:
        lines.append("  centre: " + "; ".join(_card(game, v) for v in sorted(state.centre)))
    if state.rule >= 0 and state.phase != OVER and state.centre and len(state.centre) == 1:
        lines.append(f"  round rule: {game.rule_names[state.rule]}")
    points = state.points(holds=True)  # the Hold cards count for whoever may see them
    lines.extend("  " + " | ".join(_seat_parts(state, s, player, points)) for s in range(n))
    for s in range(n):
        if full or s == player:
            lines.append(f"  P{s} hand: {_cards(state.hands[s])} | black: {_black(game, state.black[s])}")
    if state.last is not None:
        lines.append(_last_reveal(state))
    if state.phase == OVER:
        scores = state.scores()
        best = max(scores)
        won = [f"P{s}" for s in range(n) if scores[s] == best]
        lines.append(
            f"  game over; winner: {', '.join(won)} with {points[scores.index(best)]} points "
            f"(final points: {', '.join(str(p) for p in points)})"
        )
    else:
        lines.append(f"  now: P{state.current_player()} - {PHASE_NAMES[state.phase]}")
    return "\n".join(lines)


def _seat_parts(state: HumbleSmuggleStateBase, s: int, player: int | None, points: Sequence[int]) -> list[str]:
    """Seat ``s``'s points, scored cards, face-down card and attached plays, as ``player`` sees them."""
    game, full = state.game, player is None
    you = " (you)" if s == player else ""
    public = state.points()
    shown = (
        points[s]
        if full or s == player or state.phase == OVER
        else f"{public[s]}+?"
        if sum(state.black[s])
        else public[s]
    )
    parts = [f"P{s}{you}: {shown} pts", f"scored: {_cards(state.scored[s])}", f"black cards: {sum(state.black[s])}"]
    if state.known[s]:
        parts.append(f"drafted: {_cards(state.known[s])}")
    if state.sel[s]:
        parts.append(f"face down: {state.sel[s]}" if full or s == player else "face down: ?")
    if state.attached[s]:
        plays = []
        for attacher, kind in state.attached[s]:
            what = game.data.play[kind].name if full or attacher == player else "?"
            plays.append(f"{what} by P{attacher}")
        parts.append("attached: " + ", ".join(plays))
    return parts


def _last_reveal(state: HumbleSmuggleStateBase) -> str:
    game = state.game
    assert state.last is not None
    sel, values, attached, discarded, centre_card, centre_out, rule = state.last
    reveal = []
    for s in range(state.n):
        mods = "".join(" " + game.data.play[k].name for _, k in attached[s])
        value = f" = {values[s]}" if mods else ""
        fate = "discarded" if s in discarded else "scored"
        reveal.append(f"P{s} {sel[s]}{mods}{value} {fate}")
    reveal.append(f"centre {centre_card}" + (" discarded" if centre_out else ""))
    return f"  last reveal ({game.rule_names[rule]}): " + "; ".join(reveal)
