"""The docs' tables of the main job, the Smuggle recipes and issue #28's targets are what their
scripts write from the stored data (``benchmarks/main_job.py``, ``recipes.py``, ``zoo.py``): a
table edited by hand, or a script whose table no longer follows its data, fails here."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "docs" / "img" / "data"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_main_job_tables_follow_its_leaderboard():
    module = _load("main_job")
    data = json.loads((DATA / "main_job.json").read_text(encoding="utf-8"))
    assert data["tables"]["leaderboard"] == module.table(data)
    assert data["tables"]["summary"] == module.summary_table(data)
    assert data["goal"] == module.goal(data["leaderboard"])


def test_the_recipes_table_follows_its_results():
    data = json.loads((DATA / "recipes_smuggle.json").read_text(encoding="utf-8"))
    assert data["table"] == _load("recipes").table(data["results"])


def test_the_targets_table_follows_the_manifest():
    module = _load("zoo")
    manifest = json.loads((ROOT / "agents" / "zoo" / "models.json").read_text(encoding="utf-8"))
    keys = sorted(k for k in manifest if "eval" in manifest[k])
    stored = json.loads((DATA / "zoo_targets.json").read_text(encoding="utf-8"))
    assert stored["table"] == module.targets_table(manifest, keys)
