"""Scenarios for tests and tutorials: a Humble smuggle table laid out by hand before the first
action. Not part of the rules: nothing in the engine imports this module (``arrange(state, ...)``;
the tests bind it as ``state.arrange(...)``, in ``tests/conftest.py``). A state laid out this way
cannot be replayed from its seed.
"""

from __future__ import annotations

from .actions import NK, NP
from .state import HumbleSmuggleStateBase


def arrange(
    st: HumbleSmuggleStateBase,
    *,
    hands=None,
    centre=None,
    black=None,
    deck_top=(),
    black_top=(),
    black_discard=(),
    black_hidden=None,
    first: int | None = None,
    end_left: int | None = None,
) -> None:
    """Scenario hook for tests and tutorials, before the first action.

    ``hands``: {seat: [white values]} (3 each); ``centre``: the players + 1 centre values;
    ``black``: {seat: [black kinds or names]}; ``deck_top`` / ``black_top``: cards to draw
    next, first drawn first; ``black_discard``: Play cards to put face up in the discard pile
    (as if revealed), ``black_hidden``: {seat: [black kinds]} it discarded face down; ``first``: the first player; ``end_left``: white cards left above the 80 (0: the next
    refill reveals it). Cards come from wherever they were; the rest stay
    shuffled. The state is then not replayable from its seed."""
    if st.history:
        raise RuntimeError("arrange() only works before the first action")
    game, n = st.game, st.n
    pool = st.deck + st.centre + [c for h in st.hands for c in h]
    bpool = st.bdeck + [k for s in range(n) for k in range(NK) for _ in range(st.black[s][k])]
    hands = {s: list(hs) for s, hs in (hands or {}).items()}
    for s, hs in hands.items():
        st.hands[s] = _take(hs, pool, "white card")
    black = {s: [game.black_kind(k) for k in ks] for s, ks in (black or {}).items()}
    for s, ks in black.items():
        st.black[s] = [0] * NK
        for k in _take(ks, bpool, "black card of kind"):
            st.black[s][k] += 1
    if centre is not None:
        if len(centre) != n + 1:
            raise ValueError(f"the centre holds {n + 1} cards")
        st.centre = _take(centre, pool, "white card")
    deck_top = _take(deck_top, pool, "white card")
    black_top = _take([game.black_kind(k) for k in black_top], bpool, "black card of kind")
    _black_discards(st, bpool, black_discard, black_hidden)
    _deal_the_rest(st, pool, bpool, hands, black, centre is None)
    st.deck = pool + deck_top[::-1]
    st.bdeck = bpool + black_top[::-1]
    if first is not None:
        st._set_first(first)
        st.actor = first
    if end_left is not None:
        if not 0 <= end_left <= len(st.deck):
            raise ValueError(f"end_left must be in [0, {len(st.deck)}]")
        st.end_left = end_left
    st._reload_fields()
    st._not_replayable = "its cards were arranged with arrange()"


def _black_discards(st: HumbleSmuggleStateBase, bpool: list[int], black_discard, black_hidden) -> None:
    """The black discard pile: Play cards face up (``black_discard``) and the cards seats
    discarded face down (``black_hidden``), taken out of ``bpool``."""
    game = st.game
    st.bdisc_public = _take([game.black_kind(k) for k in black_discard], bpool, "black card of kind")
    if any(k >= NP for k in st.bdisc_public):
        raise ValueError("only Play cards lie face up in the black discard pile")
    st.bdisc_hidden = [
        (s, k)
        for s, ks in (black_hidden or {}).items()
        for k in _take([game.black_kind(k) for k in ks], bpool, "black card of kind")
    ]


def _deal_the_rest(
    st: HumbleSmuggleStateBase, pool: list[int], bpool: list[int], hands: dict, black: dict, centre: bool
) -> None:
    """Seats not named keep their hand size, refilled from the pools; ``centre``: the centre too."""
    n = st.n
    for s in range(n):
        if s not in hands:
            st.hands[s] = [pool.pop() for _ in range(len(st.hands[s]))]
        if s not in black:
            count = sum(st.black[s])
            st.black[s] = [0] * NK
            for _ in range(count):
                st.black[s][bpool.pop()] += 1
    if centre:
        st.centre = [pool.pop() for _ in range(n + 1)]


def _take(values, where, what):
    """``values`` taken out of ``where`` (one each), or a ``ValueError`` naming ``what`` is missing."""
    for c in values:
        if c not in where:
            raise ValueError(f"{what} {c} is not available (twice, or out of range)")
        where.remove(c)
    return list(values)
