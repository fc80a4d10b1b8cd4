"""Scenarios for tests and tutorials: an Import / Export position laid out by hand, then a turn
started. Not part of the rules: nothing in the engine imports this module (``arrange(state, ...)``;
the tests bind it as ``state.arrange(...)``, in ``tests/conftest.py``). A state laid out this way
cannot be replayed from its seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from .hooks import WIN_CHECKS
from .state import ImportExportStateBase
from .steps import run

S = TypeVar("S", bound=ImportExportStateBase)


def arrange(
    st: S,
    *,
    hands: dict[int, Sequence[int | str]] | None = None,
    imports: dict[int, Sequence[int | str]] | None = None,
    goods: dict[int, Sequence[int | str]] | None = None,
    shipments: dict[int, Sequence[int | str]] | None = None,
    ships: dict[int, dict[str, Any]] | None = None,
    island: Sequence[int | str] = (),
    deck_top: Sequence[int | str] = (),
    discard: Sequence[int | str] = (),
    credits: dict[int, int] | None = None,
    leader: int | None = None,
    colours: Sequence[int] | None = None,
) -> S:
    """Lay out a scripted position (for tests and tutorials), then start a turn.

    Cards are named by key or name (``"laptops"``, ``"LAPTOPS"``). ``hands``, ``imports``,
    ``goods`` and ``shipments`` map seats to card lists; ``ships`` maps ship ids to
    ``{"at_sea": bool, "contracts": [...], "cargo": [...]}`` (ships not named wait empty in
    their harbor); ``deck_top`` lists the next draws, first drawn first. Every card not placed
    is shuffled into the deck, so cards are conserved. ``credits`` maps seats to active
    credits (the bank holds the rest). An arranged state cannot be replayed from its seed.
    """
    g = st.game
    pool = set(g.deck_cards)

    def take(cards: Iterable[int | str]) -> list[int]:
        ids = [g.card_id(c) for c in cards]
        for c in ids:
            if c not in pool:
                raise ValueError(f"{g.names[c]} is placed twice or is not in this game's deck")
            pool.remove(c)
        return ids

    _place_harbors(st, take, hands, imports, goods, shipments)
    _place_ships(st, take, ships)
    st.island, st.discard = take(island), take(discard)
    top = take(deck_top)
    rest = sorted(pool)
    st.rng.shuffle(rest)
    st.deck = rest + top[::-1]
    _start_turn_fields(st, colours, credits, leader)
    st._not_replayable = "its position was laid out with arrange()"
    run(st)
    return st


Take = Callable[[Iterable[int | str]], list[int]]
Cards = dict[int, Sequence[int | str]]


def _place_harbors(
    st: ImportExportStateBase,
    take: Take,
    hands: Cards | None,
    imports: Cards | None,
    goods: Cards | None,
    shipments: Cards | None,
) -> None:
    """Every seat's hand, imports, goods and completed shipments (whose powers it then holds)."""
    g, n = st.game, st.n

    def per_seat(mapping: Cards | None) -> list[list[int]]:
        mapping = mapping or {}
        return [take(mapping.get(p, ())) for p in range(n)]

    st.hands, st.imports, st.goods = per_seat(hands), per_seat(imports), per_seat(goods)
    st.shipments = per_seat(shipments)
    st.owner = [-1] * len(g.cards)
    for p in range(n):
        for c in st.shipments[p]:
            st.owner[c] = p
    st.check_wins_now = any(st.owner[g.ids[k]] >= 0 for k in WIN_CHECKS)
    st.wind_copy = -1


def _place_ships(st: ImportExportStateBase, take: Take, ships: dict[int, dict[str, Any]] | None) -> None:
    """The ships named (at sea or not, contracts, cargo); the others wait empty in harbor."""
    n = st.n
    st.at_sea = [False] * (2 * n)
    st.contracts = [[] for _ in range(2 * n)]
    st.cargo = [[] for _ in range(2 * n)]
    for s, ship in (ships or {}).items():
        st.at_sea[s] = bool(ship.get("at_sea", False))
        st.contracts[s] = take(ship.get("contracts", ()))
        st.cargo[s] = take(ship.get("cargo", ()))


def _start_turn_fields(
    st: ImportExportStateBase, colours: Sequence[int] | None, credits: dict[int, int] | None, leader: int | None
) -> None:
    """Harbor colours, credits (the bank holds the rest), the leader, and a fresh turn."""
    g, n = st.game, st.n
    if colours is not None:
        st.colour = list(colours)
    start = g.data.rules["start_credits"]
    st.credits = [(credits or {}).get(p, start) for p in range(n)]
    st.bank = g.data.rules["bank"] - sum(st.credits)
    if leader is not None:
        st.leader = leader
    st.played = [[] for _ in range(n)]
    st.pending = -1
    st.last_bids = [-1] * n
    st.turn = 0
    st.end_reason = ""
    st.stack = [("turn",)]
    st.ask = None
