"""Ratings and statistics of a tournament, computed from its stored games.

* **Rating** (what orders the leaderboard): a **batch Plackett-Luce fit** over all the games at
  once, so the rating cannot depend on the order the games were played, stored or listed in.
  Agent ``i`` has a strength ``exp(theta_i)``; a game's finishing order ``i1, i2, ...`` has the
  probability ``prod_k exp(theta_ik) / sum_{j at place k or below} exp(theta_j)``. ``theta`` is
  the maximum a posteriori estimate under a weak Gaussian prior ``N(0, PRIOR_SD^2)`` (in rating
  points), which keeps it finite when an agent wins (or loses) every game and pins the scale's
  zero (the fitted ``theta`` sum to 0); it is found by Newton's method on the concave log
  posterior (plain numpy, a few iterations), from per-deal sufficient statistics.
  **Ties** (equal ranks, e.g. a shared win, or a truncated game where every seat shares one rank)
  are treated as *every order of the tied players being equally likely*: the game contributes the
  average of the Plackett-Luce log-likelihood over all the orders its ties allow (computed in
  closed form, without listing the orders). Two players tied last thus count half a game each
  way, like the head-to-head table's "a tie counts one half", and a draw pulls the tied players'
  ratings together.
  **Scale**: Elo-like points, ``rating = 1500 + (400 / ln 10) * theta``: the agents average 1500
  and a 400-point gap means 10:1 odds that the higher-rated agent finishes ahead of the other (the
  model's pairwise probability ``1 / (1 + 10 ** (-gap / 400))``).
  **Interval**: 95% percentile interval of a bootstrap over *deals* (the duplicate unit: all the
  games of a resampled deal come together): ``BOOTSTRAP`` (200) resamples of the deals with
  replacement, each refitted, from a fixed seed (``BOOTSTRAP_SEED``), so the same games give the
  same interval; it is widened to contain the point estimate (which only matters when every
  replicate gives the same value, e.g. an agent that wins every game).
* **openskill** (a cross-check, stored in the database's ``ratings`` table as before): openskill's
  Plackett-Luce model (default parameters: mu 25, sigma 25/3, beta 25/6, tau 25/300), every seat
  its own one-player team, updated sequentially from the final ranks in schedule order (deal, then
  rotation). Sequential updates depend on the order of the games, which is why they no longer
  order the leaderboard; ``ordinal`` is ``mu - 3 * sigma``.
* **Win rate**: a win shared by ``k`` players counts ``1/k``; 95% Wilson interval over games.
* **Mean score**: the mean final score, with a 95% Student-t interval whose unit is the
  *deal*: an agent's score on a deal is its mean over the rotations it played of that deal, so
  card luck (which the duplicate format cancels) does not widen the interval.
* **Head to head**: for each pair, the fraction of the games both played in which the row agent
  finished ahead of the column agent (a tie counts one half).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from training.stats import wilson_interval

Z95 = 1.959963984540054
_T975 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (table up to 30, then the
    Cornish-Fisher expansion, accurate to 1e-3)."""
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: a 95% t interval (infinite with fewer than two values)."""
    n = len(values)
    if n == 0:
        return math.nan, -math.inf, math.inf
    mean = sum(values) / n
    if n < 2:
        return mean, -math.inf, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t975(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


# ----- the batch Plackett-Luce fit ---------------------------------------------------------------
ELO = 400 / math.log(10)  # rating points per unit of theta (natural log-strength)
BASE = 1500.0  # the agents' average rating
PRIOR_SD = 500.0  # the prior's standard deviation, in rating points: weak next to a few games
BOOTSTRAP = 200  # bootstrap replicates (resampled deals) for the rating interval
BOOTSTRAP_SEED = 0


@dataclass
class PLData:
    """Sufficient statistics of a set of games for the Plackett-Luce log-likelihood, per deal.

    The log-likelihood of ``theta`` is ``chosen @ theta - weights @ log(sets @ exp(theta))``
    (row sums over the deals): ``sets[u]`` is a 0/1 row over the agents (a set of players still
    to be placed at some place of some game), ``weights[d, u]`` how often deal ``d`` has that
    set as the denominator of a place (fractional with ties), ``chosen[d, i]`` how often agent
    ``i`` took a place in deal ``d`` (the last place of a game, decided by the others, excluded)."""

    deals: list[int]
    chosen: np.ndarray  # (deals, agents)
    sets: np.ndarray  # (unique sets, agents), 0/1
    weights: np.ndarray  # (deals, unique sets)


def _game_terms(players: Sequence[int], ranks: Sequence[float]) -> tuple[dict[int, float], dict[int, float]]:
    """One game's ``(chosen, terms)``: chosen weight per agent, and denominator weight per set of
    agents (a bit mask), averaged over every order the game's ties allow (see the module
    docstring). A tie group ``G`` of ``g`` players above the set ``B`` of players placed below
    it fills ``g`` places; at its ``r``-th place, the players still to be placed are ``B`` and a
    uniformly random ``g - r`` of ``G``, and each member of ``G`` is the one placed there with
    probability ``1 / g``. The last place of the game (one player left) carries no information."""
    groups: dict[float, list[int]] = {}
    for p, r in zip(players, ranks):
        groups.setdefault(float(r), []).append(p)
    chosen: dict[int, float] = {}
    terms: dict[int, float] = {}
    below_mask, below_size = 0, 0
    for rank in sorted(groups, reverse=True):  # worst group first: ``below`` grows upwards
        group = groups[rank]
        g = len(group)
        places = 0
        for left in range(1, g + 1):  # players of the group still to be placed
            if left + below_size < 2:
                continue  # the game's last place
            places += 1
            weight = 1.0 / math.comb(g, left)
            for subset in combinations(group, left):
                mask = below_mask
                for p in subset:
                    mask |= 1 << p
                terms[mask] = terms.get(mask, 0.0) + weight
        for p in group:
            chosen[p] = chosen.get(p, 0.0) + places / g
            below_mask |= 1 << p
        below_size += g
    return chosen, terms


def pl_data(num_agents: int, games: Iterable[tuple[int, Sequence[int], Sequence[float]]]) -> PLData:
    """The statistics of ``games``: ``(deal, agent index per seat, rank per seat)`` (rank 1 best,
    tied players share a rank). Sums per deal; the deals come sorted, so the result does not
    depend on the order of ``games`` (up to floating-point rounding of the sums)."""
    per_deal: dict[int, tuple[dict[int, float], dict[int, float]]] = {}
    for deal, players, ranks in games:
        chosen, terms = per_deal.setdefault(int(deal), ({}, {}))
        c, t = _game_terms(list(players), list(ranks))
        for p, w in c.items():
            chosen[p] = chosen.get(p, 0.0) + w
        for mask, w in t.items():
            terms[mask] = terms.get(mask, 0.0) + w
    deals = sorted(per_deal)
    masks = sorted({m for _, terms in per_deal.values() for m in terms})
    column = {m: u for u, m in enumerate(masks)}
    chosen_arr = np.zeros((len(deals), num_agents))
    weights = np.zeros((len(deals), len(masks)))
    for d, deal in enumerate(deals):
        chosen, terms = per_deal[deal]
        for p, w in chosen.items():
            chosen_arr[d, p] = w
        for m, w in terms.items():
            weights[d, column[m]] = w
    sets = np.array([[(m >> i) & 1 for i in range(num_agents)] for m in masks], dtype=float).reshape(
        len(masks), num_agents
    )
    return PLData(deals, chosen_arr, sets, weights)


def fit_theta(
    chosen: np.ndarray,
    sets: np.ndarray,
    weights: np.ndarray,
    prior_sd: float = PRIOR_SD / ELO,
    start: np.ndarray | None = None,
    tol: float = 1e-12,
    max_iter: int = 100,
) -> np.ndarray:
    """The MAP log-strengths ``theta`` for totals ``chosen`` (per agent) and ``weights`` (per set
    of ``sets``) under the prior ``N(0, prior_sd^2)``: Newton's method with a backtracking line
    search on the (strictly concave) log posterior."""
    k = len(chosen)
    theta = np.zeros(k) if start is None else np.array(start, dtype=float)
    mask = sets > 0
    keep = weights > 0
    sets_, weights_, mask_ = sets[keep], weights[keep], mask[keep]
    precision = 1.0 / prior_sd**2

    def objective(t: np.ndarray) -> tuple[float, np.ndarray]:
        m = np.where(mask_, t, -np.inf)
        top = m.max(axis=1) if len(m) else np.zeros(0)
        e = np.exp(m - top[:, None]) * sets_
        z = e.sum(axis=1)
        value = float(chosen @ t - weights_ @ (top + np.log(z)) - 0.5 * precision * (t @ t))
        return value, e / z[:, None]

    value, probs = objective(theta)
    for _ in range(max_iter):
        grad = chosen - probs.T @ weights_ - precision * theta
        wp = probs * weights_[:, None]
        neg_hessian = np.diag(wp.sum(axis=0)) - wp.T @ probs + precision * np.eye(k)
        step = np.linalg.solve(neg_hessian, grad)
        size = 1.0
        while True:
            new_value, new_probs = objective(theta + size * step)
            if new_value >= value - 1e-12 * (1 + abs(value)) or size < 1e-8:
                break
            size /= 2
        theta = theta + size * step
        value, probs = new_value, new_probs
        if float(np.max(np.abs(size * step), initial=0.0)) < tol:
            break
    return theta


@dataclass
class PLFit:
    """A batch Plackett-Luce fit: ``ratings`` (points, see the module docstring) per agent, with
    the bootstrap's 95% interval ``low``/``high`` (equal to the rating without a bootstrap)."""

    ratings: np.ndarray
    low: np.ndarray
    high: np.ndarray
    replicates: int
    deals: int


