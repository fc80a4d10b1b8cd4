"""Smuggle's perfect-recall resample: a world drawn from what one seat has seen, never copied
from the truth (``State.resample``; ``rules.SmuggleState`` binds ``resample`` as its
``_resample``)."""

from __future__ import annotations

import random

from .actions import BAG, NUM_KINDS
from .state import SmuggleStateBase
from .vocab import OVER


def resample(st: SmuggleStateBase, player: int, rng: random.Random) -> SmuggleStateBase:
    """Redraw what ``player`` cannot see: the pack's order, the live hand's cards that
    ``player`` does not know, and the state's own RNG (future shuffles)."""
    new = st.clone()
    new.rng = st._fresh_rng(rng)
    if st.phase == OVER or player == st.holder or not st.hand_size:
        rng.shuffle(new.deck)
        return new
    known = st.known[player].tolist()
    pool = st.deck + st.hand_cards()
    for k in range(NUM_KINDS):
        for _ in range(known[k]):
            pool.remove(k)
    rng.shuffle(pool)
    hand = list(known)
    drawn = sum(known)
    # Kept cards are never the Bag (rule 15), so draw those from the Bag-free part of the pool.
    while drawn < st.kept:
        card = pool.pop(next(i for i, c in enumerate(pool) if c != BAG))
        hand[card] += 1
        drawn += 1
    # Shuffle again: skipping the Bag above left it nearer the front, so the card drawn after the
    # kept ones would be the Bag with 1/pool, not the 1/(pool - kept) of a fair deal (found by the
    # enumeration test of training/bluffing/beliefs.py).
    rng.shuffle(pool)
    while drawn < st.hand_size:
        hand[pool.pop()] += 1
        drawn += 1
    new.hand[:] = bytes(hand)
    new.deck = pool
    # Other seats' memories of passed cards must fit the redrawn hand (only ``player``'s
    # view has to stay exact; theirs is hidden from him).
    for q in range(st.n):
        if q != player:
            counts = new.known[q]
            for k in range(NUM_KINDS):
                if counts[k] > hand[k]:
                    counts[k] = hand[k]
    return new
