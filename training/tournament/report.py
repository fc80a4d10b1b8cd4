"""A tournament's leaderboard and head-to-head matrix: printed tables, CSV files and PNG plots.

Plots use matplotlib's object API with the Agg canvas (no pyplot, no display needed).
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Sequence
from pathlib import Path

from training.analytics._common import canvas, save_figure
from training.stats import few_deals_warning, fmt_num, format_table, one_deal_interval

from .ratings import Standings


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _num(x: float) -> str:
    if math.isinf(x) or math.isnan(x):
        return "-"
    return f"{x:.1f}"


def not_separated(standings: Standings) -> list[list[str]]:
    """The groups of agents that the games do not order: the largest sets whose 95% rating
    intervals share a point, of two agents or more, best first, each in leaderboard order. Two
    agents are in a common group exactly when their intervals overlap (intervals that overlap
    pairwise share a point), so a pair in no common group is separated. None without intervals
    (``--bootstrap 0``, or one deal: a bootstrap over it has no spread)."""
    if not standings.bootstrap or standings.deals == 1:
        return []
    agents = standings.agents
    cliques: list[list[str]] = []
    for s in agents:  # every largest set holds the left end of its rightmost-starting interval
        point = s.rating_interval[0]
        clique = [t.name for t in agents if t.rating_interval[0] <= point <= t.rating_interval[1]]
        if len(clique) > 1 and clique not in cliques:
            cliques.append(clique)
    groups = [c for c in cliques if not any(set(c) < set(d) for d in cliques)]
    rank = {s.name: i for i, s in enumerate(agents)}
    return sorted(groups, key=lambda g: [rank[n] for n in g])


def _letter(i: int) -> str:
    return chr(ord("a") + i) if i < 26 else f"g{i + 1}"


def separation_marks(standings: Standings) -> dict[str, str]:
    """Each agent's letters: agents sharing a letter are not separated (their 95% rating
    intervals overlap; ``not_separated``); "" for an agent separated from every other."""
    marks = {s.name: "" for s in standings.agents}
    for i, group in enumerate(not_separated(standings)):
        for name in group:
            marks[name] += _letter(i)
    return marks


def separation_note(standings: Standings) -> str:
    """The leaderboard's footnote: which agents the games do not separate."""
    if not standings.bootstrap:
        return "not separated: not assessed (no rating intervals: --bootstrap 0)"
    if standings.deals == 1:
        return "not separated: not assessed (1 deal: a bootstrap over one deal has no spread)"
    groups = not_separated(standings)
    if not groups:
        return "not separated: none (no two agents' 95% rating intervals overlap)"
    listed = "; ".join(f"{_letter(i)}: {', '.join(g)}" for i, g in enumerate(groups))
    return (
        f"not separated (agents sharing a letter: their 95% rating intervals overlap, so these games "
        f"do not order them): {listed}"
    )


def leaderboard_table(standings: Standings) -> str:
    """Agents by rating (the batch Plackett-Luce fit, Elo-like points), best first, with the
    bootstrap interval; openskill's ordinal (mu - 3 sigma) as a cross-check; the letters of the
    agents each is not separated from (``separation_marks``), explained in a footnote after a
    blank line, and a warning under it below ``MIN_DEALS`` deals (one deal: no rating interval)."""
    marks = separation_marks(standings)
    na = one_deal_interval(standings.deals) if standings.bootstrap else ""
    rows = []
    for i, s in enumerate(standings.agents, 1):
        rlo, rhi = s.rating_interval
        wlo, whi = s.win_interval
        slo, shi = s.score_interval
        rows.append(
            [
                i,
                s.name,
                f"{s.rating:.1f}",
                na or f"[{rlo:.1f}, {rhi:.1f}]",
                s.games,
                fmt_num(round(s.wins, 2)),
                _pct(s.win_rate),
                f"[{_pct(wlo)}, {_pct(whi)}]",
                _num(s.mean_score),
                na or f"[{_num(slo)}, {_num(shi)}]",
                f"{s.ordinal:.2f}",
                marks[s.name] or "-",
            ]
        )
    table = format_table(
        [
            *("#", "agent", "rating", "95% CI", "games", "wins", "win rate", "95% CI"),
            *("mean score", "95% CI", "openskill", "not separated"),
        ],
        rows,
        align="rlrrrrrrrrrl",
    )
    warning = few_deals_warning(standings.deals) if standings.games else ""
    return f"{table}\n\n{separation_note(standings)}" + (f"\n{warning}" if warning else "")


