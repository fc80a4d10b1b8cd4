"""Helpers shared by the per-game analysers of ``analytics.py``: rates and their printing, Wilson
intervals, CSV rows, bar-chart panels, and a base class keeping one stats row per agent.

Kept apart from ``analytics.py`` so that the game modules (``analytics_ciq.py``, ...) and
``analytics.py``, which registers them, import it without importing each other.
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Sequence

from smuggle_envs.core.driver import Driver, Observer, replay_policy
from smuggle_envs.core.game import State
from training.match import fmt_num, wilson_interval


def _rate(num: float, den: float) -> float:
    return num / den if den else math.nan


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _ci(num: float, den: int) -> str:
    if not den:
        return "-"
    lo, hi = wilson_interval(num, den)
    return f"[{100 * lo:.1f}%, {100 * hi:.1f}%]"


def _money(x: float) -> str:
    return "-" if math.isnan(x) else fmt_num(round(x, 2))


def _canvas(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def write_rows(path: str | os.PathLike, rows: list[dict]) -> None:
    """``rows`` (dicts with the same keys) as a CSV file with a header."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["agent"])
        w.writeheader()
        w.writerows(rows)


def plot_panels(path: str | os.PathLike, title: str, names: Sequence[str], panels) -> None:
    """Bar charts of per-agent numbers, two panels a row. ``panels``: ``(panel title, [(label,
    values per agent), ...], unit)``; unit ``"share"`` fixes the axis to [0, 1], anything else
    draws a zero line. NaN (nothing to measure) is drawn as 0."""
    rows = (len(panels) + 1) // 2
    fig = _canvas(max(8.0, 1.2 * len(names) + 4), 3.5 * rows)
    for i, (panel_title, series, unit) in enumerate(panels, 1):
        ax = fig.add_subplot(rows, 2, i)
        width = 0.8 / len(series)
        for j, (label, values) in enumerate(series):
            xs = [x + (j - (len(series) - 1) / 2) * width for x in range(len(names))]
            ax.bar(xs, [0 if math.isnan(v) else v for v in values], width, label=label)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=30, ha="right", fontsize="small")
        ax.set_title(panel_title, fontsize="medium")
        if unit == "share":
            ax.set_ylim(0, 1)
        else:
            ax.axhline(0, color="black", linewidth=0.8)
        if len(series) > 1:
            ax.legend(fontsize="x-small")
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)


class PerAgentAnalysis:
    """One ``stats_class(name)`` per agent, created on first sight, kept in the order given (then
    the order met). Subclasses define ``add_game``, ``text`` and ``plot``; ``stats_class`` has a
    ``row()`` giving the CSV row."""

    title = "analysis"
    stats_class: type = None  # type: ignore[assignment]

    def __init__(self, names: Sequence[str]):
        self.names = list(names)
        self.stats = {n: self.stats_class(n) for n in self.names}
        self.games = 0

    def _stat(self, name: str):
        if name not in self.stats:
            self.names.append(name)
            self.stats[name] = self.stats_class(name)
        return self.stats[name]

    def ordered(self) -> list:
        return [self.stats[n] for n in self.names]

    def write_csv(self, path: str | os.PathLike) -> None:
        write_rows(path, [s.row() for s in self.ordered()])


def replay_record(env_id: str, config: dict, seed: int, actions: Sequence[int], observers: Sequence[Observer]) -> State:
    """Replay a stored game (env id, config, seed, actions) through the core driver.

    The observers see every decision (``on_action`` just before it is applied) and ``on_end``
    once, when the game is over or the record runs out (a game stored unfinished, e.g. cut by
    ``max_turns``, is capped at its recorded length). Returns the final state."""
    from smuggle_envs import make_game

    driver = Driver(make_game(env_id, **config), max_decisions=len(actions) or None, observers=observers)
    driver.reset(seed)
    if actions:
        driver.play(replay_policy(actions))
    return driver.state
