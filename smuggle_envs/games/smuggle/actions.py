"""Smuggle's flat action space and its names.

| actions    | meaning                                                                     |
|------------|-----------------------------------------------------------------------------|
| 0 - 494    | declare a multiset of at most 4 dutiable items (495 of them, empty incl.)   |
| 495        | claim the Diplomatic Bag (diplomatic immunity)                              |
| 496        | Officer: search the luggage / challenge a Bag claim                         |
| 497        | Officer: let the luggage pass                                               |
| 498        | next player: accept the passed cards                                        |
| 499        | next player: become Informer (search the passed cards)                      |
| 500 - 509  | discard one card of a kind (8 items, Diplomatic Bag, luggage)               |
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement

NUM_ITEMS = 8  # wine .. necklace, Crown
BAG = 8  # card kind of the Diplomatic Bag
LUGGAGE = 9  # card kind of the plain luggage cards
NUM_KINDS = 10
HAND_SIZE = 4


def _declarations() -> tuple[tuple[int, ...], ...]:
    """Every multiset of at most HAND_SIZE dutiable items, as count vectors, smallest first."""
    result: list[tuple[int, ...]] = []
    for size in range(HAND_SIZE + 1):
        for combo in combinations_with_replacement(range(NUM_ITEMS), size):
            counts = [0] * NUM_ITEMS
            for item in combo:
                counts[item] += 1
            result.append(tuple(counts))
    return tuple(result)


DECLARATIONS = _declarations()
DECLARATION_INDEX = {counts: i for i, counts in enumerate(DECLARATIONS)}
NUM_DECLARATIONS = len(DECLARATIONS)  # 495
CLAIM_BAG = NUM_DECLARATIONS  # 495
SEARCH = CLAIM_BAG + 1  # 496
LET_PASS = SEARCH + 1  # 497
ACCEPT = LET_PASS + 1  # 498
INFORM = ACCEPT + 1  # 499
DISCARD = INFORM + 1  # 500 + card kind
NUM_ACTIONS = DISCARD + NUM_KINDS  # 510


def declare(counts: Iterable[int]) -> int:
    """The action that declares ``counts`` (8 item counts, or a dict name -> count via kinds)."""
    try:
        return DECLARATION_INDEX[tuple(counts)]
    except KeyError:
        raise ValueError(f"{tuple(counts)} is not a declaration of at most {HAND_SIZE} items") from None


def discard(kind: int) -> int:
    return DISCARD + kind


def kind_names(item_names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(item_names) + ("diplomatic bag", "luggage")


def declaration_text(counts: Sequence[int], item_names: Sequence[str]) -> str:
    parts = [f"{item_names[i]} x{c}" if c > 1 else item_names[i] for i, c in enumerate(counts) if c]
    return ", ".join(parts) if parts else "nothing"


def action_text(action: int, item_names: tuple[str, ...]) -> str:
    if 0 <= action < NUM_DECLARATIONS:
        return "declare " + declaration_text(DECLARATIONS[action], item_names)
    names = {
        CLAIM_BAG: "claim the Diplomatic Bag",
        SEARCH: "search",
        LET_PASS: "let pass",
        ACCEPT: "accept",
        INFORM: "inform",
    }
    if action in names:
        return names[action]
    if DISCARD <= action < NUM_ACTIONS:
        return "discard " + kind_names(item_names)[action - DISCARD]
    raise ValueError(f"action {action} is out of range [0, {NUM_ACTIONS})")
