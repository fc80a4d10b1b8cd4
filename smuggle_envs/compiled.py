"""The opt-in compiled build: which engine modules it compiles, and which build is loaded.

The default install is pure Python. ``SMUGGLE_ENVS_COMPILE=1 pip install .`` compiles the
engine's hot modules with Cython in pure-Python mode: the same ``.py`` files, their annotations
not read as C types (``annotation_typing=False``), so every integer stays a Python integer and
the compiled engine plays exactly the games the pure one plays (``tests/core/test_compiled_build.py``
checks the engine fingerprint and the core test families on a fresh build). Python imports an
extension module before the ``.py`` beside it, so an installed compiled build is used without
any switch at run time; ``smuggle --version`` and ``smuggle list`` say which build is loaded.

=================  =====================================================================
compiled           every ``.py`` of ``smuggle_envs/core`` and of each game's folder
                   (with its subpackages)
not compiled       the cold roles in ``COLD`` (data tables, renders, texts, scenarios,
                   vocabularies, errors, specs, replays): they run once a game, not once
                   a decision
read by            ``setup.py`` (by path: it imports nothing of the package) and
                   :func:`build`
=================  =====================================================================

This module imports only the standard library, so the build can read it before numpy exists.
"""

from __future__ import annotations

import importlib
import importlib.machinery
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# Modules that run once a game (or once a process), not once a decision: compiling them buys
# nothing and costs build time.
COLD = frozenset({"__init__", "data", "errors", "render", "replay", "scenarios", "spec", "text", "vocab"})


def engine_files(package: Path = PACKAGE) -> list[Path]:
    """The source files the compiled build compiles, sorted: core's modules and every game
    folder's (its subpackages too, such as Import / Export's ``powers``), less the ``COLD`` roles."""
    games = sorted(p for p in (package / "games").iterdir() if (p / "__init__.py").exists())
    files = [*(package / "core").glob("*.py"), *(f for game in games for f in game.rglob("*.py"))]
    return sorted(f for f in files if f.stem not in COLD and "__pycache__" not in f.parts)


def engine_modules(package: Path = PACKAGE) -> list[str]:
    """The dotted names of :func:`engine_files`."""
    return [".".join((package.name, *f.relative_to(package).with_suffix("").parts)) for f in engine_files(package)]


def build() -> str:
    """``"compiled"`` when every engine module is loaded from an extension module, ``"pure"``
    when none is, ``"mixed"`` otherwise (a partial or stale build: rebuild or reinstall)."""
    extension = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    loaded = [str(importlib.import_module(name).__file__).endswith(extension) for name in engine_modules()]
    return "compiled" if all(loaded) else "mixed" if any(loaded) else "pure"


def describe() -> str:
    """One line for ``smuggle --version`` and ``smuggle list``: the build and what compiled it."""
    kind = build()
    if kind == "pure":
        return "pure Python build"
    count = len(engine_modules())
    return f"{kind} build (Cython, {count} engine modules)" if kind == "compiled" else f"{kind} build: rebuild it"
