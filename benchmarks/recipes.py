"""Training recipes tried for Smuggle's model, side by side in the main job's own tournament.

    python benchmarks/recipes.py --run "LABEL=RUN_DIR" ...   # play each run's tournament, write the data
    python benchmarks/recipes.py --report                    # the table and figure again, no games

Issue #28 asks for the main job's agent to place first in its own leaderboard with its rating
interval above the rule bots', and for every recipe tried to be shown with its learning curve and
its measured gap. For each finished training run (a ``smuggle train`` folder: PPO or expert
iteration) this plays the main job's tournament (``scripts/main.sh``: the run's recommended
model, playing argmax, with 2 rule bots and 2 random agents, ``--games`` duplicate games, seed 0)
and keeps, in ``docs/img/data/recipes_smuggle.json``:

* the recipe: the run's ``config.json`` (its ``smuggle train`` command: PPO's ``train_command`` or
  expert iteration's ``expert_command``) and its wall minutes;
* the tournament: the model's rating and win rate with their 95% intervals, the best rule bot's,
  and the gap in rating between them (positive: the model ahead; "separated" when the intervals
  do not overlap);
* the learning curve (the run's ``eval.csv``: the trained policy against 3 rule bots, sampled
  play, 95% intervals), drawn in ``docs/img/recipes_smuggle.png``.

``scripts/update_docs.py`` writes the table into docs/zoo.md (``<!-- data-table:
recipes_smuggle -->``). Not a CI test: each training run takes minutes to an hour; the tournaments
about half a minute each.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
DATA = ROOT / "docs" / "img" / "data" / "recipes_smuggle.json"
PNG = ROOT / "docs" / "img" / "recipes_smuggle.png"
FIELD = ("rule", "rule", "random", "random")


def recipe(run: Path) -> dict[str, Any]:
    """The run's command line, recipe name, steps (or positions) and wall minutes."""
    from training.selfplay.config import TrainConfig, train_command
    from training.selfplay.expert import expert_command, is_expert_run, load_expert_config

    summary = json.loads((run / "final_eval.json").read_text(encoding="utf-8"))
    if is_expert_run(run):
        command, name = expert_command(load_expert_config(run)), "expert-iteration"
    else:
        config = TrainConfig.from_dict(json.loads((run / "config.json").read_text(encoding="utf-8")))
        command, name = train_command(config), "ppo-self-play"
    wall = summary.get("training_wall_seconds")
    return {"recipe": name, "command": command, "steps": summary["steps"], "wall_minutes": wall and wall / 60}


def tournament(spec: str, games: int) -> list[dict[str, Any]]:
    """The main job's tournament for the agent ``spec``: the leaderboard rows."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            *(sys.executable, "-m", "training.cli", "tournament", "smuggle_v0", "--players", "4"),
            *("--agents", ",".join((spec, *FIELD)), "--games", str(games)),
            *("--db", f"{tmp}/t.sqlite", "--out", tmp, "--quiet", "--no-plots"),
        ]
        subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        (board,) = Path(tmp).glob("*_leaderboard.csv")
        with board.open(newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))


def curve(run: Path) -> list[dict[str, float]]:
    """The run's periodic evaluations against 3 rule bots: step, win rate, interval."""
    with (run / "eval.csv").open(newline="", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f) if len(r) > 6 and r[1] == "rule"]
    keys = ("step", "games", "win_rate", "low", "high")
    return [dict(zip(keys, (int(r[0]), int(r[2]), float(r[4]), float(r[5]), float(r[6])))) for r in rows]


_KEYS = ("rating", "rating_low", "rating_high", "win_rate", "win_low", "win_high")


def standing(spec: str, games: int) -> dict[str, Any]:
    """The agent's and the best rule bot's standing in the main job's tournament."""
    rows = tournament(spec, games)
    ours = next(r for r in rows if r["spec"] == spec)
    rule = max((r for r in rows if r["spec"] == "rule"), key=lambda r: float(r["rating"]))
    return {
        "games": games,
        "place": rows.index(ours) + 1,
        "ours": {k: float(ours[k]) for k in _KEYS},
        "rule": {k: float(rule[k]) for k in _KEYS},
    }


