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


class Rate(float):
    """A rate ``num / den`` that remembers its counts (a float everywhere else), so that
    ``plot_panels`` can draw its Wilson interval."""

    num: float
    den: float

    def __new__(cls, num: float, den: float) -> Rate:
        rate = super().__new__(cls, num / den)
        rate.num, rate.den = num, den
        return rate


def _rate(num: float, den: float) -> float:
    return Rate(num, den) if den else math.nan


def wilson_bounds(value: float) -> tuple[float, float] | None:
    """The 95% Wilson interval of a ``_rate`` of whole counts (``0 <= num <= den``), else None
    (a mean of fractions, money, or no count behind it)."""
    if not isinstance(value, Rate):
        return None
    num, den = value.num, value.den
    if isinstance(num, bool) or not isinstance(num, int) or not isinstance(den, int) or not 0 <= num <= den:
        return None
    return wilson_interval(num, den)


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


def plot_panels(path: str | os.PathLike, title: str, names: Sequence[str], panels):
    """Bar charts of per-agent numbers, two panels a row. ``panels``: ``(panel title, [series,
    ...], unit)``; a series is ``(label, values per agent)`` or ``(label, values, intervals)`` with
    ``intervals`` a ``(low, high)`` or None per agent, drawn as 95% error bars. Unit ``"share"``
    fixes the axis to [0, 1] and, for a series given without intervals, draws the Wilson 95%
    interval of every value that is a ``_rate`` of whole counts (``wilson_bounds``); anything
    else draws a zero line. NaN (nothing to measure) is drawn as 0. Returns the figure (saved to
    ``path``)."""
    rows = (len(panels) + 1) // 2
    fig = _canvas(max(8.0, 1.2 * len(names) + 4), 3.5 * rows)
    any_interval = False
    for i, (panel_title, series, unit) in enumerate(panels, 1):
        ax = fig.add_subplot(rows, 2, i)
        width = 0.8 / len(series)
        for j, item in enumerate(series):
            label, values = item[0], item[1]
            intervals = panel_intervals(values, unit, item[2] if len(item) > 2 else None)
            xs = [x + (j - (len(series) - 1) / 2) * width for x in range(len(names))]
            heights = [0 if math.isnan(v) else v for v in values]
            ax.bar(xs, heights, width, label=label)
            shown = [(x, h, iv) for x, h, iv in zip(xs, heights, intervals) if iv is not None]
            if shown:
                any_interval = True
                ax.errorbar(
                    [x for x, _, _ in shown],
                    [h for _, h, _ in shown],
                    yerr=[[max(0.0, h - lo) for _, h, (lo, _) in shown], [max(0.0, hi - h) for _, h, (_, hi) in shown]],
                    fmt="none",
                    ecolor="black",
                    elinewidth=0.8,
                    capsize=2,
                    label="_nolegend_",
                )
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
    fig.suptitle(title + ("\n(error bars: 95% Wilson intervals)" if any_interval else ""))
    fig.tight_layout()
    fig.savefig(path)
    return fig


def panel_intervals(
    values: Sequence[float], unit: str, intervals: Sequence[tuple[float, float] | None] | None = None
) -> list[tuple[float, float] | None]:
    """The error bars ``plot_panels`` draws for one series: ``intervals`` when given, else the
    Wilson intervals of ``values`` on a ``"share"`` panel (see ``wilson_bounds``), else none."""
    if intervals is not None:
        if len(intervals) != len(values):
            raise ValueError(f"{len(intervals)} intervals for {len(values)} values")
        return list(intervals)
    if unit != "share":
        return [None] * len(values)
    return [wilson_bounds(v) for v in values]


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
