"""The tournament schedule: which agents play which deal in which seats. Pure functions.

A tournament is a deterministic list of ``ScheduledGame`` (``training/scheduled.py``) built from
(number of agents, seats, games, base seed); resuming a tournament means playing the specs that
are not in the database yet.

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

**Seating.** ``seating="rotation"`` (the default) plays the ``N`` rotations of each deal's lineup
described above. ``seating="permutations"`` plays a deal once per seat permutation of its lineup
instead (the spec's ``rotation`` is then the permutation's number within the deal), so that
besides the seats every agent also has every other agent as its next player (clockwise: seat
``s + 1`` after seat ``s``, seat 0 after the last) equally often *within every deal*:

* ``N! <= PERMUTATION_CAP`` (24, i.e. up to 4 seats): all ``N!`` permutations. Every agent sits in
  every seat ``(N-1)!`` times and every ordered pair ``(a, b)`` is adjacent (``a`` immediately
  before ``b``) ``N (N-2)!`` times.
* more seats: a balanced subset made of *cyclic orders* of the lineup, each played in its ``N``
  rotations: ``N - 1`` cyclic orders in which every ordered pair is adjacent exactly once (a
  decomposition of the complete directed graph into Hamiltonian cycles: Walecki's construction
  in both directions, for odd ``N``), or, for even ``N`` where that cannot exist for 6 (Tillson),
  ``2 (N - 1)`` cyclic orders covering every ordered pair exactly twice (a deterministic search).
  So ``N (N - 1)`` games per deal (odd ``N``, 20 for 5 seats) or ``2 N (N - 1)`` (even ``N``, 60
  for 6 seats): every agent in every seat equally often, every ordered pair adjacent equally often
  (``N`` or ``2 N`` times), exactly; ``permutation_balance`` measures it. (A Williams Latin square
  balances only the ``N - 1`` non-wrapping neighbour pairs; at a round table the last seat's next
  player is seat 0, which the cyclic design covers too.)

A stored tournament keeps its schedule: a permutation spec is stored with its seating as a fifth
element (``[deal, rotation, seed, lineup, seating]``), a rotation spec as before, so old databases
read unchanged and a resumed tournament replays the seating it was created with.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations, permutations

from training.scheduled import ScheduledGame, rotate

SEARCH_STEPS = 40_000  # annealing moves per attempt (a fixed budget: deterministic)
SEARCH_RESTARTS = 3  # attempts per design size
MAX_COMBINATIONS = 200_000  # more lineups than this cannot be played as all combinations
SEATINGS = ("rotation", "permutations")
PERMUTATION_CAP = 24  # play all N! seat permutations of a deal up to this many, else a balanced subset
CYCLE_SEARCH_STEPS = 200_000  # swap moves per attempt when searching cyclic orders (even N)


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


# ----- seat permutations ------------------------------------------------------------------------
def walecki_cycles(n: int) -> list[tuple[int, ...]]:
    """For odd ``n``: ``(n - 1) / 2`` Hamiltonian cycles of ``0..n-1`` using every (undirected)
    pair exactly once (Walecki's construction)."""
    if n % 2 == 0 or n < 3:
        raise ValueError(f"Walecki's construction needs an odd n >= 3, got {n}")
    m = (n - 1) // 2
    infinity = 2 * m
    path = [0]
    for j in range(1, m):
        path += [j, (2 * m - j) % (2 * m)]
    path.append(m)
    return [(infinity,) + tuple((x + i) % (2 * m) for x in path) for i in range(m)]


def adjacency_counts(seatings: Sequence[Sequence[int]]) -> dict[tuple[int, int], int]:
    """How often agent ``a`` sits immediately before agent ``b`` (seat ``s`` then ``s + 1``,
    cyclically) over ``seatings``."""
    counts: dict[tuple[int, int], int] = {}
    for seating in seatings:
        n = len(seating)
        for s in range(n):
            pair = (seating[s], seating[(s + 1) % n])
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def _search_cycles(n: int, count: int, times: int, attempt: int) -> list[tuple[int, ...]] | None:
    """``count`` cyclic orders of ``0..n-1`` covering every ordered pair exactly ``times`` times,
    by a deterministic local search (swaps within an order, simulated annealing); None if its
    fixed budget of moves runs out (the result never depends on the clock)."""
    rng = random.Random(f"cycles:{n}:{count}:{times}:{attempt}")
    orders = [rng.sample(range(n), n) for _ in range(count)]
    arc = [[0] * n for _ in range(n)]
    for o in orders:
        for s in range(n):
            arc[o[s]][o[(s + 1) % n]] += 1
    current = sum((arc[a][b] - times) ** 2 for a in range(n) for b in range(n) if a != b)

    def swap(o: list[int], i: int, j: int, positions: set[tuple[int, int]]) -> None:
        for x, y in positions:
            arc[o[x]][o[y]] -= 1
        o[i], o[j] = o[j], o[i]
        for x, y in positions:
            arc[o[x]][o[y]] += 1

    for step in range(CYCLE_SEARCH_STEPS):
        if current == 0:
            return [tuple(o) for o in orders]
        o = orders[rng.randrange(count)]
        i, j = rng.sample(range(n), 2)
        positions = {((p - 1) % n, p) for p in (i, j)} | {(p, (p + 1) % n) for p in (i, j)}
        pairs = {(o[x], o[y]) for x, y in positions}
        o[i], o[j] = o[j], o[i]
        pairs |= {(o[x], o[y]) for x, y in positions}
        o[i], o[j] = o[j], o[i]
        before = sum((arc[a][b] - times) ** 2 for a, b in pairs)
        swap(o, i, j, positions)
        delta = sum((arc[a][b] - times) ** 2 for a, b in pairs) - before
        temperature = 1.5 * (1.0 - step / CYCLE_SEARCH_STEPS) + 0.05
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            current += delta
        else:
            swap(o, i, j, positions)  # undo
    return None


def cyclic_orders(n: int) -> list[tuple[int, ...]]:
    """Cyclic orders of ``0..n-1`` covering every ordered pair (``a`` immediately before ``b``)
    equally often: ``n - 1`` orders, each pair once (odd ``n``: Walecki's cycles both ways), or
    ``2 (n - 1)`` orders, each pair twice (even ``n``: a deterministic search)."""
    if n < 3:
        return [tuple(range(n))]
    if n % 2 == 1:
        cycles = walecki_cycles(n)
        return [c for cycle in cycles for c in (cycle, (cycle[0],) + cycle[:0:-1])]
    for attempt in range(SEARCH_RESTARTS):
        found = _search_cycles(n, 2 * (n - 1), 2, attempt)
        if found is not None:
            return found
    raise ValueError(f"no balanced set of seat permutations found for {n} seats")


def seat_permutations(n: int) -> list[tuple[int, ...]]:
    """The seat permutations of a deal in ``--seating permutations`` mode: ``perm[s]`` is the
    lineup position seated at seat ``s``. All ``n!`` if at most ``PERMUTATION_CAP``, else every
    rotation of the ``cyclic_orders(n)`` (see the module docstring). Deterministic."""
    if math.factorial(n) <= PERMUTATION_CAP:
        return list(permutations(range(n)))
    return [rotate(order, r) for order in cyclic_orders(n) for r in range(n)]


def permutation_balance(
    seatings: Sequence[Sequence[int]],
) -> tuple[dict[int, list[int]], dict[tuple[int, int], int]]:
    """``(seat_counts, adjacency)``: ``seat_counts[a][s]`` games agent ``a`` sat in seat ``s``, and
    ``adjacency_counts`` (every ordered pair of distinct agents that occurs)."""
    n = len(seatings[0]) if seatings else 0
    seats: dict[int, list[int]] = {}
    for seating in seatings:
        for s, a in enumerate(seating):
            seats.setdefault(a, [0] * n)[s] += 1
    return seats, adjacency_counts(seatings)


# ----- the whole schedule ------------------------------------------------------------------------
def deal_order(lineup: Sequence[int], base_seed: int, deal: int) -> tuple[int, ...]:
    """The deal's seating order: the lineup shuffled from (base seed, deal)."""
    order = list(lineup)
    random.Random(f"seating:{base_seed}:{deal}").shuffle(order)
    return tuple(order)


def games_per_deal(seats: int, seating: str = "rotation") -> int:
    if seating not in SEATINGS:
        raise ValueError(f"unknown seating {seating!r}; choose one of {', '.join(SEATINGS)}")
    return seats if seating == "rotation" else len(seat_permutations(seats))


def plan(
    num_agents: int, seats: int, games: int, seed: int = 0, seating: str = "rotation"
) -> tuple[list[tuple[int, ...]], int]:
    """``(design, deals)``: the lineup design and the number of deals needed to play at least
    ``games`` games in whole cycles of the design."""
    if games < 1:
        raise ValueError(f"a tournament needs at least 1 game, got {games}")
    per_deal = games_per_deal(seats, seating)
    design = balanced_lineups(num_agents, seats)
    deals = math.ceil(math.ceil(games / per_deal) / len(design)) * len(design)
    return design, deals


def game_specs(
    num_agents: int, seats: int, games: int, seed: int = 0, seating: str = "rotation"
) -> list[ScheduledGame]:
    """Every game of a tournament in play order (by deal, then rotation or permutation). Deal
    ``d`` uses the game seed ``seed + d`` and lineup ``design[d % len(design)]``; ``seating``:
    ``"rotation"`` or ``"permutations"`` (see the module docstring)."""
    design, deals = plan(num_agents, seats, games, seed, seating)
    specs = []
    perms = seat_permutations(seats) if seating == "permutations" else []
    for d in range(deals):
        lineup = deal_order(design[d % len(design)], seed, d)
        if seating == "rotation":
            for r in range(seats):
                specs.append(ScheduledGame(d, r, seed + d, lineup, rotate(lineup, r)))
        else:
            for r, perm in enumerate(perms):
                specs.append(ScheduledGame(d, r, seed + d, lineup, tuple(lineup[p] for p in perm), "permutations"))
    return specs


def seating_mode(schedule: Sequence[ScheduledGame]) -> str:
    """The seating mode a (stored) schedule was made with."""
    return "permutations" if any(s.mode == "permutations" for s in schedule) else "rotation"
