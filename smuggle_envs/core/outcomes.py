"""Turning final scores into rewards: win/loss, rank, or normalised score.

Each game reports raw scores (money, points); these helpers are shared by every game so the reward
modes mean the same thing everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

REWARD_MODES = ("win_loss", "rank", "score")


def check_reward_mode(mode: object, what: str = "reward_mode") -> str:
    """``mode`` if it is one of ``REWARD_MODES``, else a ``ConfigError`` naming them: the one
    check every layer uses (env, state, self-play, search agents)."""
    if mode not in REWARD_MODES:
        from .errors import ConfigError

        raise ConfigError(f"{what} must be one of {', '.join(REWARD_MODES)}, got {mode!r}")
    return str(mode)


def winners(scores: Sequence[float]) -> list[int]:
    best = max(scores)
    return [i for i, s in enumerate(scores) if s == best]


def win_loss(scores: Sequence[float]) -> list[float]:
    """+1 for every player with the top score (a tie shares the win), -1 for everyone else."""
    best = max(scores)
    return [1.0 if s == best else -1.0 for s in scores]


def ranks(scores: Sequence[float]) -> list[float]:
    """Rank 1 is best; tied players share the mean of the places they occupy."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    result = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        shared = (i + j) / 2 + 1
        for k in range(i, j + 1):
            result[order[k]] = shared
        i = j + 1
    return result


def rank_rewards(scores: Sequence[float]) -> list[float]:
    """Linear in rank: +1 for first place, -1 for last, ties share; zero-sum."""
    n = len(scores)
    if n == 1:
        return [0.0]
    return [1.0 - 2.0 * (r - 1) / (n - 1) for r in ranks(scores)]


def normalised_scores(scores: Sequence[float], scale: float) -> list[float]:
    """Score minus the table mean, divided by the game's natural scale; zero-sum."""
    mean = sum(scores) / len(scores)
    return [(s - mean) / scale for s in scores]


def rewards(scores: Sequence[float], mode: str, scale: float) -> list[float]:
    if mode == "win_loss":
        return win_loss(scores)
    if mode == "rank":
        return rank_rewards(scores)
    if mode == "score":
        return normalised_scores(scores, scale)
    check_reward_mode(mode)
    raise AssertionError("unreachable: a mode passing the check is handled above")
