"""The bluffing kit's pictures: the deception metrics of ``smuggle analyze --deception`` and the
lie-detection benchmark's scores, each a point with its 95% bootstrap interval over deals as an
error bar, and the rows behind it under each label.

    plot_deception(reports, path, settings)   a row of panels per game: the claim side's rate,
                                              its payoffs of lies and truths, the calls' rates
    plot_lie_detection(data, path)            a row per game with calls: AUROC, Brier, ECE of
                                              each scorer (benchmarks/lie_detection.py's JSON)

Matplotlib is imported inside the functions (the Agg canvas, no display), so importing this
module costs nothing.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from training.analytics._common import canvas, save_figure

from .metrics import Bootstrapped, GameReport, Section, Settings, call_metrics, claim_metrics

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Point = tuple[float, float, float]
"""A value and its interval (NaN where undefined)."""


def _point(b: Bootstrapped | dict[str, Any] | None) -> Point:
    if b is None:
        return math.nan, math.nan, math.nan
    if isinstance(b, dict):
        return tuple(math.nan if b[k] is None else float(b[k]) for k in ("value", "low", "high"))  # type: ignore[return-value]
    return b.value, b.low, b.high


def draw_points(ax: Axes, labels: Sequence[str], series: Sequence[tuple[str, Sequence[Point]]], ylabel: str) -> None:
    """Points with error bars, one series beside another at each label; NaN points left out."""
    width = 0.7 / max(len(series), 1)
    for j, (name, points) in enumerate(series):
        offset = (j - (len(series) - 1) / 2) * width
        shown = [(i + offset, p) for i, p in enumerate(points) if not math.isnan(p[0])]
        if not shown:
            continue
        xs, ys = [x for x, _ in shown], [p[0] for _, p in shown]
        low = [0.0 if math.isnan(p[1]) else max(0.0, p[0] - p[1]) for _, p in shown]
        high = [0.0 if math.isnan(p[2]) else max(0.0, p[2] - p[0]) for _, p in shown]
        ax.errorbar(xs, ys, yerr=[low, high], fmt="o", capsize=3, markersize=4, label=name)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize="x-small")
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylabel(ylabel, fontsize="small")
    ax.grid(axis="y", alpha=0.3)
    if len(series) > 1:
        ax.legend(fontsize="x-small", frameon=False, loc="best")


def _labels(sections: Sequence[Section], noun: str) -> list[str]:
    return [f"{s.agent}\n{s.rows} {noun}, {s.deals} deals" for s in sections]


def _claim_panels(ax_rate: Axes, ax_pay: Axes, role: str, sections: Sequence[Section]) -> None:
    names = {m.key: m.label for m in claim_metrics(role)}
    labels = _labels(sections, role + "s")
    draw_points(ax_rate, labels, [(names["rate"], [_point(s.values["rate"]) for s in sections])], "share of rows")
    ax_rate.set_ylim(-0.02, 1.02)
    ax_rate.set_title(names["rate"], fontsize="small")
    pays = [(names[k], [_point(s.values[k]) for s in sections]) for k in ("lie_payoff", "truth_payoff")]
    draw_points(ax_pay, labels, pays, "mean payoff (score change)")
    ax_pay.axhline(0, color="black", linewidth=0.6)
    ax_pay.set_title(f"payoff: {names['lie_payoff']} vs {names['truth_payoff']}", fontsize="small")


def _call_panel(ax: Axes, report: GameReport) -> None:
    sections = report.sections.get("call")
    if not sections:
        why = "no seat calls another's claim" if report.calls_possible is False else "no calls in these games"
        ax.text(0.5, 0.5, f"{why}:\nclaim-side metrics only", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    series = [(m.label, [_point(s.values[m.key]) for s in sections]) for m in call_metrics()]
    labels = [f"{s.agent}\n({s.score})\n{s.rows} calls, {s.deals} deals" for s in sections]
    draw_points(ax, labels, series, "share / AUROC")
    ax.axhline(0.5, color="grey", linewidth=0.6, linestyle="--")  # an AUROC of chance
    ax.set_ylim(-0.02, 1.02)
    ax.set_title("calls: a challenge predicts a lie (dashed: AUROC of chance)", fontsize="small")


def plot_deception(reports: Sequence[GameReport], path: str | os.PathLike[str], settings: Settings) -> Figure:
    """A row of three panels per game: the claim (or commitment) rate, the payoffs of lies and
    truths, and the calls' challenge rate, precision, recall and AUROC. Returns the figure
    (saved to ``path``)."""
    fig = canvas(16.0, 3.8 * len(reports) + 0.6)
    for row, report in enumerate(reports):
        axes = [fig.add_subplot(len(reports), 3, 3 * row + i + 1) for i in range(3)]
        role = next((r for r in ("claim", "commitment") if r in report.sections), None)
        if role is None:
            for ax in axes[:2]:
                ax.set_axis_off()
        else:
            _claim_panels(axes[0], axes[1], role, report.sections[role])
        _call_panel(axes[2], report)
        axes[0].annotate(
            f"{report.env_id}: {report.games} games", (0, 1.12), xycoords="axes fraction", fontweight="bold"
        )
    title = f"deception metrics ({settings.level:.0%} intervals: bootstrap over deals, {settings.n_boot} resamples)"
    return save_figure(fig, path, title, fontsize="medium")


def plot_lie_detection(data: dict[str, Any], path: str | os.PathLike[str]) -> Figure:
    """``benchmarks/lie_detection.py``'s picture from its JSON: for each game with calls, the
    AUROC, Brier score and ECE of every scorer on the test deals. Returns the figure."""
    games = [(env, g) for env, g in data["games"].items() if g.get("scorers")]
    fig = canvas(15.0, 3.9 * max(len(games), 1) + 0.8)
    panels = (("auroc", "AUROC (dashed: chance)"), ("brier", "Brier score"), ("ece", "ECE"))
    for row, (env, game) in enumerate(games):
        scorers = game["scorers"]
        labels = [f"{s['scorer']}\n{s['rows']} calls, {s['deals']} deals" for s in scorers]
        for i, (key, title) in enumerate(panels):
            ax = fig.add_subplot(len(games), 3, 3 * row + i + 1)
            draw_points(ax, labels, [(title, [_point(s.get(key)) for s in scorers])], title)
            for tick in ax.get_xticklabels():
                tick.set_rotation(30)
                tick.set_horizontalalignment("right")
            ax.set_title(f"{env}: {title}", fontsize="small")
            ax.set_ylim(bottom=-0.02, top=1.02 if key == "auroc" else None)
            if key == "auroc":
                ax.axhline(0.5, color="grey", linewidth=0.6, linestyle="--")
                _note_undefined(ax, scorers)
    skipped = [env for env, g in data["games"].items() if not g.get("scorers")]
    note = f"; no call decisions (claim side only): {', '.join(skipped)}" if skipped else ""
    title = f"lie detection on the test deals ({data['settings']['level']:.0%} bootstrap intervals over deals){note}"
    return save_figure(fig, path, title, fontsize="medium")


def _note_undefined(ax: Any, scorers: list[dict[str, Any]]) -> None:
    """Say why an AUROC panel has no point: every chosen call answered a lie (or every one a
    truth), so no ranking of lies above truths exists (forced calls are never scored)."""
    if any((s.get("auroc") or {}).get("value") is not None for s in scorers):
        return
    rows = max((s["rows"] for s in scorers), default=0)
    lies = max((s.get("lies", 0) for s in scorers), default=0)
    ax.text(
        0.5,
        0.5,
        f"AUROC n/a: {lies} of {rows} chosen calls answer a lie\n(one class only; forced calls are not scored)",
        transform=ax.transAxes,
        ha="center",
        va="center",
        fontsize="small",
    )


__all__ = ["canvas", "draw_points", "plot_deception", "plot_lie_detection"]