def head_to_head_table(standings: Standings) -> str:
    """Row agent finished ahead of column agent in this share of their common games."""
    order = [s.name for s in standings.agents]
    rows = []
    for a in order:
        rows.append([a] + ["" if a == b else _pct(standings.head_to_head(a, b)) for b in order])
    return format_table(["ahead of ->"] + order, rows)


LEADERBOARD_COLUMNS = [
    "rank",
    "agent",
    "spec",
    "rating",
    "rating_low",
    "rating_high",
    "games",
    "wins",
    "win_rate",
    "win_low",
    "win_high",
    "mean_score",
    "score_low",
    "score_high",
    "openskill_mu",
    "openskill_sigma",
    "openskill_ordinal",
    "not_separated",
]
"""``rating``: the batch Plackett-Luce fit (Elo-like points), ``rating_low``/``rating_high`` its
95% bootstrap interval over deals; ``openskill_*``: the sequential openskill cross-check;
``not_separated``: the agent's letters (agents sharing one have overlapping rating intervals)."""


def write_leaderboard_csv(standings: Standings, path: str | os.PathLike, specs: dict[str, str] | None = None) -> None:
    specs = specs or {}
    marks = separation_marks(standings)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(LEADERBOARD_COLUMNS)
        for i, s in enumerate(standings.agents, 1):
            rlo, rhi = s.rating_interval
            wlo, whi = s.win_interval
            slo, shi = s.score_interval
            w.writerow(
                [
                    i,
                    s.name,
                    specs.get(s.name, ""),
                    s.rating,
                    rlo,
                    rhi,
                    s.games,
                    s.wins,
                    s.win_rate,
                    wlo,
                    whi,
                    s.mean_score,
                    slo,
                    shi,
                    s.mu,
                    s.sigma,
                    s.ordinal,
                    marks[s.name],
                ]
            )


def write_head_to_head_csv(standings: Standings, path: str | os.PathLike) -> None:
    """Long format: agent, opponent, games both played, games agent finished ahead, share."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["agent", "opponent", "games", "ahead", "share"])
        for i, a in enumerate(standings.names):
            for j, b in enumerate(standings.names):
                if i != j:
                    met = standings.met[i][j]
                    w.writerow([a, b, met, standings.ahead[i][j], standings.ahead[i][j] / met if met else ""])


def players_per_game(standings: Standings) -> int:
    """Seats per game (every game fills every seat): seat-games over games; 0 without games."""
    return round(sum(s.games for s in standings.agents) / standings.games) if standings.games else 0


def _mark_separation(ax, standings: Standings, ys: Sequence[int]) -> None:
    """The agents' ``separation_marks`` as a column of letters right of the panel, off the data."""
    marks = separation_marks(standings)
    if not any(marks.values()):
        return
    where = ax.get_yaxis_transform()  # x in axes fractions, y in data
    for y, s in zip(ys, standings.agents):
        ax.text(1.02, y, marks[s.name] or "-", transform=where, va="center", fontsize="small", color="dimgrey")
    ax.text(1.02, 1.01, "not\nseparated", transform=ax.transAxes, va="bottom", fontsize="x-small", color="dimgrey")


