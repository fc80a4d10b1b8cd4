"""Does the faster trainer learn the same? The default recipe on this tree and on a reference tree.

    git worktree add /tmp/base36 '1b6e2cd^'          # the reference: the code before issue #36
    python benchmarks/learning_per_step.py --reference /tmp/base36 --seeds 0,1,2   # illustrative (about 25 minutes on 2 cores)
    python benchmarks/learning_per_step.py --report   # the table and the figure again, from the stored data

For each seed, and for each tree in turn (this one, then the reference), runs the command a user
types, ``smuggle train ENV --players 4 --steps N --seed S`` (every other setting at its default:
the imitation warm start, the league, the periodic and final evaluations), as a fresh process
importing that tree's code, on one machine, one run at a time. From each run it keeps the
evaluation curve (``eval.csv``: the policy against 3 rule bots and at the mixed table, sampled
play, 95% Wilson intervals), the wall-clock seconds at which each evaluation appeared in that file
(polled every half second, counted from the process start: imports, warm start and the
evaluations before it included), and its final evaluation.

The table and figure pool each tree's seeds per evaluation step (wins over games, a Wilson
interval) and count the steps at which the two trees' intervals overlap: learning per step is
unchanged where they agree. The wall-clock panels show what the speed buys on the same recipe.
Writes ``docs/img/data/learning_per_step.json`` and ``docs/img/learning_per_step.png``;
``scripts/update_docs.py`` draws the table into docs/benchmarks.md. Not a CI test: minutes a run.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "img" / "data" / "learning_per_step.json"
FIGURE = ROOT / "docs" / "img" / "learning_per_step.png"
TABLES = ("rule", "rule+random")  # against 3 rule bots; at the mixed table
TREES = ("this", "reference")
MODEL = -1  # the key of the time at which the trained model appeared


def train(tree: Path, env_id: str, steps: int, seed: int, out: Path, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """One ``smuggle train`` run importing ``tree``'s code (the defaults, or ``extra`` arguments
    after them); its curve, times and result. ``model_seconds``: when the trained model
    (``final.zip``) appeared, before the final evaluation."""
    command = [sys.executable, "-m", "training.selfplay", "train", env_id, "--players", "4"]
    command += ["--steps", str(steps), "--seed", str(seed), "--out", str(out), "--no-progress", *extra]
    out.mkdir(parents=True, exist_ok=True)
    start = time.time()
    with open(out.parent / f"{out.name}.log", "w", encoding="utf-8") as log:
        child = subprocess.Popen(command, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, stdout=log, stderr=log)
        seconds = _watch(child, out, start)
    wall = time.time() - start
    if child.returncode:
        raise RuntimeError(f"training in {tree} failed: see {out.parent / f'{out.name}.log'}")
    with open(out / "eval.csv", newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["opponent"] in TABLES]
    final = json.loads((out / "final_eval.json").read_text(encoding="utf-8"))
    curve = [
        {
            "step": int(float(r["step"])),
            "opponent": r["opponent"],
            "games": int(float(r["games"])),
            "wins": float(r["wins"]),
        }
        for r in rows
    ]
    keys = ("opponent", "games", "wins", "win_rate", "ci_low", "ci_high")
    return {
        "seed": seed,
        "wall_seconds": round(wall, 1),
        "model_seconds": seconds.get(MODEL),
        "curve": [{**p, "seconds": seconds.get(p["step"])} for p in curve],
        "final": [{k: r[k] for k in keys} for r in final["results"] if r["opponent"] in TABLES],
    }


def _watch(child: subprocess.Popen, out: Path, start: float) -> dict[int, float]:
    """Seconds from the start at which each evaluation step first appears in ``out/eval.csv``,
    and (key ``MODEL``) at which ``out/final.zip`` appeared (polled every half second while
    ``child`` runs)."""
    seen: dict[int, float] = {}
    path = out / "eval.csv"
    while True:
        finished = child.poll() is not None
        if (out / "final.zip").exists():
            seen.setdefault(MODEL, round(time.time() - start, 1))
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines()[1:]:
                step = int(float(line.split(",", 1)[0]))
                seen.setdefault(step, round(time.time() - start, 1))
        if finished:
            return seen
        time.sleep(0.5)


def wilson(wins: float, games: int) -> tuple[float, float, float]:
    """The win rate and its 95% Wilson interval."""
    from training.stats import wilson_interval

    low, high = wilson_interval(wins, games)
    return wins / games if games else 0.0, low, high


def pooled(runs: list[dict[str, Any]], opponent: str) -> list[dict[str, Any]]:
    """Per evaluation step, the seeds' wins over their games and the mean seconds."""
    steps: dict[int, dict[str, Any]] = {}
    for run in runs:
        for p in run["curve"]:
            if p["opponent"] == opponent:
                s = steps.setdefault(p["step"], {"step": p["step"], "wins": 0.0, "games": 0, "seconds": []})
                s["wins"] += p["wins"]
                s["games"] += p["games"]
                if p["seconds"] is not None:
                    s["seconds"].append(p["seconds"])
    out = []
    for s in sorted(steps.values(), key=lambda s: s["step"]):
        rate, low, high = wilson(s["wins"], s["games"])
        mean = sum(s["seconds"]) / len(s["seconds"]) if s["seconds"] else None
        out.append({"step": s["step"], "games": s["games"], "rate": rate, "low": low, "high": high, "seconds": mean})
    return out


def agreement(report: dict[str, Any], opponent: str) -> tuple[int, int]:
    """At how many of the evaluation steps both trees measured the two pooled intervals overlap."""
    a, b = ({p["step"]: p for p in pooled(report["runs"][t], opponent)} for t in TREES)
    common = sorted(set(a) & set(b))
    return sum(a[s]["low"] <= b[s]["high"] and b[s]["low"] <= a[s]["high"] for s in common), len(common)


