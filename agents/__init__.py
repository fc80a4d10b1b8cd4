"""Policies that play smuggle_envs games: random, rule-based per game, trained models.

``make_agent(spec, game, seed)`` builds one from a short spec string such as ``"random"``,
``"rule"``, ``"ppo:runs/main/final.zip"`` or ``"zoo:smuggle_v0"`` (kind, then an optional argument after a colon);
see ``AGENT_KINDS``. A kind whose class declares ``OPTIONS`` (the search bots) takes options
instead: ``"ismcts:sims=400;c=1.0;rollout=rule"``, ``key=value`` pairs separated by ``;``
(``"llm:model=qwen2.5-7b;base_url=http://127.0.0.1:8000/v1"``: a chat model, ``agents/llm.py``).
Agents from outside the library: ``"py:package.module:Name[;key=value...]"`` and the kinds that
installed packages add through the ``smuggle_envs.agents`` entry points (``agents/pyspec.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .base import Agent, RandomAgent
from .pyspec import check_agent, entry_point_kinds, load_object
from .rule import RULE_AGENTS

if TYPE_CHECKING:
    from smuggle_envs.core.game import Game

# kind -> {env_id or "*": "module:Class"}; imported on demand. A class is built as
# ``Class(game, seed=seed)``, or ``Class(game, arg, seed=seed)`` for a spec "kind:arg".
# The rule bots are one module a game in ``agents/rule/``, found by listing it (``RULE_AGENTS``).
AGENT_KINDS: dict[str, Mapping[str, str]] = {
    "random": {"*": "agents.base:RandomAgent"},
    "rule": RULE_AGENTS,
    "ppo": {"*": "agents.ppo:PPOAgent"},
    "ppo_argmax": {"*": "agents.ppo:ArgmaxPPOAgent"},  # the model's most probable action
    "zoo": {"*": "agents.zoo:ZooAgent"},  # models shipped with the package: zoo:ENV_ID[@N]
    "ismcts": {"*": "agents.search:ISMCTSAgent"},
    "pimc": {"*": "agents.search:PIMCAgent"},
    "tabular": {"*": "agents.tabular:TabularAgent"},  # a stored policy table: tabular:PATH.json
    "llm": {"*": "agents.llm:LLMAgent"},  # a chat model: llm:model=NAME;base_url=URL;... (agents/llm.py)
    "py": {"*": "agents.pyspec:py_agent"},  # any importable agent: py:package.module:Name[;key=value...]
}
# The kinds installed packages add (entry points of the group "smuggle_envs.agents"); never one
# of the library's names. Their objects are checked against the protocol when built.
PLUGIN_KINDS: dict[str, Mapping[str, str]] = entry_point_kinds(set(AGENT_KINDS))
AGENT_KINDS.update(PLUGIN_KINDS)

OPTION_SEPARATOR = ";"


def _describe(kind: object) -> str:
    if isinstance(kind, tuple):
        return "|".join(kind)
    return getattr(kind, "__name__", str(kind))


def parse_options(spec: str, text: str, options: dict[str, Any]) -> dict[str, Any]:
    """``"sims=400;c=1.0"`` -> ``{"sims": 400, "c": 1.0}`` for a kind whose class declares
    ``OPTIONS`` (name -> ``int``, ``float``, ``str`` or a tuple of allowed strings). An unknown
    option or a bad value raises ValueError naming the valid options, on one line."""
    valid = ", ".join(f"{name}={_describe(kind)}" for name, kind in options.items())
    result: dict[str, Any] = {}
    for item in text.split(OPTION_SEPARATOR):
        item = item.strip()
        if not item:
            continue
        name, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not value:
            raise ValueError(f"agent {spec!r}: option {item!r} is not key=value; valid options: {valid}")
        if name not in options:
            raise ValueError(f"agent {spec!r}: unknown option {name!r}; valid options: {valid}")
        if name in result:
            raise ValueError(f"agent {spec!r}: option {name!r} is given twice; valid options: {valid}")
        kind = options[name]
        try:
            if isinstance(kind, tuple):
                if value not in kind:
                    raise ValueError
                result[name] = value
            else:
                result[name] = kind(value)
        except ValueError:
            raise ValueError(
                f"agent {spec!r}: bad value {value!r} for {name} (expected {_describe(kind)}); valid options: {valid}"
            ) from None
    return result


def make_agent(spec: str, game: Game, seed: int | None = None) -> Agent:
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
    if kind in PLUGIN_KINDS:  # an installed package's kind: one-line errors, the protocol checked
        plugin = load_object(spec, module, name)
        built: Agent = check_agent(spec, _build(spec, plugin, arg, seed, game))
        return built
    cls: Callable[..., Agent] = getattr(importlib.import_module(module), name)
    return _build(spec, cls, arg, seed, game)


def _build(spec: str, cls: Callable[..., Agent], arg: str, seed: int | None, game: Game) -> Agent:
    """``cls`` built for ``spec``: with its options parsed (a class that declares ``OPTIONS``),
    its one argument, or neither."""
    kind = spec.partition(":")[0]
    options = getattr(cls, "OPTIONS", None)
    if options is not None:
        # OPTION_KWARGS: an option whose constructor argument has another name (llm's ``seed``)
        renames: Mapping[str, str] = getattr(cls, "OPTION_KWARGS", {})
        # LEADING_OPTION: a first item without "=" is that option's value ("llm:MODEL;..." is
        # "llm:model=MODEL;..."), for the one option a kind is named by
        leading = getattr(cls, "LEADING_OPTION", None)
        first = arg.split(OPTION_SEPARATOR, 1)[0].strip()
        if leading is not None and first and "=" not in first:
            arg = f"{leading}={arg}"
        kwargs = {renames.get(k, k): v for k, v in parse_options(spec, arg, options).items()}
        try:
            return cls(game, seed=seed, **kwargs)
        except ValueError as exc:
            valid = ", ".join(f"{k}={_describe(v)}" for k, v in options.items())
            raise ValueError(f"agent {spec!r}: {exc}; valid options: {valid}") from None
    if not arg:
        return cls(game, seed=seed)
    try:
        return cls(game, arg, seed=seed)
    except TypeError as exc:
        raise ValueError(f"agent {spec!r}: the {kind!r} agent takes no argument after ':' ({exc})") from None


__all__ = ["AGENT_KINDS", "OPTION_SEPARATOR", "PLUGIN_KINDS", "Agent", "RandomAgent", "make_agent", "parse_options"]
