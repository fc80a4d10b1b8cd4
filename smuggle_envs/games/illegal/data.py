"""Loads and validates Illegal's card data (``data/illegal.json``).

The engine keeps one index per card *kind* (``actions.KIND_NAMES``, the rulebook's order); the
file gives each kind's count, value and effect parameters, and the loader checks them against
the rulebook's card list (106 playable cards) and against what the engine can represent.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.data import data_error, parsing, read_json
from .actions import (
    BUSINESS_KINDS,
    HASSLE_KINDS,
    KIND_NAMES,
    KIND_TYPES,
    NUM_KINDS,
    PARANOIA_KINDS,
    SOLUTION_KINDS,
)

DATA_FILE = "illegal.json"
PLAYABLE_CARDS = 106
_BLOCKS = ("illegal", "all")
_TURN_LOSS = ("none", "illegal", "any")
_LOSES = ("one", "most expensive", "all")


@dataclass(frozen=True)
class IllegalData:
    names: tuple[str, ...]  # per kind, the engine's order
    counts: tuple[int, ...]  # cards of each kind
    values: tuple[int, ...]  # business value in Euros (0 for other kinds)
    penalties: tuple[int, ...]  # Paranoia cost when held at the end (0 for other kinds)
    lost_turns: tuple[int, ...]  # turns a Paranoia card costs (0 for other kinds)
    loses: tuple[str, ...]  # Paranoia: "one", "most expensive", "all" ("" otherwise)
    blocks_legal: tuple[bool, ...]  # hassle: no legal business either (Vacation in Sweden)
    turn_loss: tuple[str, ...]  # hassle: business lost at the end of each turn
    open_hand: tuple[bool, ...]  # hassle: the victim plays with an open hand
    solves: tuple[int, ...]  # solution: the hassle kind it removes, -1 = any (Bribe)
    total_cards: int
    overview_cards: int
    hand_size: int

    @property
    def playable_cards(self) -> int:
        return sum(self.counts)


def load(text: str | None = None) -> IllegalData:
    """Parse and validate the data; ``text`` overrides the packaged file (for tests)."""
    raw = read_json(__package__, DATA_FILE, text)
    with parsing(DATA_FILE):
        cards = raw["cards"]
        if not isinstance(cards, list):
            raise TypeError("'cards' must be a list")
        names = tuple(c["name"] for c in cards)
        if names != KIND_NAMES:
            _fail(f"expected the rulebook's {NUM_KINDS} cards in its order {list(KIND_NAMES)}, got {list(names)}")
        for c, expected in zip(cards, KIND_TYPES):
            if c["type"] != expected:
                _fail(f"{c['name']!r} must have type {expected!r}, got {c['type']!r}")
        index = {name: k for k, name in enumerate(KIND_NAMES)}
        data = IllegalData(
            names=names,
            counts=tuple(c["count"] for c in cards),
            values=tuple(c["value"] if k in BUSINESS_KINDS else c.get("value", 0) for k, c in enumerate(cards)),
            penalties=tuple(c["penalty"] if k in PARANOIA_KINDS else c.get("penalty", 0) for k, c in enumerate(cards)),
            lost_turns=tuple(c["lost_turns"] if k in PARANOIA_KINDS else 0 for k, c in enumerate(cards)),
            loses=tuple(c["loses"] if k in PARANOIA_KINDS else "" for k, c in enumerate(cards)),
            blocks_legal=tuple(
                _choice(c, "blocks", _BLOCKS) == "all" if k in HASSLE_KINDS else False for k, c in enumerate(cards)
            ),
            turn_loss=tuple(
                _choice(c, "turn_loss", _TURN_LOSS) if k in HASSLE_KINDS else "none" for k, c in enumerate(cards)
            ),
            open_hand=tuple(c["open_hand"] if k in HASSLE_KINDS else False for k, c in enumerate(cards)),
            solves=tuple(
                (-1 if c["solves"] == "any" else index[c["solves"]]) if k in SOLUTION_KINDS else -1
                for k, c in enumerate(cards)
            ),
            total_cards=raw["total_cards"],
            overview_cards=raw["overview_cards"],
            hand_size=raw["hand_size"],
        )
    _validate(data)
    return data


def _choice(card: dict, key: str, allowed: tuple[str, ...]) -> str:
    value = card[key]
    if value not in allowed:
        _fail(f"{card['name']!r}: {key} must be one of {list(allowed)}, got {value!r}")
    return value


def _fail(msg: str) -> None:
    raise data_error(DATA_FILE, msg)


def _validate(d: IllegalData) -> None:
    ints = [*d.counts, *d.values, *d.penalties, *d.lost_turns, d.total_cards, d.overview_cards, d.hand_size]
    if any(isinstance(x, bool) or not isinstance(x, int) for x in ints):
        _fail("every count, value, penalty and turn count must be an integer")
    if not all(isinstance(x, bool) for x in d.open_hand):
        _fail("open_hand must be true or false")
    if min(d.counts) < 1:
        _fail("every card kind needs at least one card")
    if d.playable_cards != PLAYABLE_CARDS or d.total_cards - d.overview_cards != PLAYABLE_CARDS:
        _fail(
            f"the playable cards add up to {d.playable_cards} and total {d.total_cards} - "
            f"{d.overview_cards} overview cards; the rulebook has 108 = {PLAYABLE_CARDS} + 2"
        )
    if max(d.counts) > 255 // 2:
        _fail("counts must fit the observation's bytes")
    if any(d.values[k] <= 0 or d.values[k] % 1000 for k in BUSINESS_KINDS):
        _fail("every business is worth a positive number of thousands of Euros")
    if any(d.values[k] for k in range(NUM_KINDS) if k not in BUSINESS_KINDS):
        _fail("only businesses have a value")
    for k in PARANOIA_KINDS:
        if d.penalties[k] <= 0 or d.penalties[k] % 1000 or not 1 <= d.lost_turns[k] <= 2:
            _fail(f"{d.names[k]!r}: a Paranoia card costs a positive penalty in thousands and 1 or 2 turns")
        if d.loses[k] not in _LOSES:
            _fail(f"{d.names[k]!r}: loses must be one of {list(_LOSES)}")
    if any(d.penalties[k] for k in range(NUM_KINDS) if k not in PARANOIA_KINDS):
        _fail("only Paranoia cards have a penalty")
    solved = [d.solves[k] for k in SOLUTION_KINDS]
    if sorted(s for s in solved if s >= 0) != sorted(HASSLE_KINDS) or solved.count(-1) != 1:
        _fail("each hassle needs exactly one solution, and one solution (Bribe) solves any hassle")
    if sum(d.open_hand) != 1 or sum(d.blocks_legal) != 1:
        _fail("exactly one hassle opens the hand (Tax Inspection) and one blocks every business (Vacation)")
    if d.counts[KIND_NAMES.index("magnum")] != 1:
        _fail("the rulebook has exactly one Magnum (the reaction windows rely on it)")
    if not 1 <= d.hand_size <= 20:
        _fail("the hand size must be 1 to 20")
