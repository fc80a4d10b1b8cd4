"""Scenarios for tests and tutorials: a CIQ table laid out by hand before the first action. Not
part of the rules: nothing in the engine imports this module (``arrange(state, ...)``; the tests
bind it as ``state.arrange(...)``, in ``tests/conftest.py``). A state laid out this way cannot be
replayed from its seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from . import actions as A
from .actions import JOKER
from .state import CIQStateBase
from .steps import start_turn
from .vocab import OVER


def arrange(
    st: CIQStateBase,
    *,
    hands: Mapping[int, Sequence[str | int]] | None = None,
    tolerance: Mapping[int, Sequence[str | int]] | None = None,
    imports: Mapping[int, Sequence[str | int]] | None = None,
    exports: Mapping[int, Sequence[str | int]] | None = None,
    stock: Sequence[str | int] | None = None,
    turn: int | None = None,
) -> None:
    """Scenario hook for tests and tutorials: before the first action, lay the table out.

    Each of ``hands``, ``tolerance``, ``imports``, ``exports`` maps a seat to a list of cards
    (names like ``"10d"`` or kinds; a Tolerance pile bottom first). Seats not named keep
    their hand and Tolerance pile but get empty Import and Export piles. ``stock`` lists the
    Stock from the top down; ``None`` puts every other card in it, shuffled. Cards left over
    when ``stock`` is given are put out of play (``box``), so card counts stay conserved.
    The turn of ``turn`` (default: the first player) then starts again, drawing up to 7.
    """
    if st.history:
        raise RuntimeError("arrange() only works before the first action")
    n, game = st.n, st.game
    hands, tolerance = dict(hands or {}), dict(tolerance or {})
    imports, exports = dict(imports or {}), dict(exports or {})
    for seat in (*hands, *tolerance, *imports, *exports):
        if not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat {seat!r} is not in [0, {n})")
    for p in range(n):
        hands.setdefault(p, st.cards_of(st.hand[p]))
        tolerance.setdefault(p, list(st.tol[p]))
    pool = list(game.deck_template)

    def take(cards: Iterable[str | int]) -> list[int]:
        kinds = [A.card(c) for c in cards]
        for k in kinds:
            if k not in pool:
                raise ValueError(f"no {A.card_name(k)} left to place (there are {game.kind_counts[k]})")
            pool.remove(k)
        return kinds

    placed = {
        name: {p: take(cards) for p, cards in table.items()}
        for name, table in (("hands", hands), ("tolerance", tolerance), ("imports", imports), ("exports", exports))
    }
    top = take(stock) if stock is not None else None
    for cards in placed["tolerance"].values():
        if JOKER in cards:
            raise ValueError("a Joker cannot be a customs worker")
    _lay_out(st, placed, top, pool)
    start_turn(st, st.game.config.first_player if turn is None else turn)
    st._not_replayable = "its position was laid out with arrange()"


def _lay_out(st: CIQStateBase, placed: dict[str, dict[int, list[int]]], top: list[int] | None, pool: list[int]) -> None:
    """Rebuild every field from scratch: the cards ``placed`` (by zone, then seat), the Stock
    (``top``, or the ``pool`` left over, shuffled) and the box (the rest, when ``top`` is given)."""
    n = st.n
    st.buf[:] = bytes(len(st.buf))
    st.sbuf[:] = bytes(len(st.sbuf))
    st.phase, st.turn, st.target = OVER, -1, -1
    st.exp = [[] for _ in range(n)]
    st.tol = [[] for _ in range(n)]
    st.kinds = [set() for _ in range(n)]
    st.tol_value = [0] * n
    st.shown = [None] * n
    st._clear_move()
    for p in range(n):
        for k in placed["hands"][p]:
            st._hand_add(p, k)
        for k in placed["tolerance"].get(p, []):
            st.public[k] += 1
            st._tol_push(p, k)
        for k in placed["imports"].get(p, []):
            st._imp_add(p, k)
            st.public[k] += 1
        cards = placed["exports"].get(p, [])
        for k in cards:
            st.public[k] += 1  # counted face up for a moment, then put face down
        st._face_up_to_export(p, cards)
    if top is None:
        st.rng.shuffle(pool)
        st.stock, st.box = pool, []
    else:
        st.stock, st.box = top[::-1], pool
    st.counters[0] = len(st.stock)
    st._recount_unseen()
