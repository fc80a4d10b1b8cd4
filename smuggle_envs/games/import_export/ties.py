"""How tied players share a bonus (R5.13): the rule behind every "most" of the game, used by final
scoring (``scoring.py``: the goods majorities) and by the game-end powers that pay for having the
most of something (``powers/end_games.py``: Champagne, Nice Suits).

It imports nothing of the game, so both can import it without importing each other.
"""

from __future__ import annotations


def split(bonus: int, k: int) -> int:
    """A bonus shared by k tied players, rounded up; a penalty rounds toward 0 (R5.13)."""
    return -(-bonus // k)


def most_share(values: list[int], p: int, bonus: int, foxes: int = -1) -> int:
    """p's part of a bonus for having the most (at least 1): ties share it (R5.13), and Foxes'
    holder breaks a tie he is part of in his favour."""
    mine = values[p]
    best = max(values)
    if mine <= 0 or mine < best:
        return 0
    k = values.count(best)
    if k > 1 and foxes == p:
        return bonus
    return split(bonus, k)
