"""The ``serve`` and ``export-human`` subcommands of ``smuggle`` (registered by ``training/cli.py``).

Only the standard library is imported here: Starlette and uvicorn (the ``web`` extra) load when
``serve`` runs, so ``smuggle list`` stays instant and ``export-human`` works without them.
"""

from __future__ import annotations

import argparse
from typing import Any

from training.match import UsageError

WEB_EXTRA_HINT = "pip install -c constraints.txt -e '.[web]'"


def cmd_serve(args: argparse.Namespace) -> int:
    import importlib.util

    from training.match import check_writable_file, os_error_text
    from training.tournament.db import DatabaseError

    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(f"'smuggle serve' needs {' and '.join(missing)} (the web extra): {WEB_EXTRA_HINT}")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be from 0 to 65535, got {args.port}")
    check_writable_file(args.db, "--db")
    from .server import serve

    try:
        serve(args.host, args.port, args.db)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        if exc.errno is not None and exc.filename is None:  # bind: address in use, not available
            raise UsageError(f"cannot listen on {args.host}:{args.port}: {os_error_text(exc)}") from None
        raise
    return 0


def cmd_export_human(args: argparse.Namespace) -> int:
    from training.match import check_writable_file
    from training.tournament.db import DatabaseError

    from .store import export_human

    check_writable_file(args.jsonl, "--jsonl")
    try:
        count = export_human(args.db, args.jsonl)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    print(f"wrote {count} human decision(s) to {args.jsonl}")
    return 0


def register(subparsers: Any) -> None:
    """Add ``serve`` and ``export-human`` to ``subparsers``."""
    formatter = argparse.RawDescriptionHelpFormatter
    p = subparsers.add_parser(
        "serve",
        help="play, watch and replay in the browser, people with agents",
        formatter_class=formatter,
        description="Start the browser app and print its URL. Make a table for any game and\n"
        "player count, fill each seat with a person or an agent spec, and give each person\n"
        "their seat's link; watch all-bot tables live; replay any game stored in the\n"
        "database (this app's and tournaments'). Every human decision is stored with the\n"
        "full hidden state, the seat's observation and the time taken (see export-human).\n"
        f"Needs the web extra: {WEB_EXTRA_HINT}",
        epilog="examples:\n  smuggle serve\n  smuggle serve --port 8080 --db study.sqlite\n"
        "  smuggle serve --host 0.0.0.0   # reachable from other machines (a lab network)",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0 picks a free one)")
    p.add_argument("--db", default="games.sqlite", metavar="FILE", help="the SQLite database (default: games.sqlite)")
    p.set_defaults(func=cmd_serve)

    p = subparsers.add_parser(
        "export-human",
        help="write the human decisions of 'smuggle serve' as JSON lines",
        formatter_class=formatter,
        description="Write every human decision of a 'smuggle serve' database as one JSON object\n"
        "per line: table and game id, env id, config and seed, the decision's number, seat,\n"
        "display name and session id, the full hidden state (history: the actions before the\n"
        "decision, which replay the exact position; state_text: the full table), the seat's\n"
        "observation, the legal actions, the action and its text, when it was asked and\n"
        "answered, and the seconds taken. The database is only read.",
        epilog="example: smuggle export-human games.sqlite --jsonl human.jsonl",
    )
    p.add_argument("db", metavar="DB", help="the database of 'smuggle serve'")
    p.add_argument("--jsonl", required=True, metavar="OUT", help="the JSON-lines file to write")
    p.set_defaults(func=cmd_export_human)
