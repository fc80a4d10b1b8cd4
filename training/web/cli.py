"""The ``serve`` and ``export-human`` subcommands of ``smuggle`` (their parsers: ``parser.py``;
``training.cli.COMMANDS`` imports this module only when one of them runs).

Starlette and uvicorn (the ``web`` extra) load when the server starts (``server.serve``), so
``export-human`` works without them and ``serve`` says how to install them.
"""

from __future__ import annotations

import argparse
import importlib.util
import secrets

from training.db import DatabaseError
from training.errors import UsageError, os_error_text
from training.paths import check_writable_file

from .limits import ServeLimits, agent_offers, llm_offers, models_in
from .parser import WEB_EXTRA_HINT
from .server import LOCAL_HOSTS, proxies, serve
from .store import export_human


def cmd_serve(args: argparse.Namespace) -> int:
    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(f"'smuggle serve' needs {' and '.join(missing)} (the web extra): {WEB_EXTRA_HINT}")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be from 0 to 65535, got {args.port}")
    check_writable_file(args.db, "--db")
    limits = _limits(args)
    token, generated = _operator_token(args)
    try:
        proxy_from = proxies(args.proxy_from) if args.proxy_from is not None else ()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        serve(
            args.host,
            args.port,
            args.db,
            limits,
            tuple(args.allow_host),
            proxy_from=proxy_from,
            operator_token=token,
            show_token=generated,
        )
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        if exc.errno is not None and exc.filename is None:  # bind: address in use, not available
            raise UsageError(f"cannot listen on {args.host}:{args.port}: {os_error_text(exc)}") from None
        raise
    return 0


def _operator_token(args: argparse.Namespace) -> tuple[str | None, bool]:
    """``(token, generated)`` from ``--operator-token``; a one-line UsageError for a token too
    short or not header-safe, or for serving beyond this machine with neither a token nor
    ``--open-creation``."""
    text = args.operator_token
    if text is None:
        if args.host not in LOCAL_HOSTS and not args.open_creation:
            raise UsageError(
                f"--host {args.host} serves beyond this machine: give --operator-token generate (only you make "
                "tables) or --open-creation (anyone who reaches it may)"
            )
        return None, False
    if text == "generate":
        return secrets.token_urlsafe(18), True
    if not (16 <= len(text) <= 200 and text.isascii() and text.isprintable() and " " not in text):
        raise UsageError("--operator-token: give 16 to 200 printable ASCII characters without spaces, or 'generate'")
    return text, False


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
            table_idle_minutes=args.table_idle_minutes,
            models=models,
            llms=llm_offers(getattr(args, "llm", [])),
            agents=agent_offers(getattr(args, "agent", [])),
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
