"""Evidence that self-play training learns: train on defaults, then evaluate over many games.

    python benchmarks/train_smuggle.py                      # smuggle_v0, 4 players, default steps
    python benchmarks/train_smuggle.py --env-id ciq_v0      # any env id (its default players)
    python benchmarks/train_smuggle.py --env-id all         # every env id in the registry

For each env id: ``smuggle train`` with the default ``TrainConfig`` (timed: wall clock and CPU
seconds of this process and its children, since the 2-core machines it runs on are shared), then
the final model (``ppo:<out>/final.zip``) plays ``--games`` seeded games against ``n - 1`` random
agents and ``--games`` against ``n - 1`` rule-based bots, seats rotated (game g: seed
``--seed + g``, the trained agent in seat g mod n), with 95% Wilson intervals. Prints a table,
checks the targets (smuggle_v0: at least 60% against random; above 25% against the rule bots with
the interval above 25%) and writes ``<out>/benchmark.json``. Not a CI test: it takes up to half
an hour per env id on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGETS = {"random": 0.60, "rule": 0.25}


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def git_commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except OSError:
        return "?"


def _checks(results: list) -> dict:
    """Smuggle's targets, met or not."""
    checks = {}
    for r in results:
        if r.opponent == "random":
            checks["random >= 60%"] = r.win_rate >= TARGETS["random"]
        elif r.opponent == "rule":
            checks["rule > 25%, CI above 25%"] = r.ci[0] > TARGETS["rule"]
    return checks


def _provenance() -> dict:
    """The command, machine and commit of the run."""
    return {
        "command": " ".join([Path(sys.executable).name] + sys.argv),
        "cpus": os.cpu_count(),
        "machine": platform.platform(),
        "python": platform.python_version(),
        "commit": git_commit(),
    }


def bench(
    env_id: str, players: int | None, steps: int | None, games: int, seed: int, out: Path, skip_train: bool
) -> dict:
    from agents.ppo import PPOAgent
    from training.selfplay.evaluate import evaluate, results_table
    from training.selfplay.trainer import TrainConfig, Trainer

    config = TrainConfig(env_id=env_id, num_players=players)
    if steps is not None:
        config.steps = steps
    trainer = Trainer(config, out)
    game = trainer.game
    load_before = os.getloadavg()
    wall = cpu = None
    if not skip_train:
        t0, c0 = time.perf_counter(), cpu_seconds()
        trainer.run(resume=(out / "config.json").exists())
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    load_after = os.getloadavg()

    agent = PPOAgent(game, str(out / "final.zip"), deterministic=config.deterministic_eval)
    results = []
    t0 = time.perf_counter()
    for baseline in trainer.baselines:
        results.append(evaluate(game, agent, baseline, games, seed=seed, max_decisions=config.max_decisions))
    eval_wall = time.perf_counter() - t0
    n = game.num_players
    print(
        f"\n=== {env_id}, {n} players: {games} games per table, seats rotated, game g uses seed "
        f"{seed}+g; 95% Wilson intervals ==="
    )
    print(results_table(results))
    checks = _checks(results) if env_id == "smuggle_v0" else {}
    if checks:
        print("targets: " + ", ".join(f"{k}: {'met' if v else 'NOT met'}" for k, v in checks.items()))
    if wall is not None:
        print(
            f"training: {config.steps} steps in {wall / 60:.1f} min wall, {cpu / 60:.1f} min CPU "
            f"(load average {load_before[0]:.1f} before, {load_after[0]:.1f} after, "
            f"{os.cpu_count()} CPUs)"
        )
    record = {
        "env_id": env_id,
        "num_players": n,
        "steps": config.steps,
        "games": games,
        "seed": seed,
        **_provenance(),
        "train_wall_s": wall,
        "train_cpu_s": cpu,
        "eval_wall_s": eval_wall,
        "load_average_before": load_before,
        "load_average_after": load_after,
        "config": config.to_dict(),
        "results": [r.to_dict() for r in results],
        "targets": checks,
    }
    (out / "benchmark.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return record


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--env-id", default="smuggle_v0", help="an env id, or 'all' (default: smuggle_v0)")
    p.add_argument("--players", type=int, help="players (default: 4 for smuggle_v0, else the game's default)")
    p.add_argument("--steps", type=int, help="training steps (default: TrainConfig's default)")
    p.add_argument("--games", type=int, default=1000, help="evaluation games per baseline (default 1000)")
    p.add_argument("--seed", type=int, default=2_000_000, help="first evaluation seed (default 2000000)")
    p.add_argument("--out", default="runs/benchmark", help="parent folder of the runs (default runs/benchmark)")
    p.add_argument("--skip-train", action="store_true", help="evaluate the existing final.zip only")
    args = p.parse_args(argv)

    from smuggle_envs import ENV_IDS

    env_ids = list(ENV_IDS) if args.env_id == "all" else [args.env_id]
    records = []
    for env_id in env_ids:
        players = args.players if args.players is not None else (4 if env_id == "smuggle_v0" else None)
        records.append(
            bench(env_id, players, args.steps, args.games, args.seed, Path(args.out) / env_id, args.skip_train)
        )
    ok = all(all(r["targets"].values()) for r in records)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