def _rating_panel(ax, standings: Standings, ys: Sequence[int]) -> None:
    agents = standings.agents
    ratings = [s.rating for s in agents]
    below = [s.rating - s.rating_interval[0] for s in agents]
    above = [s.rating_interval[1] - s.rating for s in agents]
    ax.errorbar(ratings, ys, xerr=[below, above], fmt="o", color="tab:blue", ecolor="tab:blue", capsize=4)
    ax.axvline(1500.0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_yticks(ys)
    ax.set_yticklabels([s.name for s in agents])
    groups = not_separated(standings)
    ax.set_xlabel(
        f"rating (Elo-like points; Plackett-Luce fit of all games; dotted: 1500, the mean)\n"
        f"95% bootstrap interval over {standings.deals} deals, {standings.bootstrap} resamples"
        + ("\nagents sharing a letter are not separated (intervals overlap)" if groups else "")
    )
    ax.set_title(f"rating, {standings.games} games", fontsize="medium")
    ax.grid(axis="x", alpha=0.3)
    _mark_separation(ax, standings, ys)


def _win_panel(ax, standings: Standings, ys: Sequence[int]) -> None:
    agents = standings.agents
    rates = [100 * s.win_rate for s in agents]
    lows = [100 * (s.win_rate - s.win_interval[0]) for s in agents]
    highs = [100 * (s.win_interval[1] - s.win_rate) for s in agents]
    ax.errorbar(rates, ys, xerr=[lows, highs], fmt="o", color="tab:green", ecolor="tab:green", capsize=4)
    n = players_per_game(standings)
    chance = f"; dashed: chance (1 in {n} players, {100 / n:.0f}%)" if n else ""
    if n:
        ax.axvline(100 / n, color="grey", linewidth=1, linestyle="--")
    ax.set_yticks(ys)
    ax.set_yticklabels([s.name for s in agents])
    ax.set_xlim(0, 100)
    per_agent = sorted({s.games for s in agents})
    played = "/".join(f"{g:,}" for g in per_agent)
    ax.set_xlabel(f"win rate (% of each agent's {played} games; a shared win counts 1/k)\n95% Wilson interval{chance}")
    ax.set_title(f"win rate, {standings.games} games", fontsize="medium")
    ax.grid(axis="x", alpha=0.3)


def plot_ratings(standings: Standings, path: str | os.PathLike, title: str = ""):
    """Two panels, best agent on top: each agent's rating (batch Plackett-Luce fit, Elo-like
    points) with its 95% bootstrap interval over deals, the letters of ``separation_marks`` beside
    it (agents sharing a letter are not separated), and its win rate with its 95% Wilson interval
    and the chance line (1 / players); the intervals are the leaderboard's
    (``AgentStanding.rating_interval`` and ``win_interval``). No legend: the axis labels say what
    the lines are. Returns the figure (already saved to ``path``)."""
    agents = standings.agents
    fig = canvas(11, 1.9 + 0.45 * len(agents))
    ys = list(range(len(agents)))[::-1]
    _rating_panel(fig.add_subplot(1, 2, 1), standings, ys)
    _win_panel(fig.add_subplot(1, 2, 2), standings, ys)
    return save_figure(fig, path, title or "ratings")


def plot_head_to_head(standings: Standings, path: str | os.PathLike, title: str = "") -> None:
    """Heatmap: the share of common games the row agent finished ahead of the column agent."""
    order = [s.name for s in standings.agents]
    k = len(order)
    matrix = [[math.nan if a == b else standings.head_to_head(a, b) for b in order] for a in order]
    fig = canvas(1.8 + 0.8 * k, 1.4 + 0.7 * k)
    ax = fig.add_subplot(1, 1, 1)
    image = ax.imshow(matrix, cmap="RdBu", vmin=0.0, vmax=1.0)
    for i in range(k):
        for j in range(k):
            if not math.isnan(matrix[i][j]):
                ax.text(
                    j,
                    i,
                    f"{100 * matrix[i][j]:.0f}%",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if abs(matrix[i][j] - 0.5) > 0.3 else "black",
                )
    ax.set_xticks(range(k))
    ax.set_yticks(range(k))
    ax.set_xticklabels(order, rotation=45, ha="right")
    ax.set_yticklabels(order)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ax.set_title(title or "head to head: share of games finished ahead")
    from matplotlib.ticker import PercentFormatter

    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, format=PercentFormatter(1.0))
    bar.set_label(f"finished ahead (% of common games; {standings.games:,} games in all)")
    save_figure(fig, path)


def report_paths(out_dir: str | os.PathLike, stem: str) -> dict[str, Path]:
    """The files of a report: ``<stem>_leaderboard.csv`` and so on, in ``out_dir``."""
    out = Path(out_dir)
    return {
        "leaderboard": out / f"{stem}_leaderboard.csv",
        "h2h_csv": out / f"{stem}_head_to_head.csv",
        "ratings_png": out / f"{stem}_ratings.png",
        "h2h_png": out / f"{stem}_head_to_head.png",
    }


def write_report(
    standings: Standings,
    out_dir: str | os.PathLike,
    stem: str,
    title: str = "",
    specs: dict[str, str] | None = None,
    plots: bool = True,
) -> list[Path]:
    """Write the CSV files (and PNG plots); returns the paths written."""
    paths = report_paths(out_dir, stem)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    write_leaderboard_csv(standings, paths["leaderboard"], specs)
    write_head_to_head_csv(standings, paths["h2h_csv"])
    written = [paths["leaderboard"], paths["h2h_csv"]]
    if plots:
        plot_ratings(standings, paths["ratings_png"], title=f"{title} ratings".strip())
        plot_head_to_head(standings, paths["h2h_png"], title=f"{title} head to head".strip())
        written += [paths["ratings_png"], paths["h2h_png"]]
    return written


def format_names(names: Sequence[str]) -> str:
    return ", ".join(names)
