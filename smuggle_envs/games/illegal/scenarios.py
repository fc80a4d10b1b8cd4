"""Scenarios for tests and tutorials: an Illegal position laid out by hand before the first action.
Not part of the rules: nothing in the engine imports this module (``arrange(state, ...)``; the
tests bind it as ``state.arrange(...)``, in ``tests/conftest.py``). A state laid out this way
cannot be replayed from its seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from ...core.fields import set_one_hot
from . import actions as A
from .actions import FIRST_HASSLE, MARKET, NUM_HASSLES
from .state import IllegalStateBase
from .steps import check_hassle, new_hand, start_turn


def arrange(
    st: IllegalStateBase,
    hands: Mapping[int, Sequence[str | int]] | None = None,
    tables: Mapping[int, Sequence[str | int]] | None = None,
    markets: Iterable[int] | None = None,
    hassles: Mapping[int, str | int] | None = None,
    stock: Sequence[str | int] | None = None,
    discards: Iterable[str | int] | None = None,
    skip: Mapping[int, int] | None = None,
    active: int | None = None,
) -> None:
    """Scenario hook for tests and tutorials: before the first action, lay out a position.

    ``hands``, ``tables`` (businesses) and ``discards`` map seats (or, for ``discards``, are)
    lists of card names; ``markets`` lists the seats with a Market Open (every seat with a
    business or a hassle gets one anyway); ``hassles`` maps seats to a hassle name; ``stock``
    lists the next draws, first drawn first; ``skip`` maps seats to lost turns; ``active``
    is the seat to move. Every card comes out of the 106: seats without a given hand are
    dealt at random from what is left, and the rest of the stock stays shuffled.
    """
    if st.history:
        raise RuntimeError("arrange() only works before the first action")
    g, n = st.game, st.n
    hands, tables, hassles = dict(hands or {}), dict(tables or {}), dict(hassles or {})
    pool = list(g.deck_template)

    def take(card: str | int) -> int:
        k = g.kind(card)
        if k not in pool:
            raise ValueError(f"no {g.kind_names[k]} card left to place")
        pool.remove(k)
        return k

    first = (g.config.first_player + st.rounds_played) % n if active is None else active
    new_hand(st)
    for q in range(n):
        st.hands[q][:] = st.game.no_known
        st.hsize[q] = 0
    _place_tables(st, take, set(markets or ()) | set(tables) | set(hassles), tables, hassles)
    for card in discards or ():
        st.discards[take(card)] += 1
    _place_hands(st, take, pool, hands, stock)
    for q, turns in (skip or {}).items():
        st.skip[q] = turns
    set_one_hot(st.f_active, st.active, -1)
    st.active = -1
    start_turn(st, first)
    st._not_replayable = "its position was laid out with arrange()"


def _place_tables(
    st: IllegalStateBase,
    take: Callable[[str | int], int],
    opened: set[int],
    tables: Mapping[int, Sequence[str | int]],
    hassles: Mapping[int, str | int],
) -> None:
    """Markets Open for the ``opened`` seats, then the businesses and the hassles on them."""
    for q in sorted(opened):
        take(MARKET)
        st.market[q] = 1
    for q, cards in tables.items():
        for card in cards:
            st._add_business(q, A.business(take(card)))
    for q, card in hassles.items():
        k = take(card)
        if k - FIRST_HASSLE not in range(NUM_HASSLES):
            raise ValueError(f"{card!r} is not a hassle")
        st._set_hassle(q, k - FIRST_HASSLE)
        check_hassle(st, q)
        if st.hassle[q] < 0:
            raise ValueError(f"a {card} cannot stay on seat {q}'s table: it needs a business to take")


def _place_hands(
    st: IllegalStateBase,
    take: Callable[[str | int], int],
    pool: list[int],
    hands: Mapping[int, Sequence[str | int]],
    stock: Sequence[str | int] | None,
) -> None:
    """The given hands, the top of the stock, then the other hands dealt from the rest of the
    ``pool``, shuffled; the rest is the stock."""
    g, n = st.game, st.n
    for q, cards in hands.items():
        for card in cards:
            st.hands[q][take(card)] += 1
            st.hsize[q] += 1
    top = [take(card) for card in stock or ()]
    st.rng.shuffle(pool)
    for q in range(n):
        if q not in hands:
            for _ in range(g.hand_size):
                k = pool.pop()
                st.hands[q][k] += 1
                st.hsize[q] += 1
    st.deck = pool + top[::-1]
    st.f_deck[0] = len(st.deck)
