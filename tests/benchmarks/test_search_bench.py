"""``benchmarks/search.py``'s stored tables: the speed rows' labels and table, the run's record,
and the strength rows merged into one file run after run (fast: no search is timed)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from .scripts import load

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def bench(monkeypatch) -> ModuleType:
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(name, "1")  # what the script sets at import; restored afterwards
    return load("search")


def _speed_row(env: str, rollout_depth: int | None = None, playout_depth: int | None = None) -> dict:
    return {
        "env": env,
        "players": 4,
        "rollout_depth": rollout_depth,
        "playout_depth": playout_depth,
        "sims_per_s": 1234.5,
        "resample_us": 76.4,
        "playout_us": 11689.2,
        "playout_steps": 104.6,
    }


def _strength_row(opponent: str = "rule", games: int = 8, wins: float = 6.0) -> dict:
    return {
        "env": "smuggle_v0",
        "players": 4,
        "spec": "ismcts:sims=20;prior=zoo",
        "opponents": f"3x {opponent}",
        "games": games,
        "seed": 0,
        "wins": wins,
        "win_rate": wins / games,
        "ci": (0.25, 0.875),
        "s_per_decision": 0.0182,
    }


def test_a_speed_row_is_labelled_by_its_playout_cap(bench):
    assert bench.speed_label(_speed_row("ciq_v0")) == "ciq_v0"
    capped = _speed_row("import_export_v0", 40, 40)
    assert bench.speed_label(capped) == "import_export_v0 (default `playout_depth` 40)"
    full = _speed_row("import_export_v0", bench.FULL_PLAYOUT, 40)
    assert bench.speed_label(full) == "import_export_v0 (to the end, `rollout_depth=100000`)"
    assert bench.speed_label(_speed_row("ciq_v0", 50)) == "ciq_v0 (`rollout_depth=50`)"


def test_the_speed_table_rounds_every_figure(bench):
    table = bench.speed_table([_speed_row("smuggle_v0")])
    assert len(table["headers"]) == len(table["align"]) == 5
    assert table["rows"] == [["smuggle_v0", "1,234", "76", "11,689", "105"]]


def test_the_speed_run_records_its_machine(bench):
    before = {"cpu_count": 2, "cores": [0], "load_average": [4.11, 2.68, 2.31]}
    after = {"cpu_count": 2, "cores": [0], "load_average": [4.5, 2.9, 2.4]}
    data = bench.speed_data(
        [_speed_row("smuggle_v0")], "python benchmarks/search.py --save", "2026-11-27", before, after
    )
    assert data["table"] == bench.speed_table(data["rows"])
    run = data["tables"]["run"]
    assert len(run["headers"]) == len(run["align"]) == len(run["rows"][0])
    assert run["rows"][0] == [
        "2026-11-27",
        "`python benchmarks/search.py --save`",
        "4",
        "2",
        "0",
        "4.11 / 2.68 / 2.31",
        "4.50 / 2.90 / 2.40",
    ]
    assert bench._cores(list(range(16))) == "0-15" and bench._cores(None) == "?"
    machine = bench.machine()
    assert machine["cpu_count"] and len(machine["load_average"]) == 3


def test_strength_rows_accumulate_and_a_rerun_replaces_its_own(bench):
    data = bench.merge_strength({}, _strength_row("rule"), "cmd 1", "2026-11-26")
    data = bench.merge_strength(data, _strength_row("random", wins=8.0), "cmd 2", "2026-11-27")
    assert len(data["results"]) == 2
    assert [row[2] for row in data["table"]["rows"]] == ["3x random", "3x rule"]  # sorted
    rerun = bench.merge_strength(data, _strength_row("rule", wins=2.0), "cmd 3", "2026-11-28")
    assert len(rerun["results"]) == 2
    rule = rerun["results"][bench.strength_key(_strength_row("rule"))]
    assert (rule["wins"], rule["command"], rule["date"], rule["ci"]) == (2.0, "cmd 3", "2026-11-28", [0.25, 0.875])
    assert rerun["results"][bench.strength_key(_strength_row("random"))]["command"] == "cmd 2"
    more_games = bench.merge_strength(rerun, _strength_row("rule", games=16), "cmd 4", "2026-11-28")
    assert len(more_games["results"]) == 3  # another number of games: another row
    assert data == {"results": data["results"], "table": bench.strength_table(data["results"])}
    assert rerun["table"]["rows"][1] == [
        "smuggle_v0",
        "`ismcts:sims=20;prior=zoo`",
        "3x rule",
        "8",
        "25.0% [25.0%, 87.5%]",
        "0.018",
        "2026-11-28",
    ]
    json.dumps(more_games)  # what --save writes


def test_save_writes_a_full_playout_row_for_a_capped_game(bench, monkeypatch, tmp_path):
    seen = []

    def fake_speed(env_id, players, seconds, rollout_depth):
        seen.append((env_id, rollout_depth))
        cap = rollout_depth if rollout_depth is not None else (40 if env_id == "import_export_v0" else None)
        return _speed_row(env_id, cap, 40 if env_id == "import_export_v0" else None)

    monkeypatch.setattr(bench, "speed", fake_speed)
    monkeypatch.setattr(bench, "SPEED_DATA", tmp_path / "search_speed.json")
    bench.main(["--envs", "illegal_v0,import_export_v0", "--seconds", "0.1", "--save"])
    assert seen == [("illegal_v0", None), ("import_export_v0", None), ("import_export_v0", bench.FULL_PLAYOUT)]
    data = json.loads((tmp_path / "search_speed.json").read_text(encoding="utf-8"))
    assert data["command"] == "python benchmarks/search.py --envs illegal_v0,import_export_v0 --seconds 0.1 --save"
    assert [row[0] for row in data["table"]["rows"]] == [
        "illegal_v0",
        "import_export_v0 (default `playout_depth` 40)",
        "import_export_v0 (to the end, `rollout_depth=100000`)",
    ]
    seen.clear()
    bench.main(["--envs", "import_export_v0", "--rollout-depth", "20"])  # a cap given: one row
    assert seen == [("import_export_v0", 20)]


def test_strength_save_merges_each_row_into_the_file(bench, monkeypatch, tmp_path):
    def fake_strength(env_id, players, spec, games, seed, opponents, workers, log):
        for opponent in opponents:
            yield _strength_row(opponent, games=games) | {"env": env_id, "spec": spec}

    monkeypatch.setattr(bench, "strength", fake_strength)
    path = tmp_path / "search_strength.json"
    monkeypatch.setattr(bench, "STRENGTH_DATA", path)
    bench.main(["--strength", "--envs", "illegal_v0", "--games", "4", "--spec", "ismcts:sims=3", "--save"])
    assert len(json.loads(path.read_text(encoding="utf-8"))["results"]) == 2  # random, rule
    bench.main(["--strength", "--envs", "illegal_v0", "--games", "6", "--spec", "ismcts:sims=3", "--save"])
    data = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["results"]) == 4 and data["table"] == bench.strength_table(data["results"])
    assert {r["command"] for r in data["results"].values()} == {
        "python benchmarks/search.py --strength --envs illegal_v0 --games 4 --spec ismcts:sims=3 --save",
        "python benchmarks/search.py --strength --envs illegal_v0 --games 6 --spec ismcts:sims=3 --save",
    }
