"""Fixtures of the OpenSpiel tests: the OpenSpiel games registered for one test.

Registering a game rebinds ``ENV_IDS`` for the whole process, and other test files iterate it at
run time (every game has a rule bot, ...), so a test registers inside these fixtures, which put
the registry back as it was afterwards."""

from __future__ import annotations

import pytest

import smuggle_envs
from smuggle_envs import registry

OPENSPIEL_ENV_IDS = ("os_kuhn_poker_v0", "os_leduc_poker_v0", "os_sheriff_v0")


@pytest.fixture
def registry_snapshot(monkeypatch):
    """The registry as it is now, restored after the test (registrations made in it undone)."""
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(registry, "ENV_IDS", registry.ENV_IDS)
    monkeypatch.setattr(smuggle_envs, "ENV_IDS", smuggle_envs.ENV_IDS)


@pytest.fixture
def openspiel_games(registry_snapshot):
    """The three OpenSpiel games registered (``smuggle_envs.pyspiel_game``), for this test only."""
    # The forward adapter registers python_<env_id> for every id of ENV_IDS when first imported:
    # import it before the OpenSpiel games join, so that it never wraps them.
    import smuggle_envs.openspiel  # noqa: F401
    from smuggle_envs.registry import register_family

    assert register_family("os_") == OPENSPIEL_ENV_IDS