def fit_ratings(
    num_agents: int,
    games: Iterable[tuple[int, Sequence[int], Sequence[float]]],
    bootstrap: int = BOOTSTRAP,
    seed: int = BOOTSTRAP_SEED,
    prior_sd: float = PRIOR_SD,
) -> PLFit:
    """Fit ratings to ``games`` (``(deal, agent index per seat, rank per seat)``), with a
    ``bootstrap``-replicate interval over deals from ``seed`` (``bootstrap=0``: no interval)."""
    data = pl_data(num_agents, games)
    sd = prior_sd / ELO
    theta = fit_theta(data.chosen.sum(axis=0), data.sets, data.weights.sum(axis=0), sd)
    ratings = BASE + ELO * theta
    low, high = ratings.copy(), ratings.copy()
    n = len(data.deals)
    replicates = bootstrap if n else 0
    if replicates > 0:
        rng = np.random.default_rng(seed)
        samples = np.empty((replicates, num_agents))
        for b in range(replicates):
            counts = np.bincount(rng.integers(0, n, size=n), minlength=n).astype(float)
            t = fit_theta(counts @ data.chosen, data.sets, counts @ data.weights, sd, start=theta)
            samples[b] = BASE + ELO * t
        low = np.minimum(np.percentile(samples, 2.5, axis=0), ratings)
        high = np.maximum(np.percentile(samples, 97.5, axis=0), ratings)
    return PLFit(ratings, low, high, replicates, n)


