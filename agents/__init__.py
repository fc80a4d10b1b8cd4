"""Policies that play smuggle_envs games: random, rule-based per game, trained models.

``make_agent(spec, game, seed)`` builds one from a short spec string such as ``"random"``,
``"rule"`` or ``"ppo:runs/main/final.zip"`` (kind, then an optional argument after a colon);
see ``AGENT_KINDS``.
"""

from __future__ import annotations

from .base import Agent, RandomAgent

# kind -> {env_id or "*": "module:Class"}; imported on demand. A class is built as
# ``Class(game, seed=seed)``, or ``Class(game, arg, seed=seed)`` for a spec "kind:arg".
AGENT_KINDS = {
    "random": {"*": "agents.base:RandomAgent"},
    "rule": {
        "smuggle_v0": "agents.smuggle_bot:SmuggleRuleAgent",
        "ciq_v0": "agents.ciq_bot:CIQRuleAgent",
        "illegal_v0": "agents.illegal_bot:IllegalRuleAgent",
        "humble_smuggle_v0": "agents.humble_smuggle_bot:HumbleSmuggleRuleAgent",
        "import_export_v0": "agents.import_export_bot:ImportExportRuleAgent",
    },
    "ppo": {"*": "agents.ppo:PPOAgent"},
}


def make_agent(spec: str, game, seed: int | None = None) -> Agent:
    """Build an agent for ``game`` (a ``smuggle_envs`` Game) from a spec string."""
    import importlib

    kind, _, arg = spec.partition(":")
    if kind not in AGENT_KINDS:
        raise ValueError(f"unknown agent {spec!r}; known kinds are {sorted(AGENT_KINDS)}")
    table = AGENT_KINDS[kind]
    target = table.get(game.env_id, table.get("*"))
    if target is None:
        raise ValueError(
            f"no {kind!r} agent exists for {game.env_id}; it has: "
            + ", ".join(k for k, t in AGENT_KINDS.items() if game.env_id in t or "*" in t)
        )
    module, name = target.split(":")
    cls = getattr(importlib.import_module(module), name)
    if not arg:
        return cls(game, seed=seed)
    try:
        return cls(game, arg, seed=seed)
    except TypeError as exc:
        raise ValueError(f"agent {spec!r}: the {kind!r} agent takes no argument after ':' ({exc})") from None


__all__ = ["AGENT_KINDS", "Agent", "RandomAgent", "make_agent"]
