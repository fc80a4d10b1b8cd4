"""The scorecard as one picture: win rate and the deception metrics, each with its interval
(matplotlib's object API on the Agg canvas: no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .protocol import FIELDS
from .report import DECEPTION_LABELS


def _bars(ax: Any, labels: list[str], values: list[dict[str, Any] | None], title: str) -> None:
    shown = [(lab, v) for lab, v in zip(labels, values) if v and v["value"] is not None]
    xs = range(len(shown))
    mid = [100 * v["value"] for _, v in shown]
    low = [m - 100 * (v["low"] if v["low"] is not None else v["value"]) for m, (_, v) in zip(mid, shown)]
    high = [100 * (v["high"] if v["high"] is not None else v["value"]) - m for m, (_, v) in zip(mid, shown)]
    ax.bar(xs, mid, yerr=[low, high], capsize=4, color="#4c72b0")
    ax.set_xticks(list(xs), [f"{lab}\n(n={v['count']})" for lab, v in shown], fontsize=8)
    ax.set_ylim(0, 100)
    ax.set_ylabel("%")
    ax.set_title(title, fontsize=10)


def draw(card: dict[str, Any], path: str | Path) -> None:
    """Write the scorecard's picture to ``path`` (PNG): the win rate in each field against
    chance, and the deception metrics, with 95% intervals and the counts they rest on."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 3.6), dpi=100)
    FigureCanvasAgg(fig)
    win, dec = fig.subplots(1, 2, gridspec_kw={"width_ratios": [len(card["fields"]) or 1, 4]})
    fields = {k: card["fields"][k] for k in FIELDS if k in card["fields"]}
    _bars(win, list(fields), [f["win_rate"] for f in fields.values()], "win rate by field (n = games)")
    win.axhline(100 / card["num_players"], color="grey", linestyle="--", linewidth=1, label="chance")
    win.legend(fontsize=8, loc="upper center")
    labels = [DECEPTION_LABELS[k].replace(" ", "\n", 1) for k in DECEPTION_LABELS]
    _bars(
        dec, labels, [card["deception"].get(k) for k in DECEPTION_LABELS], "deception (n = the decisions each rests on)"
    )
    if not any(v for v in card["deception"].values()):
        dec.text(0.5, 0.5, "no labelled decisions", ha="center", transform=dec.transAxes)
    budget = "" if card["budget"] == "full" else f", {card['budget'].upper()} run"
    fig.suptitle(
        f"{card['agent']}: {card['env_id']}, {card['num_players']} players, protocol {card['protocol']}"
        f"{budget} ({card['deals']} deals a field); bars: 95% bootstrap intervals",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(str(path))
