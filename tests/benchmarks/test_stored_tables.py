"""The docs' tables of the main job, the Smuggle recipes, issue #28's targets and the search's
speed and strength are what their scripts write from the stored data (``benchmarks/main_job.py``,
``recipes.py``, ``zoo.py``, ``search.py``): a table edited by hand, or a script whose table no
longer follows its data, fails here."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from .scripts import load

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "docs" / "img" / "data"


def _load(name: str) -> ModuleType:
    return load(name)


def _load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_script_{name}", ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_main_job_tables_follow_its_leaderboard():
    module = _load("main_job")
    data = json.loads((DATA / "main_job.json").read_text(encoding="utf-8"))
    assert data["tables"]["leaderboard"] == module.table(data)
    assert data["tables"]["summary"] == module.summary_table(data)
    assert data["goal"] == module.goal(data["leaderboard"])


@pytest.mark.parametrize("path", sorted(DATA.glob("recipes_*.json")), ids=lambda p: p.stem)
def test_the_recipes_table_follows_its_results(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["table"] == _load("recipes").table(data["results"])


def test_every_recipes_figure_is_drawn_and_every_table_shown():
    """A game measured by ``recipes.py --env`` has its figure registered and its table in the docs."""
    games = sorted(p.stem.removeprefix("recipes_") for p in DATA.glob("recipes_*.json"))
    assert "smuggle" in games
    assert sorted(_load_script("make_figures").RECIPE_GAMES) == games
    zoo = (ROOT / "docs" / "zoo.md").read_text(encoding="utf-8")
    for game in games:
        assert f"<!-- data-table: recipes_{game} -->" in zoo
        assert f"img/recipes_{game}.png" in zoo


def test_the_targets_table_follows_the_manifest():
    module = _load("zoo")
    manifest = json.loads((ROOT / "agents" / "zoo" / "models.json").read_text(encoding="utf-8"))
    keys = sorted(k for k in manifest if "eval" in manifest[k])
    stored = json.loads((DATA / "zoo_targets.json").read_text(encoding="utf-8"))
    assert stored["table"] == module.targets_table(manifest, keys)


def _search_bench(monkeypatch) -> ModuleType:
    """``benchmarks/search.py``, its BLAS thread settings undone after the test."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(name, "1")
    return _load("search")


def _docs_block(page: str, name: str) -> str:
    """The ``data-table: name`` block of docs/``page``, between its markers."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    start = text.index(f"<!-- data-table: {name} -->\n") + len(f"<!-- data-table: {name} -->\n")
    return text[start : text.index("\n<!-- /data-table -->", start)]


def _generated(name: str) -> str:
    """The ``data-table: name`` block as ``scripts/update_docs.py`` writes it from the JSON."""
    spec = importlib.util.spec_from_file_location("_docs_update_docs", ROOT / "scripts" / "update_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.data_table(name))


def test_the_search_speed_tables_follow_the_stored_rows(monkeypatch):
    bench = _search_bench(monkeypatch)
    data = json.loads((DATA / "search_speed.json").read_text(encoding="utf-8"))
    assert data["rows"] and data["table"] == bench.speed_table(data["rows"])
    assert data["tables"]["run"] == bench.run_table(data)
    for name in ("search_speed", "search_speed/run"):
        assert _docs_block("benchmarks.md", name) == _generated(name)


def test_the_search_strength_table_follows_its_results(monkeypatch):
    from training.stats import wilson_interval

    bench = _search_bench(monkeypatch)
    data = json.loads((DATA / "search_strength.json").read_text(encoding="utf-8"))
    assert data["results"] and data["table"] == bench.strength_table(data["results"])
    for key, row in data["results"].items():
        assert key == bench.strength_key(row)
        assert row["win_rate"] == row["wins"] / row["games"]
        assert row["ci"] == list(wilson_interval(row["wins"], row["games"]))
    assert _docs_block("benchmarks.md", "search_strength") == _generated("search_strength")


def test_the_main_job_trains_the_zoos_recorded_smuggle_recipe():
    """scripts/main.sh's training command builds the same training settings as the zoo's
    recorded command for its Smuggle model, and the starting weights it names are the file,
    checksum included, that the zoo's entry records."""
    import shlex

    from agents.zoo import sha256
    from training.cli import build_parser
    from training.selfplay.cli import _overrides
    from training.selfplay.config import TrainConfig

    def config(command: str) -> dict:
        args = build_parser().parse_args(shlex.split(command)[1:])
        return TrainConfig(env_id=args.env_id, **_overrides(args)).to_dict()

    script = (ROOT / "scripts" / "main.sh").read_text(encoding="utf-8").replace("\\\n", " ")
    line = next(row for row in script.splitlines() if row.startswith("smuggle train "))
    ours = line.split(" --out ")[0]  # the folder and the resume flag are the script's own
    entry = json.loads((ROOT / "agents" / "zoo" / "models.json").read_text(encoding="utf-8"))["smuggle_v0@4"]
    assert config(ours) == config(entry["command"])
    start = entry["init"]
    assert f"ppo:{start['file']}" == start["spec"] and sha256(ROOT / start["file"]) == start["sha256"]


def test_exploit_table_merge_replaces_only_the_measured_games(tmp_path):
    """``exploit_table.py --merge``: a game measured again replaces its row in place; the other
    saved rows stay, and a game not saved before comes last."""
    module = _load("exploit_table")
    saved = tmp_path / "exploit_zoo.json"
    saved.write_text(json.dumps({"rows": [{"env_id": "a", "v": 1}, {"env_id": "b", "v": 1}]}), encoding="utf-8")
    merged = module.merge_rows([{"env_id": "b", "v": 2}, {"env_id": "c", "v": 2}], saved)
    assert merged == [{"env_id": "a", "v": 1}, {"env_id": "b", "v": 2}, {"env_id": "c", "v": 2}]
    assert module.merge_rows([{"env_id": "a", "v": 3}], tmp_path / "none.json") == [{"env_id": "a", "v": 3}]


def test_the_zoo_exploit_table_follows_its_rows():
    data = json.loads((DATA / "exploit_zoo.json").read_text(encoding="utf-8"))
    assert data["table"] == _load("exploit_table").docs_table(data["rows"])


def test_recipes_merge_keeps_the_rows_not_measured_again():
    merge = _load("recipes").merge
    stored = [{"label": "a", "v": 1}, {"label": "b", "v": 1}]
    assert merge(stored, [{"label": "b", "v": 2}, {"label": "c", "v": 2}]) == [
        {"label": "a", "v": 1},
        {"label": "b", "v": 2},
        {"label": "c", "v": 2},
    ]
