"""Time to strength: how soon does a recipe reach what the default ``smuggle train`` reaches?

    python benchmarks/time_to_strength.py --seeds 0,1,2   # illustrative (about 20 minutes on 2 cores)
    python benchmarks/time_to_strength.py --probe --seeds 0   # illustrative: the candidate alone, nothing stored
    python benchmarks/time_to_strength.py --report        # the table and the figure again, from the stored data

Runs, seed by seed and in turn, the default command a user types (``smuggle train ENV --players
4 --steps 200000 --seed S``) and a candidate recipe (``FAST``: fewer steps, cheaper update and
warm start, no periodic evaluation), each as a fresh process on this tree, one at a time, so both
see the same machine. For each run it keeps the wall-clock **seconds to the trained model** (from
the process start until ``final.zip`` is written: imports, warm start, training and the periodic
evaluations included; the final evaluation after it is measurement, not training) and the final
evaluation (500 games per table, sampled play, against 3 rule bots and at the mixed table).

The goal (issue #36): the candidate's seeds, pooled, reach the default's pooled final win rates
(their 95% Wilson intervals overlap, or the candidate's lies above) at both tables, in at most a
fifth of the default's seconds. Writes ``docs/img/data/time_to_strength.json`` (the table
``scripts/update_docs.py`` draws in docs/benchmarks.md) and ``docs/img/time_to_strength.png``
(win rate against wall-clock seconds, both recipes). Not a CI test: minutes a run.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import learning_per_step as lps  # noqa: E402  (the run and pooling helpers of the sibling benchmark)

DATA = ROOT / "docs" / "img" / "data" / "time_to_strength.json"
FIGURE = ROOT / "docs" / "img" / "time_to_strength.png"
DEFAULT = (200_000, "")  # steps, extra arguments: the command a user types
# The candidate: a quarter of the steps (the default's curve is as high at 50k as at 200k), no
# periodic evaluation, the clone fitted in larger steps. docs/benchmarks.md ("Time to strength")
# says what else was tried.
FAST = (
    50_000,
    "--set eval_every=1000000 --set imitation_batch_size=2048 --set imitation_learning_rate=0.003",
)
RECIPES = ("default", "fast")
pooled_final = lps.pooled_final  # the seeds' final evaluations pooled, with their interval


def run(args: argparse.Namespace, argv: list[str]) -> dict[str, Any]:
    recipes = {"default": DEFAULT, "fast": (args.fast_steps, args.fast)}
    names = ("fast",) if args.probe else RECIPES
    report: dict[str, Any] = {
        "command": " ".join(["python", "benchmarks/time_to_strength.py", *argv]),
        "env_id": args.env,
        "commit": lps._commit(ROOT),
        "machine": args.machine,
        "recipes": {n: {"steps": recipes[n][0], "arguments": recipes[n][1]} for n in RECIPES},
        "runs": {n: [] for n in RECIPES},
    }
    work = Path(args.work)
    for seed in (int(s) for s in args.seeds.split(",")):
        for name in names:
            steps, extra = recipes[name]
            result = lps.train(ROOT, args.env, steps, seed, work / f"{name}_s{seed}", tuple(shlex.split(extra)))
            report["runs"][name].append(result)
            print(f"seed {seed} {name}: model at {result['model_seconds']} s; {_finals(result)}", file=sys.stderr)
    return report


def _finals(run: dict[str, Any]) -> str:
    return ", ".join(f"{r['opponent']} {100 * r['win_rate']:.1f}%" for r in run["final"])


def seconds(runs: list[dict[str, Any]]) -> float:
    """The mean seconds to the trained model."""
    return sum(r["model_seconds"] for r in runs) / len(runs)


def reaches(report: dict[str, Any], opponent: str) -> bool:
    """Whether the candidate's pooled final reaches the default's (intervals overlap, or above)."""
    _, _, high, _ = pooled_final(report["runs"]["fast"], opponent)
    _, low, _, _ = pooled_final(report["runs"]["default"], opponent)
    return high >= low


def table_data(report: dict[str, Any]) -> dict[str, Any]:
    """One row per recipe (``<!-- data-table: time_to_strength -->``)."""
    base = seconds(report["runs"]["default"])
    rows = []
    for name in RECIPES:
        runs, recipe = report["runs"][name], report["recipes"][name]
        cells = []
        for opponent in lps.TABLES:
            rate, low, high, games = pooled_final(runs, opponent)
            mark = "" if name == "default" else (" (reaches)" if reaches(report, opponent) else " (below)")
            cells.append(f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}] of {games:,}{mark}")
        secs = seconds(runs)
        rows.append(
            [
                name,
                f"`--steps {recipe['steps']} {recipe['arguments']}`".replace(" `", "`"),
                str(len(runs)),
                f"{secs:,.0f} s",
                f"{secs / base:.2f}",
                *cells,
            ]
        )
    headers = [
        "recipe",
        "arguments after `smuggle train ENV --players 4`",
        "seeds",
        "seconds to the model (mean)",
        "ratio to default (goal <= 0.20)",
        "final vs 3 rule bots [95%]",
        "final at the mixed table [95%]",
    ]
    return {"headers": headers, "align": "llrrrrr", "rows": rows}


def plot(report: dict[str, Any], path: Path) -> None:
    """Win rate against wall-clock seconds: each recipe's periodic points and its final evaluation
    placed at the seconds its model appeared (seeds pooled, 95% Wilson intervals)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    colours = {"default": "tab:grey", "fast": "tab:blue"}
    for ax, opponent in zip(axes, lps.TABLES):
        for name in RECIPES:
            runs = report["runs"][name]
            if not runs:
                continue
            points = lps.pooled(runs, opponent)
            last = max(p["step"] for p in points)  # the final evaluation's rows: drawn at the model's time
            pts = [p for p in points if p["seconds"] is not None and 0 < p["step"] < last]
            rate, low, high, games = pooled_final(runs, opponent)
            x = [p["seconds"] for p in pts] + [seconds(runs)]
            y = [100 * p["rate"] for p in pts] + [100 * rate]
            lo = [100 * p["low"] for p in pts] + [100 * low]
            hi = [100 * p["high"] for p in pts] + [100 * high]
            periodic = f"periodic {pts[0]['games']:,} games, " if pts else ""
            label = f"{name}: {report['recipes'][name]['steps']:,} steps ({len(runs)} seeds; {periodic}final {games:,})"
            ax.plot(x, y, marker="o", color=colours[name], label=label)
            ax.fill_between(x, lo, hi, color=colours[name], alpha=0.2)
            bars = [[v - a for v, a in zip(y, lo)], [b - v for v, b in zip(y, hi)]]
            ax.errorbar(x, y, yerr=bars, fmt="none", ecolor=colours[name], capsize=3)  # a lone final point too
        ax.set_title("against 3 rule bots" if opponent == "rule" else "at the mixed table (rule, random, rule)")
        ax.set_xlabel("wall-clock seconds from the start to the model (warm start included)")
        ax.set_xlim(left=0)
    axes[0].set_ylabel("win rate, % [95% Wilson, seeds pooled]")
    axes[0].legend(loc="lower right", fontsize=8)
    fig.suptitle(f"Time to strength, {report['env_id']} 4 players; {report['machine']}")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--env", default="smuggle_v0")
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--fast", default=FAST[1], help="the candidate's arguments after --steps (default: FAST)")
    p.add_argument("--fast-steps", type=int, default=FAST[0])
    p.add_argument("--probe", action="store_true", help="run the candidate only; print, store nothing")
    p.add_argument("--machine", default="the project's shared 2-core machine", help="stored with the results")
    p.add_argument("--work", default="/tmp/time_to_strength", help="where the runs' folders go")
    p.add_argument("--report", action="store_true", help="the table and figure from the stored data, no runs")
    args = p.parse_args(argv)
    if args.report:
        report = json.loads(DATA.read_text(encoding="utf-8"))
    else:
        report = run(args, argv if argv is not None else sys.argv[1:])
        if args.probe:
            return 0
    lps.store(report, table_data, plot, DATA, FIGURE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
