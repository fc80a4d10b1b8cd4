"""The parsers of ``smuggle serve`` and ``smuggle export-human`` (their code: ``cli.py``).

Each ``add_NAME(subparsers)`` adds one subcommand and returns its parser; ``training.cli.COMMANDS``
names them. Only argparse is imported here (and the options several commands share,
``training/options.py``: argparse only): Starlette and uvicorn (the ``web`` extra) load when
``serve`` runs, so every other command, ``export-human`` included, works without them.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..options import RAW, add_db_file, add_db_option

WEB_EXTRA_HINT = "pip install -c constraints.txt -e '.[web]'"


def add_serve(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="play, watch and replay in the browser, people with agents",
        formatter_class=RAW,
        description="Start the browser app and print its URL. Make a table for any game and\n"
        "player count, fill each seat with a person or an agent spec, and give each person\n"
        "their seat's link; watch all-bot tables live; replay any game stored in the\n"
        "database (this app's and tournaments'). Every human decision is stored with the\n"
        "full hidden state, the seat's observation and the time taken (see export-human).\n"
        f"Needs the web extra: {WEB_EXTRA_HINT}",
        epilog="examples:\n  smuggle serve\n  smuggle serve --port 8080 --db study.sqlite\n"
        "  smuggle serve --host 0.0.0.0 --allow-host lab-server.local --operator-token generate   # a lab network\n"
        "  smuggle serve --models runs/final_models   # offer ppo:NAME for each model there\n"
        "  smuggle serve --llm 'llm:model=qwen2.5-7b;base_url=http://127.0.0.1:8001/v1'   # offer llm:qwen2.5-7b",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0 picks a free one)")
    add_db_option(p, "games.sqlite")
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another Host name the server answers to (repeatable; this machine's names always work)",
    )
    p.add_argument(
        "--models",
        metavar="DIR",
        help="offer the .zip/.npz models in DIR to clients as ppo:NAME (NAME: the file's stem); "
        "clients never name paths",
    )
    p.add_argument(
        "--llm",
        action="append",
        default=[],
        metavar="[NAME=]SPEC",
        help="offer a language model to clients as llm:NAME (repeatable): SPEC is an llm: agent spec "
        "(llm:model=M;base_url=URL;...), NAME defaults to its model; clients never see or choose "
        "its endpoint or key variable",
    )
    p.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer an agent from outside the library to clients as agent:NAME (repeatable): SPEC is a "
        "py:module:Name spec or an installed package's agent kind; clients never name either themselves",
    )
    _add_network(p)
    _add_limits(p)
    return p


def _add_network(p: argparse.ArgumentParser) -> None:
    """Who may do what from where: the operator's token, the proxy in front."""
    p.add_argument(
        "--operator-token",
        metavar="TOKEN",
        help="only requests with this token (header X-Operator-Token; the lobby asks for it once) may make, "
        "close and list tables; seat links work as before. 'generate' makes one and prints it "
        "(a TOKEN typed here is visible to other users of this machine in its process list)",
    )
    p.add_argument(
        "--open-creation",
        action="store_true",
        help="with a --host beyond this machine and no --operator-token, let anyone who reaches the "
        "server make tables (refused at start otherwise)",
    )
    p.add_argument(
        "--proxy-from",
        metavar="ADDR",
        help="the address(es) or network(s) of a reverse proxy in front of the server, comma-separated: "
        "only their X-Forwarded-For names a client's address (default: none, the connection's own)",
    )


def _add_limits(p: argparse.ArgumentParser) -> None:
    """The operator's limits on what clients may ask of the server."""
    p.add_argument("--bot-seconds", type=float, default=5.0, help="wall-clock budget of one bot decision (default: 5)")
    p.add_argument(
        "--max-sims", type=int, default=400, help="most search simulations a client may ask per decision (default: 400)"
    )
    p.add_argument(
        "--max-depth",
        type=int,
        default=1000,
        help="most tree or playout depth a client may ask a search for (default: 1000)",
    )
    p.add_argument(
        "--max-bot-tables-per-client",
        type=int,
        default=8,
        metavar="N",
        help="tables with bots in play per client address (default: 8)",
    )
    p.add_argument("--max-tables", type=int, default=200, metavar="N", help="tables in play at once (default: 200)")
    p.add_argument(
        "--table-idle-minutes",
        type=float,
        default=120.0,
        metavar="N",
        help="close a table without a move for N minutes, so it stops counting (default: 120; 0: never)",
    )


def add_export_human(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "export-human",
        help="write the human decisions of 'smuggle serve' as JSON lines",
        formatter_class=RAW,
        description="Write every human decision of a 'smuggle serve' database as one JSON object\n"
        "per line: table and game id, env id, config and seed, the decision's number, seat,\n"
        "display name and session id, the full hidden state (history: the actions before the\n"
        "decision, which replay the exact position; state_text: the full table), the seat's\n"
        "observation, the legal actions, the action and its text, when it was asked and\n"
        "answered, and the seconds taken. The database is only read.",
        epilog="example: smuggle export-human games.sqlite --jsonl human.jsonl",
    )
    add_db_file(p, "the database of 'smuggle serve'")
    p.add_argument("--jsonl", required=True, metavar="OUT", help="the JSON-lines file to write")
    return p
