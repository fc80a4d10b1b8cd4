"""Powers: end_games -- the goods cards that score at game end (see ``scoring.py`` for the order).

Each card's own rule lives here; ``scoring.final_scores`` applies them in its steps:

* step 2, credits for the harbor as it stood when the game ended: ``END_GAME[key](st, p) -> int``
  (Champagne, Cologne, Gold Toilets, Nice Suits, Velvet Robes). Another batch may register more
  here: such a function only reads the state and returns the holder's extra credits.
* step 3, the moves and declarations that change a harbor: ``cheap_shirts_moves``,
  ``diamond_rings_moves``, ``supply_imports`` (Teslas); then the virtual goods of Ferraris and Ceramics
  (``virtual_goods``).
* step 4, what goods are worth: ``good_values`` (Leather Coats), ``majority_amount`` (Sauna,
  Ivory), ``GOODS_BONUS`` (Vintage Wines, Apple Watch). Foxes' tie-break is in ``scoring``.

Goods counts are lists of five ints, one per good type (``data.GOOD_TYPES``).
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from itertools import combinations, product

from ..hooks import end_game
from ..state import ImportExportStateBase
from ..ties import most_share
from ..vocab import CONSUMER, ILLEGAL, LUXURY, NUM_ACTION_TYPES, NUM_TYPES, SUPPLY

CHAMPAGNE_BONUS = 8
COLOGNE_PER_CARD = 4
GOLD_TOILETS_PER_SHIPMENT = 6
NICE_SUITS_BONUS = 16
VELVET_ROBES_PER_CARD = 1
VINTAGE_WINES_BONUS = 20
APPLE_WATCH_PER_PAIR = 6
LEATHER_COATS_LUXURY_VALUE = 3
DIAMOND_RINGS_MOVES = 2

# Powers that change how goods score (step 4, and Teslas' declaration in step 3): a card moved
# out of the completed shipments by Diamond Rings no longer gives them.
GOODS_POWERS = (
    "teslas",
    "ferraris",
    "ceramics",
    "leather_coats",
    "sauna",
    "ivory",
    "foxes",
    "vintage_wines",
    "apple_watch",
)
# Every power the goods steps read (Cheap Shirts and Scotch Whisky resolve before Diamond Rings).
HARBOR_POWERS = GOODS_POWERS + ("cheap_shirts", "diamond_rings", "scotch_whisky")


# ----- step 2: the harbor as it stood when the game ended -------------------------------------------
@end_game("champagne")
def champagne(st: ImportExportStateBase, p: int) -> int:
    """Most completed shipments: 8 credits; a tie shares it like a majority (R5.13)."""
    return most_share([len(s) for s in st.shipments], p, CHAMPAGNE_BONUS, st.holder("foxes"))


@end_game("cologne")
def cologne(st: ImportExportStateBase, p: int) -> int:
    """4 credits per import of the action type with the most of them (the holder's best choice)."""
    caction = st.game.caction
    per_action = [0] * NUM_ACTION_TYPES
    for c in st.imports[p]:
        per_action[caction[c]] += 1
    return COLOGNE_PER_CARD * max(per_action)


@end_game("gold_toilets")
def gold_toilets(st: ImportExportStateBase, p: int) -> int:
    """6 credits per completed luxury shipment, Gold Toilets itself included."""
    ctype = st.game.ctype
    return GOLD_TOILETS_PER_SHIPMENT * sum(1 for c in st.shipments[p] if ctype[c] == LUXURY)


@end_game("nice_suits")
def nice_suits(st: ImportExportStateBase, p: int) -> int:
    """Most containers on one's two ships, in the harbor or at sea: 16; ties share (R5.13)."""
    loaded = [len(st.cargo[2 * q]) + len(st.cargo[2 * q + 1]) for q in range(st.n)]
    return most_share(loaded, p, NICE_SUITS_BONUS, st.holder("foxes"))


@end_game("velvet_robes")
def velvet_robes(st: ImportExportStateBase, p: int) -> int:
    """1 credit per card in hand (the hand's size is public)."""
    return VELVET_ROBES_PER_CARD * len(st.hands[p])


# ----- step 3: harbor changes ------------------------------------------------------------------------
def goods_limit_used(counts: Sequence[int], scotch: bool) -> int:
    """Goods counted against the limit; with Scotch Whisky two luxury goods count as one."""
    if not scotch:
        return sum(counts)
    return sum(counts) - counts[LUXURY] // 2


def cheap_shirts_moves(
    st: ImportExportStateBase, p: int, goods: list[int], scotch: bool
) -> list[tuple[tuple[int, ...], int]]:
    """Cheap Shirts moves every import that fits under the goods limit into the goods; when not
    all fit the holder picks which. Returns the distinct choices as (goods moved per type, supply
    imports left in the imports), each moving as many cards as the limit allows.

    Of one type, the holder moves his other imports before his supply imports: a supply import
    left behind is a wild good with Teslas, and one more wild good never scores less (it can
    always be named a type that only gains)."""
    ctype, caction = st.game.ctype, st.game.caction
    have = [0] * NUM_TYPES
    supply = [0] * NUM_TYPES
    for c in st.imports[p]:
        have[ctype[c]] += 1
        supply[ctype[c]] += caction[c] == SUPPLY
    cap = st.goods_cap(p)

    def fits(moved: Sequence[int]) -> bool:
        return goods_limit_used([g + m for g, m in zip(goods, moved)], scotch) <= cap

    moves = []
    for moved in product(*(range(k + 1) for k in have)):
        if not fits(moved):
            continue
        more = (moved[:t] + (moved[t] + 1,) + moved[t + 1 :] for t in range(NUM_TYPES) if moved[t] < have[t])
        if any(fits(m) for m in more):
            continue  # it must move all it can
        supply_left = sum(min(s, k - m) for s, k, m in zip(supply, have, moved))
        moves.append((moved, supply_left))
    return moves


def diamond_rings_moves(st: ImportExportStateBase, p: int) -> list[tuple[tuple[int, ...], frozenset[str]]]:
    """Diamond Rings moves two completed shipments (itself allowed) into the goods, over the
    limit. Returns the distinct choices as (goods added per type, powers given up)."""
    cards = st.game.cards
    copies: dict[tuple[int, str], int] = {}
    candidates = []
    # Shipments of one type whose powers do not touch goods scoring are interchangeable.
    for c in st.shipments[p]:
        key = cards[c].key
        sig = (cards[c].type, key if key in GOODS_POWERS else "")
        if copies.get(sig, 0) < DIAMOND_RINGS_MOVES:
            copies[sig] = copies.get(sig, 0) + 1
            candidates.append(sig)
    moves: dict[tuple[tuple[int, ...], frozenset[str]], None] = {}
    for pair in combinations(candidates, min(DIAMOND_RINGS_MOVES, len(candidates))):
        added = [0] * NUM_TYPES
        for t, _ in pair:
            added[t] += 1
        moves[(tuple(added), frozenset(key for _, key in pair if key))] = None
    return list(moves)


def supply_imports(st: ImportExportStateBase, p: int) -> int:
    """Teslas' wild goods: the supply imports (each counts as a good of a type the holder names)."""
    caction = st.game.caction
    return sum(1 for c in st.imports[p] if caction[c] == SUPPLY)


def virtual_goods(counts: list[int], powers: Container[str]) -> list[int]:
    """Ferraris: one more good of every type; then Ceramics: one luxury per two consumer goods
    (Ferraris' and Teslas' consumer goods included). Neither is limited by the goods limit."""
    if "ferraris" in powers:
        counts = [k + 1 for k in counts]
    if "ceramics" in powers:
        counts = list(counts)
        counts[LUXURY] += counts[CONSUMER] // 2
    return counts


# ----- step 4: what goods are worth ------------------------------------------------------------------
def good_values(values: tuple[int, ...], powers: Container[str]) -> tuple[int, ...]:
    """Leather Coats: the holder's luxury goods are worth 3 each."""
    if "leather_coats" not in powers:
        return values
    return tuple(LEATHER_COATS_LUXURY_VALUE if t == LUXURY else v for t, v in enumerate(values))


def majority_amount(share: int, t: int, powers: Container[str]) -> int:
    """The holder's share of type t's majority bonus: Ivory takes the illegal penalty as credits
    instead of paying it; then Sauna doubles it (paid or received)."""
    if t == ILLEGAL and "ivory" in powers:
        share = -share
    if "sauna" in powers:
        share *= 2
    return share


def vintage_wines(counts: Sequence[int]) -> int:
    return VINTAGE_WINES_BONUS if min(counts) >= 2 else 0


def apple_watch(counts: Sequence[int]) -> int:
    return APPLE_WATCH_PER_PAIR * min(counts[LUXURY], counts[CONSUMER])


GOODS_BONUS = {"vintage_wines": vintage_wines, "apple_watch": apple_watch}
