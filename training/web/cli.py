"""The ``serve`` and ``export-human`` subcommands of ``smuggle`` (their parsers: ``parser.py``;
``training.cli.COMMANDS`` imports this module only when one of them runs).

Starlette and uvicorn (the ``web`` extra) load when the server starts (``server.serve``), so
``export-human`` works without them and ``serve`` says how to install them.
"""

from __future__ import annotations

import argparse
import importlib.util

from training.cli.errors import UsageError, os_error_text
from training.cli.paths import check_writable_file
from training.db import DatabaseError

from .limits import ServeLimits, llm_offers, models_in
from .parser import WEB_EXTRA_HINT
from .server import serve
from .store import export_human


def cmd_serve(args: argparse.Namespace) -> int:
    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(f"'smuggle serve' needs {' and '.join(missing)} (the web extra): {WEB_EXTRA_HINT}")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be from 0 to 65535, got {args.port}")
    check_writable_file(args.db, "--db")
    limits = _limits(args)
    try:
        serve(args.host, args.port, args.db, limits, tuple(args.allow_host))
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        if exc.errno is not None and exc.filename is None:  # bind: address in use, not available
            raise UsageError(f"cannot listen on {args.host}:{args.port}: {os_error_text(exc)}") from None
        raise
    return 0


def _limits(args: argparse.Namespace) -> ServeLimits:
    """The operator's ``ServeLimits`` from the options, or a one-line UsageError."""
    try:
        models = models_in(args.models) if args.models else {}
        return ServeLimits(
            bot_seconds=args.bot_seconds,
            max_sims=args.max_sims,
            max_depth=args.max_depth,
            max_bot_tables=args.max_bot_tables_per_client,
            max_tables=args.max_tables,
            models=models,
            llms=llm_offers(getattr(args, "llm", [])),
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def cmd_export_human(args: argparse.Namespace) -> int:
    check_writable_file(args.jsonl, "--jsonl")
    try:
        count = export_human(args.db, args.jsonl)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    print(f"wrote {count} human decision(s) to {args.jsonl}")
    return 0
