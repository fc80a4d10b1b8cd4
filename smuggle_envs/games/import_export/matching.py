"""Loading (R5.7): the exact maximum matching of a ship's containers to its contracts' slots,
with the powers that change it (wild containers, rainbow contracts, Prefab Homes' capped groups,
Robot Cats' pairs). ``ImportExportStateBase.matched`` builds the counts from a ship and asks here.
"""

from __future__ import annotations

import itertools

from .vocab import NUM_TYPES, TECHNOLOGY

Capped = tuple[tuple[int, ...] | None, int]
"""Prefab Homes' slot group in ``matched``: (its colours, None for any; how many count)."""


def match(have: list[int], wild: list[bool], spec: list[int], rainbow: int, capped: list[Capped]) -> int:
    """Maximum matching of containers (``have`` per colour; ``wild`` colours fill any slot) to
    slots: ``spec`` per colour, ``rainbow`` any-colour slots, and ``capped`` groups (Prefab Homes:
    ``(colours or None for any, need)``: at most ``need`` of those slots count)."""
    if capped:
        return _match_flow(have, wild, spec, rainbow, capped)
    # Exact without capped groups: a plain container fills its own colour first (nothing else
    # can use it there), leftovers go to rainbow slots, wild containers fill whatever is left.
    direct = left = free = 0
    for t in range(NUM_TYPES):
        if wild[t]:
            free += have[t]
        else:
            d = min(have[t], spec[t])
            direct += d
            left += have[t] - d
    return min(sum(spec) + rainbow, direct + min(left, rainbow) + free)


def match_pairs(have: list[int], wild: list[bool], spec: list[int], rainbow: int, capped: list[Capped]) -> int:
    """Robot Cats: the best matching when any pairs of same-type containers act as one
    technology container."""
    counts = [range(have[t] // 2 + 1) if t != TECHNOLOGY and not wild[t] else range(1) for t in range(NUM_TYPES)]
    best = 0
    for split in itertools.product(*counts):
        if not any(split):
            continue
        h = [have[t] - 2 * split[t] for t in range(NUM_TYPES)]
        h[TECHNOLOGY] += sum(split)
        best = max(best, match(h, wild, spec, rainbow, capped))
    return best


def _match_flow(have: list[int], wild: list[bool], spec: list[int], rainbow: int, capped: list[Capped]) -> int:
    """Max flow: source -> colour (or wild) -> slot group -> sink."""
    INF = 99
    src, sink, w = 0, 1, 2  # nodes 3..7: colours, then slot nodes
    col = [3 + t for t in range(NUM_TYPES)]
    cap: dict[int, dict[int, int]] = {}

    def edge(a: int, b: int, c: int) -> None:
        if c > 0:
            cap.setdefault(a, {})[b] = cap.get(a, {}).get(b, 0) + c
            cap.setdefault(b, {}).setdefault(a, 0)

    nxt = 3 + NUM_TYPES
    for t in range(NUM_TYPES):
        if not wild[t]:
            edge(src, col[t], have[t])
    edge(src, w, sum(have[t] for t in range(NUM_TYPES) if wild[t]))
    for t in range(NUM_TYPES):
        if spec[t]:
            edge(col[t], nxt, INF)
            edge(w, nxt, INF)
            edge(nxt, sink, spec[t])
            nxt += 1
    if rainbow:
        for t in range(NUM_TYPES):
            edge(col[t], nxt, INF)
        edge(w, nxt, INF)
        edge(nxt, sink, rainbow)
        nxt += 1
    for colours, need in capped:
        group = nxt
        nxt += 1
        edge(group, sink, need)
        edge(w, group, INF)
        if colours is None:
            for t in range(NUM_TYPES):
                edge(col[t], group, INF)
            continue
        for t in range(NUM_TYPES):
            k = colours.count(t)
            if k:
                edge(col[t], nxt, INF)
                edge(nxt, group, k)
                nxt += 1

    return _max_flow(cap, src, sink)


def _max_flow(cap: dict[int, dict[int, int]], src: int, sink: int) -> int:
    """The maximum flow from ``src`` to ``sink`` in the unit-step residual graph ``cap``
    (augmenting paths found depth first; ``cap`` is used up)."""

    def augment(a: int, seen: set[int]) -> bool:
        if a == sink:
            return True
        seen.add(a)
        for b, c in cap.get(a, {}).items():
            if c > 0 and b not in seen and augment(b, seen):
                cap[a][b] -= 1
                cap[b][a] += 1
                return True
        return False

    flow = 0
    while augment(src, set()):
        flow += 1
    return flow
