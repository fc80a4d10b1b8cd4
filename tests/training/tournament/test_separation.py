"""The leaderboard marks the agents whose 95% rating intervals overlap as "not separated": a
letter column in the printed table and the CSV, a footnote, and letters beside the ratings plot."""

from __future__ import annotations

import csv

from training.tournament.ratings import AgentStanding, Standings
from training.tournament.report import (
    LEADERBOARD_COLUMNS,
    leaderboard_table,
    not_separated,
    plot_ratings,
    separation_marks,
    write_leaderboard_csv,
)


def _standings(intervals: dict[str, tuple[float, float]], bootstrap: int = 100) -> Standings:
    agents = [
        AgentStanding(name, 0.0, 1.0, (lo + hi) / 2, lo, hi, games=40, wins=10.0)
        for name, (lo, hi) in intervals.items()
    ]
    k = len(agents)
    names = list(intervals)
    return Standings(agents, names, [[0.0] * k for _ in names], [[0] * k for _ in names], 40, 10, bootstrap)


# best first: A overlaps B, B overlaps C, A and C do not meet, D is clear of them all
CHAIN = {"A": (300.0, 400.0), "B": (250.0, 320.0), "C": (200.0, 260.0), "D": (0.0, 100.0)}


def test_groups_are_the_largest_sets_of_overlapping_intervals():
    standings = _standings(CHAIN)
    assert not_separated(standings) == [["A", "B"], ["B", "C"]]
    assert separation_marks(standings) == {"A": "a", "B": "ab", "C": "b", "D": ""}
    three = _standings({"A": (10.0, 30.0), "B": (5.0, 25.0), "C": (20.0, 40.0)})
    assert not_separated(three) == [["A", "B", "C"]]  # pairwise overlapping: one common point
    apart = _standings({"A": (10.0, 20.0), "B": (0.0, 9.0)})
    assert not_separated(apart) == [] and separation_marks(apart) == {"A": "", "B": ""}
    assert not_separated(_standings(CHAIN, bootstrap=0)) == []


def test_the_table_adds_a_column_and_a_footnote_and_keeps_the_other_columns():
    text = leaderboard_table(_standings(CHAIN))
    table, note = text.split("\n\n")
    header, _, *rows = table.splitlines()
    assert header.split()[:3] == ["#", "agent", "rating"] and header.endswith("not separated")
    assert [r.split()[-1] for r in rows] == ["a", "ab", "b", "-"]
    assert [r.split()[1] for r in rows] == ["A", "B", "C", "D"] and rows[0].split()[2] == "350.0"
    assert note.startswith("not separated (agents sharing a letter") and note.endswith("a: A, B; b: B, C")
    assert leaderboard_table(_standings(CHAIN, bootstrap=0)).endswith(
        "not assessed (no rating intervals: --bootstrap 0)"
    )
    clear = _standings({"A": (10.0, 20.0), "B": (0.0, 9.0)})
    assert leaderboard_table(clear).endswith("none (no two agents' 95% rating intervals overlap)")


def test_the_csv_and_the_plot_carry_the_letters(tmp_path):
    standings = _standings(CHAIN)
    write_leaderboard_csv(standings, tmp_path / "l.csv")
    with open(tmp_path / "l.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == LEADERBOARD_COLUMNS and [r["not_separated"] for r in rows] == ["a", "ab", "b", ""]
    fig = plot_ratings(standings, tmp_path / "r.png")
    rating_ax, win_ax = fig.axes
    assert [t.get_text() for t in rating_ax.texts][:4] == ["a", "ab", "b", "-"]
    assert "not separated" in rating_ax.get_xlabel()
    chance = [line for line in win_ax.lines if line.get_linestyle() == "--"]
    assert len(chance) == 1 and chance[0].get_xdata()[0] == 100 / 4  # 160 seat-games in 40 games: 4 players
    assert "chance (1 in 4 players, 25%)" in win_ax.get_xlabel()
