"""What the component data file says, against the rulebook and the proposal. (The loader takes the
packaged file and refuses broken ones, as for every game: ``tests/core/families/test_data_family.py``.)"""

from collections import Counter

from smuggle_envs.games.humble_smuggle import data


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
