"""Final scoring (the rulebook's SCORING section).

Every part of the score is public (credits, harbors, goods, shipments), so the same function
gives the running score that self-play reads as a dense reward and the final result.
"""

from __future__ import annotations

from .data import GOOD_TYPES

NUM_TYPES = len(GOOD_TYPES)


def goods_by_type(st, p: int) -> list[int]:
    ctype = st.game.ctype
    counts = [0] * NUM_TYPES
    for c in st.goods[p]:
        counts[ctype[c]] += 1
    return counts


def split(bonus: int, k: int) -> int:
    """A majority bonus shared by k tied players, rounded up; a penalty rounds toward 0 (R5.13)."""
    return -(-bonus // k)


def final_scores(st) -> list[int]:
    g, n = st.game, st.n
    counts = [goods_by_type(st, p) for p in range(n)]
    scores = []
    for p in range(n):
        # Containers loaded onto shipments still in the harbor: 2 each.
        score = st.credits[p] + g.container_value * sum(len(st.cargo[s]) for s in st.harbor_ships(p))
        score += sum(k * v for k, v in zip(counts[p], g.good_values))
        if all(counts[p]):
            score += g.one_of_each_bonus
        scores.append(score)
    for t in range(NUM_TYPES):
        best = max(counts[p][t] for p in range(n))
        if best == 0:
            continue
        winners = [p for p in range(n) if counts[p][t] == best]
        share = split(g.majority_bonus[t], len(winners))
        for p in winners:
            scores[p] += share
    return scores
