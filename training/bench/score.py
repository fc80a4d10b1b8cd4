"""The scorecard's numbers from a bench's game results (``play.run_items``).

Every interval is a percentile bootstrap over deals (``BOOTSTRAP`` replicates from a seeded
generator, the bluffing kit's ``resample_weights``): the games of one deal (its rotations) move
together, as they are not independent. A subject's **win** in a game is its share of the win (a
win shared by ``k`` seats counts ``1/k``; a truncated game has no winner); its **score** is the
game's final score of its seat. The deception metrics are the bluffing kit's, with its
definitions (``training/bluffing/metrics.py``), over the subject's labelled decisions in every
field: bluff rate (lies / claims), lies caught (caught / lies open to a challenge), challenge
precision (lies among its challenges) and recall (its challenges among the lies it answered),
forced calls left out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from training.bluffing.metrics import Columns, Metric, as_columns, bootstrap, call_metrics, claim_metrics, forced
from training.bluffing.metrics import lies_caught as lies_caught_metric

from .protocol import BOOTSTRAP, BOOTSTRAP_SEED, SUBJECT, Field

LEVEL = 0.95


def interval(b: Any) -> dict[str, Any]:
    """``{"value", "low", "high", "count"}`` of a ``Bootstrapped`` (NaN -> None)."""
    return dict(b.as_dict())


def _win_share(result: dict[str, Any], seat: int) -> float:
    scores = result["scores"]
    best = max(scores)
    winners = sum(1 for s in scores if s == best)
    return 1.0 / winners if result["terminal"] and scores[seat] == best else 0.0


def _subject_rows(results: Sequence[dict[str, Any]]) -> Columns:
    win, score, deal = [], [], []
    for r in results:
        for seat, agent in enumerate(r["seating"]):
            if agent == 0:
                win.append(_win_share(r, seat))
                score.append(r["scores"][seat])
                deal.append(r["seed"])
    return {"win": np.array(win, float), "score": np.array(score, float), "deal": np.array(deal)}


def _mean(key: str) -> Metric:
    return Metric(key, key, "share", lambda c, w: float(w @ c[key]) / w.sum() if w.sum() else math.nan, _n)


def _n(cols: Columns) -> int:
    return len(cols["deal"])


def field_scores(field: Field, results: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """One field's games, deals, opponents, win rate and mean score with their intervals."""
    cols = _subject_rows(results)
    got = bootstrap([_mean("win"), _mean("score")], cols, cols["deal"], BOOTSTRAP, BOOTSTRAP_SEED, LEVEL)
    return {
        "opponents": [str(s) for s in field.specs[1:]],
        "games": len(results),
        "deals": len({r["deal"] for r in results}),
        "subject_games": len(cols["win"]),
        "chance": 1.0 / players,
        "win_rate": interval(got["win"]),
        "mean_score": interval(got["score"]),
    }


def mixed_rating(field: Field, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The subject's Plackett-Luce rating (interval over deals) and place in the mixed field."""
    from types import SimpleNamespace

    from training.tournament.ratings import compute_standings

    games = [
        SimpleNamespace(
            seating=[field.names[a] for a in r["seating"]],
            ranks=r["ranks"],
            scores=r["scores"],
            deal=r["deal"],
            rotation=r["rotation"],
            terminal=r["terminal"],
        )
        for r in results
    ]
    standings = compute_standings(field.names, games, bootstrap=BOOTSTRAP, seed=BOOTSTRAP_SEED)
    table = [{"name": s.name, "rating": s.rating, "low": s.rating_low, "high": s.rating_high} for s in standings.agents]
    place = next(i for i, s in enumerate(standings.agents, 1) if s.name == SUBJECT)
    mine = standings.by_name(SUBJECT)
    rating = {"value": mine.rating, "low": mine.rating_low, "high": mine.rating_high, "count": mine.games}
    return {"rating": rating, "place": place, "of": len(field.names), "standings": table}


def decision_stats(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The subject's decisions: count, mean and 95th percentile time (ms), errors, fallbacks."""
    times = np.array([t for r in results for t in r["times"]], float)
    errors = [e for r in results for e in r["errors"]]
    return {
        "count": int(times.size),
        "mean_ms": float(times.mean() * 1000) if times.size else None,
        "p95_ms": float(np.percentile(times, 95) * 1000) if times.size else None,
        "errors": len(errors),
        "error_examples": sorted(set(errors))[:3],
        "fallbacks": int(sum(r["fallbacks"] for r in results)),
    }


DECEPTION = ("bluff_rate", "lies_caught", "challenge_precision", "challenge_recall")


def deception(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The subject's bluff rate, lies caught, challenge precision and recall (None where it made
    no such decision), each with its interval over deals and the rows it rests on."""
    rows = [row for r in results for row in r["claims"]]
    found: dict[str, Any] = dict.fromkeys(DECEPTION)
    if not rows:
        return found
    cols = as_columns(rows)
    claims = {k: v[cols["role"] == "claim"] for k, v in cols.items()}
    calls = {k: v[(cols["role"] == "call") & ~forced(cols)] for k, v in cols.items()}
    pairs = [(claims, [claim_metrics()[0], lies_caught_metric()], ("bluff_rate", "lies_caught"))]
    pairs.append((calls, [m for m in call_metrics() if m.key in ("precision", "recall")], DECEPTION[2:]))
    for sub, metrics, keys in pairs:
        if len(sub["role"]):
            got = bootstrap(metrics, sub, sub["seed"], BOOTSTRAP, BOOTSTRAP_SEED, LEVEL)
            for key, metric in zip(keys, metrics):
                found[key] = interval(got[metric.key])
    return found
