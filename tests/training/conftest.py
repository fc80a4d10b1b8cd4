"""Fixtures shared by the tests of ``training``: the ``smuggle`` subcommands of tournaments and
their analytics run in-process."""

from __future__ import annotations

import argparse

import pytest

from training.cli import add_commands, handler
from training.tournament.cli import COMMANDS


def _run_cli(argv: list[str]) -> int:
    """Parse ``argv`` with a fresh parser holding only the tournament subcommands; run it."""
    parser = argparse.ArgumentParser(prog="smuggle")
    add_commands(parser.add_subparsers(dest="command", metavar="COMMAND", required=True), COMMANDS)
    args = parser.parse_args(argv)
    return handler(args.command)(args)


@pytest.fixture
def run_cli():
    return _run_cli


@pytest.fixture
def analyze_small_tournament(tmp_path, capsys):
    """Play a 2-game, 2-player tournament of random agents for ``env_id`` (extra ``--config``
    options allowed) into ``tmp_path/r.sqlite``, then return what ``smuggle analyze`` prints."""

    def run(env_id: str, *config: str) -> str:
        db = str(tmp_path / "r.sqlite")
        options = [x for c in config for x in ("--config", c)]
        argv = ["tournament", env_id, "--players", "2", "--agents", "random,random", "--games", "2", *options]
        assert _run_cli([*argv, "--workers", "1", "--db", db, "--quiet", "--no-plots"]) == 0
        capsys.readouterr()
        assert _run_cli(["analyze", db]) == 0
        return str(capsys.readouterr().out)

    return run
