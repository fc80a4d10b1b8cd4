"""The parsers of ``smuggle tournament``, ``replay`` and ``analyze`` (their code: ``cli.py``).

Each ``add_NAME(subparsers)`` adds one subcommand and returns its parser; ``training.cli.COMMANDS``
names them. Only argparse is imported here (and the options several commands share,
``training/options.py``: argparse only): every ``smuggle`` command can build these parsers
without loading the tournament code (numpy, openskill, matplotlib).
"""

from __future__ import annotations

import argparse
from typing import Any

from ..options import (
    RAW,
    add_agents,
    add_db_file,
    add_db_option,
    add_env_id,
    add_games,
    add_players,
    add_report_files,
    add_seat_view,
    add_seed,
)


def add_tournament(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "tournament",
        help="rate agents in a resumable duplicate tournament (SQLite)",
        formatter_class=RAW,
        description="Play a duplicate tournament and rate the agents. Every deal (seed) is played\n"
        "once per rotation of its lineup across the seats, so card luck cancels; with\n"
        "more agents than seats, the deals cycle through lineups in which every pair of\n"
        "agents meets equally often (--games is rounded up to whole cycles). Every game\n"
        "is committed to the SQLite database as it finishes; the same command resumes\n"
        "a killed tournament (no game lost, none played twice). Prints a leaderboard\n"
        "(Plackett-Luce rating fitted to all games at once, win rate and mean score,\n"
        "with 95% intervals) and a head-to-head matrix; writes them as CSV and PNG.",
        epilog="examples:\n"
        "  smuggle tournament smuggle_v0 --players 4 --agents rule,random,random,random,random --games 200\n"
        "  smuggle tournament smuggle_v0 --agents rule,random,ppo:runs/main/final.zip,random "
        "--games 400 --workers 8\n"
        "  smuggle tournament smuggle_v0 --agents rule,random,random,random --backend ray "
        "--ray-address auto",
    )
    add_env_id(p)
    add_players(p, "seats per game (default: the game's default, or the number of agents if fewer)")
    add_agents(
        p,
        "comma-separated agent specs, at least N: random, rule, ppo:PATH, ...; a spec "
        "named twice gives two agents (random, random#2)",
        required=True,
    )
    _add_schedule_options(p)
    _add_run_options(p)
    return p


def _add_schedule_options(p: argparse.ArgumentParser) -> None:
    """The tournament's games: how many, their seeds and seating, the game's options."""
    add_games(p, 100, "games to play at least (default: 100; rounded up to whole schedule cycles)")
    add_seed(p, "base seed: deal d uses seed K+d (default: 0)")
    p.add_argument(
        "--seating",
        choices=("rotation", "permutations"),
        default="rotation",
        help="rotation (default): each deal once per rotation of its lineup (N games); permutations: "
        "each deal once per seat permutation (all N! up to 4 seats, else a balanced subset in which "
        "every agent sits in every seat and follows every other agent clockwise equally often)",
    )
    p.add_argument(
        "--bootstrap",
        type=int,
        default=200,
        metavar="R",
        help="bootstrap resamples of the deals for the rating intervals (default: 200; 0: none)",
    )
    p.add_argument(
        "--config",
        action="append",
        metavar="KEY=VALUE",
        help="a game option, repeatable (e.g. --config bankruptcy=eliminate)",
    )


def _add_run_options(p: argparse.ArgumentParser) -> None:
    """Where the tournament runs and what it writes."""
    p.add_argument(
        "--workers",
        type=int,
        metavar="W",
        help="local processes, 1 = in this process (default: the CPU count); with Ray, "
        "tasks in flight (default: the cluster's CPUs)",
    )
    add_db_option(p, "results.sqlite")
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local process pool (default) or a Ray cluster (pip install 'ray[default]')",
    )
    p.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="Ray cluster to join (e.g. auto, ray://head:10001); default: a local Ray, or RAY_ADDRESS when set",
    )
    add_report_files(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def add_replay(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help="print a game stored in a tournament database, turn by turn",
        description="Print game GAME_ID (see the games table, or the ids in 'smuggle analyze') of "
        "a tournament database turn by turn, with the agent in each seat, the table at "
        "every round, the final scores, and a check against the stored result.",
    )
    add_db_file(p)
    p.add_argument("game_id", type=int, metavar="GAME_ID", help="the game's id in the database")
    add_seat_view(p)
    return p


def add_analyze(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "analyze",
        help="bluffing analytics of the games in a tournament database",
        formatter_class=RAW,
        description="Replay every stored game and report each agent's hidden-information behaviour.\n"
        "Smuggle: how often it declares untruthfully, the duty it leaves undeclared,\n"
        "how often its lies are caught and by whom, its profit from lying; as Officer\n"
        "its search rate and precision; as next player its Informer rate and precision;\n"
        "Diplomatic Bag claims true and false. CIQ: smuggle rate, Smuggles caught, Fire\n"
        "rate and precision. Illegal: trades offered and accepted, Magnum reactions,\n"
        "cards passed after Paranoia. Humble smuggle: face-down selections that broke or\n"
        "fit the round's rule. Import / Export: sealed Import bids (mean bid, share of\n"
        "credits, wins and ties, overpay over the second-highest bid), ships won (free,\n"
        "own or another's, owner fees, containers) and the leader's ship picks. Other\n"
        "games: a count of decisions. Printed, and written as CSV and PNG. Where agents\n"
        "kept records (llm: agents), their decisions, parse failures, retries, fallbacks,\n"
        "tokens and latency too.",
    )
    add_db_file(p)
    p.add_argument("--tournament", type=int, metavar="ID", help="only this tournament (default: all)")
    add_report_files(p)
    p.add_argument(
        "--calls-out",
        metavar="FILE",
        help="write the agents' stored records (llm: agents' model calls: prompt, answer, tokens, "
        "latency, retries, fallback) to FILE, one JSON object a line",
    )
    _add_deception_options(p)
    return p


def _add_deception_options(p: argparse.ArgumentParser) -> None:
    """``--deception`` and its options (the code: ``training/bluffing/deception.py``)."""
    p.add_argument(
        "--deception",
        action="store_true",
        help="print the deception metrics instead, a table per game: per agent its bluff rate, payoff of "
        "lies vs truths, challenge rate, detection precision / recall / AUROC and calibration, each "
        "with a bootstrap interval over deals (Illegal, Humble smuggle, Import / Export: claim side only)",
    )
    p.add_argument(
        "--plot", metavar="FILE", help="with --deception: draw the metrics with their intervals to FILE (PNG)"
    )
    p.add_argument(
        "--boot",
        type=int,
        default=1000,
        metavar="N",
        help="with --deception: bootstrap resamples of the deals (default: 1000)",
    )
