"""The component data file and its validating loader."""

import json
from collections import Counter
from importlib import resources

import pytest

from smuggle_envs.core.errors import DataError
from smuggle_envs.games.humble_smuggle import data


def raw():
    text = resources.files("smuggle_envs.games.humble_smuggle").joinpath("data", "humble_smuggle.json").read_text()
    return json.loads(text)


def test_packaged_data_has_every_card_of_the_rulebook():
    d = data.load()
    assert [w.value for w in d.white] == list(range(1, 80))  # 79 white cards
    assert all(w.points == w.value // 10 for w in d.white)  # tens digit
    assert sum(p.count for p in d.play) + len(d.hold) == 40  # 40 black cards
    assert d.end_value == 80
    assert (d.white_hand, d.black_deal, d.black_limit) == (3, 2, 3)
    assert d.set_points == {2: 2, 3: 5, 4: 9, 5: 15}
    # the two cells of figure 1
    assert d.white[3].symbol == "star" and d.white[3].rule == "standard" and d.white[3].points == 0
    assert (d.white[61].points, d.white[61].draws, d.white[61].rule) == (6, 1, "double_up")


def test_packaged_data_follows_the_proposal():
    d = data.load()
    rules = Counter(w.rule for w in d.white)
    assert rules == {"standard": 51, "double_up": 8, "high_low": 8, "symbol_up": 7, "safe_zone": 5}
    symbols = Counter(w.symbol for w in d.white)
    assert symbols == {None: 31, "anchor": 8, "barrel": 8, "compass": 8, "skull": 8, "key": 8, "star": 8}
    assert sum(w.draws for w in d.white) == 30 and sum(1 for w in d.white if w.draws) == 23
    assert all(w.symbol is None for w in d.white if w.draws)  # draws or a symbol, not both
    assert [w.rule_symbol for w in d.white if w.rule == "symbol_up"] == [
        "anchor",
        "barrel",
        "compass",
        "skull",
        "key",
        "anchor",
        "barrel",
    ]
    assert [w.value for w in d.white if w.rule == "safe_zone"] == [37, 47, 57, 67, 77]
    assert {p.name: p.count for p in d.play} == {
        "+10": 6,
        "+20": 3,
        "-10": 6,
        "-20": 3,
        "zero": 2,
        "double": 2,
        "shield": 2,
    }
    assert Counter(h.bonus for h in d.hold) == {1: 10, 2: 6}
    assert len({h.symbols for h in d.hold if h.bonus == 1}) == 10  # every 3-symbol combination
    assert d.cards_above == {2: 45, 3: 53, 4: 62, 5: 69}
    for p, rounds in ((2, 14), (3, 12), (4, 11), (5, 10)):  # above = 3P + (P+1)(R-1)
        assert d.cards_above[p] == 3 * p + (p + 1) * (rounds - 1)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda r: r["white"].pop(), "79 white cards"),
        (lambda r: r["white"][5].update(value=7), "numbered 1 to 79"),
        (lambda r: r["white"][25].update(points=3), "tens digit"),
        (lambda r: r["white"][25].update(rule="triple_up"), "unknown round rule"),
        (lambda r: r["white"][9].pop("rule_symbol"), "names one symbol"),
        (lambda r: r["white"][9].update(rule_symbol="star"), "symbol_up names"),
        (lambda r: r["white"][0].update(symbol="parrot"), "unknown symbol"),
        (lambda r: r["white"][0].update(draws=-1), "draws"),
        (lambda r: r["white"][3].update(symbol="anchor"), "card 4"),
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
    ],
)
def test_loader_rejects_bad_data(mutate, message):
    r = raw()
    mutate(r)
    with pytest.raises(DataError, match=message):
        data.load(json.dumps(r))


def test_loader_rejects_bad_json():
    with pytest.raises(DataError):
        data.load("{not json")
