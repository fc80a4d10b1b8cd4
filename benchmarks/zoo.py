"""Measure every model in the zoo: the README's zoo table, ``smuggle zoo``'s numbers.

    python benchmarks/zoo.py                         # every model, 1000 games per table, writes the manifest
    python benchmarks/zoo.py --only smuggle_v0@4     # one model
    python benchmarks/zoo.py --games 200 --no-write  # a quick look, the manifest untouched
    python benchmarks/zoo.py --report                # the table and figure again, no games played

For each model ``zoo:ENV_ID@N``: ``--games`` seeded games against ``N - 1`` random agents and
``--games`` against ``N - 1`` rule bots, seats rotated (game g: seed ``--seed + g``, the model in
seat g mod N; a shared win counts 1/k; 95% Wilson intervals; ``training.selfplay.evaluate``), then
a mixed-field duplicate tournament of ``--mixed-games`` games: the model, 2 rule bots and 2
random agents (the main job's lineup; ``smuggle tournament``, Plackett-Luce ratings fitted to all
games, every pair of agents meeting equally often). It prints the markdown table the README
shows, checks issue #14's goal (at least 40% against the rule bots with the interval above 35%,
at least 90% against random, first in the mixed field by rating and by win rate), draws
``docs/img/zoo.png`` (win rates with their intervals) and, unless ``--no-write``, stores the
measurements in ``agents/zoo/models.json`` (``smuggle zoo`` prints them). Not a CI test: about
1 to 5 minutes per model on 2 cores.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GOAL = {"rule": 0.40, "rule_ci_low": 0.35, "random": 0.90}
MIXED_FIELD = ("rule", "rule", "random", "random")


def _rate(wins: float, games: int, ci: tuple[float, float]) -> dict[str, Any]:
    return {"games": games, "win_rate": wins / games if games else 0.0, "ci": [ci[0], ci[1]]}


def baselines(key: str, games: int, seed: int) -> dict[str, dict[str, Any]]:
    """The model's win rate against 3 random agents and against 3 rule bots."""
    env_id, _, players = key.partition("@")
    return agent_baselines(env_id, int(players), f"zoo:{key}", games, seed)


def agent_baselines(env_id: str, players: int, spec: str, games: int, seed: int) -> dict[str, dict[str, Any]]:
    """The agent ``spec``'s win rate against N-1 random agents and against N-1 rule bots, seats
    rotated, game g at seed ``seed`` + g (``benchmarks/recipes.py`` measures its runs so too)."""
    from agents import make_agent
    from smuggle_envs import make_game
    from training.selfplay.evaluate import evaluate

    game = make_game(env_id, num_players=players)
    agent = make_agent(spec, game, seed=seed)
    out = {}
    for baseline in ("random", "rule"):
        r = evaluate(game, agent, baseline, games, seed=seed, max_decisions=5000)
        out[baseline] = {**_rate(r.wins, r.games, r.ci), "opponent": r.opponent, "unfinished": r.unfinished}
    return out


