"""One scheduled game of a tournament as the results database stores it, and the schedule's version.

Shared by the scheduler (``training/tournament/schedule.py``, which makes them) and the results
database (``training/db.py``, which stores and reads them, for tournaments and the web app
alike), so that the database needs nothing from the tournament package.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SCHEDULE_VERSION = 1
"""Bumped whenever the schedule for the same inputs changes (it is part of a tournament's key)."""


@dataclass(frozen=True)
class ScheduledGame:
    """One game of a tournament. ``seating[s]`` is the index (into the tournament's agent list)
    of the agent in seat ``s``; ``lineup`` is the deal's agents in rotation-0 seating order."""

    deal: int
    rotation: int
    seed: int
    lineup: tuple[int, ...]
    seating: tuple[int, ...]
    mode: str = "rotation"  # "rotation" or "permutations" (``rotation`` numbers the permutation)

    @property
    def game_key(self) -> str:
        return game_key(self.deal, self.rotation)

    def to_list(self) -> list:
        item = [self.deal, self.rotation, self.seed, list(self.lineup)]
        return item + [list(self.seating)] if self.mode == "permutations" else item

    @classmethod
    def from_list(cls, item: Sequence) -> ScheduledGame:
        deal, rotation, seed, lineup = item[:4]
        lineup = tuple(int(a) for a in lineup)
        if len(item) > 4:  # a permutation spec stores its seating
            return cls(int(deal), int(rotation), int(seed), lineup, tuple(int(a) for a in item[4]), "permutations")
        return cls(int(deal), int(rotation), int(seed), lineup, rotate(lineup, int(rotation)))


def game_key(deal: int, rotation: int) -> str:
    """The key of a game within its tournament, e.g. ``"000012-3"``; sorts by deal, rotation."""
    return f"{deal:06d}-{rotation}"


def rotate(lineup: Sequence[int], rotation: int) -> tuple[int, ...]:
    """Seat ``s`` is played by ``lineup[(s + rotation) % N]``."""
    n = len(lineup)
    return tuple(lineup[(s + rotation) % n] for s in range(n))


__all__ = ["SCHEDULE_VERSION", "ScheduledGame", "game_key", "rotate"]
