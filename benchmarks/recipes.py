"""Training recipes tried for a game's zoo model, side by side in the main job's own tournament.

    python benchmarks/recipes.py --run "LABEL=RUN_DIR" ...   # Smuggle: play each run's games, write the data
    python benchmarks/recipes.py --env ciq_v0 --run "LABEL=RUN_DIR" --model "zoo's model=zoo"
    python benchmarks/recipes.py --env ciq_v0 --report       # the table and figure again, no games
    python benchmarks/recipes.py --run "LABEL=RUN_DIR" --merge   # one more run; the stored rows kept

Issue #28 asks for the main job's agent to place first in its own leaderboard with its rating
interval above the rule bots', and for every recipe tried to be shown with its learning curve and
its measured gap. For each finished training run (a ``smuggle train`` folder: PPO or expert
iteration) this plays the main job's tournament (``scripts/main.sh``: the run's recommended
model, playing argmax, with 2 rule bots and 2 random agents, ``--games`` duplicate games, seed 0),
plays it against 3 rule bots and against 3 random agents (``--baseline-games`` seat-rotated games
each at seeds 2,000,000 + g, as ``benchmarks/zoo.py`` measures the zoo: issue #28's first two
targets) and keeps, in ``docs/img/data/recipes_GAME.json`` (``recipes_smuggle.json`` for
``smuggle_v0``):

* the recipe: the run's ``config.json`` (its ``smuggle train`` command: PPO's ``train_command`` or
  expert iteration's ``expert_command``) and its wall minutes;
* the tournament: the model's rating and win rate with their 95% intervals, the best rule bot's,
  and the gap in rating between them (positive: the model ahead; "separated" when the intervals
  do not overlap);
* its win rates against 3 rule bots and against 3 random agents, with 95% Wilson intervals;
* the learning curve (the run's ``eval.csv``: the trained policy against 3 rule bots, sampled
  play, 95% intervals), drawn in ``docs/img/recipes_GAME.png``.

``scripts/update_docs.py`` writes the table into docs/zoo.md (``<!-- data-table:
recipes_GAME -->``). Not a CI test: each training run takes minutes to an hour; the games a
minute or two a model.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _sibling(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` beside this file, loaded by path (the benchmarks are scripts, not a
    package), wherever this file is run or loaded from."""
    spec = importlib.util.spec_from_file_location(f"_benchmarks_{name}", Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    if spec.name not in sys.modules:
        module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[spec.name]


zoo = _sibling("zoo")  # the zoo's own measurements, targets and mixed field

FIELD = zoo.MIXED_FIELD
BASELINE_SEED = 2_000_000  # benchmarks/zoo.py's seeds: no training run or model choice saw them


def game_name(env_id: str) -> str:
    """``smuggle_v0`` -> ``smuggle``: the name in the data file's and the figure's."""
    return env_id.rsplit("_v", 1)[0]


def data_path(env_id: str) -> Path:
    return ROOT / "docs" / "img" / "data" / f"recipes_{game_name(env_id)}.json"


def png_path(env_id: str) -> Path:
    return ROOT / "docs" / "img" / f"recipes_{game_name(env_id)}.png"


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


def tournament(env_id: str, spec: str, games: int) -> list[dict[str, Any]]:
    """The main job's tournament for the agent ``spec``: the leaderboard rows."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            *(sys.executable, "-m", "training.cli", "tournament", env_id, "--players", "4"),
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


def baselines(env_id: str, spec: str, games: int) -> dict[str, dict[str, float]]:
    """The agent's win rate against 3 rule bots and against 3 random agents, seat-rotated."""
    measured = zoo.agent_baselines(env_id, 4, spec, games, BASELINE_SEED)
    return {
        opponent: {"games": r["games"], "win_rate": r["win_rate"], "low": r["ci"][0], "high": r["ci"][1]}
        for opponent, r in ((o, measured[o]) for o in ("rule", "random"))
    }


def standing(env_id: str, spec: str, games: int, baseline_games: int) -> dict[str, Any]:
    """The agent's and the best rule bot's standing in the main job's tournament, and the
    agent's win rates against 3 rule bots and 3 random agents (none if ``baseline_games`` is 0)."""
    rows = tournament(env_id, spec, games)
    ours = next(r for r in rows if r["spec"] == spec)
    rule = max((r for r in rows if r["spec"] == "rule"), key=lambda r: float(r["rating"]))
    return {
        "games": games,
        "place": rows.index(ours) + 1,
        "ours": {k: float(ours[k]) for k in _KEYS},
        "rule": {k: float(rule[k]) for k in _KEYS},
        "baselines": baselines(env_id, spec, baseline_games) if baseline_games else {},
    }


def measure(env_id: str, label: str, run: Path, games: int, baseline_games: int) -> dict[str, Any]:
    """A training run: its recipe, its recommended model's standing, its learning curve."""
    summary = json.loads((run / "final_eval.json").read_text(encoding="utf-8"))
    model = summary["recommended"].split(":", 1)[1]
    return {
        "label": label,
        **recipe(run),
        "model": Path(model).name,
        **standing(env_id, f"ppo_argmax:{model}", games, baseline_games),
        "curve": curve(run),
    }


def reference(env_id: str, label: str, spec: str, games: int, baseline_games: int) -> dict[str, Any]:
    """An agent that is not a run folder here (the zoo's shipped model): its standing only."""
    meta: dict[str, Any] = {
        "label": label,
        "recipe": "-",
        "command": spec,
        "wall_minutes": None,
        "model": spec,
        "curve": [],
    }
    return {**meta, **standing(env_id, spec, games, baseline_games)}


def _rating(r: dict[str, float]) -> str:
    return f"{r['rating']:.0f} [{r['rating_low']:.0f}, {r['rating_high']:.0f}]"


def _win(r: dict[str, float]) -> str:
    return f"{100 * r['win_rate']:.1f}% [{100 * r['win_low']:.1f}, {100 * r['win_high']:.1f}]"


def _baseline(m: dict[str, Any], opponent: str) -> str:
    """``41.2% [38.2, 44.3]: met`` against issue #28's target, or ``-`` where not measured."""
    r = m.get("baselines", {}).get(opponent)
    if not r:
        return "-"
    targets = zoo.TARGETS
    met = r["win_rate"] >= targets[opponent] and (opponent != "rule" or r["low"] > targets["rule_ci_low"])
    return f"{100 * r['win_rate']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]: {zoo._mark(met)}"


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
                _baseline(m, "rule"),
                _baseline(m, "random"),
            ]
        )
    headers = [
        *("recipe", "command (model)", "wall min", "place", "model: rating; win rate", "best rule bot", "gap"),
        *("vs 3 rule bots (>= 45%, interval above 40%)", "vs 3 random (>= 90%)"),
    ]
    return {"headers": headers, "align": "llrrlllll", "rows": rows}


