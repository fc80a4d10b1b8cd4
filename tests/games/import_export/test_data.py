"""What the card data file (``data/cards.json``) says, against the rulebook and the proposed design.
(The loader takes the packaged file and refuses broken ones, as for every game:
``tests/core/families/test_data_family.py``.)"""

from collections import Counter

import pytest

from smuggle_envs.games.import_export import data
from smuggle_envs.games.import_export.data import ACTIONS, GOOD_TYPES


def test_packaged_data_has_the_rulebooks_cards_and_numbers():
    d = data.load()
    assert len(d.cards) == 128
    assert Counter(c.module for c in d.cards) == {"base": 100, "jutaku": 10, "kickstarter": 15, "captain": 3}
    assert [c.id for c in d.cards] == list(range(128))
    base = [c for c in d.cards if c.module == "base"]
    # CONTENTS: "20 Technology Cards, 20 Agriculture Cards, 20 Consumer Cards, 20 Illegal Cards,
    # 20 Luxury Cards", each with a unique power
    assert Counter(GOOD_TYPES[c.type] for c in base) == {t: 20 for t in GOOD_TYPES}
    assert len({c.name for c in d.cards}) == 128 and all(c.power for c in d.cards)
    assert d.rules == {
        "hand_size": 5,
        "start_credits": 10,
        "grey_bonus": 4,
        "seed_per_ship": 4,
        "sale_price": 4,
        "owner_fee": 2,
        "end_credits": 50,
        "mri_end_credits": 70,
        "max_load": 6,
        "tablets_max_load": 8,
        "container_value": 2,
        "one_of_each_bonus": 10,
        "bank": 520,
    }
    # 42 red rectangles of 10 and 50 white cubes of 2
    assert d.rules["bank"] == 42 * 10 + 50 * 2
    assert d.payout == (0, 2, 4, 6, 8, 10, 14, 16, 18)
    assert d.good_values == (1, 1, 1, 1, 2)
    assert d.majority_bonus == (6, 6, 6, 8, -6)


def test_sourced_cells():
    # R5 (b): "Laptops and MRI Machines load 2 green; Diamond Rings load 4 blue; Hawaiian Salt tier 2
    # Agriculture; Flour load 4 (implied)".
    d = data.load()
    green, yellow, blue = GOOD_TYPES.index("technology"), GOOD_TYPES.index("agriculture"), GOOD_TYPES.index("luxury")
    assert d.by_key("laptops").load == (green, green)
    assert d.by_key("miri_machines").load == (green, green) and d.by_key("miri_machines").type == green
    assert d.by_key("diamond_rings").load == (blue,) * 4 and d.by_key("diamond_rings").type == blue
    assert (d.by_key("hawaiian_salt").tier, d.by_key("hawaiian_salt").type) == (2, yellow)
    assert len(d.by_key("flour").load) == 4
    with pytest.raises(KeyError):
        d.by_key("mri_machines")


def test_proposed_design_rules_hold_for_the_base_cards():
    # R5.1 and R5 (b): 4 of each action per good type; tiers 5/7/5/3; load = tier + 1; a tier 3
    # card loads 3 of its own colour and 1 of the next (green > yellow > black > blue > red >
    # green), but Flour (its text) and Diamond Rings (the rulebook) load 4 of their own; the
    # five wild cards are tier 2 and the five rainbow cards tier 1.
    d = data.load()
    base = [c for c in d.cards if c.module == "base"]
    for t in range(len(GOOD_TYPES)):
        mine = [c for c in base if c.type == t]
        assert Counter(c.action for c in mine) == {a: 4 for a in range(len(ACTIONS))}
        assert Counter(c.tier for c in mine) == {0: 5, 1: 7, 2: 5, 3: 3}
        for c in mine:
            assert len(c.load) == c.tier + 1
            if c.tier < 3 or c.key in ("flour", "diamond_rings"):
                assert set(c.load) == {t}, c.name
            else:
                assert c.load == (t, t, t, (t + 1) % 5), c.name
    wild = ("big_cats", "impalas", "soap", "televisions", "wheat")
    rainbow = ("candy", "coffee", "generators", "gold_watches", "seeds")
    assert {d.by_key(k).tier for k in wild} == {2} and {d.by_key(k).tier for k in rainbow} == {1}
    assert {d.by_key(k).type for k in wild} == set(range(5)) == {d.by_key(k).type for k in rainbow}


def test_timings():
    d = data.load()
    assert {c.key for c in d.cards if c.timing == "hand"} == {"flour", "lutefisk"}
    assert set(Counter(c.timing for c in d.cards)) == {"immediate", "passive", "end_game", "hand"}
