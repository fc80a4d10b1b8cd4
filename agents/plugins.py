"""Per-game plugins: a package with one module a game, found by listing the package.

A layer that knows something of each game keeps it in one module a game, ``<package>/<game>.py``
(the rule bots in ``agents/rule/``, the analytics in ``training/analytics/``, the browser app's
parts in ``training/web/games/``). Each such module declares ``ENV_ID`` (the env id of its game)
and the layer's own attribute (``AGENT``, ``ANALYSIS``, ``WEB``). A :class:`PluginRegistry` lists
the package with ``pkgutil.iter_modules`` on first use and maps each env id to what its module
declares: adding a game to a layer is adding its module, with no table or if-chain to edit.
Modules whose name starts with ``_`` are the package's shared code, not plugins; a game that lives
outside the package (a test fixture's) adds its module with one ``register(module)`` line.
Every registry is noted when it is made, and ``registries()`` imports each module that makes one
and returns those its package holds, so it enumerates the layers there are: the sixth game's fixture fills each one
(``tests/test_sixth_game.py``) and the guide's list of files per layer is generated from it.
``missing(env_ids)`` names the games a layer lacks, for the completeness test each layer has over
``smuggle_envs.ENV_IDS``; ``require(env_id)`` is the one typed lookup of a game's entry that the
layers' own lookups (``training.bluffing.games.plugin``, ``training.web.games.web_game``) are.

Used by every layer above the envs (``training`` imports it from here); it knows nothing of any
game.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class PluginError(TypeError):
    """A plugin module that does not declare what its package asks of it, or a second module for
    the same game."""


class PluginRegistry(Mapping[str, T], Generic[T]):
    """env id -> what each plugin module of ``package`` declares, read on first use.

    ``attribute`` is the name each module must define next to ``ENV_ID``; ``value(module)`` makes
    the registry's entry from the module (default: that attribute itself); ``kind``, when given,
    is the class every entry must be an instance of (checked by ``require``). The package is listed
    and its modules are imported on the first lookup, not when the registry is made, so importing
    a layer stays cheap and a plugin may import the package's shared modules freely."""

    def __init__(
        self,
        package: str,
        attribute: str,
        value: Callable[[ModuleType], T] | None = None,
        kind: type[T] | None = None,
    ):
        self.package = package
        self.attribute = attribute
        self.kind = kind
        self._value = value
        self._modules: dict[str, ModuleType] | None = None
        self._table: dict[str, T] | None = None
        _MADE.append(weakref.ref(self))  # weak: a test's own registries come and go

    def modules(self) -> dict[str, ModuleType]:
        """env id -> its plugin module, every module of the package imported (in name order)."""
        if self._modules is None:
            package = importlib.import_module(self.package)
            found: dict[str, ModuleType] = {}
            for info in sorted(pkgutil.iter_modules(package.__path__, self.package + "."), key=lambda i: i.name):
                if not info.name.rpartition(".")[2].startswith("_"):  # "_..." is the package's shared code
                    self._add(found, importlib.import_module(info.name))
            self._modules = found
        return self._modules

    def register(self, module: ModuleType) -> None:
        """Add a plugin module from outside the package (a game that lives elsewhere, such as a
        test fixture's); it declares ``ENV_ID`` and the attribute as the package's modules do."""
        self._add(self.modules(), module)
        self._table = None

    def _add(self, found: dict[str, ModuleType], module: ModuleType) -> None:
        env_id = getattr(module, "ENV_ID", None)
        if not isinstance(env_id, str) or not hasattr(module, self.attribute):
            short = module.__name__.rpartition(".")[2]
            raise PluginError(
                f"{module.__name__} is a plugin module of {self.package}: it must define ENV_ID (its game's "
                f"env id) and {self.attribute} (or be named _{short} if it is shared code)"
            )
        if env_id in found:
            raise PluginError(
                f"two modules of {self.package} serve {env_id}: {found[env_id].__name__}, {module.__name__}"
            )
        found[env_id] = module

    def _entries(self) -> dict[str, T]:
        if self._table is None:
            read = self._value or (lambda module: getattr(module, self.attribute))
            self._table = {env_id: read(module) for env_id, module in self.modules().items()}
        return self._table

    def __getitem__(self, env_id: str) -> T:
        return self._entries()[env_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries())

    def __len__(self) -> int:
        return len(self._entries())

    def __repr__(self) -> str:
        shown = dict(self._entries()) if self._table is not None else "not listed yet"
        return f"PluginRegistry({self.package!r}, {self.attribute!r}: {shown})"

    def require(self, env_id: str) -> T:
        """The entry of ``env_id``: a ``LookupError`` naming the module to add for a game the
        package lacks (never a default), a :class:`PluginError` when the module's entry is not a
        ``kind``."""
        entries = self._entries()
        if env_id not in entries:
            raise LookupError(self.describe_missing([env_id]))
        found = entries[env_id]
        if self.kind is not None and not isinstance(found, self.kind):
            module = self.modules()[env_id].__name__
            raise PluginError(f"{module}.{self.attribute} must be a {self.kind.__name__}, not {type(found).__name__}")
        return found

    def missing(self, env_ids: Iterable[str]) -> list[str]:
        """The env ids among ``env_ids`` that no module of the package serves."""
        return [env_id for env_id in env_ids if env_id not in self._entries()]

    def describe_missing(self, env_ids: Iterable[str]) -> str:
        """One line naming what the games lack (empty when none does), for completeness tests."""
        lacking = self.missing(env_ids)
        if not lacking:
            return ""
        files = ", ".join(f"{self.package.replace('.', '/')}/{_game_name(e)}.py" for e in lacking)
        return (
            f"{', '.join(lacking)} lack{'s' if len(lacking) == 1 else ''} a module in {self.package}: "
            f"add {files} defining ENV_ID and {self.attribute}"
        )


_MADE: list[weakref.ref[PluginRegistry[Any]]] = []  # every registry made, in the order made


def registries(packages: Iterable[str] = ("smuggle_envs", "agents", "training")) -> list[PluginRegistry[Any]]:
    """Every per-game registry there is in ``packages``, by package name: each of their modules
    whose source makes one (reads ``PluginRegistry(``) imported, then every registry made that its
    package's module holds by a name (a layer's, not one a test made for itself)."""
    for name in packages:
        root = Path(importlib.import_module(name).__file__ or "").parent
        for path in sorted(root.rglob("*.py")):
            # this module names the class in its own text; it makes no registry
            if path.name != "plugins.py" and "PluginRegistry(" in path.read_text(encoding="utf-8"):
                parts = path.relative_to(root.parent).with_suffix("").parts
                importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    found = [made() for made in _MADE]
    return sorted((r for r in found if r is not None and _held(r)), key=lambda r: (r.package, r.attribute))


def _held(found: PluginRegistry[Any]) -> bool:
    module = sys.modules.get(found.package)
    return module is not None and any(value is found for value in vars(module).values())


def _game_name(env_id: str) -> str:
    """``"smuggle_v0"`` -> ``"smuggle"``: the module name a game's plugin takes."""
    head, sep, version = env_id.rpartition("_v")
    return head if sep and version.isdigit() else env_id


def entry_target(module: ModuleType, attribute: str) -> str:
    """``"package.module:Name"`` of the class or function ``module.<attribute>``."""
    obj: Any = getattr(module, attribute)
    return f"{module.__name__}:{obj.__name__}"
