"""Ratings and statistics of a tournament, computed from its stored games.

* **Ratings**: openskill's Plackett-Luce model (multiplayer, default parameters: mu 25,
  sigma 25/3, beta 25/6, tau 25/300), every seat its own one-player team, updated from the final
  ranks of each game (rank 1 best, tied scores share a rank) in schedule order (deal, then
  rotation), so the ratings do not depend on the order games finished in or on a resume. The
  leaderboard sorts by the ordinal ``mu - 3 * sigma``; the plotted interval is ``mu +- 1.96 sigma``.
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

from training.match import wilson_interval

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


@dataclass
class AgentStanding:
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    deal_scores: dict[int, list[float]] = field(default_factory=dict)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def rating_interval(self) -> tuple[float, float]:
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
    agents: list[AgentStanding]  # sorted by ordinal, best first
    names: list[str]  # the tournament's agent order
    ahead: list[list[float]]  # ahead[i][j]: games i finished ahead of j (ties 1/2)
    met: list[list[int]]  # met[i][j]: games i and j both played
    games: int

    def head_to_head(self, a: str, b: str) -> float:
        i, j = self.names.index(a), self.names.index(b)
        return self.ahead[i][j] / self.met[i][j] if self.met[i][j] else math.nan

    def by_name(self, name: str) -> AgentStanding:
        return next(s for s in self.agents if s.name == name)


def new_model():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def compute_standings(names: Sequence[str], games: Iterable, model=None) -> Standings:
    """Ratings and statistics from ``games`` (``GameRecord``s or anything with ``seating``,
    ``ranks``, ``scores`` and ``deal``), which must come in schedule order."""
    model = model or new_model()
    names = list(names)
    index = {n: i for i, n in enumerate(names)}
    ratings = {n: model.rating(name=n) for n in names}
    standing = {n: AgentStanding(n, ratings[n].mu, ratings[n].sigma) for n in names}
    k = len(names)
    ahead = [[0.0] * k for _ in range(k)]
    met = [[0] * k for _ in range(k)]
    count = 0
    for g in games:
        count += 1
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
    for n in names:
        standing[n].mu, standing[n].sigma = ratings[n].mu, ratings[n].sigma
    ordered = sorted(standing.values(), key=lambda s: (-s.ordinal, s.name))
    return Standings(ordered, names, ahead, met, count)


def standings_for(db, tournament) -> Standings:
    """The standings of a stored tournament; also saves its ratings in the database."""
    standings = compute_standings(tournament.names, db.results(tournament.id))
    db.save_ratings(tournament.id, [(s.name, s.mu, s.sigma, s.ordinal, s.games) for s in standings.agents])
    return standings
