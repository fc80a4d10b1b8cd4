"""Hidden-information analytics computed from stored replays: one module a game.

Each stored game is replayed from (env id, config, seed, actions) through the core ``Driver``
(``replay_record``), the game's analyser watching as an observer, and every decision is
classified from the state just before and after it (the definitions are in each game's module
docstring). ``smuggle analyze`` prints the report and writes a CSV file and a plot.

| module               | what it reports                                                          |
|----------------------|--------------------------------------------------------------------------|
| ``smuggle``          | lies, searches, the Informer and Diplomatic Bag claims ("bluffing")     |
| ``ciq``              | Smuggles and the Fire decisions of their targets ("smuggling")          |
| ``illegal``          | trades, Magnum reactions, face-down passes ("hidden_information")       |
| ``humble_smuggle``   | face-down selections and Play cards ("face_down")                       |
| ``import_export``    | sealed Import bids, ships won, the leader's picks ("sealed_bids")       |
| ``_report``          | the declarative tables and plots (``Table``, ``Column``, ``Panel``) and  |
|                      | ``PerAgentAnalysis``, which prints and draws them                       |
| ``_common``          | rates, Wilson intervals, CSV rows, bar-chart panels, ``replay_record``   |
| ``_generic``         | the fallback for a game without a module: decisions per agent           |
| ``_calls``           | the agents' stored records (``agent_calls``: model calls): per-agent     |
|                      | table and JSON-lines export                                              |

A game's module declares ``ENV_ID`` and ``ANALYSIS`` (its analyser class): ``ANALYZERS`` is found
by listing this package (``agents.plugins.PluginRegistry``), so adding a game's analytics is
adding its module; modules named ``_...`` are shared code. An analyser is built as
``ANALYSIS(agent_names)`` and has ``add_game(spec, seed, actions, seating)`` (``spec``: a ``GameSpec``),
``text()``, ``write_csv(path)``, ``plot(path, title)`` and ``title`` (the files' suffix).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.plugins import PluginRegistry

from ._calls import calls_report, write_calls_jsonl
from ._common import Rate, ci, money, panel_intervals, pct, plot_panels, rate, replay_record, wilson_bounds, write_rows
from ._generic import GenericAnalysis
from ._report import Column, ObservingAnalysis, Panel, PerAgentAnalysis, Table, ratio, render

if TYPE_CHECKING:
    from training.db import GameRecord

ANALYZERS: PluginRegistry[type] = PluginRegistry(__name__, "ANALYSIS")
"""env id -> its analyser class, from the modules of this package."""


def analyzer_for(env_id: str, names: Sequence[str]) -> Any:
    """A new analyser of ``env_id`` for the agents ``names`` (``GenericAnalysis`` for a game
    without a module here)."""
    cls = ANALYZERS.get(env_id)
    return cls(names) if cls is not None else GenericAnalysis(names, env_id)


def analyze_games(env_id: str, names: Sequence[str], games: Iterable[GameRecord]) -> Any:
    """Run the env's analyser over ``games`` (``GameRecord``s: env_id, config, seed, actions,
    seating)."""
    analysis = analyzer_for(env_id, names)
    for g in games:
        analysis.add_game(g.spec, g.seed, g.actions, g.seating)
    return analysis


def analyze_tournament(db: Any, tournament: Any) -> Any:
    """The analysis of every stored game of ``tournament`` (a ``TournamentDB`` and its record)."""
    return analyze_games(tournament.env_id, tournament.names, db.games(tournament.id))


def analysis_paths(out_dir: str | os.PathLike[str], stem: str, analysis: Any) -> dict[str, Path]:
    """``<stem>_<title>.csv`` and ``.png`` in ``out_dir`` (title: e.g. "bluffing")."""
    stem = f"{stem}_{analysis.title}"
    return {"csv": Path(out_dir) / f"{stem}.csv", "png": Path(out_dir) / f"{stem}.png"}


__all__ = [
    "ANALYZERS",
    "Column",
    "GenericAnalysis",
    "ObservingAnalysis",
    "Panel",
    "PerAgentAnalysis",
    "Rate",
    "Table",
    "analysis_paths",
    "analyze_games",
    "analyze_tournament",
    "analyzer_for",
    "calls_report",
    "ci",
    "money",
    "panel_intervals",
    "pct",
    "plot_panels",
    "rate",
    "ratio",
    "render",
    "replay_record",
    "wilson_bounds",
    "write_calls_jsonl",
    "write_rows",
]