# ----- standings ---------------------------------------------------------------------------------
@dataclass
class AgentStanding:
    name: str
    mu: float  # openskill (a cross-check)
    sigma: float
    rating: float = BASE  # the batch Plackett-Luce fit: orders the leaderboard
    rating_low: float = BASE
    rating_high: float = BASE
    games: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    deal_scores: dict[int, list[float]] = field(default_factory=dict)

    @property
    def ordinal(self) -> float:
        """openskill's ordinal, ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    @property
    def rating_interval(self) -> tuple[float, float]:
        """The rating's 95% bootstrap interval over deals."""
        return self.rating_low, self.rating_high

    @property
    def openskill_interval(self) -> tuple[float, float]:
        return self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else math.nan

    @property
    def score_interval(self) -> tuple[float, float]:
        per_deal = [sum(v) / len(v) for _, v in sorted(self.deal_scores.items())]
        _, lo, hi = mean_interval(per_deal)
        return lo, hi


@dataclass
class Standings:
    agents: list[AgentStanding]  # sorted by the fitted rating, best first
    names: list[str]  # the tournament's agent order
    ahead: list[list[float]]  # ahead[i][j]: games i finished ahead of j (ties 1/2)
    met: list[list[int]]  # met[i][j]: games i and j both played
    games: int
    deals: int = 0
    bootstrap: int = 0  # bootstrap replicates behind the rating intervals

    def head_to_head(self, a: str, b: str) -> float:
        i, j = self.names.index(a), self.names.index(b)
        return self.ahead[i][j] / self.met[i][j] if self.met[i][j] else math.nan

    def by_name(self, name: str) -> AgentStanding:
        return next(s for s in self.agents if s.name == name)


