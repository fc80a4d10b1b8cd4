"""The parsers of ``smuggle exploit`` and ``zoo``, the commands whose code is a module of ``training``
itself (``exploit.py``; ``zoo.py`` and ``zoo_value.py``, whose settings start from the defaults
here). Each ``add_NAME(subparsers)`` adds one subcommand and returns its parser;
``training.cli.COMMANDS`` names them. Only argparse is imported here (and the options several
commands share, ``options.py``: argparse only), so ``smuggle --help`` builds them without loading
any command's code.
"""

from __future__ import annotations

import argparse
from typing import Any

from .options import RAW, add_games, add_no_progress, add_players, add_seed

EXPLOIT_STEPS = 100_000  # smuggle exploit's default training budget
EXPLOIT_GAMES = 500  # and its final evaluation's games per row
# The learner's step size: TrainConfig.learning_rate (not imported: this module loads argparse only)
EXPLOIT_LEARNING_RATE = 3e-4
ZOO_CHECKPOINTS = ("recommended", "best", "final")
# smuggle zoo value's defaults (training/zoo_value.py: its settings start from these)
ZOO_VALUE_GAMES = 2000
ZOO_VALUE_EPOCHS = 8
ZOO_VALUE_OPPONENTS = "zoo,rule"


def add_exploit(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "exploit",
        help="train a best response to an agent: how exploitable is it?",
        formatter_class=RAW,
        description="Approximate exploitability (Timbers et al. 2020; OpenSpiel's rl_response),\n"
        "for N players: train a fresh MaskablePPO learner, with a fixed budget and seed,\n"
        "in a random seat against N-1 copies of the agent SPEC, then report its win rate\n"
        "against SPEC with a 95% Wilson interval, the chance level 1/N, and a naive\n"
        "agent (--baseline) in the same seat against the same opponents and deals.\n"
        "A clear margin over both is a lower bound on how exploitable SPEC is.\n\n"
        "Writes to DIR: model.zip (agent spec ppo:DIR/model.zip), curve.png and\n"
        "curve.csv (win rate against SPEC over training, 95% intervals), results.json\n"
        "and config.json. Same arguments, same numbers. Not resumable.",
        epilog="examples:\n  smuggle exploit random --env smuggle_v0 --players 4 --steps 20000\n"
        "  smuggle exploit rule --env smuggle_v0 --players 4 --steps 100000 --games 500\n"
        '  smuggle exploit "ismcts:sims=50" --env smuggle_v0 --players 3 --steps 20000 --games 100',
    )
    p.add_argument("spec", metavar="SPEC", help="the target agent: rule, random, ppo:PATH, ismcts:sims=50, ...")
    p.add_argument("--env", dest="env_id", default="smuggle_v0", metavar="ENV", help="the game (default: smuggle_v0)")
    add_players(p)
    p.add_argument(
        "--steps", type=int, default=EXPLOIT_STEPS, metavar="S", help=f"training steps (default: {EXPLOIT_STEPS})"
    )
    add_seed(p, "seed of the whole run (default: 0)")
    add_games(p, EXPLOIT_GAMES, f"games of the final evaluation, per row (default: {EXPLOIT_GAMES})")
    p.add_argument("--out", metavar="DIR", help="output folder (default: runs/exploit/ENV_SPEC)")
    _add_exploit_training(p)
    return p


def _add_exploit_training(p: argparse.ArgumentParser) -> None:
    """``smuggle exploit``'s options of the learner and its learning curve."""
    p.add_argument(
        "--baseline",
        default="random",
        metavar="SPEC",
        help="the naive agent compared in the same seat (default: random)",
    )
    p.add_argument(
        "--imitate", metavar="SPEC", help="warm start: clone this agent first (default: none, train from scratch)"
    )
    p.add_argument(
        "--eval-every", type=int, metavar="S", help="steps between learning-curve points (default: a tenth of --steps)"
    )
    p.add_argument(
        "--eval-games", type=int, default=100, metavar="G", help="games per learning-curve point (default: 100)"
    )
    p.add_argument("--n-envs", type=int, default=8, metavar="E", help="games played in parallel (default: 8)")
    p.add_argument("--n-steps", type=int, default=256, metavar="K", help="steps per game and rollout (default: 256)")
    p.add_argument(
        "--learning-rate",
        type=float,
        default=EXPLOIT_LEARNING_RATE,
        metavar="LR",
        help=f"the learner's Adam step size (default: {EXPLOIT_LEARNING_RATE:g}, as smuggle train); "
        "a larger one can get a best response out of a plateau (docs/exploitability.md)",
    )
    p.add_argument(
        "--reward-mode",
        choices=("win_loss", "rank", "score"),
        default="win_loss",
        help="the learner's final reward (default: win_loss); score: its score minus the table mean, "
        "the objective of an exact best response in a zero-sum game",
    )
    add_no_progress(p)


