"""The argparse options several ``smuggle`` commands share, one function an option.

The commands' parsers (each in the ``parser.py`` beside the command's code: ``training/cli/``,
``training/``, ``training/tournament/``, ``training/selfplay/``, ``training/web/``,
``training/bluffing/``) each add their own options; an option that more than one command takes (the game,
``--players``, ``--seed``, ``--games``, the database, the report files, ...) is added here, so
it has one name, type and metavar everywhere and the same help where it means the same thing. A
command whose option means something of its own there passes its help (``--seed`` is a base
seed in a tournament, the seed of the whole run in ``exploit``).

Only argparse is imported, and nothing of ``training``: ``smuggle --help`` builds every parser
without loading any command's code, and the parsers of packages that must not import each other
(the browser app and the bluffing kit) can all use it (``pyproject.toml``'s import contracts).
"""

from __future__ import annotations

import argparse
from typing import Any

RAW = argparse.RawDescriptionHelpFormatter
"""The formatter of a description or epilog laid out by hand (lists, examples)."""

ENV_ID_HELP = "the game, e.g. smuggle_v0 (see 'smuggle list')"
PLAYERS_HELP = "number of players (default: the game's default)"
TOURNAMENT_DB_HELP = "the tournament database (SQLite file)"
SEAT_VIEW_HELP = "show the game as seat S saw it: its own table and the others' actions as far as S saw them"


def add_env_id(p: argparse.ArgumentParser, help: str = ENV_ID_HELP, **how: Any) -> None:
    """The game, a positional ``ENV_ID`` (``how``: e.g. ``nargs="?"`` and a default)."""
    p.add_argument("env_id", metavar="ENV_ID", help=help, **how)


def add_players(p: argparse.ArgumentParser, help: str = PLAYERS_HELP, dest: str = "players") -> None:
    """``--players N``: seats per game (no default: each command picks its own), stored in
    ``dest`` (``smuggle train``'s is ``num_players``, its settings' field)."""
    p.add_argument("--players", type=int, metavar="N", dest=dest, help=help)


def add_agents(p: argparse.ArgumentParser, help: str, required: bool = False) -> None:
    """``--agents SPECS``: comma-separated agent specs."""
    p.add_argument("--agents", required=required, metavar="SPECS", help=help)


def add_seed(p: argparse.ArgumentParser, help: str, default: int | None = 0) -> None:
    """``--seed K`` (None: the command draws one)."""
    p.add_argument("--seed", type=int, default=default, metavar="K", help=help)


def add_games(p: argparse.ArgumentParser, default: int, help: str) -> None:
    """``--games G``: how many games."""
    p.add_argument("--games", type=int, default=default, metavar="G", help=help)


def add_seat_view(p: argparse.ArgumentParser) -> None:
    """``--seat S`` of a printed game: the game as that seat saw it."""
    p.add_argument("--seat", type=int, metavar="S", help=SEAT_VIEW_HELP)


def add_save_replay(p: argparse.ArgumentParser, help: str) -> None:
    """``--save-replay FILE``: a game written as replay JSON."""
    p.add_argument("--save-replay", metavar="FILE", help=help)


def add_db_file(p: argparse.ArgumentParser, help: str = TOURNAMENT_DB_HELP) -> None:
    """The database read, a positional ``DB``."""
    p.add_argument("db", metavar="DB", help=help)


def add_db_option(p: argparse.ArgumentParser, default: str) -> None:
    """``--db FILE``: the SQLite database written (and resumed)."""
    p.add_argument("--db", default=default, metavar="FILE", help=f"the SQLite database (default: {default})")


def add_report_files(p: argparse.ArgumentParser) -> None:
    """``--out DIR`` and ``--no-plots``: where a report's CSV and PNG files go, and whether the
    PNG ones are drawn."""
    p.add_argument("--out", metavar="DIR", help="where to write CSV and PNG files (default: the database's folder)")
    p.add_argument("--no-plots", action="store_true", help="write the CSV files only")


def add_no_progress(p: argparse.ArgumentParser) -> None:
    """``--no-progress``: no progress bar (a long run's output in a log file)."""
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
