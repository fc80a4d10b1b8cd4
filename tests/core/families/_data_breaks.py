"""Ways to break each game's card-data file, one table per registered env id: (a change made in
place to the parsed JSON, words of the ``DataError`` that must name the problem; what the change
returns is ignored). ``test_data_family.py`` applies each to the packaged file and expects the
loader to refuse it. Text that is no JSON document of the right shape is the family's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Break = tuple[Callable[[Any], Any], str]


def _set(path, value):
    """Set the value at ``path`` (keys and indexes) of the document."""

    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _swap_modules(doc):
    doc["cards"][99], doc["cards"][100] = doc["cards"][100], doc["cards"][99]


def _duplicate_key(doc):
    doc["cards"][1]["key"] = doc["cards"][0]["key"]


SMUGGLE: list[Break] = [
    (lambda r: r["luggage"].update(count=25), "add up"),
    (lambda r: r["items"][0].update(fine=10), "fine"),
    (lambda r: r["items"][7].update(count=2), "one Diplomatic Bag and one Crown"),
    (lambda r: r["items"].pop(), "8 dutiable items"),
    (lambda r: r["items"][1].update(duty="50"), "integer"),
    (lambda r: r["money"].update(per_player=3002), "multiple"),
    (lambda r: r.pop("payments"), "malformed"),
]

CIQ: list[Break] = [
    (lambda r: r["ranks"][3].update(value=7), "increasing"),
    (lambda r: r["ranks"][0].update(value="2"), "integer"),
    (lambda r: r["ranks"][9].update(effect="queen"), "Result of Shipping"),
    (lambda r: r["ranks"][4].update(effect="bomb"), "unknown effect"),
    (lambda r: r["ranks"][0].update(value=1), "own value"),
    (lambda r: r["ranks"][10].update(face=False), "face"),
    (lambda r: r["ranks"].pop(), "13 ranks"),
    (lambda r: r.update(suits=["clubs", "hearts"]), "four suits"),
    (lambda r: r.update(jokers_per_deck=1), "two Jokers"),
    (lambda r: r.update(hand_size=0), "hand size"),
    (lambda r: r.update(tolerance_start_rank="X"), "tolerance start"),
    (lambda r: r["players"].update(max=7), "2 to 6"),
    (lambda r: r.pop("ranks"), "malformed"),
]

ILLEGAL: list[Break] = [
    (lambda r: r["cards"][0].update(count=9), "add up"),
    (lambda r: r["cards"].pop(), "rulebook's 25 cards"),
    (lambda r: r["cards"][2].update(value=0), "positive"),
    (lambda r: r["cards"][3].update(value="5000"), "integer"),
    (lambda r: r["cards"][4].update(type="legal"), "must have type"),
    (lambda r: r["cards"][14].update(solves="alibi"), "exactly one solution"),
    (lambda r: r["cards"][12].update(open_hand=False), "opens the hand"),
    (lambda r: r["cards"][10].update(turn_loss="all"), "turn_loss"),
    (lambda r: r["cards"][19].update(lost_turns=3), "1 or 2 turns"),
    (lambda r: r["cards"][19].update(loses="half"), "loses"),
    (lambda r: (r["cards"][24].update(count=2), r["cards"][0].update(count=9)), "one Magnum"),
    (lambda r: r.update(total_cards=110), "add up"),
    (lambda r: r.pop("hand_size"), "malformed"),
    (lambda r: r["cards"][0].update(value=500), "only businesses"),
]

HUMBLE_SMUGGLE: list[Break] = [
    (lambda r: r["white"].pop(), "79 white cards"),
    (lambda r: r["white"][5].update(value=7), "numbered 1 to 79"),
    (lambda r: r["white"][25].update(points=3), "tens digit"),
    (lambda r: r["white"][25].update(rule="triple_up"), "unknown round rule"),
    (lambda r: r["white"][9].pop("rule_symbol"), "names one symbol"),
    (lambda r: r["white"][9].update(rule_symbol="star"), "symbol_up names"),
    (lambda r: r["white"][0].update(symbol="parrot"), "unknown symbol"),
    (lambda r: r["white"][0].update(draws=-1), "draws"),
    (lambda r: r["white"][3].update(symbol="anchor"), "card 4"),  # figure 1's cells
    (lambda r: r["white"][61].update(draws=0), "card 62"),
    (lambda r: r["end_card"].update(value=81), "numbered 80"),
    (lambda r: r["end_card"]["cards_above"].pop("5"), "each player count"),
    (lambda r: r["end_card"]["cards_above"].update({"4": 75}), "outside"),
    (lambda r: r["black"]["play"][0].update(count=5), "add up to 39"),
    (lambda r: r["black"]["play"][4].update(effect="triple"), "unknown effect"),
    (lambda r: r["black"]["play"].reverse(), "in this order"),
    (lambda r: r["black"]["hold"][0].update(symbols=["anchor", "anchor", "key"]), "3 different symbols"),
    (lambda r: r["black"]["hold"][15].update(symbols=["barrel", "anchor", "compass"]), "identical"),
    (lambda r: r["black"]["hold"].pop(), "16 Hold cards"),
    (lambda r: r["setup"].update(black_limit=4), "limits black hands to 3"),
    (lambda r: r["set_points"].update({"4": 4}), "grow"),
    (lambda r: r["set_points"].pop("3"), "without gaps"),
    (lambda r: r["symbols"].append("parrot"), "5 distinct symbols"),
    (lambda r: r["white"][1].update(draws="1"), "integer"),
    (lambda r: r.pop("black"), "malformed"),
]

IMPORT_EXPORT: list[Break] = [
    (_set(("cards", 0, "type"), "weapons"), "type must be one of"),
    (_set(("cards", 0, "action"), "smuggle"), "action must be one of"),
    (_set(("cards", 0, "timing"), "never"), "timing must be one of"),
    (_set(("cards", 0, "module"), "promo"), "module must be one of"),
    (_set(("cards", 0, "load"), ["illegal", "purple"]), "load colour"),
    (_set(("cards", 0, "tier"), 4), "tier must be an int from 0 to 3"),
    (_set(("cards", 0, "tier"), True), "tier must be an int"),
    (_set(("cards", 0, "tier"), "1"), "tier must be an int"),
    (_set(("cards", 0, "load"), []), "1 to 4 containers"),
    (_set(("cards", 0, "load"), ["illegal"] * 5), "1 to 4 containers"),
    (_set(("cards", 0, "power"), ""), "power text is missing"),
    (_duplicate_key, "unique"),
    (_set(("cards", 1, "name"), "A SMALL TANK"), "unique"),
    (_set(("cards", 0, "module"), "jutaku"), "module 'base' must have 100 cards"),
    (_swap_modules, "base first"),
    (lambda r: r["cards"].pop(), "module 'captain' must have 3 cards"),
    (_set(("cards", 0, "type"), "technology"), "20 technology cards"),
    (_set(("good_types",), ["technology", "agriculture", "consumer", "illegal", "luxury"]), "good_types"),
    (_set(("actions",), ["load", "contract", "import", "pirate", "supply"]), "actions"),
    (_set(("colours", "luxury"), "red"), "colours"),
    (_set(("rules", "hand_size"), -1), "non-negative"),
    (_set(("rules", "owner_fee"), 3), "steps of 2"),
    (_set(("rules", "start_credits"), 11), "steps of 2"),
    (_set(("rules", "payout"), [0, 2, 4]), "payout"),
    (_set(("rules", "payout"), [0, 2, 4, 6, 8, 10, 14, 16, 17]), "payout"),
    (_set(("rules", "payout"), [2, 2, 4, 6, 8, 10, 14, 16, 18]), "payout"),
    (_set(("rules", "payout"), [0, 4, 2, 6, 8, 10, 14, 16, 18]), "payout"),
    (lambda r: r["rules"].pop("bank"), "malformed"),
    (lambda r: r["cards"][0].pop("load"), "malformed"),
    (lambda r: r["rules"]["good_values"].pop("luxury"), "malformed"),
    (lambda r: (r.clear(), r.update(good_types=3)), "malformed"),
]

BREAKS: dict[str, list[Break]] = {
    "smuggle_v0": SMUGGLE,
    "ciq_v0": CIQ,
    "illegal_v0": ILLEGAL,
    "humble_smuggle_v0": HUMBLE_SMUGGLE,
    "import_export_v0": IMPORT_EXPORT,
}
