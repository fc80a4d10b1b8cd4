"""Policies that play smuggle_envs games: random, rule-based per game, trained models.

``make_agent(spec, game, seed)`` builds one from a short spec string such as ``"random"`` or
``"rule"``; see ``AGENT_KINDS``.
"""

from __future__ import annotations

from .base import Agent, RandomAgent

# spec -> {env_id or "*": "module:Class"}; imported on demand.
AGENT_KINDS = {
    "random": {"*": "agents.base:RandomAgent"},
    "rule": {"smuggle_v0": "agents.smuggle_bot:SmuggleRuleAgent"},
}


def make_agent(spec: str, game, seed: int | None = None) -> Agent:
    """Build an agent for ``game`` (a ``smuggle_envs`` Game) from a spec string."""
    import importlib

    kind = spec.split(":", 1)[0]
    if kind not in AGENT_KINDS:
        raise ValueError(f"unknown agent {spec!r}; known kinds are {sorted(AGENT_KINDS)}")
    table = AGENT_KINDS[kind]
    target = table.get(game.env_id, table.get("*"))
    if target is None:
        raise ValueError(f"no {kind!r} agent exists for {game.env_id}; it has: "
                         + ", ".join(k for k, t in AGENT_KINDS.items() if game.env_id in t or "*" in t))
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)(game, seed=seed)


__all__ = ["AGENT_KINDS", "Agent", "RandomAgent", "make_agent"]
