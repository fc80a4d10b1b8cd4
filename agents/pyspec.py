"""Agents from outside the library: ``py:`` specs and the ``smuggle_envs.agents`` entry points.

``py:package.module:Name[;key=value...]`` seats any class or factory ``Name`` of an importable
module: it is called as ``Name(game, seed=seed, **options)`` and must return an agent, an object
with ``reset`` and ``act`` (the :class:`~agents.base.Agent` protocol) or ``act_in`` (a search
agent). Options are strings, unless ``Name`` declares ``OPTIONS`` (then they are parsed and typed
as for the library's search bots, ``agents.parse_options``).

An installed package adds an agent *kind* by name with an entry point in the group
``smuggle_envs.agents`` (``name = "package.module:Name"`` in its pyproject's
``[project.entry-points."smuggle_envs.agents"]``): ``agents.AGENT_KINDS`` lists it next to the
library's kinds, built as theirs are, and ``smuggle play --help`` shows its docstring's first
clause. A name that is already a library kind is ignored (the library's own kind wins).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from smuggle_envs.core.game import Game

ENTRY_POINT_GROUP = "smuggle_envs.agents"


def entry_point_kinds(reserved: set[str] | frozenset[str] = frozenset()) -> dict[str, Mapping[str, str]]:
    """kind -> ``{"*": "module:Name"}`` for every entry point of the group, not importing them;
    names in ``reserved`` (the library's kinds) are skipped."""
    from importlib.metadata import entry_points

    found: dict[str, Mapping[str, str]] = {}
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        if point.name not in reserved and point.name not in found:
            found[point.name] = {"*": point.value}
    return found


def _split(spec: str, text: str) -> tuple[str, str, str]:
    """``"pkg.mod:Name;k=v"`` -> ``("pkg.mod", "Name", "k=v")``, or a one-line ValueError."""
    target, _, options = text.partition(";")
    module, colon, name = target.strip().partition(":")
    if not colon or not module or not name.isidentifier() or not all(p.isidentifier() for p in module.split(".")):
        raise ValueError(f"agent {spec!r}: write py:package.module:Name[;key=value...]")
    return module, name, options


def load_object(spec: str, module: str, name: str) -> Any:
    """``module.name``, or a one-line ValueError for a module that cannot be imported or lacks it."""
    try:
        loaded = importlib.import_module(module)
    except Exception as exc:  # any failure of the user's import is reported, not raised
        raise ValueError(f"agent {spec!r}: cannot import {module!r}: {type(exc).__name__}: {exc}") from None
    if not hasattr(loaded, name):
        raise ValueError(f"agent {spec!r}: module {module!r} has no {name!r}")
    return getattr(loaded, name)


def check_agent(spec: str, agent: Any) -> Any:
    """``agent`` if it implements the protocol (``reset`` and ``act``, or ``act_in``), else a
    one-line ValueError naming what it lacks."""
    has = {m: callable(getattr(agent, m, None)) for m in ("reset", "act", "act_in")}
    if has["reset"] and (has["act"] or has["act_in"]):
        return agent
    lacking = [m for m in ("reset", "act") if not has[m]]
    raise ValueError(
        f"agent {spec!r}: {type(agent).__name__} does not implement the Agent protocol "
        f"(it lacks {' and '.join(lacking)}; an agent needs reset and act, or reset and act_in)"
    )


def py_agent(game: Game, target: str = "", seed: int | None = None) -> Any:
    """Any agent class or factory of an importable module, ``py:package.module:Name[;key=value...]``.

    ``Name(game, seed=seed, **options)`` builds it; see the module's docstring."""
    from . import parse_options

    spec = f"py:{target}"
    module, name, text = _split(spec, target)
    factory = load_object(spec, module, name)
    if not callable(factory):
        raise ValueError(f"agent {spec!r}: {module}.{name} is a {type(factory).__name__}, not a class or factory")
    options = getattr(factory, "OPTIONS", None)
    if options is not None:
        kwargs: dict[str, Any] = parse_options(spec, text, options)
    else:
        kwargs = {}
        for item in filter(None, (i.strip() for i in text.split(";"))):
            key, eq, value = (p.strip() for p in item.partition("="))
            if not eq or not key.isidentifier():
                raise ValueError(f"agent {spec!r}: option {item!r} is not key=value")
            kwargs[key] = value
    try:
        agent = factory(game, seed=seed, **kwargs)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"agent {spec!r}: {module}.{name}(game, seed=..., {', '.join(kwargs)}) failed: {exc}"
        ) from None
    return check_agent(spec, agent)
