"""Text rendering of an Import / Export table (what a seat sees, or everything)."""

from __future__ import annotations

from .data import ACTIONS, GOOD_TYPES

COLOUR_NAMES = ("green", "yellow", "black", "blue", "red", "grey")


def _names(st, cards) -> str:
    return ", ".join(st.game.names[c].title() for c in cards) or "-"


def render(st, player: int | None = None) -> str:
    _g, n = st.game, st.n
    lines = [
        f"Import / Export: turn {st.turn + 1}, leader: player {st.leader}"
        + (f", declared: {ACTIONS[st.declared]}" if st.declared >= 0 else "")
    ]
    lines.append(f"deck {len(st.deck)}, discard {len(st.discard)}, bank {st.bank}; island: {_names(st, st.island)}")
    for p in range(n):
        colour = COLOUR_NAMES[st.colour[p]]
        lines.append(
            f"player {p} ({colour}): {st.credits[p]} credits, {len(st.hands[p])} cards"
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
        lines.append(f"game over ({st.end_reason}); scores: {st.scores()}")
    else:
        from .rules import PHASE_NAMES

        lines.append(f"player {st.ask[1]} to decide: {PHASE_NAMES[st.ask[0]]}")
    return "\n".join(lines)