def plot(results: list[dict[str, Any]], path: Path, env_id: str = "smuggle_v0") -> None:
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
    ax.set_title(f"{env_id}, 4 players: recipes tried (runs that share a start overlap)")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def merge(stored: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stored rows with each new one in place of the row of its label (new labels last)."""
    fresh = {m["label"]: m for m in new}
    merged = [fresh.pop(m["label"], m) for m in stored]
    return merged + list(fresh.values())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--env", default="smuggle_v0", help="the game (default smuggle_v0), 4 players")
    p.add_argument("--run", action="append", default=[], metavar="LABEL=DIR", help="a finished run (repeatable)")
    p.add_argument("--model", action="append", default=[], metavar="LABEL=SPEC", help="a reference agent (repeatable)")
    p.add_argument("--games", type=int, default=1000, help="tournament games per run (default 1000, as the main job)")
    p.add_argument(
        "--baseline-games",
        type=int,
        default=1000,
        help="games against 3 rule bots and 3 random agents (default 1000; 0: none)",
    )
    p.add_argument("--report", action="store_true", help="the table and figure from the stored data, no games")
    p.add_argument("--merge", action="store_true", help="keep the stored rows of the labels not measured now")
    args = p.parse_args(argv)
    if args.report:
        data = json.loads(data_path(args.env).read_text(encoding="utf-8"))
    else:
        if not args.run and not args.model:
            p.error("give at least one --run LABEL=DIR or --model LABEL=SPEC (or --report)")
        pairs = [item.partition("=") for item in args.run]
        if any(not label or not run for label, _, run in pairs):
            p.error("--run takes LABEL=DIR")
        counts = (args.games, args.baseline_games)
        results = [measure(args.env, label, Path(run), *counts) for label, _, run in pairs]
        models = (m.partition("=") for m in args.model)
        results += [reference(args.env, label, spec, *counts) for label, _, spec in models]
        if args.merge and data_path(args.env).exists():
            results = merge(json.loads(data_path(args.env).read_text(encoding="utf-8"))["results"], results)
        data = {"env_id": args.env, "results": results, "table": table(results)}
        data_path(args.env).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    plot(data["results"], png_path(args.env), args.env)
    for row in data["table"]["rows"]:
        print(" | ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
