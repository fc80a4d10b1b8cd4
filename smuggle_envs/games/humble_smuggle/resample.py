"""Humble smuggle's perfect-recall resample: a world drawn from what one seat has seen, never
copied from the truth (``State.resample``; ``rules.HumbleSmuggleState`` binds ``resample`` as its
``_resample``). What everyone saw drafted into a hand is kept by the state (``known``).
"""

from __future__ import annotations

import random

from .actions import NK, NP
from .state import HumbleSmuggleStateBase
from .vocab import OVER


def resample(st: HumbleSmuggleStateBase, player: int, rng: random.Random) -> HumbleSmuggleStateBase:
    """Redraw what ``player`` cannot see, consistently with what it saw: the white deck's
    order and the cards of other hands that nobody saw drafted; which card of each other
    seat's hand lies face down; other seats' black hands (until they are shown for final
    scoring), the kinds of the Play cards they attached (still Play cards), their face-down
    discards and the black deck; the RNG."""
    new = st.clone()
    new.rng = st._fresh_rng(rng)
    n = st.n
    others = [q for q in range(n) if q != player]
    # White: unknown hand cards of the others and the deck form one pool.
    pool = list(st.deck)
    unknown = {}
    for q in others:
        held = st.hands[q] + ([st.sel[q]] if st.sel[q] else [])
        rest = list(held)
        for c in st.known[q]:
            rest.remove(c)
        unknown[q] = len(rest)
        pool += rest
    rng.shuffle(pool)
    for q in others:
        held = list(st.known[q]) + [pool.pop() for _ in range(unknown[q])]
        if st.sel[q]:
            new.sel[q] = held.pop(rng.randrange(len(held)))
        new.hands[q] = held
    new.deck = pool
    # Black: the others' hands, their attached (unrevealed) Play cards, their face-down
    # discards and the deck form one pool; attached slots take Play kinds only.
    # At the end every black hand has been shown for final scoring: those stay.
    redraw = others if st.phase != OVER else []
    bpool = list(st.bdeck)
    for q in redraw:
        bpool += [k for k in range(NK) for _ in range(st.black[q][k])]
    slots = []
    for t in range(n):
        for i, (attacher, kind) in enumerate(st.attached[t]):
            if attacher != player:
                slots.append((t, i))
                bpool.append(kind)
    hidden_slots = [i for i, (q, _) in enumerate(st.bdisc_hidden) if q != player]
    bpool += [st.bdisc_hidden[i][1] for i in hidden_slots]
    rng.shuffle(bpool)
    for t, i in slots:
        j = next(j for j, k in enumerate(bpool) if k < NP)
        new.attached[t][i] = (st.attached[t][i][0], bpool.pop(j))
    for q in redraw:
        count = sum(st.black[q])
        new.black[q] = [0] * NK
        for _ in range(count):
            new.black[q][bpool.pop()] += 1
    for i in hidden_slots:
        new.bdisc_hidden[i] = (st.bdisc_hidden[i][0], bpool.pop())
    new.bdeck = bpool
    new._reload_fields()
    return new