def add_zoo(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "zoo",
        help="list the shipped models, add a run's model, fit a value head",
        formatter_class=RAW,
        description="Without arguments: every model in the zoo (agent spec zoo:ENV_ID@N) with its\n"
        "training steps and cost, and its win rates with 95% intervals against 3 random\n"
        "agents, 3 rule bots and in a mixed field, as measured by benchmarks/zoo.py,\n"
        "whether it has a value head, then the command that trains it again.\n\n"
        "add RUN_DIR: put the policy of a finished 'smuggle train' run in the zoo (a\n"
        "numpy .npz of its policy network and its critic: small, no torch needed to play\n"
        "it), replacing the model for the same game and player count; --argmax makes it\n"
        "play its most probable action (where that measured stronger).\n\n"
        "value ENV_ID[@N]: fit a value head (what the search's value=zoo leaves read)\n"
        "for the zoo's model, its policy kept bit-identical: the model plays G seeded\n"
        "games (one seat, rotated; the other seats one --opponents spec a game, in\n"
        "turn), each of its decisions is a position labelled with its final win/loss\n"
        "return, and an MLP of the policy's hidden sizes is fitted to them on the CPU.\n"
        "10% of the games are held out: the fit's MSE on them against predicting the\n"
        "mean is printed and recorded in the manifest, with the command line.\n\n"
        "SMUGGLE_ZOO=DIR uses DIR as the zoo.",
        epilog="examples:\n  smuggle zoo\n  smuggle zoo add runs/zoo/smuggle_v0\n"
        "  smuggle zoo add runs/zoo/ciq_v0 --checkpoint final\n"
        "  smuggle zoo value smuggle_v0@4 --games 2000\n"
        "  smuggle match smuggle_v0 --agents zoo,rule,rule,rule --games 300",
    )
    p.add_argument(
        "action", nargs="?", choices=("list", "add", "value"), default="list", help="list (default), add or value"
    )
    p.add_argument(
        "target",
        nargs="?",
        metavar="RUN_DIR|ENV_ID[@N]",
        help="with add: the training run's folder; with value: the zoo's model (N: the game's default player count)",
    )
    p.add_argument(
        "--checkpoint",
        choices=ZOO_CHECKPOINTS,
        default="recommended",
        help="with add: the run's model to ship (default: the one its final evaluation recommended)",
    )
    p.add_argument("--argmax", action="store_true", help="with add: the model plays its most probable action")
    _add_zoo_value_options(p)
    return p


def _add_zoo_value_options(p: argparse.ArgumentParser) -> None:
    """``smuggle zoo value``'s options (training/zoo_value.py)."""
    add_games(p, ZOO_VALUE_GAMES, f"with value: games the model plays (default: {ZOO_VALUE_GAMES}; at least 10)")
    add_seed(p, "with value: game g's seed is K*1000000+g, and K seeds the split and the fit (default: 0)")
    p.add_argument(
        "--opponents",
        default=ZOO_VALUE_OPPONENTS,
        metavar="SPECS",
        help="with value: agent specs taking the other seats, game g all of the (g mod count)-th "
        f"(default: {ZOO_VALUE_OPPONENTS}: the model itself in even games, rule bots in odd ones)",
    )
    p.add_argument(
        "--epochs",
        type=int,
        default=ZOO_VALUE_EPOCHS,
        metavar="E",
        help=f"with value: passes of the fit over the positions (default: {ZOO_VALUE_EPOCHS})",
    )
    add_no_progress(p)
