"""What the card data file says, against the rulebook's card list. (The loader takes the packaged
file and refuses broken ones, as for every game: ``tests/core/families/test_data_family.py``.)"""

import json
from importlib import resources

from smuggle_envs.games.illegal import data
from smuggle_envs.games.illegal.actions import KIND_NAMES


def raw():
    text = resources.files("smuggle_envs.games.illegal").joinpath("data", "illegal.json").read_text(encoding="utf-8")
    return json.loads(text)


def test_packaged_data_matches_the_rulebook_card_list():
    d = data.load()
    counts = dict(zip(d.names, d.counts))
    assert counts == {
        "market open": 10,
        "day of accounting": 4,
        "gambling": 7,
        "pimps": 7,
        "merchandise": 10,
        "weapons": 6,
        "the coup": 1,
        "tropical fish": 8,
        "brokering": 4,
        "politics": 2,
        "raid": 2,
        "protection money": 2,
        "tax inspection": 3,
        "vacation in sweden": 3,
        "informant": 4,
        "mister zero": 4,
        "white coat": 4,
        "alibi": 4,
        "bribe": 4,
        "death in the family": 4,
        "loan shark": 3,
        "debris and ash": 1,
        "hostile takeover": 4,
        "relatives": 4,
        "magnum": 1,
    }
    assert d.playable_cards == 106 and d.total_cards == 108 and d.overview_cards == 2
    values = {name: v for name, v in zip(d.names, d.values) if v}
    assert values == {
        "gambling": 5000,
        "pimps": 5000,
        "merchandise": 25000,
        "weapons": 50000,
        "the coup": 100000,
        "tropical fish": 1000,
        "brokering": 3000,
        "politics": 10000,
    }
    paranoia = {name: (p, t, x) for name, p, t, x in zip(d.names, d.penalties, d.lost_turns, d.loses) if p}
    assert paranoia == {
        "death in the family": (25000, 1, "one"),
        "loan shark": (50000, 2, "most expensive"),
        "debris and ash": (100000, 2, "all"),
    }
    solves = {
        name: KIND_NAMES[s] if s >= 0 else "any"
        for name, s, t in zip(d.names, d.solves, raw()["cards"])
        if t["type"] == "solution"
    }
    assert solves == {
        "informant": "raid",
        "mister zero": "protection money",
        "white coat": "tax inspection",
        "alibi": "vacation in sweden",
        "bribe": "any",
    }
    hassles = {
        name: (legal, loss, open_)
        for name, legal, loss, open_, t in zip(d.names, d.blocks_legal, d.turn_loss, d.open_hand, raw()["cards"])
        if t["type"] == "hassle"
    }
    assert hassles == {
        "raid": (False, "illegal", False),
        "protection money": (False, "any", False),
        "tax inspection": (False, "none", True),
        "vacation in sweden": (True, "none", False),
    }
    assert d.hand_size == 7
