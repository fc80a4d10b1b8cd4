"""The analytics registry (``training.analytics.ANALYZERS``): one module a game, found by listing
the package, and every env in ``smuggle_envs.ENV_IDS`` has one."""

from __future__ import annotations

import pytest

from smuggle_envs import ENV_IDS
from training.analytics import ANALYZERS, GenericAnalysis, PerAgentAnalysis, analyzer_for


def test_every_game_has_its_analytics():
    assert not ANALYZERS.missing(ENV_IDS), ANALYZERS.describe_missing(ENV_IDS)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_each_module_declares_its_game_and_analysis(env_id):
    module = ANALYZERS.modules()[env_id]
    assert module.__name__ == f"training.analytics.{env_id.rsplit('_v', 1)[0]}"
    assert env_id == module.ENV_ID and ANALYZERS[env_id] is module.ANALYSIS
    analysis = analyzer_for(env_id, ["x", "y"])
    assert type(analysis) is module.ANALYSIS and isinstance(analysis, PerAgentAnalysis)
    assert analysis.tables and analysis.panels and analysis.title and analysis.plot_title
    assert analysis.text().startswith(analysis.tables[0].caption)


def test_a_game_without_a_module_is_named_and_gets_the_fallback():
    assert ANALYZERS.describe_missing(["dice_v0"]) == (
        "dice_v0 lacks a module in training.analytics: add training/analytics/dice.py defining ENV_ID and ANALYSIS"
    )
    assert isinstance(analyzer_for("dice_v0", ["x"]), GenericAnalysis)
