"""The duplicate schedule: every seat rotation of every deal exactly once, balanced lineups."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import pytest

from training.tournament import schedule as S


@pytest.mark.parametrize("k, n", [(3, 3), (4, 4), (5, 4), (6, 4), (5, 3), (7, 3), (6, 3), (8, 4), (6, 5)])
def test_every_rotation_of_every_deal_exactly_once(k, n):
    specs = S.game_specs(k, n, games=1, seed=11)
    design, deals = S.plan(k, n, 1)
    assert len(specs) == deals * n and deals == len(design)  # one whole cycle
    assert len({s.game_key for s in specs}) == len(specs)  # keys unique
    by_deal: dict[int, list[S.ScheduledGame]] = {}
    for s in specs:
        by_deal.setdefault(s.deal, []).append(s)
    assert sorted(by_deal) == list(range(deals))
    for d, games in by_deal.items():
        assert sorted(g.rotation for g in games) == list(range(n))  # each rotation once
        assert {g.seed for g in games} == {11 + d}  # one deal, one seed
        assert len({g.lineup for g in games}) == 1
        lineup = games[0].lineup
        assert len(set(lineup)) == n
        for g in games:
            assert g.seating == tuple(lineup[(s + g.rotation) % n] for s in range(n))
        # Every agent of the lineup sits in every seat exactly once over the deal.
        for seat in range(n):
            assert sorted(g.seating[seat] for g in games) == sorted(lineup)


@pytest.mark.parametrize("k, n", [(5, 4), (6, 4), (7, 3), (7, 4), (6, 3), (9, 3), (8, 4), (10, 4)])
def test_lineups_balanced_every_pair_meets_equally_often(k, n):
    specs = S.game_specs(k, n, games=1, seed=0)
    games_of = Counter(a for s in specs for a in s.seating)
    assert len(games_of) == k and len(set(games_of.values())) == 1
    pairs = Counter(p for s in specs for p in combinations(sorted(s.seating), 2))
    assert set(pairs) == set(combinations(range(k), 2))
    assert len(set(pairs.values())) == 1


def test_small_designs_are_found_when_they_exist():
    fano = S.balanced_lineups(7, 3)
    assert len(fano) == 7 < math.comb(7, 3)  # the Fano plane, not all 35
    assert set(S.pair_counts(fano, 7).values()) == {1}
    assert S.is_balanced(S.balanced_lineups(13, 4), 13)
    assert S.balanced_lineups(5, 4) == list(combinations(range(5), 4))
    assert S.balanced_lineups(4, 4) == [(0, 1, 2, 3)]
    assert not S.is_balanced([(0, 1, 2), (0, 1, 3)], 4)


def test_games_round_up_to_whole_cycles_and_schedule_is_deterministic():
    # 5 agents, 4 seats: 5 lineups x 4 rotations = cycles of 20 games.
    assert len(S.game_specs(5, 4, games=20)) == 20
    assert len(S.game_specs(5, 4, games=21)) == 40
    assert len(S.game_specs(4, 4, games=10)) == 12  # whole deals of 4 rotations
    assert S.game_specs(6, 4, 100, seed=3) == S.game_specs(6, 4, 100, seed=3)
    first, other = S.game_specs(6, 4, 60, seed=3), S.game_specs(6, 4, 60, seed=4)
    assert [s.seed for s in first] != [s.seed for s in other]
    # The seating order of a lineup varies from deal to deal (neighbours change).
    orders = {s.lineup for s in S.game_specs(4, 4, games=200) if s.rotation == 0}
    assert len(orders) > 1


def test_specs_round_trip_and_bad_sizes():
    spec = S.game_specs(5, 4, 20, seed=2)[7]
    assert S.ScheduledGame.from_list(spec.to_list()) == spec
    assert spec.game_key == f"{spec.deal:06d}-{spec.rotation}"
    with pytest.raises(ValueError):
        S.balanced_lineups(3, 4)
    with pytest.raises(ValueError):
        S.game_specs(4, 4, games=0)
