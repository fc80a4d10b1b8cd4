"""Illegal's perfect-recall resample: a world drawn from what one seat has seen, never copied
from the truth (``State.resample``; ``rules.IllegalState`` binds ``resample`` as its
``_resample``). What each seat knows of each closed hand is kept by the state (``known``).
"""

from __future__ import annotations

import random

from .actions import BRIBE, BUSINESS_KINDS, NUM_KINDS
from .state import IllegalStateBase
from .vocab import OVER, PAY, TARGET


def resample(st: IllegalStateBase, player: int, rng: random.Random) -> IllegalStateBase:
    """Redraw what ``player`` cannot see: the other closed hands (keeping the cards it knows
    are there), the stock's order, the cards others have chosen to pass and not yet passed,
    and the state's own RNG. Open hands (Tax Inspection) stay as they are."""
    new = st.clone()
    new.rng = st._fresh_rng(rng)
    if st.phase == OVER:
        rng.shuffle(new.deck)
        return new
    n, K = st.n, NUM_KINDS
    hidden = [q for q in range(n) if q != player and not st.open_mask >> q & 1]
    sure = {q: bytes(st.known[player][q]) for q in hidden}
    unknown = list(st.deck)
    for q in hidden:
        hand = st.hands[q]
        for k in range(K):
            unknown += [k] * (hand[k] - sure[q][k])
    # A player in the middle of paying for a Bribe holds a business card (he could not have
    # played the Bribe otherwise): redraw until that holds.
    payer = st.active if (st.phase == PAY or (st.phase == TARGET and st.card == BRIBE and st.magnum_actor < 0)) else -1
    for _attempt in range(1000):
        pool = list(unknown)
        rng.shuffle(pool)
        drawn = {}
        for q in hidden:
            counts = list(sure[q])
            for _ in range(st.hsize[q] - sum(counts)):
                counts[pool.pop()] += 1
            drawn[q] = counts
        if payer not in drawn or any(drawn[payer][k] for k in BUSINESS_KINDS):
            break
    else:  # pragma: no cover - the real hand is one answer
        raise RuntimeError("resample found no hand for the Bribe payer")
    for q in hidden:
        new.hands[q][:] = bytes(drawn[q])
    new.deck = pool
    # Cards others chose to pass are hidden until they move: any card of their hand.
    for q in range(n):
        if q != player and st.pending[q] >= 0:
            new.f_pending[q * K + st.pending[q]] = 0
            cards = new.hand_cards(q)
            k = cards[rng.randrange(len(cards))]
            new.pending[q] = k
            new.f_pending[q * K + k] = 1
    # What other seats know must fit the redrawn hands (only ``player``'s view stays exact).
    for o in range(n):
        if o == player:
            continue
        for q in hidden:
            row, hand = new.known[o][q], new.hands[q]
            for k in range(K):
                if row[k] > hand[k]:
                    row[k] = hand[k]
    new._legal = None
    return new
