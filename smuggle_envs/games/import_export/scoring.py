"""Final scoring (the rulebook's SCORING section), as ordered steps.

Every part of the score is public (credits, harbors, goods, shipments, hand sizes), so the same
function gives the running score that self-play reads as a dense reward and the final result.
It only reads the state. The goods cards' own rules are in ``powers/end_games.py``.

1. Credits: active credits, passive credits (Helicopter, ``st.passive``), and 2 per container
   loaded on a ship in the harbor (a shipment not completed; R5.8: containers left by a
   discarded contract count too).
2. Game-end powers that pay for the harbor as it stood when the game ended (``END_GAME``:
   Champagne, Cologne, Gold Toilets, Nice Suits, Velvet Robes). A player resolves his own
   game-end powers in the order best for him, and these can only lose by waiting (Diamond Rings
   takes shipments away, Cheap Shirts empties the imports), so they come first.
3. Harbor changes, declared one player at a time clockwise from the leader of the last turn, each
   choosing what scores best for himself given the declarations made before his (a later
   player's harbor counts as it stands): Cheap Shirts moves imports into the goods (under the
   limit, so before Diamond Rings lowers it), Diamond Rings moves two completed shipments into
   the goods (a moved card's power no longer counts), Teslas names a type for each supply import
   left. Then Ferraris and Ceramics add their virtual goods.
4. Goods: innate values (Leather Coats), the majority bonuses (ties split, R5.13; Sauna, Ivory,
   Foxes), one of each type, Vintage Wines, Apple Watch.
5. Ranking: Foxes' holder breaks a tie for a place in his favour (half a credit more); an
   outright win (``st.win``) puts the winner 1 credit above every other player, so
   ``State.returns`` ranks him first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from operator import mul

from .hooks import END_GAME
from .powers import end_games as E
from .state import ImportExportStateBase
from .ties import split
from .vocab import NUM_TYPES

Powers = frozenset[str]
Rules = tuple[tuple[int, ...], tuple[int, ...], int]  # good values, majority bonuses, one of each
Harbor = tuple[tuple[int, ...], int, Powers]  # goods per type, wild goods (Teslas), powers kept
Scorer = Callable[[list[int], Powers], int]

FOXES_TIE_BREAK = 0.5  # less than any real difference (scores move by whole credits)
OUTRIGHT_WIN_MARGIN = 1
_NO_POWERS: Powers = frozenset()
MAX_EXACT_WILDS = 8  # Teslas: wild goods placed by trying every split up to this many,
MAX_EVALUATIONS = 4000  # as long as one player's choice needs at most this many evaluations


def goods_by_type(st: ImportExportStateBase, p: int) -> list[int]:
    ctype = st.game.ctype
    counts = [0] * NUM_TYPES
    for c in st.goods[p]:
        counts[ctype[c]] += 1
    return counts


def final_scores(st: ImportExportStateBase) -> list[float]:
    g, n = st.game, st.n
    ids = g.ids
    cargo, at_sea, per_container = st.cargo, st.at_sea, g.container_value
    scores: list[float] = []
    for p in range(n):  # step 1
        harbor = (0 if at_sea[2 * p] else len(cargo[2 * p])) + (0 if at_sea[2 * p + 1] else len(cargo[2 * p + 1]))
        scores.append(st.credits[p] + st.passive[p] + per_container * harbor)
    for key, fn in END_GAME.items():  # step 2
        for p in st.holders(ids[key]):
            scores[p] += fn(st, p)
    powers: list[Powers] = [_NO_POWERS] * n
    for key in E.HARBOR_POWERS:
        for p in st.holders(ids[key]):
            powers[p] = powers[p] | {key}
    goods = [goods_by_type(st, p) for p in range(n)]
    counts = [tuple(E.virtual_goods(goods[p], powers[p])) if powers[p] else tuple(goods[p]) for p in range(n)]
    rules: Rules = (g.good_values, g.majority_bonus, g.one_of_each_bonus)
    for i in range(n):  # step 3
        p = (st.leader + i) % n
        if powers[p] and _declares(st, p, powers[p]):
            harbors = _harbors(st, p, goods[p], powers[p])
            counts[p], powers[p] = _best_harbor(rules, p, tuple(counts), tuple(powers), harbors)
    for p, goods_score in enumerate(_Goods(rules, list(counts), powers).goods_scores()):  # step 4
        scores[p] += goods_score
    return _rank(st, scores, _foxes(powers))


def _foxes(powers: Sequence[Powers]) -> int:
    return next((q for q, pw in enumerate(powers) if "foxes" in pw), -1)


def _rank(st: ImportExportStateBase, scores: list[float], foxes: int) -> list[float]:
    """Step 5."""
    if foxes >= 0 and any(s == scores[foxes] for q, s in enumerate(scores) if q != foxes):
        scores[foxes] += FOXES_TIE_BREAK
    w = st.instant_winner
    if w >= 0:
        best_other = max((s for q, s in enumerate(scores) if q != w), default=scores[w])
        scores[w] = max(scores[w], best_other + OUTRIGHT_WIN_MARGIN)
    return scores


def _declares(st: ImportExportStateBase, p: int, powers: Powers) -> bool:
    """Whether p has a game-end choice that changes his goods."""
    return (
        "diamond_rings" in powers
        or ("cheap_shirts" in powers and bool(st.imports[p]))
        or ("teslas" in powers and E.supply_imports(st, p) > 0)
    )


def _harbors(st: ImportExportStateBase, p: int, goods: list[int], powers: Powers) -> tuple[Harbor, ...]:
    """Every distinct harbor p can choose (Cheap Shirts' moves, then Diamond Rings'), as
    (goods per type, wild goods for Teslas, powers still held)."""
    if "cheap_shirts" in powers and st.imports[p]:
        shirts = E.cheap_shirts_moves(st, p, goods, "scotch_whisky" in powers)
    else:
        shirts = [((0,) * NUM_TYPES, E.supply_imports(st, p))]
    rings = E.diamond_rings_moves(st, p) if "diamond_rings" in powers else [((0,) * NUM_TYPES, _NO_POWERS)]
    harbors: dict[Harbor, None] = {}
    for shirts_added, supply_left in shirts:
        for rings_added, lost in rings:
            kept = powers - lost
            base = tuple(k + a + b for k, a, b in zip(goods, shirts_added, rings_added))
            harbors[(base, supply_left if "teslas" in kept else 0, kept)] = None
    return tuple(harbors)


@lru_cache(maxsize=4096)
def _best_harbor(
    rules: Rules, p: int, counts: tuple[tuple[int, ...], ...], powers: tuple[Powers, ...], harbors: tuple[Harbor, ...]
) -> tuple[tuple[int, ...], Powers]:
    """p's best harbor given everyone else's goods: (p's goods counts, virtual goods included;
    the powers p still holds). A pure function of its arguments, cached: the running score asks
    the same question after most steps."""
    exact = MAX_EXACT_WILDS  # wild goods are placed exactly while within budget
    while exact > 0 and len(harbors) * len(_splits(exact)) > MAX_EVALUATIONS:
        exact -= 1
    score = _Goods(rules, list(counts), list(powers)).scorer(p)
    best: tuple[int, list[int], Powers] | None = None
    for base, wilds, kept in harbors:
        value, goods = _best_wilds(score, base, wilds, kept, exact)
        if best is None or value > best[0]:
            best = (value, goods, kept)
    assert best is not None, "a player always has at least the harbor he has"
    return tuple(best[1]), best[2]


def _best_wilds(score: Scorer, start: tuple[int, ...], wilds: int, powers: Powers, exact: int) -> tuple[int, list[int]]:
    """The best types for wild goods (Teslas): (the goods score, the goods counts). Past ``exact``
    wild goods, the surplus goes one at a time where it scores most."""
    base = list(start)

    def value(extra: Sequence[int]) -> tuple[int, list[int]]:
        counts = E.virtual_goods([k + x for k, x in zip(base, extra)], powers)
        return score(counts, powers), counts

    while wilds > exact:
        gains = [value(tuple(int(t == u) for u in range(NUM_TYPES)))[0] for t in range(NUM_TYPES)]
        base[gains.index(max(gains))] += 1
        wilds -= 1
    best: tuple[int, list[int]] | None = None
    for extra in _splits(wilds):
        v = value(extra)
        if best is None or v[0] > best[0]:
            best = v
    assert best is not None, "there is always at least one split"
    return best


@cache
def _splits(w: int) -> tuple[tuple[int, ...], ...]:
    """Every way to give w wild goods to the five types."""
    result: list[tuple[int, ...]] = []

    def rec(prefix: tuple[int, ...], left: int, slots: int) -> None:
        if slots == 1:
            result.append(prefix + (left,))
            return
        for k in range(left, -1, -1):
            rec(prefix + (k,), left - k, slots - 1)

    rec((), w, NUM_TYPES)
    return tuple(result)


class _Goods:
    """Every player's goods (virtual goods included) and the powers that score them (step 4).
    ``rules``: (good values, majority bonuses, the one-of-each bonus)."""

    def __init__(self, rules: Rules, counts: list[Sequence[int]], powers: list[Powers]) -> None:
        self.values, self.bonus, self.one_of_each = rules
        self.counts = counts
        self.powers = powers

    def goods_scores(self) -> list[int]:
        """Every player's goods score; majorities in one pass per type."""
        counts = self.counts
        foxes = _foxes(self.powers)
        scores = [self.own_goods(p) for p in range(len(counts))]
        for t, column in enumerate(zip(*counts)):
            best = max(column)
            if best == 0:
                continue
            tied = [q for q, k in enumerate(column) if k == best]
            for q in tied:
                scores[q] += self.share(q, t, tied, foxes)
        return scores

    def scorer(self, p: int) -> Scorer:
        """p's goods score as a function of p's goods counts and powers, everyone else's fixed."""
        others = [q for q in range(len(self.counts)) if q != p]
        best = [max((self.counts[q][t] for q in others), default=0) for t in range(NUM_TYPES)]
        tied = [[q for q in others if self.counts[q][t] == best[t]] for t in range(NUM_TYPES)]
        foxes = _foxes([self.powers[q] if q != p else _NO_POWERS for q in range(len(self.powers))])

        def score(counts: list[int], powers: Powers) -> int:
            self.counts[p], self.powers[p] = counts, powers
            fox = p if "foxes" in powers else foxes
            total = self.own_goods(p)
            for t, mine in enumerate(counts):
                if mine == 0 or mine < best[t]:
                    continue
                total += self.share(p, t, tied[t] + [p] if mine == best[t] else [p], fox)
            return total

        return score

    def own_goods(self, p: int) -> int:
        """What p's goods score apart from the majorities: values, one of each, goods bonuses."""
        counts, powers = self.counts[p], self.powers[p]
        values = E.good_values(self.values, powers) if powers else self.values
        score: int = sum(map(mul, counts, values))
        if min(counts) >= 1:
            score += self.one_of_each
        if powers:
            for key, fn in E.GOODS_BONUS.items():
                if key in powers:
                    score += fn(counts)
        return score

    def share(self, p: int, t: int, tied: list[int], foxes: int) -> int:
        """p's part of the bonus (or penalty) for the most goods of type t, p among ``tied``."""
        bonus = self.bonus[t]
        k = len(tied)
        if k == 1 and not self.powers[p]:
            return bonus
        if k > 1 and foxes in tied:
            # Foxes' holder breaks the tie his way: he takes a gain alone, and steps out of a loss
            # (the others still tied share it).
            alone = E.majority_amount(bonus, t, self.powers[foxes])
            if alone > 0:
                return alone if p == foxes else 0
            if p == foxes:
                return 0
            k -= 1
        return E.majority_amount(split(bonus, k), t, self.powers[p])
