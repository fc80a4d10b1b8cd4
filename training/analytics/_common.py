"""Numbers, files and replays shared by the per-game analysers of ``training/analytics/``: rates
that remember their counts and their printing (percent, Wilson interval, money), CSV rows,
bar-chart panels, and the replay of a stored game through the core driver.

A module whose name starts with ``_`` is shared code, not a game's plugin (see the package
docstring).
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from smuggle_envs.core.driver import Driver, Observer, replay_policy
from smuggle_envs.core.game import State
from smuggle_envs.core.spec import GameSpec
from training.stats import fmt_num, wilson_interval

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


class Rate(float):
    """A rate ``num / den`` that remembers its counts (a float everywhere else), so that
    ``plot_panels`` can draw its Wilson interval."""

    num: float
    den: float

    def __new__(cls, num: float, den: float) -> Rate:
        rate = super().__new__(cls, num / den)
        rate.num, rate.den = num, den
        return rate


def rate(num: float, den: float) -> float:
    """``num / den`` as a :class:`Rate`, or NaN when ``den`` is 0 (nothing to measure)."""
    return Rate(num, den) if den else math.nan


def wilson_bounds(value: float) -> tuple[float, float] | None:
    """The 95% Wilson interval of a ``rate`` of whole counts (``0 <= num <= den``), else None
    (a mean of fractions, money, or no count behind it)."""
    if not isinstance(value, Rate):
        return None
    num, den = value.num, value.den
    if isinstance(num, bool) or not isinstance(num, int) or not isinstance(den, int) or not 0 <= num <= den:
        return None
    return wilson_interval(num, den)


def pct(x: float) -> str:
    """A share in percent, one decimal ("-" for NaN)."""
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def ci(value: float) -> str:
    """The 95% Wilson interval of a ``rate`` of whole counts in percent ("-" when nothing was
    measured, or for a rate that is not of counts)."""
    bounds = wilson_bounds(value)
    if bounds is None:
        return "-"
    lo, hi = bounds
    return f"[{100 * lo:.1f}%, {100 * hi:.1f}%]"


def money(x: float) -> str:
    """An amount (money, cards, points) to two decimals at most ("-" for NaN)."""
    return "-" if math.isnan(x) else fmt_num(round(x, 2))


def canvas(width: float, height: float) -> Figure:
    """A matplotlib figure of ``width`` x ``height`` inches on the Agg canvas (no GUI)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def save_figure(fig: Figure, path: str | os.PathLike[str], title: str | None = None, **style: Any) -> Figure:
    """Give ``fig`` its ``title`` (``style``: suptitle's text options), lay it out and save it to
    ``path``; returns it."""
    if title is not None:
        fig.suptitle(title, **style)
    fig.tight_layout()
    fig.savefig(path)
    return fig


def write_rows(path: str | os.PathLike[str], rows: list[dict[str, Any]]) -> None:
    """``rows`` (dicts with the same keys) as a CSV file with a header."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["agent"])
        w.writeheader()
        w.writerows(rows)


PanelData = tuple[str, Sequence[Sequence[Any]], str]
"""A panel as ``plot_panels`` takes it: its title, its series (``(label, values)`` or ``(label,
values, intervals)``) and its unit."""


def plot_panels(
    path: str | os.PathLike[str],
    title: str,
    names: Sequence[str],
    panels: Sequence[PanelData],
    games: int | None = None,
) -> Figure:
    """Bar charts of per-agent numbers, two panels a row. ``panels``: ``(panel title, [series,
    ...], unit)``; a series is ``(label, values per agent)`` or ``(label, values, intervals)`` with
    ``intervals`` a ``(low, high)`` or None per agent, drawn as 95% error bars. Unit ``"share"``
    fixes the axis to [0, 1], labelled in percent, and, for a series given without intervals,
    draws the Wilson 95% interval of every value that is a ``rate`` of whole counts
    (``wilson_bounds``); any other unit names the axis and draws a zero line. NaN (nothing to
    measure) is drawn as 0. A panel of several series has its legend in a band above its data.
    ``games``: the games behind the numbers, in the title. Returns the figure (saved to ``path``)."""
    rows = (len(panels) + 1) // 2
    fig = canvas(max(8.0, 1.2 * len(names) + 4), 3.6 * rows + 0.4)
    any_interval = False
    for i, (panel_title, series, unit) in enumerate(panels, 1):
        ax = fig.add_subplot(rows, 2, i)
        any_interval |= _draw_series(ax, names, series, unit)
        _dress_panel(ax, names, panel_title, unit, len(series))
    counted = f"{games:,} games" if games is not None else ""
    bars = "error bars: 95% Wilson intervals" if any_interval else ""
    notes = "; ".join(x for x in (counted, bars) if x)
    return save_figure(fig, path, title + (f"\n({notes})" if notes else ""))


def _draw_series(ax: Axes, names: Sequence[str], series: Sequence[Sequence[Any]], unit: str) -> bool:
    """The bars of one panel's series side by side, with their error bars; True if any is drawn."""
    width = 0.8 / len(series)
    drawn = False
    for j, item in enumerate(series):
        label, values = item[0], item[1]
        intervals = panel_intervals(values, unit, item[2] if len(item) > 2 else None)
        xs = [x + (j - (len(series) - 1) / 2) * width for x in range(len(names))]
        heights = [0 if math.isnan(v) else v for v in values]
        ax.bar(xs, heights, width, label=label)
        shown = [(x, h, iv) for x, h, iv in zip(xs, heights, intervals) if iv is not None]
        if shown:
            drawn = True
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
    return drawn


def _dress_panel(ax: Axes, names: Sequence[str], title: str, unit: str, series: int) -> None:
    """Ticks, title, the axis' unit, and (for several series) a legend in a band above the data."""
    from matplotlib.ticker import PercentFormatter

    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha="right", fontsize="small")
    ax.set_title(title, fontsize="medium")
    if unit == "share":
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_ylabel("rate (%)")
    else:
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylabel(unit)
    if series > 1:
        low, high = ax.get_ylim()
        ticks = [t for t in ax.get_yticks() if low <= t <= high]
        ax.set_ylim(low, high + 0.2 * (high - low))  # the legend's band: no bar reaches it
        ax.set_yticks(ticks)
        ax.legend(loc="upper center", ncol=series, fontsize="x-small", frameon=False, borderaxespad=0.2)
    ax.grid(axis="y", alpha=0.3)


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


def replay_record(spec: GameSpec, seed: int, actions: Sequence[int], observers: Sequence[Observer]) -> State[Any]:
    """Replay a stored game (its game spec, seed and actions) through the core driver.

    The observers see every decision (``on_action`` just before it is applied) and ``on_end``
    once, when the game is over or the record runs out (a game stored unfinished, e.g. cut by
    ``max_turns``, is capped at its recorded length). Returns the final state."""
    driver = Driver(spec.make_game(), max_decisions=len(actions) or None, observers=observers)
    driver.reset(seed)
    if actions:
        driver.play(replay_policy(actions))
    return driver.state
