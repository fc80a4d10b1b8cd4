"""The benchmark tests' one loader: a script of ``benchmarks/`` (or ``scripts/``) imported by its
path, as a fresh module (the scripts are not a package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load(name: str, folder: str = "benchmarks") -> ModuleType:
    """``ROOT/folder/name.py`` as a module (named ``_bench_NAME`` or ``_script_NAME``)."""
    prefix = "_bench" if folder == "benchmarks" else "_script"
    return load_path(ROOT / folder / f"{name}.py", f"{prefix}_{name}")


def load_path(path: Path, module_name: str | None = None) -> ModuleType:
    """The Python file ``path`` as a fresh module."""
    spec = importlib.util.spec_from_file_location(module_name or path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
