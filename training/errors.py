"""How every ``smuggle`` command reports to the user: one-line notices and errors, exit codes.

``UsageError`` is an error the user can act on; ``run_command`` is the one place that turns it,
and the library's ``ConfigError``, an ``llm:`` agent's endpoint that refuses or stops answering
(``agents.llm.LLMError``), a failed file or database and Ctrl-C, into one line
``PROG: error: MESSAGE`` on stderr (no traceback) and an exit code; ``run`` parses a command line
and runs the command it names through it. It sits below every command (a command's code raises
``UsageError``, ``training/match.py`` too), so the command line's package ``training/cli/``
(``smuggle``) and the standalone entry points (``python -m training.tournament.cli``, ``python
-m training.selfplay``) all use it and no command imports the command line.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence

from smuggle_envs.core.errors import ConfigError

PROG = "smuggle"

Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """An error the user can act on: the command line prints ``smuggle: error: MESSAGE`` on one
    line, no traceback, and exits with ``code``: 2 (the default) for a bad request (an unknown
    name, a bad option, a missing or unusable file, a folder it cannot write to), 1 for a run that
    failed part-way (what it finished is kept, and the message says where); a code-0 message is
    a plain exit (``quit`` in ``smuggle play``), printed on stdout."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def warn(message: str) -> None:
    """A one-line notice on stderr, ``smuggle: MESSAGE``."""
    print(f"{PROG}: {message}", file=sys.stderr)


def warn_once() -> Callable[[str], None]:
    """A warning printer that prints each distinct message once (e.g. one missing bot, many seats)."""
    seen: set[str] = set()

    def once(message: str) -> None:
        if message not in seen:
            seen.add(message)
            warn(message)

    return once


def os_error_text(exc: OSError) -> str:
    """An ``OSError`` as a short reason: ``"PATH: Permission denied"`` (no errno), or the message
    of one raised with a message of its own."""
    if not exc.strerror:
        return str(exc)
    names = [os.fsdecode(n) if isinstance(n, bytes) else str(n) for n in (exc.filename, exc.filename2) if n is not None]
    return ": ".join([" -> ".join(names), exc.strerror] if names else [exc.strerror])


def agent_failure(exc: BaseException) -> str | None:
    """The one-line text of an agent's failure the user must fix (an ``llm:`` agent's endpoint
    that refuses its requests or stops answering: ``agents.llm.LLMError``, with the endpoint's
    URL), else None. ``agents.llm`` is not imported here: if it was never loaded, no agent of it
    raised."""
    llm = sys.modules.get("agents.llm")
    if llm is None or not isinstance(exc, llm.LLMError):
        return None
    return f"llm agent: {exc.operator_message()}"


def parse_args(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace | int:
    """The parsed arguments, or the exit code where argparse already printed help, the
    version or a usage error."""
    try:
        return parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)


def run(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None, handler: Callable[[str], Handler], prog: str = PROG
) -> int:
    """Parse ``argv`` with ``parser`` (its subcommands ``dest="command"``) and run the command it
    names, ``handler(name)``; returns the exit code (errors as ``run_command`` reports them)."""
    args = parse_args(parser, argv)
    return args if isinstance(args, int) else run_command(handler(args.command), args, prog)


def run_command(func: Handler, args: argparse.Namespace, prog: str) -> int:
    """Run the subcommand ``func(args)``; returns its exit code. The one place where errors
    become one line ``PROG: error: MESSAGE`` on stderr, no traceback: ``UsageError`` (its code;
    a code-0 message goes to stdout), ``ConfigError`` and an ``llm:`` agent's endpoint that
    refuses or stops answering (2), an ``OSError`` or database failure under a running command
    (1); Ctrl-C is 130, a closed output pipe a quiet 1."""

    def error(message: str) -> None:
        print(f"{prog}: error: {' '.join(message.split())}", file=sys.stderr)

    try:
        return int(func(args))
    except ConfigError as exc:
        error(str(exc))
        return 2
    except UsageError as exc:
        if exc.code:
            error(str(exc))
        else:
            print(str(exc))
        return exc.code
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. 'smuggle match | head': stop quietly
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:  # a file or folder that failed under a running command (full disk...)
        error(os_error_text(exc))
        return 1
    except sqlite3.DatabaseError as exc:  # a database that failed under a running command
        if isinstance(exc, (sqlite3.ProgrammingError, sqlite3.IntegrityError)):
            raise  # a bug, not the user's database
        error(f"database error: {exc}")
        return 1
    except Exception as exc:
        text = agent_failure(exc)
        if text is None:
            raise  # a bug: its traceback is the report
        error(text)
        return 2
