"""Protocol v1 of ``smuggle bench``: the fields an agent meets, their seeds and game counts.

A **field** is a pool of agents: the benchmarked agent (the *subject*) and its opponents. Each
field is played as a duplicate tournament (``training.tournament.schedule.game_specs``): deal
``d`` of field ``f`` uses the game seed ``FIELD_SEEDS[f] + d`` and is played once per rotation
of its lineup across the seats, so every agent plays every seat of every deal and card luck
cancels. The fields at ``N`` players:

* ``random``: the subject and ``N - 1`` random agents;
* ``rule``: the subject and ``N - 1`` rule bots;
* ``zoo``: the subject and ``N - 1`` zoo models (``zoo``, the shipped model of the game and count;
  left out, with the reason, where the zoo has none);
* ``mixed``: the subject, ``ceil(N / 2)`` rule bots and ``ceil(N / 2)`` random agents, more agents
  than seats, seated by the tournament's balanced lineups (every pair meets equally often); the
  subject's Plackett-Luce rating and place are read from this field.

**Budgets** (deals per field; a deal is ``N`` games): ``full`` plays ``FULL_DEALS``, ``quick``
``QUICK_DEALS`` (the first deals of the full run, so a quick run is a prefix of a full one), and
the Python API may name any other count (budget ``custom``). A scorecard names its budget and
the protocol; only scorecards of the same protocol and budget are comparable row for row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from training.scheduled import ScheduledGame
from training.tournament.schedule import game_specs

PROTOCOL = "v1"
FIELDS = ("random", "rule", "zoo", "mixed")
FIELD_SEEDS = {"random": 100_000, "rule": 200_000, "zoo": 300_000, "mixed": 400_000}
FULL_DEALS = 100  # 400 games a field at 4 players: see docs/benchmark.md for the intervals this gives
QUICK_DEALS = 10
BUDGETS = {"full": FULL_DEALS, "quick": QUICK_DEALS}
EXPLOIT_GAMES = 100  # games that evaluate --exploit's best response (seats rotated, smuggle exploit's seeds)
BOOTSTRAP = 1000  # replicates of every interval (deals resampled), seeded
BOOTSTRAP_SEED = 0
SUBJECT = "subject"  # the subject's name in every field


@dataclass(frozen=True)
class Field:
    """One field: its name, its agents' names and specs (the subject first, ``spec`` None), and
    its games in play order."""

    name: str
    names: tuple[str, ...]
    specs: tuple[str | None, ...]
    schedule: tuple[ScheduledGame, ...]


def opponents(field: str, players: int) -> list[str]:
    """The opponents' specs of ``field`` at ``players`` seats."""
    if field == "mixed":
        half = math.ceil(players / 2)
        return ["rule"] * half + ["random"] * half
    return [field] * (players - 1)


def _names(specs: list[str]) -> list[str]:
    """``rule``, ``rule#2``, ...: the tournament's names for repeated specs."""
    from training.db import unique_names

    return [SUBJECT, *unique_names(specs)]


def make_field(field: str, players: int, deals: int) -> Field:
    """The field ``field`` at ``players`` seats with ``deals`` deals (rounded up, in the mixed
    field, to whole cycles of its balanced lineups)."""
    if field not in FIELD_SEEDS:
        raise ValueError(f"unknown field {field!r}; protocol {PROTOCOL} has {', '.join(FIELDS)}")
    specs = opponents(field, players)
    schedule = game_specs(len(specs) + 1, players, deals * players, seed=FIELD_SEEDS[field])
    return Field(field, tuple(_names(specs)), (None, *specs), tuple(schedule))


def budget_deals(budget: str | int) -> tuple[str, int]:
    """``(budget name, deals per field)`` of ``"full"``, ``"quick"`` or a positive count."""
    if isinstance(budget, str):
        if budget not in BUDGETS:
            raise ValueError(f"unknown budget {budget!r}; choose {', '.join(BUDGETS)} or a number of deals")
        return budget, BUDGETS[budget]
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ValueError(f"a budget is full, quick or a positive number of deals, got {budget!r}")
    named = {v: k for k, v in BUDGETS.items()}
    return named.get(budget, "custom"), budget