def new_model():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def compute_standings(
    names: Sequence[str],
    games: Iterable,
    model=None,
    bootstrap: int = BOOTSTRAP,
    seed: int = BOOTSTRAP_SEED,
) -> Standings:
    """Ratings and statistics from ``games`` (``GameRecord``s or anything with ``seating``,
    ``ranks``, ``scores`` and ``deal``; ``rotation`` if present). The result does not depend on
    the order of ``games``: the batch fit is order-free, and the openskill cross-check runs in
    schedule order (the games are sorted by deal, then rotation, first)."""
    model = model or new_model()
    names = list(names)
    index = {n: i for i, n in enumerate(names)}
    games = sorted(games, key=lambda g: (g.deal, getattr(g, "rotation", 0)))
    ratings = {n: model.rating(name=n) for n in names}
    standing = {n: AgentStanding(n, ratings[n].mu, ratings[n].sigma) for n in names}
    k = len(names)
    ahead = [[0.0] * k for _ in range(k)]
    met = [[0] * k for _ in range(k)]
    for g in games:
        seating, ranks, scores = list(g.seating), list(g.ranks), list(g.scores)
        new = model.rate([[ratings[n]] for n in seating], ranks=ranks)
        for n, team in zip(seating, new):
            ratings[n] = team[0]
        best = max(scores)
        # A truncated game (not terminal) has no winner: it counts as a game, never as a win.
        winners = sum(1 for s in scores if s == best) if getattr(g, "terminal", True) else 0
        for seat, n in enumerate(seating):
            st = standing[n]
            st.games += 1
            st.wins += 1.0 / winners if winners and scores[seat] == best else 0.0
            st.score_sum += scores[seat]
            st.deal_scores.setdefault(g.deal, []).append(scores[seat])
            for other, m in enumerate(seating):
                if other != seat:
                    i, j = index[n], index[m]
                    met[i][j] += 1
                    if ranks[seat] < ranks[other]:
                        ahead[i][j] += 1.0
                    elif ranks[seat] == ranks[other]:
                        ahead[i][j] += 0.5
    fit = fit_ratings(
        k, ((g.deal, [index[n] for n in g.seating], g.ranks) for g in games), bootstrap=bootstrap, seed=seed
    )
    for i, n in enumerate(names):
        st = standing[n]
        st.mu, st.sigma = ratings[n].mu, ratings[n].sigma
        st.rating, st.rating_low, st.rating_high = float(fit.ratings[i]), float(fit.low[i]), float(fit.high[i])
    ordered = sorted(standing.values(), key=lambda s: (-s.rating, s.name))
    return Standings(ordered, names, ahead, met, len(games), fit.deals, fit.replicates)


def standings_for(db, tournament, bootstrap: int = BOOTSTRAP) -> Standings:
    """The standings of a stored tournament; also saves its openskill ratings (the cross-check)
    in the database."""
    standings = compute_standings(tournament.names, db.results(tournament.id), bootstrap=bootstrap)
    db.save_ratings(tournament.id, [(s.name, s.mu, s.sigma, s.ordinal, s.games) for s in standings.agents])
    return standings