def pooled_final(runs: list[dict[str, Any]], opponent: str) -> tuple[float, float, float, int]:
    """The seeds' final evaluations pooled: win rate, its 95% Wilson interval, games."""
    wins = sum(r["wins"] for run in runs for r in run["final"] if r["opponent"] == opponent)
    games = sum(r["games"] for run in runs for r in run["final"] if r["opponent"] == opponent)
    return (*wilson(wins, games), games)


def _final(runs: list[dict[str, Any]], opponent: str) -> str:
    rate, low, high, games = pooled_final(runs, opponent)
    return f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}] of {games:,}"


def table_data(report: dict[str, Any]) -> dict[str, Any]:
    """One row per tree (``<!-- data-table: learning_per_step -->``)."""
    rows = []
    for tree in TREES:
        runs = report["runs"][tree]
        wall = sum(r["wall_seconds"] for r in runs) / len(runs)
        agree = [agreement(report, o) for o in TABLES]
        rows.append(
            [
                "this tree" if tree == "this" else f"reference ({report['reference_commit']})",
                str(len(runs)),
                f"{wall:,.0f} s",
                _final(runs, "rule"),
                _final(runs, "rule+random"),
                ", ".join(f"{k} of {n}" for k, n in agree) if tree == "this" else "",
            ]
        )
    headers = [
        "tree",
        "seeds",
        "wall time per run (mean)",
        "final: vs 3 rule bots [95%] of games",
        "final: at the mixed table [95%] of games",
        "evaluation steps where the intervals overlap (rule bots, mixed)",
    ]
    return {"headers": headers, "align": "lrrrrl", "rows": rows}


def plot(report: dict[str, Any], path: Path) -> None:
    """Win rate against steps and against wall-clock seconds, both tables, both trees."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5), sharey="row")
    colours = {"this": "tab:blue", "reference": "tab:grey"}
    for col, opponent in enumerate(TABLES):
        for tree in TREES:
            points = pooled(report["runs"][tree], opponent)
            label = f"{'this tree' if tree == 'this' else 'reference'} ({len(report['runs'][tree])} seeds pooled)"
            for row, x_key in enumerate(("step", "seconds")):
                pts = [p for p in points if p[x_key] is not None]
                x = [p[x_key] for p in pts]
                ax = axes[row][col]
                ax.plot(x, [100 * p["rate"] for p in pts], marker="o", color=colours[tree], label=label)
                ax.fill_between(
                    x, [100 * p["low"] for p in pts], [100 * p["high"] for p in pts], color=colours[tree], alpha=0.2
                )
        name = "against 3 rule bots" if opponent == "rule" else "at the mixed table (rule, random, rule)"
        axes[0][col].set_title(f"{report['env_id']}, 4 players: {name}")
        axes[0][col].set_xlabel("learner steps")
        axes[1][col].set_xlabel("wall-clock seconds from the start (warm start and evaluations included)")
    for ax in axes[1]:
        ax.set_xlim(left=0)
    for row in range(2):
        axes[row][0].set_ylabel("win rate, % [95% Wilson, seeds pooled]")
    axes[0][0].legend(loc="lower right", fontsize=8)
    games = report["runs"]["this"][0]["curve"][0]["games"]
    fig.suptitle(
        f"Default recipe, {report['steps']:,} steps; {games} games per evaluation and seed; {report['machine']}"
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _commit(tree: Path) -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True, text=True, check=False
    )
    return done.stdout.strip() or "unknown"


def run(args: argparse.Namespace, argv: list[str]) -> dict[str, Any]:
    trees = {"this": ROOT, "reference": Path(args.reference).resolve()}
    report: dict[str, Any] = {
        "command": " ".join(["python", "benchmarks/learning_per_step.py", *argv]),
        "env_id": args.env,
        "steps": args.steps,
        "reference_commit": _commit(trees["reference"]),
        "this_commit": _commit(ROOT),
        "machine": args.machine,
        "runs": {t: [] for t in TREES},
    }
    work = Path(args.work)
    for seed in (int(s) for s in args.seeds.split(",")):
        for name, tree in trees.items():
            result = train(tree, args.env, args.steps, seed, work / f"{name}_s{seed}")
            report["runs"][name].append(result)
            print(f"seed {seed} {name}: {result['wall_seconds']:.0f} s", file=sys.stderr, flush=True)
    return report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reference", help="the reference tree (a git worktree of an older commit); required to run")
    p.add_argument("--env", default="smuggle_v0")
    p.add_argument("--steps", type=int, default=200_000)
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--machine", default="the project's shared 2-core machine", help="stored with the results")
    p.add_argument("--work", default="/tmp/learning_per_step", help="where the runs' folders go")
    p.add_argument("--report", action="store_true", help="the table and figure from the stored data, no runs")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    if args.report:
        report = json.loads(DATA.read_text(encoding="utf-8"))
    elif not args.reference:
        p.error("--reference is required to run (or --report)")
    else:
        report = run(args, argv if argv is not None else sys.argv[1:])
    store(report, table_data, plot, DATA, FIGURE)
    return 0


def store(report: dict[str, Any], table: Any, draw: Any, data: Path, figure: Path) -> None:
    """Write ``report`` with its ``table(report)`` (what scripts/update_docs.py draws) as JSON to
    ``data``, draw ``figure``, print the table (this script's and ``time_to_strength.py``'s)."""
    report["table"] = rows = table(report)
    data.parent.mkdir(parents=True, exist_ok=True)
    data.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    draw(report, figure)
    print("| " + " | ".join(rows["headers"]) + " |")
    for row in rows["rows"]:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    raise SystemExit(main())
