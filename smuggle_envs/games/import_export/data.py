"""Loads and validates Import / Export's component data (``data/cards.json``).

The file holds every goods card (the 100 base cards and the three expansion modules) with its
good type, action, tier, load requirement and power timing, and the game's numbers (payout
table, good values, majority bonuses, starting credits). Good type, action, tier and load are
PROPOSED (the rulebook does not print them); ``docs/rules/import_export.md`` records why.
A card's id is its position in the file, so ids are stable across configs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ...core.errors import DataError

DATA_FILE = "cards.json"
GOOD_TYPES = ("technology", "agriculture", "consumer", "luxury", "illegal")
ACTIONS = ("contract", "load", "import", "pirate", "supply")
COLOURS = ("green", "yellow", "black", "blue", "red")  # colour k belongs to good type k
MODULES = ("base", "jutaku", "kickstarter", "captain")
TIMINGS = ("immediate", "passive", "end_game", "hand")
MODULE_SIZES = {"base": 100, "jutaku": 10, "kickstarter": 15, "captain": 3}
_RULE_INTS = (
    "hand_size",
    "start_credits",
    "grey_bonus",
    "seed_per_ship",
    "sale_price",
    "owner_fee",
    "end_credits",
    "mri_end_credits",
    "max_load",
    "tablets_max_load",
    "container_value",
    "one_of_each_bonus",
    "bank",
)


@dataclass(frozen=True)
class Card:
    id: int
    key: str  # snake_case name, the code's handle for a power
    name: str
    type: int  # index into GOOD_TYPES (also the colour of its containers)
    action: int  # index into ACTIONS
    tier: int  # 0..3 goods of its type needed to contract it
    load: tuple[int, ...]  # required container colours (good-type indices), one per container
    timing: str  # when the power acts: immediate, passive, end_game, hand
    module: str
    power: str  # the rulebook's text


@dataclass(frozen=True)
class ImportExportData:
    cards: tuple[Card, ...]
    rules: dict[str, Any]
    payout: tuple[int, ...]  # credits by containers loaded, index 0..8
    good_values: tuple[int, ...]  # per good type
    majority_bonus: tuple[int, ...]  # per good type (negative: a penalty)

    def by_key(self, key: str) -> Card:
        for card in self.cards:
            if card.key == key:
                return card
        raise KeyError(f"no card {key!r}")


def load(text: str | None = None) -> ImportExportData:
    """Parse and validate the data; ``text`` overrides the packaged file (for tests)."""
    if text is None:
        text = resources.files(__package__).joinpath("data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    try:
        raw = json.loads(text)
        if tuple(raw["good_types"]) != GOOD_TYPES or tuple(raw["actions"]) != ACTIONS:
            _fail(f"good_types must be {list(GOOD_TYPES)} and actions {list(ACTIONS)}, in that order")
        if tuple(raw["colours"][t] for t in GOOD_TYPES) != COLOURS:
            _fail(f"the colours of {list(GOOD_TYPES)} must be {list(COLOURS)}")
        cards = tuple(_card(i, c) for i, c in enumerate(raw["cards"]))
        rules = raw["rules"]
        data = ImportExportData(
            cards=cards,
            rules={k: rules[k] for k in _RULE_INTS},
            payout=tuple(rules["payout"]),
            good_values=tuple(rules["good_values"][t] for t in GOOD_TYPES),
            majority_bonus=tuple(rules["majority_bonus"][t] for t in GOOD_TYPES),
        )
    except (KeyError, TypeError, ValueError, json.JSONDecodeError) as exc:
        if isinstance(exc, DataError):
            raise
        raise DataError(f"{DATA_FILE}: malformed ({exc!r})") from exc
    _validate(data)
    return data


def _card(i: int, c: dict[str, Any]) -> Card:
    name = c["name"]
    for field, allowed in (("type", GOOD_TYPES), ("action", ACTIONS), ("timing", TIMINGS), ("module", MODULES)):
        if c[field] not in allowed:
            _fail(f"{name!r}: {field} must be one of {list(allowed)}, got {c[field]!r}")
    if any(x not in GOOD_TYPES for x in c["load"]):
        _fail(f"{name!r}: every load colour must be a good type, got {c['load']!r}")
    tier = c["tier"]
    if isinstance(tier, bool) or not isinstance(tier, int) or not 0 <= tier <= 3:
        _fail(f"{name!r}: tier must be an int from 0 to 3, got {tier!r}")
    return Card(
        i,
        c["key"],
        name,
        GOOD_TYPES.index(c["type"]),
        ACTIONS.index(c["action"]),
        tier,
        tuple(GOOD_TYPES.index(x) for x in c["load"]),
        c["timing"],
        c["module"],
        c["power"],
    )


def _fail(msg: str) -> None:
    raise DataError(f"{DATA_FILE}: {msg}")


def _validate(d: ImportExportData) -> None:
    keys = [c.key for c in d.cards]
    if len(set(keys)) != len(keys) or len({c.name for c in d.cards}) != len(keys):
        _fail("card names and keys must be unique")
    for module, size in MODULE_SIZES.items():
        got = sum(c.module == module for c in d.cards)
        if got != size:
            _fail(f"module {module!r} must have {size} cards (the rulebook's appendix), got {got}")
    modules = [MODULES.index(c.module) for c in d.cards]
    if modules != sorted(modules):
        _fail("cards must be listed base first, then jutaku, kickstarter, captain (ids are positions)")
    for c in d.cards:
        if not 1 <= len(c.load) <= 4:
            _fail(f"{c.name!r}: a load requirement has 1 to 4 containers")
        if not c.power:
            _fail(f"{c.name!r}: the power text is missing")
    for k in _RULE_INTS:
        v = d.rules[k]
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            _fail(f"rules.{k} must be a non-negative int, got {v!r}")
    if len(d.payout) != 9 or d.payout[0] != 0 or list(d.payout) != sorted(d.payout) or any(x % 2 for x in d.payout):
        _fail("payout must list 9 even, non-decreasing amounts for 0..8 containers, starting at 0")
    if any(
        v % 2 for v in (d.rules["start_credits"], d.rules["grey_bonus"], d.rules["sale_price"], d.rules["owner_fee"])
    ):
        _fail("credits move in steps of 2 (white cubes)")
    base = [c for c in d.cards if c.module == "base"]
    for t in range(len(GOOD_TYPES)):
        if sum(c.type == t for c in base) != 20:
            _fail(f"the base game has 20 {GOOD_TYPES[t]} cards")
