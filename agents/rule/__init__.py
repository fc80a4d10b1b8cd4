"""The rule-based bots, one module a game: ``agents/rule/<game>.py``.

Each module declares ``ENV_ID`` (the game it plays) and ``AGENT`` (its class, built as
``AGENT(game, seed=seed)``, with keyword options of its own). ``RULE_AGENTS`` (env id ->
``"module:Class"``, the ``rule`` row of ``agents.AGENT_KINDS``) is found by listing this package
(``agents.plugins.PluginRegistry``) the first time it is read, so ``import agents`` imports no bot
and a new game's bot is its module alone. ``tests/agents/rule/test_registry.py`` checks that every
env in ``smuggle_envs.ENV_IDS`` has one.
"""

from __future__ import annotations

from agents.plugins import PluginRegistry, entry_target

RULE_AGENTS: PluginRegistry[str] = PluginRegistry(__name__, "AGENT", value=lambda module: entry_target(module, "AGENT"))
"""env id -> ``"agents.rule.<game>:<Class>"`` of its rule bot."""

__all__ = ["RULE_AGENTS"]
