"""Scenarios for tests and tutorials: positions laid out by hand before the first action. Not part
of the rules: nothing in the engine imports this module (``arrange(state, ...)``; the tests bind it
as ``state.arrange(...)``, in ``tests/conftest.py``). A state laid out this way cannot be replayed
from its seed.
"""

from __future__ import annotations

from collections.abc import Iterable

from .actions import HAND_SIZE
from .state import SmuggleStateBase


def arrange(st: SmuggleStateBase, draws: Iterable[int | str]) -> None:
    """Scenario hook for tests and tutorials: before the first action, order the pack so the
    next draws come out as ``draws`` (card kinds or names, first drawn first), starting with
    the opening hand, which is dealt again. The rest of the pack stays shuffled."""
    if st.history:
        raise RuntimeError("arrange() only works before the first action")
    kinds = [st.game.kind(card) for card in draws]
    pool = st.deck + st.hand_cards()
    for card in kinds:
        if card not in pool:
            raise ValueError(f"the pack has no more {st.game.kind_names[card]} cards to stack")
        pool.remove(card)
    st.deck = pool + kinds[::-1]
    st._drop_hand()
    st._draw(HAND_SIZE)
    st._not_replayable = "its pack was stacked with arrange()"
