"""Fixtures of the tournament tests (``run_cli`` and ``analyze_small_tournament`` are in
``tests/training/conftest.py``, shared with the analytics tests)."""

from __future__ import annotations

import importlib

import pytest

from agents import AGENT_KINDS


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
def has_rule_bot():
    return _has_rule_bot
