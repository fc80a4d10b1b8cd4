"""A leaderboard of one deal prints no rating interval ("n/a (1 deal)": a bootstrap over one deal
is the point [x, x]) and assesses no separation; below ``MIN_DEALS`` deals it warns."""

from __future__ import annotations

import re

from training.stats import MIN_DEALS
from training.tournament.ratings import AgentStanding, Standings
from training.tournament.report import leaderboard_table, not_separated


def _standings(deals: int, collapsed: bool) -> Standings:
    spread = 0.0 if collapsed else 40.0
    agents = [
        AgentStanding(name, 0.0, 1.0, r, r - spread, r + spread, games=4, wins=1.0, score_sum=2.0)
        for name, r in (("A", 1551.0), ("B", 1500.0), ("C", 1449.0))
    ]
    names = [a.name for a in agents]
    return Standings(agents, names, [[0.0] * 3 for _ in names], [[0] * 3 for _ in names], 4 * deals, deals, 200)


def test_one_deal_prints_no_interval_and_no_separation():
    text = leaderboard_table(_standings(1, collapsed=True))
    assert "n/a (1 deal)" in text
    assert not re.search(r"\[(\d+\.\d), \1\]", text)  # no [x, x] interval
    assert "no two agents' 95% rating intervals overlap" not in text
    assert "not assessed (1 deal" in text and not_separated(_standings(1, collapsed=True)) == []
    assert f"warning: only 1 deal (fewer than {MIN_DEALS})" in text


def test_few_deals_warn_and_enough_deals_do_not():
    assert f"warning: only 3 deals (fewer than {MIN_DEALS})" in leaderboard_table(_standings(3, collapsed=False))
    enough = leaderboard_table(_standings(MIN_DEALS, collapsed=False))
    assert "warning" not in enough and "n/a" not in enough and "[1511.0, 1591.0]" in enough
