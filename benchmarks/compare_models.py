"""Compare trained models on the same games: how the zoo's candidates were chosen.

    python benchmarks/compare_models.py illegal_v0 runs/zoo/illegal_v0/final.zip runs/zoo/illegal_v0-rule/best.zip
    python benchmarks/compare_models.py smuggle_v0 runs/zoo/smuggle_v0/best.zip --games 1000 --modes argmax

Each model plays ``--games`` seeded games against 3 random agents, 3 rule bots and the mixed
table (2 rule bots and a random agent, with the rule bots' own win rate there), seats rotated
(``training.selfplay.evaluate``; game g: seed ``--seed + g``, the same games for every model),
sampling its policy and playing its most probable action (``--modes``). Seeds start at 3,000,000
by default: away from the trainer's periodic evaluations (1,000,000), which picked ``best.zip``
and so flatter it, and from ``benchmarks/zoo.py`` (2,000,000). Prints one table per model and
mode (95% Wilson intervals). Not a CI test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    from agents.ppo import PPOAgent
    from smuggle_envs import make_game
    from training.selfplay.evaluate import evaluate, results_table

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("env_id")
    p.add_argument("models", nargs="+", metavar="MODEL", help="model files (.zip from smuggle train, or .npz)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=400, help="games per table (default 400)")
    p.add_argument("--seed", type=int, default=3_000_000, help="first seed (default 3000000)")
    p.add_argument("--modes", default="sampled,argmax", help="sampled, argmax or both (default)")
    p.add_argument("--tables", default="random,rule,rule+random", help="opponent tables (default: all three)")
    args = p.parse_args(argv)

    game = make_game(args.env_id, num_players=args.players)
    for path in args.models:
        for mode in args.modes.split(","):
            start = time.perf_counter()
            agent = PPOAgent(game, path, seed=1, deterministic=mode == "argmax")
            results = [
                evaluate(game, agent, table, args.games, seed=args.seed, max_decisions=5000)
                for table in args.tables.split(",")
            ]
            print(f"\n{path}, {mode} ({time.perf_counter() - start:.0f} s)", flush=True)
            print(results_table(results, name=mode), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
