"""Text rendering of an Import / Export table (what a seat sees, or everything).

Besides what the observation holds, a seat's view shows public facts the observation leaves out:
the discard pile in the order the cards went there, the power asking the decision in progress and,
when that decision's options are public, the options (a ship's containers to pick from, the bids
a player can afford). So two different public choices of another player never leave the same
view behind (what ``State.action_to_string`` with a viewer relies on).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .data import ACTIONS, GOOD_TYPES
from .state import ImportExportStateBase
from .vocab import P_POWER, PHASE_NAMES

COLOUR_NAMES = ("green", "yellow", "black", "blue", "red", "grey")
MAX_OPTIONS_SHOWN = 24  # more public options than this are shown as a count


def _names(st: ImportExportStateBase, cards: Iterable[int]) -> str:
    return ", ".join(st.game.names[c].title() for c in cards) or "-"


def render(st: ImportExportStateBase, player: int | None = None) -> str:
    n = st.n
    name = st.game.seat_name  # the one name of a seat in every text (its harbor colour beside it)
    lines = [
        f"Import / Export: turn {st.turn + 1}, leader: {name(st.leader)}"
        + (f", declared: {ACTIONS[st.declared]}" if st.declared >= 0 else "")
    ]
    lines.append(f"deck {len(st.deck)}, discard {len(st.discard)}, bank {st.bank}; island: {_names(st, st.island)}")
    lines.append(f"discard pile, last on top: {_names(st, st.discard)}")
    if st.said_aloud:
        lines.append(f"said aloud: {st.said_aloud}")
    for p in range(n):
        colour = COLOUR_NAMES[st.colour[p]]
        lines.append(
            f"{name(p)} ({colour} harbor): {st.credits[p]} credits, {len(st.hands[p])} cards"
            + (" [followed]" if st.followed[p] == 1 else " [drew]" if st.followed[p] == 2 else "")
        )
        if player is None or player == p:
            lines.append(f"  hand: {_names(st, st.hands[p])}")
        lines.append(f"  imports: {_names(st, st.imports[p])}; goods: {_names(st, st.goods[p])}")
        lines.append(f"  shipments: {_names(st, st.shipments[p])}")
        for s in (2 * p, 2 * p + 1):
            if st.at_sea[s]:
                lines.append(f"  ship {s} at sea: {_names(st, st.cargo[s])}")
            else:
                need = ", ".join(GOOD_TYPES[c] for c in st.requirement(s)) or "-"
                lines.append(
                    f"  ship {s} in harbor: contracts {_names(st, st.contracts[s])}; "
                    f"needs [{need}]; loaded {_names(st, st.cargo[s])}"
                )
    if st.over:
        scores = ", ".join(f"{name(p)} {st.game.score_text(s)}" for p, s in enumerate(st.scores()))
        lines.append(f"game over ({st.end_reason}); scores: {scores}")
    elif st.ask is not None:
        lines.append(_decision(st, st.ask.phase, st.ask.player, st.ask.options, st.ask.context, st.ask.public))
    return "\n".join(lines)


def _decision(
    st: ImportExportStateBase, phase: int, player: int, options: tuple[int, ...], ctx: tuple[Any, ...], public: bool
) -> str:
    """The decision in progress: who decides what, for which power, and the options if public."""
    g = st.game
    text = f"{g.seat_name(player)} to decide: {PHASE_NAMES[phase]}"
    if phase == P_POWER:
        text += f" [{g.names[g.ids[ctx[0]]].title()}]"
    if public:
        if len(options) > MAX_OPTIONS_SHOWN:
            text += f"; {len(options)} options"
        else:
            text += "; options: " + ", ".join(g.action_to_string(a) for a in options)
    return text