def mixed_field(key: str, games: int, seed: int, out: Path, workers: int) -> dict[str, Any]:
    """The model in a duplicate tournament with 2 rule bots and 2 random agents."""
    env_id, _, players = key.partition("@")
    db = out / f"{key.replace('@', '-')}.sqlite"
    db.unlink(missing_ok=True)  # a fresh tournament: the manifest's model may have changed
    cmd = [
        *(sys.executable, "-m", "training.cli", "tournament", env_id, "--players", players),
        *("--agents", ",".join((f"zoo:{key}", *MIXED_FIELD)), "--games", str(games), "--seed", str(seed)),
        *("--db", str(db), "--out", str(out), "--workers", str(workers), "--quiet", "--no-plots"),
    ]
    subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    board = sorted(out.glob(f"{db.stem}*leaderboard.csv"), key=lambda p: p.stat().st_mtime)[-1]
    with open(board, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    ours = next(r for r in rows if r["spec"].startswith("zoo"))
    by_rate = sorted(rows, key=lambda r: -float(r["win_rate"]))
    others = [r for r in rows if r is not ours]
    best_other = max(others, key=lambda r: float(r["win_rate"]))
    return {
        **_rate(float(ours["wins"]), int(ours["games"]), (float(ours["win_low"]), float(ours["win_high"]))),
        "rating": float(ours["rating"]),
        "rank_rating": rows.index(ours) + 1,
        "rank_win_rate": by_rate.index(ours) + 1,
        "agents": len(rows),
        "tournament_games": games,
        "best_other": {"name": best_other["agent"], "win_rate": float(best_other["win_rate"])},
    }


def goal_met(measured: dict[str, Any]) -> dict[str, bool]:
    rule, random_, mixed = measured["rule"], measured["random"], measured.get("mixed")
    return {
        "rule >= 40%, interval above 35%": rule["win_rate"] >= GOAL["rule"] and rule["ci"][0] > GOAL["rule_ci_low"],
        "random >= 90%": random_["win_rate"] >= GOAL["random"],
        "first in the mixed field": bool(mixed) and mixed["rank_rating"] == 1 and mixed["rank_win_rate"] == 1,
    }


# Issue #28's targets for every zoo model (1000 seat-rotated games per table, 95% intervals).
TARGETS = {"rule": 0.45, "rule_ci_low": 0.40, "random": 0.90}
TARGETS_DATA = ROOT / "docs" / "img" / "data" / "zoo_targets.json"


def _mark(ok: bool) -> str:
    return "met" if ok else "**not met**"


def targets_table(manifest: dict[str, dict[str, Any]], keys: list[str]) -> dict[str, Any]:
    """Issue #28's targets, model by model, from the manifest's measurements and the zoo's
    best responses (``benchmarks/exploit_table.py`` writes ``docs/img/data/exploit_zoo.json``)."""
    exploit = json.loads((ROOT / "docs" / "img" / "data" / "exploit_zoo.json").read_text(encoding="utf-8"))
    responses = {r["env_id"]: r for r in exploit["rows"]}
    rows = []
    for key in keys:
        m = manifest[key]["eval"]
        rule, random_, mixed = m["rule"], m["random"], m.get("mixed")
        first = bool(mixed) and mixed["rank_rating"] == 1
        br = responses.get(manifest[key]["env_id"])
        br_ok = br is not None and br["best_response"]["ci_low"] <= br["chance"]
        rows.append(
            [
                f"`zoo:{key}`",
                f"{_cell(rule)}: {_mark(rule['win_rate'] >= TARGETS['rule'] and rule['ci'][0] > TARGETS['rule_ci_low'])}",
                f"{_cell(random_)}: {_mark(random_['win_rate'] >= TARGETS['random'])}",
                f"{mixed['rank_rating']} of {mixed['agents']}: {_mark(first)}" if mixed else "-",
                f"{_cell(_br_rate(br))} after {br['steps']:,} steps: {_mark(br_ok)}" if br else "-",
            ]
        )
    headers = [
        "model",
        "vs 3 rule bots (>= 45%, interval above 40%)",
        "vs 3 random (>= 90%)",
        "mixed field, place by rating (first)",
        "a best response vs 3 models (at or below chance: its interval reaches 25%)",
    ]
    return {"headers": headers, "align": "lllll", "rows": rows}


def _br_rate(row: dict[str, Any]) -> dict[str, Any]:
    r = row["best_response"]
    return {"win_rate": r["win_rate"], "ci": [r["ci_low"], r["ci_high"]]}


def write_targets(manifest: dict[str, dict[str, Any]], keys: list[str]) -> None:
    """``docs/img/data/zoo_targets.json``: the table docs/zoo.md shows (``scripts/update_docs.py``)."""
    data = {"targets": TARGETS, "table": targets_table(manifest, keys)}
    TARGETS_DATA.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _cell(rate: dict[str, Any]) -> str:
    lo, hi = rate["ci"]
    return f"{100 * rate['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def markdown(manifest: dict[str, dict[str, Any]], keys: list[str]) -> str:
    lines = [
        "| model | training | vs 3 random | vs 3 rule bots | mixed field: win rate | place (rating / wins) | goal |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for key in keys:
        e, m = manifest[key], manifest[key]["eval"]
        mixed = m.get("mixed")
        place = f"{mixed['rank_rating']} / {mixed['rank_win_rate']} of {mixed['agents']}" if mixed else "-"
        met = m["goal"]
        goal = "met" if all(met.values()) else "not met: " + ", ".join(k for k, v in met.items() if not v)
        lines.append(
            f"| `zoo:{key}` | {e['steps'] // 1000}k steps ({e['checkpoint']}), {e['wall_minutes']} min "
            f"| {_cell(m['random'])} | {_cell(m['rule'])} | {_cell(mixed) if mixed else '-'} | {place} | {goal} |"
        )
    return "\n".join(lines)


def plot(manifest: dict[str, dict[str, Any]], keys: list[str], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    tables = [("random", "vs 3 random"), ("rule", "vs 3 rule bots"), ("mixed", "mixed field (model, 2 rule, 2 random)")]
    fig, ax = plt.subplots(figsize=(9, 5.2))
    x = np.arange(len(keys))
    for i, (name, label) in enumerate(tables):
        rates = [manifest[k]["eval"].get(name) for k in keys]
        y = np.array([100 * r["win_rate"] if r else np.nan for r in rates])
        lo = np.array([100 * (r["win_rate"] - r["ci"][0]) if r else 0 for r in rates])
        hi = np.array([100 * (r["ci"][1] - r["win_rate"]) if r else 0 for r in rates])
        games = {r["games"] for r in rates if r}
        ax.bar(
            x + (i - 1) * 0.27, y, 0.27, yerr=[lo, hi], capsize=3, label=f"{label}, {'/'.join(map(str, games))} games"
        )
    rivals = [manifest[k]["eval"].get("mixed", {}).get("best_other") for k in keys]
    if any(rivals):
        ax.scatter(
            [x[i] + 0.27 for i, r in enumerate(rivals) if r],
            [100 * r["win_rate"] for r in rivals if r],
            marker="_",
            s=300,
            color="black",
            zorder=3,
            label="mixed field: the best other agent's win rate",
        )
    ax.axhline(25, color="grey", linestyle="--", label="chance (1 in 4 players, 25%)")
    ax.axhline(40, color="black", linestyle="-.", linewidth=0.8, label="goal vs rule bots (40%)")
    ax.set_xticks(x, [f"zoo:{k}" for k in keys], fontsize=8)
    ax.set_ylabel("win rate of the zoo model (%)\nbars: 95% Wilson intervals; games per table in the legend")
    ax.set_ylim(0, 105)
    ax.set_title("The model zoo: win rates, seats rotated")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def report(path: Path) -> None:
    """Print the table and draw the figure again from the manifest's measurements (no games)."""
    from agents.zoo import manifest

    entries = manifest()
    keys = sorted(k for k in entries if "eval" in entries[k])
    print(markdown(entries, keys))
    write_targets(entries, keys)
    for key in keys:
        print(f"- `zoo:{key}`: `{entries[key]['command']}`, then its {entries[key]['checkpoint']}")
    plot(entries, keys, path)


def main(argv: list[str] | None = None) -> int:
    from agents.zoo import git_commit, write_manifest
    from agents.zoo import manifest as read_manifest

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--only", action="append", default=[], metavar="ENV_ID@N", help="measure this model only (repeatable)"
    )
    p.add_argument("--games", type=int, default=1000, help="games per baseline table (default 1000)")
    p.add_argument("--mixed-games", type=int, default=1000, help="mixed-field tournament games (default 1000; 0: skip)")
    p.add_argument("--seed", type=int, default=2_000_000, help="first seed (default 2000000)")
    p.add_argument("--workers", type=int, default=2, help="processes for the tournament (default 2)")
    p.add_argument("--out", default="runs/benchmark/zoo", help="tournament databases (default runs/benchmark/zoo)")
    p.add_argument("--plot", default="docs/img/zoo.png", help="the figure (default docs/img/zoo.png)")
    p.add_argument("--no-write", action="store_true", help="leave agents/zoo/models.json as it is")
    p.add_argument("--report", action="store_true", help="the table and figure from the manifest, no games played")
    args = p.parse_args(argv)
    if args.report:
        report(Path(args.plot))
        return 0

    manifest = read_manifest()
    keys = args.only or sorted(manifest)
    missing = [k for k in keys if k not in manifest]
    if missing or not keys:
        p.error(f"no such model in the zoo: {', '.join(missing) or 'the zoo is empty'}; it has {sorted(manifest)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = " ".join(["python", "benchmarks/zoo.py", *(argv if argv is not None else sys.argv[1:])])
    for key in keys:
        start = time.perf_counter()
        measured: dict[str, Any] = baselines(key, args.games, args.seed)
        if args.mixed_games:
            measured["mixed"] = mixed_field(key, args.mixed_games, args.seed, out, args.workers)
        measured["goal"] = goal_met(measured)
        measured.update(
            commit=git_commit(), command=command, seed=args.seed, seconds=round(time.perf_counter() - start)
        )
        manifest[key]["eval"] = measured
        print(f"{key}: {json.dumps({k: v for k, v in measured.items() if k != 'command'})}", flush=True)
    print(markdown(manifest, keys))
    plot(manifest, keys, Path(args.plot))
    if not args.no_write:
        write_manifest(manifest)
        write_targets(manifest, sorted(k for k in manifest if "eval" in manifest[k]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
