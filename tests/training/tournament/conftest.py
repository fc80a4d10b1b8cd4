"""Fixtures shared by the tournament tests."""

from __future__ import annotations

import argparse
import importlib

import pytest

from agents import AGENT_KINDS
from training.tournament.cli import register


def _run_cli(argv: list[str]) -> int:
    """Parse ``argv`` with a fresh parser holding only the tournament subcommands; run it."""
    parser = argparse.ArgumentParser(prog="smuggle")
    register(parser.add_subparsers(dest="command", metavar="COMMAND", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def _has_rule_bot(env_id: str) -> bool:
    """Whether ``make_agent("rule", ...)`` has a bot for this env (tests use random otherwise)."""
    target = AGENT_KINDS["rule"].get(env_id)
    if target is None:
        return False
    try:
        importlib.import_module(target.split(":")[0])
    except ModuleNotFoundError:
        return False
    return True


@pytest.fixture
def run_cli():
    return _run_cli


@pytest.fixture
def has_rule_bot():
    return _has_rule_bot


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
