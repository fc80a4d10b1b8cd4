"""The ``smuggle`` command line: list the games, play one against bots, run bot matches and
tournaments, train agents, serve the browser app.

    smuggle list
    smuggle play smuggle_v0 --players 4 --seat 0
    smuggle match --agents rule,random,random,random --games 300
    smuggle replay-json game.json

Every subcommand is one row of ``COMMANDS``: its name, the function that adds its parser and the
function that runs it, each as ``"module:function"``. This table is where the command line defers
imports, and the only place: a command's parser module is imported when its parser is built
(``smuggle --help`` builds them all; they import nothing but argparse and light settings), its
code only when it runs, so ``smuggle list`` imports neither the agents nor torch. The modules it
names import what they need at the top.

Where a command lives: its code in a package (or a module of ``training`` itself), its parser in
the ``parser.py`` beside that code (``add_NAME(subparsers) -> parser``): ``training/cli/parser.py``
for this package's own commands (``list``: ``envs``, ``play``, ``match``, ``replay_json``),
``training/parser.py`` for ``exploit`` and ``zoo``, ``training/selfplay/parser.py`` (``train``),
``training/tournament/parser.py`` (``tournament``, ``replay``, ``analyze``),
``training/bluffing/parser.py`` (``dataset``), ``training/web/parser.py`` (``serve``,
``export-human``). What every command shares sits below them all, never here:
``training/options.py`` (the options several parsers take), ``training/errors.py``
(``UsageError``, ``run_command``: the one place that turns errors into one line and an exit code,
and ``run``) and ``training/paths.py`` (the checks of the files and folders a command writes, made
before any work is done). No command imports this package: it names them, they never name it.

Every error a user can cause is reported by ``run_command`` (for ``python -m
training.tournament.cli`` and ``python -m training.selfplay`` too): one line ``smuggle: error:
MESSAGE`` on stderr, no traceback. Exit codes: 0 success; 1 a ``play`` game abandoned because
input ended (EOF), or a run that failed part-way (what it finished is kept and the message says
where); 2 a bad request (unknown env id, bad player count, bad option, a missing or unusable
model or replay file, a folder that cannot be written); 130 interrupted with Ctrl-C (``train``
saves a checkpoint first).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, NoReturn, cast

from smuggle_envs import __version__

from ..errors import PROG, Handler, run


class Command(NamedTuple):
    """A subcommand: ``parser`` adds it to a subparsers object (``add(subparsers) -> parser``),
    ``run`` runs it (``run(args) -> exit code``); both ``"module:function"``."""

    parser: str
    run: str


#: Every subcommand, in the order ``smuggle --help`` lists them.
COMMANDS: dict[str, Command] = {
    "list": Command("training.cli.parser:add_list", "training.cli.envs:cmd_list"),
    "play": Command("training.cli.parser:add_play", "training.cli.play:cmd_play"),
    "match": Command("training.cli.parser:add_match", "training.cli.match:cmd_match"),
    "replay-json": Command("training.cli.parser:add_replay_json", "training.cli.replay_json:cmd_replay_json"),
    "train": Command("training.selfplay.parser:add_train", "training.selfplay.cli:cmd_train"),
    "tournament": Command("training.tournament.parser:add_tournament", "training.tournament.cli:cmd_tournament"),
    "replay": Command("training.tournament.parser:add_replay", "training.tournament.cli:cmd_replay"),
    "analyze": Command("training.tournament.parser:add_analyze", "training.tournament.cli:cmd_analyze"),
    "dataset": Command("training.bluffing.parser:add_dataset", "training.bluffing.dataset:cmd_dataset"),
    "exploit": Command("training.parser:add_exploit", "training.exploit:cmd_exploit"),
    "serve": Command("training.web.parser:add_serve", "training.web.cli:cmd_serve"),
    "export-human": Command("training.web.parser:add_export_human", "training.web.cli:cmd_export_human"),
    "zoo": Command("training.parser:add_zoo", "training.zoo:cmd_zoo"),
    "bench": Command("training.bench.parser:add_bench", "training.bench.cli:cmd_bench"),
}


def _load(target: str) -> Any:
    """The function ``"module:function"`` names, its module imported now."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def add_commands(subparsers: Any, names: Iterable[str]) -> None:
    """Add the subcommands ``names`` (``COMMANDS`` keys) to ``subparsers``."""
    for name in names:
        _load(COMMANDS[name].parser)(subparsers)


def handler(name: str) -> Handler:
    """The function that runs the subcommand ``name``."""
    return cast(Handler, _load(COMMANDS[name].run))


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps each subcommand and its help on one line: argparse leaves the subcommands' extra
    indentation out of the width of the name column, so a long name (replay-json) wrapped."""

    def add_argument(self, action: argparse.Action) -> None:
        if action.help is not argparse.SUPPRESS and isinstance(action, argparse._SubParsersAction):
            names = [self._format_action_invocation(a) for a in action._get_subactions()]
            longest = max(map(len, names), default=0) + self._current_indent + self._indent_increment
            self._action_max_length = max(self._action_max_length, longest)
        super().add_argument(action)


class _VersionAction(argparse.Action):
    """``--version``: the package version and which engine build is loaded (pure or compiled)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, help: str | None = None):
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: Any = None
    ) -> NoReturn:
        from smuggle_envs import compiled

        print(f"{PROG} (smuggle_envs) {__version__}, {compiled.describe()}")
        parser.exit()


def build_parser(names: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The ``smuggle`` parser with the subcommands ``names`` (default: every one, in table order)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=_HelpFormatter,
        description="Smuggling and customs card games as PettingZoo environments: list them,\n"
        "play one against bots, run bot matches and tournaments, train agents.",
        epilog="Run 'smuggle COMMAND --help' for the options of one command.\n"
        "Exit codes: 0 ok; 1 'play' abandoned at end of input, or a run failed part-way;\n"
        "2 bad request; 130 Ctrl-C.",
    )
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_commands(sub, COMMANDS if names is None else names)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``smuggle ARGV...`` (default: the process's arguments); returns the exit code. A
    command named first builds only its own parser; anything else (``--help``, a typo) all."""
    argv = sys.argv[1:] if argv is None else list(argv)
    named = argv[:1] if argv and argv[0] in COMMANDS else None
    return run(build_parser(named), argv, handler)