def measure(label: str, run: Path, games: int) -> dict[str, Any]:
    """A training run: its recipe, its recommended model's standing, its learning curve."""
    summary = json.loads((run / "final_eval.json").read_text(encoding="utf-8"))
    model = summary["recommended"].split(":", 1)[1]
    return {
        "label": label,
        **recipe(run),
        "model": Path(model).name,
        **standing(f"ppo_argmax:{model}", games),
        "curve": curve(run),
    }


def reference(label: str, spec: str, games: int) -> dict[str, Any]:
    """An agent that is not a run folder here (the zoo's shipped model): its standing only."""
    meta: dict[str, Any] = {
        "label": label,
        "recipe": "-",
        "command": spec,
        "wall_minutes": None,
        "model": spec,
        "curve": [],
    }
    return {**meta, **standing(spec, games)}


def _rating(r: dict[str, float]) -> str:
    return f"{r['rating']:.0f} [{r['rating_low']:.0f}, {r['rating_high']:.0f}]"


def _win(r: dict[str, float]) -> str:
    return f"{100 * r['win_rate']:.1f}% [{100 * r['win_low']:.1f}, {100 * r['win_high']:.1f}]"


def table(results: list[dict[str, Any]]) -> dict[str, Any]:
    rows = []
    for m in results:
        ours, rule = m["ours"], m["rule"]
        separated = ours["rating_low"] > rule["rating_high"]
        wall = f"{m['wall_minutes']:.1f}" if m["wall_minutes"] else "-"
        rows.append(
            [
                m["label"],
                f"`{m['command']}` ({m['model']})",
                wall,
                f"{m['place']} of 5",
                f"{_rating(ours)}; {_win(ours)}",
                f"{_rating(rule)}; {_win(rule)}",
                f"{ours['rating'] - rule['rating']:+.0f}: {'separated' if separated else '**not separated**'}",
            ]
        )
    headers = ["recipe", "command (model)", "wall min", "place", "model: rating; win rate", "best rule bot", "gap"]
    return {"headers": headers, "align": "llrrlll", "rows": rows}


def plot(results: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8.5, 4.8))
    for m in results:
        pts = m["curve"]
        if not pts:  # a reference agent: no run, no curve (its standing is in the table)
            continue
        x = [p["step"] / 1000 for p in pts]
        ax.plot(x, [100 * p["win_rate"] for p in pts], marker="o", markersize=3, label=m["label"])
        ax.fill_between(x, [100 * p["low"] for p in pts], [100 * p["high"] for p in pts], alpha=0.12)
    ax.axhline(25, color="grey", linestyle="--", label="chance (25%)")
    ax.axhline(45, color="black", linestyle="-.", linewidth=0.8, label="issue #28's target (45%)")
    ax.set_xlabel("training steps (thousands; expert iteration: positions learnt from)")
    games = sorted({p["games"] for m in results for p in m["curve"]})
    ax.set_ylabel(f"win rate vs 3 rule bots (%)\nsampled play, {games[0]} to {games[-1]} games a point, 95% bands")
    ax.set_title("Smuggle, 4 players: recipes tried (runs that share a start overlap)")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--run", action="append", default=[], metavar="LABEL=DIR", help="a finished run (repeatable)")
    p.add_argument("--model", action="append", default=[], metavar="LABEL=SPEC", help="a reference agent (repeatable)")
    p.add_argument("--games", type=int, default=1000, help="tournament games per run (default 1000, as the main job)")
    p.add_argument("--report", action="store_true", help="the table and figure from the stored data, no games")
    args = p.parse_args(argv)
    if args.report:
        data = json.loads(DATA.read_text(encoding="utf-8"))
    else:
        if not args.run and not args.model:
            p.error("give at least one --run LABEL=DIR or --model LABEL=SPEC (or --report)")
        pairs = [item.partition("=") for item in args.run]
        if any(not label or not run for label, _, run in pairs):
            p.error("--run takes LABEL=DIR")
        results = [measure(label, Path(run), args.games) for label, _, run in pairs]
        results += [reference(label, spec, args.games) for label, _, spec in (m.partition("=") for m in args.model)]
        data = {"results": results, "table": table(results)}
        DATA.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    plot(data["results"], PNG)
    for row in data["table"]["rows"]:
        print(" | ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
