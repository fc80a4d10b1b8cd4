"""Evaluating one agent against a table of baseline opponents, seats rotated.

Game ``g`` uses seed ``seed + g`` and puts the evaluated agent in seat ``g mod n``, the other
seats played by copies of one baseline (``"random"``, ``"rule"``, ...), so every seat is played
equally often and every baseline sees the same deals (paired comparisons). A win shared by k
players counts 1/k, as in ``smuggle match``. Used by the trainer (learning curves, final table)
and by ``benchmarks/train_smuggle.py``.

A mixed table joins baselines with ``+``: ``"rule+random"`` seats them in turn (2 rule bots and
a random agent at 4 players, the main job's mixed field). Beating each baseline alone is not
enough there: the rule bots also profit from the random player, so the result records their
win rate at the same tables too (``rival_win_rate``: the best opponent kind's), and the
learner is first when its win rate is above it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from agents.arena import play
from training.match import build_agent
from training.stats import format_table, wilson_interval, win_shares

EVAL_FIELDS = ("step", "opponent", "games", "wins", "win_rate", "ci_low", "ci_high", "mean_score", "rival_win_rate")
"""The columns of an evaluation CSV (a learning curve): one row per (step, opponent);
``rival_win_rate`` only for mixed tables (empty otherwise)."""


@dataclasses.dataclass
class EvalResult:
    opponent: str  # the baseline spec (label, e.g. "rule" or "rule->random")
    games: int
    wins: float  # win shares of the evaluated agent
    score_sum: float
    num_players: int
    unfinished: int = 0  # truncated games: by max_decisions or the game's own cap (not won)
    # Per opponent label: [win shares, seat-games], the opponents' own results at these tables.
    rivals: dict[str, list[float]] = dataclasses.field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def rival_rates(self) -> dict[str, float]:
        """Each opponent kind's win rate per seat-game at these tables."""
        return {label: wins / seats for label, (wins, seats) in self.rivals.items() if seats}

    @property
    def rival_win_rate(self) -> float | None:
        """The best opponent kind's win rate at a mixed table; None for one baseline's table."""
        rates = self.rival_rates
        return max(rates.values()) if len(rates) > 1 else None

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else 0.0

    def csv_row(self, step: int) -> list[Any]:
        """This result as a row of ``EVAL_FIELDS`` at training step ``step``."""
        lo, hi = self.ci
        return [
            step,
            self.opponent,
            self.games,
            f"{self.wins:g}",
            f"{self.win_rate:.6f}",
            f"{lo:.6f}",
            f"{hi:.6f}",
            f"{self.mean_score:.3f}",
            "" if self.rival_win_rate is None else f"{self.rival_win_rate:.6f}",
        ]

    def to_dict(self) -> dict:
        lo, hi = self.ci
        return {
            "opponent": self.opponent,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci_low": lo,
            "ci_high": hi,
            "chance": 1.0 / self.num_players,
            "mean_score": self.mean_score,
            "unfinished": self.unfinished,
            **({"rivals": self.rival_rates} if self.rival_win_rate is not None else {}),
        }


def baseline_agents(spec: str, game, seed: int, warn: Callable[[str], None] | None = None):
    """``n - 1`` agents of a baseline spec, and its label (``"rule->random"`` where the game
    has no rule bot; see ``training.match.build_agent``). ``"a+b"`` seats a and b in turn."""
    agents, labels = seat_baselines(spec, game, seed, warn)
    return agents, table_label(labels)


def table_label(labels: Sequence[str]) -> str:
    """A table's label from its seats' labels: ``"rule"``, or ``"rule+random"`` for a mixed one."""
    return "+".join(dict.fromkeys(labels))


def seat_baselines(spec: str, game, seed: int, warn: Callable[[str], None] | None = None):
    """The ``n - 1`` opponents of ``spec`` and each one's label."""
    kinds = spec.split("+")
    agents, labels = [], []
    for i in range(game.num_players - 1):
        agent, label = build_agent(kinds[i % len(kinds)], game, seed=seed * 1000 + i, warn=warn)
        agents.append(agent)
        labels.append(label)
    return agents, labels


def evaluate(
    game,
    agent,
    opponent: str,
    games: int,
    seed: int = 0,
    max_decisions: int | None = None,
    warn: Callable[[str], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> EvalResult:
    """Play ``games`` games of ``agent`` against ``n - 1`` copies of the ``opponent`` spec."""
    n = game.num_players
    others, labels = seat_baselines(opponent, game, seed, warn)
    result = EvalResult(table_label(labels), 0, 0.0, 0.0, n)
    result.rivals = {label: [0.0, 0.0] for label in labels}
    for g in range(games):
        seat = g % n
        lineup = list(others)
        lineup.insert(seat, agent)
        driver = play(game, lineup, seed + g, max_decisions=max_decisions)
        scores = driver.state.scores()
        result.games += 1
        result.score_sum += scores[seat]
        if driver.terminated:
            shares = win_shares(scores)
            result.wins += shares[seat]
            for label, share in zip(labels, shares[:seat] + shares[seat + 1 :]):
                result.rivals[label][0] += share
        else:  # truncated (max_decisions or the game's own cap): no winner, counted as not won
            result.unfinished += 1
        for label in labels:
            result.rivals[label][1] += 1
        if progress is not None:
            progress(1)
    return result


def results_table(results: Sequence[EvalResult], name: str = "trained") -> str:
    """One row per baseline: games, wins, win rate with its 95% Wilson interval, chance level,
    mean score of the evaluated agent (and, with a mixed table, the best opponent kind's win rate
    at it)."""
    mixed = any(r.rival_win_rate is not None for r in results)
    rows = []
    for r in results:
        lo, hi = r.ci
        wins = f"{r.wins:.2f}".rstrip("0").rstrip(".")
        rows.append(
            [
                f"{name} vs {r.num_players - 1} x {r.opponent}" if "+" not in r.opponent else f"{name} vs {r.opponent}",
                r.games,
                wins,
                f"{100 * r.win_rate:.1f}%",
                f"[{100 * lo:.1f}%, {100 * hi:.1f}%]",
                f"{100 / r.num_players:.1f}%",
                f"{r.mean_score:.1f}",
            ]
        )
        if mixed:
            rival = r.rival_win_rate
            best = max(r.rival_rates, key=r.rival_rates.__getitem__) if rival is not None else ""
            rows[-1].append(f"{best} {100 * rival:.1f}%" if rival is not None else "")
    header = ["table", "games", "wins", "win rate", "95% CI", "chance", "mean score"]
    return format_table(header + (["best rival at the table"] if mixed else []), rows)
