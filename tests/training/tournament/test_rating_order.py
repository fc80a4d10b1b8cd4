"""The batch Plackett-Luce fit: order-free, consistent, finite, with reproducible bootstrap
intervals; and the tournament's leaderboard, CSV and plot agree with it."""

from __future__ import annotations

import csv
import itertools
import math
import random
from types import SimpleNamespace

import numpy as np
import pytest

from smuggle_envs.core.outcomes import ranks as rank_of
from training.tournament.ratings import (
    BASE,
    BOOTSTRAP,
    ELO,
    compute_standings,
    fit_ratings,
    fit_theta,
    pl_data,
)
from training.tournament.report import plot_ratings


def _pl_games(strengths, deals, seats, seed, tie_every=0):
    """Games drawn from Plackett-Luce with log-strengths ``strengths``: each deal a random lineup
    of ``seats`` agents, played in every rotation (the finishing order drawn anew each game)."""
    rng = np.random.default_rng(seed)
    k = len(strengths)
    games = []
    for d in range(deals):
        lineup = [int(a) for a in rng.choice(k, seats, replace=False)]
        for r in range(seats):
            seating = lineup[r:] + lineup[:r]
            left = list(range(seats))
            scores = [0.0] * seats
            for place in range(seats):
                w = np.exp([strengths[seating[s]] for s in left])
                s = left.pop(int(rng.choice(len(left), p=w / w.sum())))
                scores[s] = float(seats - place)
            if tie_every and (d * seats + r) % tie_every == 0:
                scores = [min(x, 2.0) for x in scores]  # the bottom places tie
            games.append((d, seating, rank_of(scores)))
    return games


def _records(games, names):
    return [
        SimpleNamespace(
            deal=d, rotation=i, seating=[names[a] for a in seating], ranks=ranks, scores=[-x for x in ranks]
        )
        for i, (d, seating, ranks) in enumerate(games)
    ]


def test_fit_is_identical_under_any_permutation_of_the_games():
    games = _pl_games([0.4, 0.2, 0.0, -0.1, -0.5], deals=30, seats=4, seed=3, tie_every=3)
    base = fit_ratings(5, games, bootstrap=50, seed=1)
    rng = random.Random(0)
    for _ in range(5):
        shuffled = games[:]
        rng.shuffle(shuffled)
        fit = fit_ratings(5, shuffled, bootstrap=50, seed=1)
        assert np.argsort(-fit.ratings).tolist() == np.argsort(-base.ratings).tolist()
        assert np.max(np.abs(fit.ratings - base.ratings)) < 1e-9
        assert np.max(np.abs(fit.low - base.low)) < 1e-9 and np.max(np.abs(fit.high - base.high)) < 1e-9


def test_standings_order_is_identical_under_any_permutation_of_the_games():
    names = ["a", "b", "c", "d"]
    # Two nearly equal strong agents: the sequential openskill order used to depend on the order.
    games = _pl_games([0.5, 0.45, -0.4, -0.45], deals=40, seats=4, seed=5, tie_every=5)
    records = _records(games, names)
    base = compute_standings(names, records, bootstrap=20)
    rng = random.Random(1)
    for _ in range(4):
        shuffled = records[:]
        rng.shuffle(shuffled)
        for r in shuffled:  # the order alone must not matter, not even through the schedule keys
            r.rotation = 0
        st = compute_standings(names, shuffled, bootstrap=20)
        assert [s.name for s in st.agents] == [s.name for s in base.agents]
        for s in st.agents:
            assert s.rating == pytest.approx(base.by_name(s.name).rating, abs=1e-9)


def test_fit_recovers_known_strengths():
    truth = np.array([0.8, 0.3, 0.0, -0.3, -0.8])
    games = _pl_games(truth, deals=400, seats=4, seed=11)
    fit = fit_ratings(5, games, bootstrap=0)
    theta = (fit.ratings - BASE) / ELO
    assert np.argsort(-theta).tolist() == [0, 1, 2, 3, 4]
    assert np.max(np.abs(theta - (truth - truth.mean()))) < 0.15
    assert fit.ratings.mean() == pytest.approx(BASE)  # the scale's zero: the agents average 1500


def test_ties_are_every_allowed_order_equally_weighted():
    """The closed-form statistics equal the average log-likelihood over the orders a game's ties
    allow, enumerated by brute force."""
    theta = np.array([0.3, -0.2, 0.5, 0.1, -0.4])
    games = [
        (0, [0, 1, 2, 3], [1.5, 1.5, 3.0, 4.0]),
        (1, [4, 2, 0], [2.0, 2.0, 2.0]),
        (1, [1, 3, 4, 0], [1, 2, 3.5, 3.5]),
    ]

    def brute(players, ranks):
        groups = sorted(set(ranks))
        blocks = [[p for p, r in zip(players, ranks) if r == g] for g in groups]
        total, count = 0.0, 0
        for orders in itertools.product(*(itertools.permutations(b) for b in blocks)):
            order = [p for block in orders for p in block]
            total += sum(
                theta[order[k]] - math.log(sum(math.exp(theta[j]) for j in order[k:])) for k in range(len(order))
            )
            count += 1
        return total / count

    data = pl_data(5, games)
    closed = data.chosen.sum(0) @ theta - data.weights.sum(0) @ np.log(data.sets @ np.exp(theta))
    assert closed == pytest.approx(sum(brute(p, r) for _, p, r in games), abs=1e-12)
    # A game where everyone ties pulls the ratings together, and symmetric games give equal ratings.
    fit = fit_ratings(3, [(0, [0, 1, 2], [2.0, 2.0, 2.0])], bootstrap=0)
    assert fit.ratings == pytest.approx([BASE] * 3)


