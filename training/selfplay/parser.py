"""The parser of ``smuggle train`` (its code: ``cli.py``).

``add_train(subparsers)`` adds the subcommand and returns its parser; ``training.cli.COMMANDS``
names it. It imports argparse, the options every command shares (``training.options``: the
game, ``--players``, ``--seed``, ``--no-progress``) and the run's settings (``TrainConfig``,
for the defaults it shows): numpy, no torch, so every ``smuggle`` command can build it.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..options import RAW, add_env_id, add_no_progress, add_players, add_seed
from .config import VEC_KINDS, TrainConfig
from .device import DEVICES

# What ``smuggle train --help`` says first: PPO self-play, then expert iteration (--teacher).
_DESCRIPTION = (
    "Train an agent for ENV_ID by self-play: MaskablePPO plays one seat (a random\n"
    "seat each game) against opponents drawn from a league of its own frozen\n"
    "snapshots, the game's rule-based bot and the random agent, the opponents it\n"
    "beats least drawn most often (prioritised fictitious self-play). It starts\n"
    "from a clone of the rule-based bot where the game has one (--imitate).\n\n"
    "Writes to DIR: final.zip (agent spec ppo:DIR/final.zip), checkpoints,\n"
    "TensorBoard logs (tensorboard --logdir DIR/tb), eval.csv and\n"
    "learning_curve.png (win rate against each baseline over training),\n"
    "league/ and final_eval.json. Ends with a table of win rates against the\n"
    "random and rule-based agents with 95% confidence intervals.\n\n"
    "Ctrl-C saves a checkpoint at the end of the current rollout and stops (exit\n"
    "code 130; Ctrl-C twice stops at once). Interrupted, or crashed? Run the same\n"
    "command with --resume: it continues exactly from the latest checkpoint.\n\n"
    "Expert iteration (--teacher SPEC): instead of PPO, rounds of self-play games\n"
    "in which every seat is the IS-MCTS search SPEC guided by the student network\n"
    "(prior=student, value=student), then the student, a MaskablePPO policy, is\n"
    "fitted to the search's visit counts and to the games' outcomes. Its settings\n"
    "(--set rounds=R, games_per_round, epochs, ...: see docs/training.md) are not\n"
    "PPO's; it writes the same final.zip, final_eval.json and eval.csv, and rounds/.\n"
    "Ctrl-C stops it at once; --resume continues after the last complete round."
)


def add_train(subparsers: Any) -> argparse.ArgumentParser:
    d = TrainConfig()
    p: argparse.ArgumentParser = subparsers.add_parser(
        "train",
        help="train a self-play agent (MaskablePPO with a league)",
        formatter_class=RAW,
        description=_DESCRIPTION,
        epilog="examples:\n  smuggle train smuggle_v0\n"
        "  smuggle train smuggle_v0 --players 4 --steps 200000 --out runs/quick\n"
        "  smuggle train smuggle_v0 --out runs/quick --resume --steps 400000\n"
        "  smuggle train smuggle_v0 --workers 2 --out runs/two-cores\n"
        "  smuggle train smuggle_v0 --workers 16 --backend ray --ray-address auto\n"
        "  smuggle train smuggle_v0 --players 4 --out runs/exit --teacher 'ismcts:sims=50;prior=student;value=student'\n"
        "  smuggle match --agents ppo:runs/quick/final.zip,rule,rule,rule --games 300",
    )
    add_env_id(p)
    add_players(p, dest="num_players")
    p.add_argument(
        "--steps",
        type=int,
        metavar="S",
        help=f"training steps, i.e. learner decisions, in all (default: {d.steps}; with "
        "--resume: the saved run's target, or a new, larger one)",
    )
    p.add_argument("--out", metavar="DIR", help="run directory (default: runs/ENV_ID)")
    p.add_argument("--resume", action="store_true", help="continue the run in DIR from its latest checkpoint")
    add_seed(p, "seed of the whole run (default: 0)", default=None)
    p.add_argument(
        "--eval-games",
        type=int,
        metavar="G",
        dest="final_eval_games",
        help=f"games per baseline in the final evaluation (default: {d.final_eval_games})",
    )
    p.add_argument(
        "--n-envs",
        type=int,
        metavar="E",
        dest="n_envs",
        help=f"games played in parallel by the vector env (default: {d.n_envs})",
    )
    p.add_argument(
        "--vec",
        choices=VEC_KINDS,
        help="vector env: in-process, one game at a time (dummy, the default), in-process with the games' "
        "network opponents deciding together (batched), or one subprocess per game",
    )
    p.add_argument(
        "--device",
        choices=DEVICES,
        help=f"where the learner runs (default: {d.device}, bit-exact runs): cuda (a GPU), or auto (cuda "
        "where torch sees a GPU, else cpu); the games and rollouts stay on the CPU",
    )
    _add_expert_option(p)
    _add_scale_options(p, d)
    return p


def _add_scale_options(p: argparse.ArgumentParser, d: TrainConfig) -> None:
    """Where the run's games are played, its warm start, any other setting, and the progress bar."""
    p.add_argument(
        "--workers",
        type=int,
        metavar="W",
        help="data-parallel training: W worker processes (or Ray actors), each with n-envs/W games and "
        "a share of every minibatch (default: 0, the games in this process); results depend on W, "
        "not on the backend (with --teacher: W processes, or W Ray tasks, play each round's games, "
        "and the results depend on neither)",
    )
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where --workers run: local processes (default) or Ray actors (a local Ray starts by itself)",
    )
    p.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="with --backend ray: the cluster to join (auto, or ray://host:10001); default: a local Ray",
    )
    p.add_argument(
        "--imitate",
        metavar="SPEC",
        help=f"warm start: clone this agent before self-play (default: {d.imitate}, where "
        "the game has a rule-based bot); 'none' for pure self-play from scratch (with --teacher: the "
        "first student clones SPEC, --set init=imitate; default there: fresh weights)",
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="settings",
        help="any other training option (a TrainConfig field, see config.json of a run; with --teacher "
        "an ExpertConfig field), VALUE in JSON: --set baseline_share=0.3 --set net_arch=[256,256] "
        "--set learning_rate=1e-4",
    )
    add_no_progress(p)


def _add_expert_option(p: argparse.ArgumentParser) -> None:
    """``--teacher``: expert iteration instead of PPO (``expert.py``), with its own ``--set`` keys."""
    p.add_argument(
        "--teacher",
        metavar="SPEC",
        help="expert iteration instead of PPO: the search that plays every seat and teaches the student, "
        "ismcts:KEY=VALUE;... where prior=student and value=student are the student's current network "
        "(e.g. 'ismcts:sims=100;prior=student;value=student'); settings: --set rounds=R, games_per_round=G, "
        "explore_moves, temperature, epochs, batch_size, learning_rate, value_weight, replay_rounds, init, "
        "... (docs/training.md, Expert iteration); --steps, --n-envs and --vec do not apply",
    )
