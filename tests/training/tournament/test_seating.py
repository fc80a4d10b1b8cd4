"""``--seating permutations``: balanced seat permutations per deal, stored and resumed."""

from __future__ import annotations

import math
import sqlite3
from collections import Counter

import pytest

from training.db import TournamentDB
from training.tournament import schedule as S


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_seat_permutations_are_balanced(n):
    perms = S.seat_permutations(n)
    assert len(set(perms)) == len(perms)  # distinct
    assert all(sorted(p) == list(range(n)) for p in perms)
    if n <= 4:
        assert len(perms) == math.factorial(n)
    else:
        assert len(perms) == (n * (n - 1) if n % 2 else 2 * n * (n - 1))
    seats, adjacency = S.permutation_balance(perms)
    # Every position of the lineup in every seat equally often.
    assert sorted(seats) == list(range(n)) and len({c for row in seats.values() for c in row}) == 1
    # Every ordered pair (a immediately before b, clockwise, seat n-1 before seat 0) equally often.
    assert set(adjacency) == {(a, b) for a in range(n) for b in range(n) if a != b}
    assert len(set(adjacency.values())) == 1


@pytest.mark.parametrize("k, n", [(4, 4), (5, 4), (5, 5), (6, 3)])
def test_permutation_schedule_balance_per_deal(k, n):
    specs = S.game_specs(k, n, games=1, seed=3, seating="permutations")
    per_deal = S.games_per_deal(n, "permutations")
    design, deals = S.plan(k, n, 1, seating="permutations")
    assert len(specs) == deals * per_deal and deals == len(design)
    assert len({s.game_key for s in specs}) == len(specs)
    by_deal: dict[int, list[S.ScheduledGame]] = {}
    for s in specs:
        by_deal.setdefault(s.deal, []).append(s)
    for d, games in by_deal.items():
        assert [g.rotation for g in games] == list(range(per_deal))
        assert {g.seed for g in games} == {3 + d} and len({g.lineup for g in games}) == 1
        seats, adjacency = S.permutation_balance([g.seating for g in games])
        assert sorted(seats) == sorted(games[0].lineup)
        assert len({c for row in seats.values() for c in row}) == 1
        lineup = games[0].lineup
        assert set(adjacency) == {(a, b) for a in lineup for b in lineup if a != b}
        assert len(set(adjacency.values())) == 1
    # Over the tournament every agent plays equally often.
    assert len(set(Counter(a for s in specs for a in s.seating).values())) == 1


def test_permutation_specs_store_their_seating_and_rotation_specs_are_unchanged():
    spec = S.game_specs(4, 4, 24, seed=2, seating="permutations")[5]
    item = spec.to_list()
    assert len(item) == 5 and item[4] == list(spec.seating)
    assert S.ScheduledGame.from_list(item) == spec and spec.mode == "permutations"
    rot = S.game_specs(4, 4, 4, seed=2)[1]
    assert len(rot.to_list()) == 4 and S.ScheduledGame.from_list(rot.to_list()) == rot  # old format
    assert S.seating_mode([rot]) == "rotation" and S.seating_mode([spec]) == "permutations"
    assert len(S.game_specs(4, 4, 25, seating="permutations")) == 48  # whole deals of 24
    with pytest.raises(ValueError):
        S.game_specs(4, 4, 10, seating="shuffled")


def _argv(db, seating="permutations"):
    return [
        "tournament",
        "smuggle_v0",
        "--players",
        "3",
        "--agents",
        "random,random,random",
        "--games",
        "12",
        "--seating",
        seating,
        "--workers",
        "1",
        "--db",
        str(db),
        "--quiet",
        "--no-plots",
        "--bootstrap",
        "20",
    ]


def test_permutation_tournament_end_to_end_and_resume(tmp_path, run_cli, capsys):
    db = tmp_path / "p.sqlite"
    assert run_cli(_argv(db)) == 0
    out = capsys.readouterr().out
    assert "12 games = 2 deals x all 6 seat permutations" in out
    expected = S.game_specs(3, 3, 12, seed=0, seating="permutations")
    with TournamentDB(db, create=False) as d:
        t = d.tournament(1)
        assert list(t.schedule) == expected and S.seating_mode(t.schedule) == "permutations"
        games = list(d.games(1))
    assert [g.game_key for g in games] == [s.game_key for s in expected]
    assert [g.seating for g in games] == [[t.names[a] for a in s.seating] for s in expected]
    for deal in (0, 1):  # every agent in every seat twice per deal
        seatings = [tuple(g.seating) for g in games if g.deal == deal]
        seats, _ = S.permutation_balance(seatings)
        assert {c for row in seats.values() for c in row} == {2}

    # Lose three games, then the same command resumes with the stored schedule.
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM games WHERE game_key IN ('000000-4', '000001-0', '000001-5')")
    assert run_cli(_argv(db)) == 0
    out = capsys.readouterr().out
    assert "resuming: 9 of 12 games already stored" in out and "played 3 games" in out
    with TournamentDB(db, create=False) as d:
        again = list(d.games(1))
    assert sorted((g.game_key, tuple(g.seating), g.scores) for g in again) == sorted(
        (g.game_key, tuple(g.seating), g.scores) for g in games
    )

    # The other seating mode is another tournament in the same database, never mixed into this one.
    assert run_cli(_argv(db, seating="rotation")) == 0
    with TournamentDB(db, create=False) as d:
        assert S.seating_mode(d.tournament(2).schedule) == "rotation"
        assert S.seating_mode(d.tournament(1).schedule) == "permutations"
        assert len(list(d.games(1))) == 12


def test_rotation_stays_the_default(tmp_path, run_cli, capsys):
    db = tmp_path / "r.sqlite"
    argv = [a for a in _argv(db) if a not in ("--seating", "permutations")]
    assert run_cli(argv) == 0
    assert "x 3 seat rotations" in capsys.readouterr().out
    with TournamentDB(db, create=False) as d:
        assert list(d.tournament(1).schedule) == S.game_specs(3, 3, 12, seed=0)
