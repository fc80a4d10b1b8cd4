"""Run the main job (``bash scripts/main.sh``) from scratch and keep its leaderboard for the docs.

    python benchmarks/main_job.py                    # a fresh run in runs/main_bench (minutes), writes the data
    python benchmarks/main_job.py --report           # the table again from the stored data, nothing run

The main job trains on Smuggle with the zoo's recipe and plays a duplicate tournament of the
trained agent, two rule bots and two random agents (``scripts/main.sh``). This script runs that
very script (``MAIN_OUT`` pointing at a fresh folder, so ``runs/main`` is left alone), times it,
reads the tournament's leaderboard CSV and writes ``docs/img/data/main_job.json``: every row of
the leaderboard, the wall time of each part, and whether the trained agent is first with its
rating interval above every rule bot's (issue #28's goal for the main job). ``python
scripts/update_docs.py`` writes its table into docs/benchmarks.md (``<!-- data-table: main_job
-->``): the figures are measured, never typed. Not a CI test (minutes of training).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "img" / "data" / "main_job.json"


def run_job(out: Path) -> dict[str, float]:
    """``bash scripts/main.sh`` into ``out`` (emptied first); the wall seconds of the whole job."""
    if out.exists():
        shutil.rmtree(out)
    start = time.perf_counter()
    env = {**os.environ, "MAIN_OUT": str(out)}
    subprocess.run(["bash", str(ROOT / "scripts" / "main.sh")], cwd=ROOT, env=env, check=True)
    return {"job_seconds": time.perf_counter() - start}


def leaderboard(out: Path) -> list[dict[str, Any]]:
    """The tournament's leaderboard rows (``smuggle tournament`` writes one CSV per tournament)."""
    files = sorted(out.glob("*_leaderboard.csv"))
    if len(files) != 1:
        raise SystemExit(f"expected one leaderboard CSV in {out}, found {len(files)}")
    with files[0].open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def goal(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Is the trained agent (the ``ppo_argmax:`` spec) first, its rating interval above every rule bot's?"""
    trained = next(r for r in rows if r["spec"].startswith("ppo"))
    rules = [r for r in rows if r["spec"] == "rule"]
    return {
        "first": trained["rank"] == "1",
        "interval_above_rule_bots": all(float(trained["rating_low"]) > float(r["rating_high"]) for r in rules),
    }


def table(data: dict[str, Any]) -> dict[str, Any]:
    """The docs' table: rank, agent, rating with its interval, games, win rate with its interval."""
    rows = []
    for r in data["leaderboard"]:
        name = "trained agent" if r["spec"].startswith("ppo") else r["agent"]
        spec = r["spec"]
        if spec.startswith("ppo"):  # the run's folder is wherever it ran: name the model file only
            kind, _, path = spec.partition(":")
            spec = f"{kind}:RUN/{Path(path).name}"
        rows.append(
            [
                r["rank"],
                f"{name} (`{spec}`)" if spec else name,
                f"{float(r['rating']):.0f} [{float(r['rating_low']):.0f}, {float(r['rating_high']):.0f}]",
                r["games"],
                f"{100 * float(r['win_rate']):.1f}% [{100 * float(r['win_low']):.1f}, {100 * float(r['win_high']):.1f}]",
            ]
        )
    return {"headers": ["place", "agent", "rating [95%]", "games", "win rate [95%]"], "align": "rlrrr", "rows": rows}


def summary_table(data: dict[str, Any]) -> dict[str, Any]:
    """One row: the job's wall time, its training's, and issue #28's goal for the main job."""
    trained = next(r for r in data["leaderboard"] if r["spec"].startswith("ppo"))
    row = [
        f"{data['job_seconds'] / 60:.1f} min",
        f"{data['training_wall_seconds'] / 60:.1f} min",
        f"{sum(int(r['games']) for r in data['leaderboard']) // 4:,}",
        f"{trained['rank']} of {len(data['leaderboard'])}",
        "yes" if data["goal"]["interval_above_rule_bots"] else "**no**",
    ]
    headers = [
        "whole job (install check included)",
        "training",
        "tournament games",
        "trained agent's place",
        "its rating interval above the rule bots'",
    ]
    return {"headers": headers, "align": "rrrrl", "rows": [row]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=ROOT / "runs" / "main_bench", help="the run's folder (emptied first)")
    p.add_argument("--report", action="store_true", help="print the stored table, run nothing")
    args = p.parse_args(argv)
    if args.report:
        data = json.loads(DATA.read_text(encoding="utf-8"))
    else:
        times = run_job(args.out)
        rows = leaderboard(args.out)
        summary = json.loads((args.out / "final_eval.json").read_text(encoding="utf-8"))
        data = {"command": "bash scripts/main.sh", **times, "leaderboard": rows, "goal": goal(rows)}
        data["training_wall_seconds"] = summary["training_wall_seconds"]
        data["tables"] = {"leaderboard": table(data), "summary": summary_table(data)}
        DATA.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for row in data["tables"]["leaderboard"]["rows"]:
        print(" | ".join(row))
    print(f"goal: {data['goal']}  ({data['job_seconds'] / 60:.1f} min for the whole job)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
