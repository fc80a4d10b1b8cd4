"""``benchmarks/compiled_build.py``: the best of each build's rounds, the ratios to dou_dizhu with
each build's own reference, the goal's marks, the stored run's tables and figure, bad arguments."""

from __future__ import annotations

import json
from types import ModuleType

import pytest

from .scripts import ROOT, load


def _module() -> ModuleType:
    return load("compiled_build")


def _run(build: str, dou: float, engine: float, sims: float) -> dict:
    return {"build": build, "dou_dizhu": dou, "dou_dizhu_after": dou - 1, "a_v0": {"engine": engine, "sims": sims}}


def test_best_keeps_each_workloads_best_round_and_the_best_reference() -> None:
    cb = _module()
    runs = [_run("pure", 100.0, 50.0, 9.0), _run("pure", 90.0, 60.0, 8.0)]
    runs[1]["dou_dizhu_after"] = 120.0
    assert cb.best(runs, ["a_v0"]) == {"dou_dizhu": 120.0, "games": {"a_v0": {"engine": 60.0, "sims": 9.0}}}


def test_the_table_divides_by_each_builds_own_reference_and_marks_the_goal() -> None:
    cb = _module()
    results = {
        "envs": ["a_v0", "b_v0"],
        "pure": {
            "dou_dizhu": 100.0,
            "games": {"a_v0": {"engine": 80.0, "sims": 10.0}, "b_v0": {"engine": 20.0, "sims": 4.0}},
        },
        "compiled": {
            "dou_dizhu": 50.0,
            "games": {"a_v0": {"engine": 100.0, "sims": 15.0}, "b_v0": {"engine": 25.0, "sims": 5.0}},
        },
    }
    rows = cb.table(results)["rows"]
    assert rows[0] == ["`a_v0`", "80", "100", "**1.25x**", "0.80x", "**2.00x**", "10", "15", "**1.50x**"]
    assert rows[1][5] == "**0.50x** (below)" and rows[1][3] == "**1.25x**"


def test_the_stored_run_gives_the_docs_tables_and_a_figure(tmp_path) -> None:
    cb = _module()
    data = json.loads(cb.DATA.read_text())
    assert data["tables"]["rates"] == cb.table(data["results"])
    assert data["tables"]["run"] == cb.run_table(data)
    assert data["tables"]["profile"] == cb.profile_table(data["profile"])
    assert set(data["results"]["envs"]) == {r[0].strip("`") for r in data["tables"]["rates"]["rows"]}
    assert data["machine"]["cython"] and data["command"].startswith("python benchmarks/compiled_build.py")
    png = tmp_path / "f.png"
    cb.plot(data, png)
    assert png.stat().st_size > 10_000
    assert (ROOT / "docs" / "img" / "compiled_build.png").exists()


@pytest.mark.parametrize("argv", [["--rounds", "0"], ["--seconds", "0"]])
def test_bad_arguments_are_refused_before_any_build(argv, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        _module().main(argv)
    assert exit_info.value.code == 2 and "--rounds must be at least 1" in capsys.readouterr().err


def test_the_profile_groups_own_time_by_engine_module_and_sums_to_one() -> None:
    cb = _module()
    shares = cb.profile(["smuggle_v0"], decisions=300)["smuggle_v0"]
    assert abs(sum(shares.values()) - 1.0) < 1e-9
    assert list(shares.values()) == sorted(shares.values(), reverse=True)
    assert {"steps.py", "encoder.py", "core/game.py"} <= set(shares)
    assert cb._module_of("/x/smuggle_envs/games/import_export/powers/modifiers.py", "f") == "powers/modifiers.py"
    assert cb._module_of("~", "<built-in method numpy.zeros>") == "numpy and builtins"
    row = cb.profile_table({"a_v0": {"steps.py": 0.5, "state.py": 0.3, "x": 0.2}}, top=2)["rows"][0]
    assert row == ["`a_v0`", "steps.py 50%, state.py 30%"]