def test_an_agent_that_wins_every_game_stays_finite():
    rng = random.Random(2)
    games = []
    for d in range(50):
        others = rng.sample([1, 2, 3], 2)
        for r in range(3):
            seating = ([0] + others)[r:] + ([0] + others)[:r]
            scores = [10.0 if a == 0 else rng.random() for a in seating]
            games.append((d, seating, rank_of(scores)))
    fit = fit_ratings(4, games, bootstrap=30)
    assert np.all(np.isfinite(fit.ratings)) and np.all(np.isfinite(fit.low)) and np.all(np.isfinite(fit.high))
    assert int(np.argmax(fit.ratings)) == 0
    assert fit.low[0] <= fit.ratings[0] <= fit.high[0]
    # One game, one always-winner: still finite and still first; the prior alone bounds it.
    one = fit_ratings(2, [(0, [0, 1], [1.0, 2.0])], bootstrap=10)
    assert np.all(np.isfinite(one.ratings)) and one.ratings[0] > one.ratings[1]


def test_no_games_and_agents_without_games():
    fit = fit_ratings(3, [], bootstrap=10)
    assert fit.ratings.tolist() == [BASE] * 3 and fit.replicates == 0
    fit = fit_ratings(3, [(0, [0, 1], [1.0, 2.0])], bootstrap=10)
    assert fit.ratings[2] == pytest.approx(BASE)  # never played: the prior's mean
    theta = fit_theta(np.zeros(2), np.zeros((0, 2)), np.zeros(0))
    assert theta.tolist() == [0.0, 0.0]


def test_bootstrap_interval_contains_the_estimate_and_is_reproducible():
    games = _pl_games([0.3, 0.1, -0.1, -0.3], deals=40, seats=4, seed=8, tie_every=7)
    a = fit_ratings(4, games, bootstrap=100, seed=5)
    b = fit_ratings(4, games, bootstrap=100, seed=5)
    c = fit_ratings(4, games, bootstrap=100, seed=6)
    assert a.replicates == 100 and a.deals == 40
    assert np.all(a.low <= a.ratings) and np.all(a.ratings <= a.high)
    assert np.all(a.high - a.low > 1.0)  # a real interval, not a point
    assert a.low.tolist() == b.low.tolist() and a.high.tolist() == b.high.tolist()
    assert a.low.tolist() != c.low.tolist()  # the seed matters
    assert a.ratings.tolist() == c.ratings.tolist()  # the point estimate does not
    assert BOOTSTRAP == 200


def test_leaderboard_csv_and_plot_agree_with_the_fitted_ratings(tmp_path, run_cli, capsys):
    db = tmp_path / "r.sqlite"
    argv = ["tournament", "smuggle_v0", "--players", "3", "--agents", "rule,random,random,random"]
    argv += ["--games", "24", "--workers", "1", "--db", str(db), "--quiet", "--bootstrap", "50"]
    assert run_cli(argv) == 0
    out = capsys.readouterr().out
    assert "bootstrap interval over" in out and "(50 resamples)" in out
    lines = out.split("=== leaderboard")[1].splitlines()[3:7]
    printed = [line.split()[1] for line in lines]
    with open(tmp_path / "r_t1_leaderboard.csv") as f:
        rows = list(csv.DictReader(f))
    ratings = [float(r["rating"]) for r in rows]
    assert [r["agent"] for r in rows] == printed
    assert ratings == sorted(ratings, reverse=True)  # the leaderboard's order is the rating's
    assert [int(r["rank"]) for r in rows] == [1, 2, 3, 4]
    for r in rows:
        assert float(r["rating_low"]) <= float(r["rating"]) <= float(r["rating_high"])
    for line, r in zip(lines, rows):
        assert line.split()[2] == f"{float(r['rating']):.1f}"
        assert f"[{float(r['rating_low']):.1f}, {float(r['rating_high']):.1f}]" in line
    assert (tmp_path / "r_t1_ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_ratings_draws_the_tables_intervals(tmp_path):
    names = ["a", "b", "c"]
    games = _pl_games([0.5, 0.0, -0.5], deals=20, seats=3, seed=4)
    st = compute_standings(names, _records(games, names), bootstrap=30)
    fig = plot_ratings(st, tmp_path / "x.png", title="t")
    assert (tmp_path / "x.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rating_ax, win_ax = fig.axes
    assert f"{st.games} games" in rating_ax.get_title() and "Elo-like points" in rating_ax.get_xlabel()
    assert f"{st.deals} deals" in rating_ax.get_xlabel() and "%" in win_ax.get_xlabel()
    (rating_bars,) = rating_ax.containers
    segments = rating_bars.lines[2][0].get_segments()
    for s, seg in zip(st.agents, segments):
        assert (seg[0][0], seg[1][0]) == pytest.approx(s.rating_interval)
    (win_bars,) = win_ax.containers
    for s, seg in zip(st.agents, win_bars.lines[2][0].get_segments()):
        assert (seg[0][0] / 100, seg[1][0] / 100) == pytest.approx(s.win_interval)
