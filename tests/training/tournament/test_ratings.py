"""Ratings against openskill's own Plackett-Luce, win shares, intervals, head to head."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
from openskill.models import PlackettLuce

from smuggle_envs.core.outcomes import ranks as rank_of
from training.db import TournamentDB
from training.stats import wilson_interval
from training.tournament.ratings import compute_standings, mean_interval, t975


def _game(deal, seating, scores):
    return SimpleNamespace(deal=deal, seating=seating, scores=scores, ranks=rank_of(scores))


def test_stored_ratings_equal_openskill_run_directly_on_the_same_ranks(tmp_path, run_cli, capsys):
    db_path = tmp_path / "r.sqlite"
    assert (
        run_cli(
            [
                "tournament",
                "smuggle_v0",
                "--agents",
                "rule,random,random,random,random",
                "--games",
                "40",
                "--workers",
                "1",
                "--db",
                str(db_path),
                "--quiet",
                "--no-plots",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    with TournamentDB(db_path, create=False) as db:
        t = db.tournament(1)
        stored = db.ratings(1)
        games = list(db.games(1))
    assert len(games) == 40
    model = PlackettLuce()
    direct = {name: model.rating(name=name) for name in t.names}
    for g in sorted(games, key=lambda g: (g.deal, g.rotation)):
        assert g.ranks == rank_of(g.scores)
        new = model.rate([[direct[name]] for name in g.seating], ranks=g.ranks)
        for name, team in zip(g.seating, new):
            direct[name] = team[0]
    assert sorted(stored) == sorted(t.names)
    for name, (mu, sigma, ordinal, n_games) in stored.items():
        assert mu == pytest.approx(direct[name].mu, abs=1e-9)
        assert sigma == pytest.approx(direct[name].sigma, abs=1e-9)
        assert ordinal == pytest.approx(direct[name].ordinal(), abs=1e-9)
        assert n_games == 32  # 4 of 5 lineups x 4 rotations x 2 cycles
    # The printed leaderboard is ordered by the batch-fitted rating (not the openskill ordinal,
    # which depends on the order of the games), best first.
    lines = out.split("=== leaderboard")[1].splitlines()[3 : 3 + len(t.names)]
    printed = [line.split()[1] for line in lines]
    fitted = {line.split()[1]: float(line.split()[2]) for line in lines}
    assert printed == sorted(t.names, key=lambda n: -fitted[n])
    # The rule bot beats four random players (a sanity check that ranks are not inverted).
    assert printed[0] == "rule"


def test_ties_win_shares_and_head_to_head_on_hand_made_games():
    names = ["a", "b", "c", "d"]
    games = [
        _game(0, ["a", "b", "c"], [10, 10, 0]),  # a and b share the win
        _game(0, ["b", "c", "a"], [5, 7, 1]),  # c wins
        _game(1, ["d", "a", "b"], [3, 2, 1]),  # d wins
    ]
    st = compute_standings(names, games)
    assert st.games == 3
    a, b, c, d = (st.by_name(n) for n in names)
    assert (a.games, b.games, c.games, d.games) == (3, 3, 2, 1)
    assert (a.wins, b.wins, c.wins, d.wins) == (0.5, 0.5, 1.0, 1.0)
    assert a.win_interval == wilson_interval(0.5, 3)
    assert a.mean_score == pytest.approx(13 / 3)
    # a vs b: tie (1/2), behind (0), ahead (1) -> 1.5 of 3 games
    assert st.head_to_head("a", "b") == pytest.approx(0.5)
    assert st.head_to_head("c", "a") == pytest.approx(0.5)  # behind, then ahead
    assert st.head_to_head("d", "a") == 1.0 and st.head_to_head("a", "d") == 0.0
    assert math.isnan(st.head_to_head("c", "d"))  # never met
    # openskill directly, ties included.
    model = PlackettLuce()
    r = {n: model.rating(name=n) for n in names}
    for g in games:
        for n, team in zip(g.seating, model.rate([[r[n]] for n in g.seating], ranks=g.ranks)):
            r[n] = team[0]
    for s in st.agents:
        assert (s.mu, s.sigma) == (pytest.approx(r[s.name].mu), pytest.approx(r[s.name].sigma))
    assert [s.name for s in st.agents] == sorted(names, key=lambda n: -st.by_name(n).rating)
    # Mean-score interval: the unit is the deal (a's deal means are 5.5 and 2).
    lo, hi = a.score_interval
    mean, lo2, hi2 = mean_interval([5.5, 2.0])
    assert (lo, hi) == (lo2, hi2) and mean == pytest.approx(3.75)
    assert hi - lo == pytest.approx(2 * 12.706 * 1.75)  # t(1) * sd / sqrt(2), twice
    assert d.score_interval == (-math.inf, math.inf)  # one deal: no interval


def test_t_quantiles():
    assert t975(1) == 12.706 and t975(30) == 2.042
    assert t975(40) == pytest.approx(2.021, abs=1e-3)
    assert t975(120) == pytest.approx(1.980, abs=1e-3)
    assert t975(10**6) == pytest.approx(1.95996, abs=1e-4)
    mean, _lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and hi - 2.5 == pytest.approx(3.182 * math.sqrt(5 / 3 / 4))
