"""The tournament schedule: which agents play which deal in which seats. Pure functions.

A tournament is a deterministic list of ``GameSpec`` built from (number of agents, seats, games,
base seed); resuming a tournament means playing the specs that are not in the database yet.

**Duplicate format.** Every deal (a game seed) is played once for each rotation of one lineup
across the seats: with lineup ``L`` (the agents of the deal, in the deal's seating order) and
rotation ``r``, seat ``s`` is played by ``L[(s + r) % N]``. Every agent of the lineup therefore
holds every seat's cards of that deal exactly once, so the luck of the deal cancels out. The
seating order of each deal's lineup is shuffled from the deal number, so over many deals every
agent has every other agent as a neighbour (in Smuggle the next player matters).

**Balanced lineups.** With ``K`` agents for ``N < K`` seats the deals cycle through a design of
lineups in which every agent plays equally often and every pair of agents meets equally often:
the smallest such design found by a short deterministic local search (a balanced incomplete
block design, e.g. the 7 lines of the Fano plane for 7 agents in 3 seats), else every
``C(K, N)`` combination, which is always balanced. The number of games is rounded up to whole
cycles of the design (``len(lineups) * N`` games), so the balance holds for the tournament as a
whole.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

SCHEDULE_VERSION = 1
"""Bumped whenever the schedule for the same inputs changes (it is part of a tournament's key)."""

SEARCH_STEPS = 40_000  # annealing moves per attempt (a fixed budget: deterministic)
SEARCH_RESTARTS = 3  # attempts per design size
MAX_COMBINATIONS = 200_000  # more lineups than this cannot be played as all combinations


@dataclass(frozen=True)
class GameSpec:
    """One game of a tournament. ``seating[s]`` is the index (into the tournament's agent list)
    of the agent in seat ``s``; ``lineup`` is the deal's agents in rotation-0 seating order."""

    deal: int
    rotation: int
    seed: int
    lineup: tuple[int, ...]
    seating: tuple[int, ...]

    @property
    def game_key(self) -> str:
        return game_key(self.deal, self.rotation)

    def to_list(self) -> list:
        return [self.deal, self.rotation, self.seed, list(self.lineup)]

    @classmethod
    def from_list(cls, item: Sequence) -> GameSpec:
        deal, rotation, seed, lineup = item
        lineup = tuple(int(a) for a in lineup)
        return cls(int(deal), int(rotation), int(seed), lineup, rotate(lineup, int(rotation)))


def game_key(deal: int, rotation: int) -> str:
    """The key of a game within its tournament, e.g. ``"000012-3"``; sorts by deal, rotation."""
    return f"{deal:06d}-{rotation}"


def rotate(lineup: Sequence[int], rotation: int) -> tuple[int, ...]:
    """Seat ``s`` is played by ``lineup[(s + rotation) % N]``."""
    n = len(lineup)
    return tuple(lineup[(s + rotation) % n] for s in range(n))


def rotations(lineup: Sequence[int]) -> list[tuple[int, ...]]:
    """The ``N`` seatings of a duplicate deal: every agent in every seat once."""
    return [rotate(lineup, r) for r in range(len(lineup))]


# ----- balanced lineups --------------------------------------------------------------------------
def pair_counts(lineups: Sequence[Sequence[int]], k: int) -> dict[tuple[int, int], int]:
    """How often each pair of agents ``(a, b)``, ``a < b``, shares a lineup."""
    counts = {pair: 0 for pair in combinations(range(k), 2)}
    for lineup in lineups:
        for pair in combinations(sorted(lineup), 2):
            counts[pair] += 1
    return counts


def appearance_counts(lineups: Sequence[Sequence[int]], k: int) -> list[int]:
    counts = [0] * k
    for lineup in lineups:
        for a in lineup:
            counts[a] += 1
    return counts


def is_balanced(lineups: Sequence[Sequence[int]], k: int) -> bool:
    """Every agent plays equally often and every pair meets equally often."""
    return len(set(appearance_counts(lineups, k))) == 1 and len(set(pair_counts(lineups, k).values())) <= 1


def minimal_design_size(k: int, n: int) -> int:
    """The smallest number of lineups that could be balanced: ``L * N`` must divide evenly among
    the ``K`` agents and ``L * C(N, 2)`` among the ``C(K, 2)`` pairs."""
    pairs, per = k * (k - 1) // 2, n * (n - 1) // 2
    a = k // math.gcd(k, n)
    b = pairs // math.gcd(pairs, per) if per else 1
    return a * b // math.gcd(a, b)


def balanced_lineups(k: int, n: int) -> list[tuple[int, ...]]:
    """A balanced design of lineups (sorted tuples of agent indices) for ``k`` agents in ``n``
    seats; see the module docstring. Deterministic."""
    if not 1 <= n <= k:
        raise ValueError(f"cannot seat {k} agents at {n} seats")
    if n == k:
        return [tuple(range(k))]
    total = math.comb(k, n)
    step = minimal_design_size(k, n)
    for size in (step, 2 * step):
        if size >= total:
            break
        for attempt in range(SEARCH_RESTARTS):
            design = _search_design(k, n, size, attempt)
            if design is not None:
                return sorted(design)
    if total > MAX_COMBINATIONS:
        raise ValueError(
            f"no small balanced design of lineups found for {k} agents in {n} seats, "
            f"and all C({k},{n}) = {total} combinations are too many to play"
        )
    return list(combinations(range(k), n))


def _search_design(k: int, n: int, size: int, attempt: int = 0) -> list[tuple[int, ...]] | None:
    """Simulated annealing for ``size`` lineups with equal appearance and pair counts; None if
    its fixed budget of moves runs out (the result never depends on the clock)."""
    rng = random.Random(f"design:{k}:{n}:{size}:{attempt}")
    r = size * n // k
    lam = size * n * (n - 1) // (k * (k - 1))
    blocks = [rng.sample(range(k), n) for _ in range(size)]
    pair = [[0] * k for _ in range(k)]
    app = [0] * k
    for b in blocks:
        for a in b:
            app[a] += 1
        for x, y in combinations(b, 2):
            pair[x][y] += 1
            pair[y][x] += 1
    current = sum((app[a] - r) ** 2 for a in range(k)) + sum(
        (pair[x][y] - lam) ** 2 for x in range(k) for y in range(x + 1, k)
    )
    for step in range(SEARCH_STEPS):
        if current == 0:
            return [tuple(sorted(b)) for b in blocks]
        temperature = 1.0 - step / SEARCH_STEPS + 0.05
        b = blocks[rng.randrange(size)]
        j = rng.randrange(n)
        old, new = b[j], rng.randrange(k)
        if new in b:
            continue
        others = [a for a in b if a != old]
        # The change in cost from moving one place of the lineup from ``old`` to ``new``.
        delta = (app[old] - 1 - r) ** 2 - (app[old] - r) ** 2 + (app[new] + 1 - r) ** 2 - (app[new] - r) ** 2
        for a in others:
            delta += (
                (pair[old][a] - 1 - lam) ** 2
                - (pair[old][a] - lam) ** 2
                + (pair[new][a] + 1 - lam) ** 2
                - (pair[new][a] - lam) ** 2
            )
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            b[j] = new
            app[old] -= 1
            app[new] += 1
            for a in others:
                pair[old][a] -= 1
                pair[a][old] -= 1
                pair[new][a] += 1
                pair[a][new] += 1
            current += delta
    return None


# ----- the whole schedule ------------------------------------------------------------------------
def deal_order(lineup: Sequence[int], base_seed: int, deal: int) -> tuple[int, ...]:
    """The deal's seating order: the lineup shuffled from (base seed, deal)."""
    order = list(lineup)
    random.Random(f"seating:{base_seed}:{deal}").shuffle(order)
    return tuple(order)


def plan(num_agents: int, seats: int, games: int, seed: int = 0) -> tuple[list[tuple[int, ...]], int]:
    """``(design, deals)``: the lineup design and the number of deals needed to play at least
    ``games`` games in whole cycles of the design."""
    if games < 1:
        raise ValueError(f"a tournament needs at least 1 game, got {games}")
    design = balanced_lineups(num_agents, seats)
    deals = math.ceil(math.ceil(games / seats) / len(design)) * len(design)
    return design, deals


def game_specs(num_agents: int, seats: int, games: int, seed: int = 0) -> list[GameSpec]:
    """Every game of a tournament in play order (by deal, then rotation). Deal ``d`` uses the
    game seed ``seed + d`` and lineup ``design[d % len(design)]``."""
    design, deals = plan(num_agents, seats, games, seed)
    specs = []
    for d in range(deals):
        lineup = deal_order(design[d % len(design)], seed, d)
        for r in range(seats):
            specs.append(GameSpec(d, r, seed + d, lineup, rotate(lineup, r)))
    return specs
