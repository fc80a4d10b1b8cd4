"""``benchmarks/mutation.py``: the mutmut configuration it writes, how it reads mutmut's results,
and the docs' table, which must follow the stored results (the run itself takes hours)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from types import ModuleType

import pytest

from .scripts import load

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "docs" / "img" / "data" / "mutation.json"


def _load() -> ModuleType:
    return load("mutation")


mutation = _load()


@pytest.mark.parametrize("game", list(mutation.GAMES))
def test_config_names_the_games_rule_files_and_its_tests(game):
    header, *lines = mutation.mutmut_config(game).splitlines()
    assert header == "[tool.mutmut]"
    config = {key: json.loads(value) for key, _, value in (line.partition(" = ") for line in lines)}
    assert config["only_mutate"][-1] == f"smuggle_envs/games/{game}/state.py"
    for path in config["only_mutate"]:
        assert (ROOT / path).is_file(), path
    (tests,) = config["pytest_add_cli_args_test_selection"]
    assert (ROOT / tests / "test_rules.py").is_file()
    assert f"--ignore-glob={tests}/test_docs*.py" in config["pytest_add_cli_args"]


def test_statuses_keep_the_rule_files_and_the_end_of_game_functions_only(tmp_path):
    meta = tmp_path / "mutants" / "smuggle_envs" / "games" / "smuggle"
    meta.mkdir(parents=True)
    game = "smuggle_envs.games.smuggle"
    codes = {f"{game}.steps.x__pay__mutmut_1": 0, f"{game}.steps.x__pay__mutmut_2": 1}
    (meta / "steps.py.meta").write_text(json.dumps({"exit_code_by_key": codes}))
    state = {
        f"{game}.state.xǁSmuggleStateBaseǁscores__mutmut_1": 36,
        f"{game}.state.xǁSmuggleStateBaseǁ_draw__mutmut_1": 0,
    }
    (meta / "state.py.meta").write_text(json.dumps({"exit_code_by_key": state}))
    assert mutation.statuses(tmp_path, "smuggle") == {
        f"{game}.steps.x__pay__mutmut_1": "survived",
        f"{game}.steps.x__pay__mutmut_2": "killed",
        f"{game}.state.xǁSmuggleStateBaseǁscores__mutmut_1": "timeout",
    }


def test_counts_and_score_equivalent_only_if_it_survived(monkeypatch):
    monkeypatch.setattr(mutation, "EQUIVALENT", {"a": "why", "b": "why"})
    result = {
        "files": ["smuggle_envs/games/smuggle/steps.py"],
        "cpu_seconds": 600,
        "statuses": {"a": "survived", "b": "killed", "c": "killed", "d": "survived", "e": "no tests", "f": "timeout"}
        | {"g": "not checked"},
    }
    counts = {"mutants": 7, "killed": 3, "survived": 1, "equivalent": 1, "no tests": 1, "not checked": 1}
    assert mutation.counts(result) == counts
    (row,) = mutation.table({"smuggle": result})["rows"]
    assert row == ["smuggle", "`steps.py`", "7", "3", "1", "1", "1", "1", "75.0%", "10 min"]


def test_report_without_results_is_refused_and_writes_nothing(tmp_path, capsys):
    data = tmp_path / "mutation.json"
    data.write_text(json.dumps({"games": {}}))
    with pytest.raises(SystemExit) as exit_:
        mutation.main(["--report", "--data", str(data)])
    assert exit_.value.code == 2 and "holds no results" in capsys.readouterr().err
    assert json.loads(data.read_text()) == {"games": {}}


def test_the_stored_table_follows_the_stored_results():
    data = json.loads(DATA.read_text(encoding="utf-8"))
    assert data["games"], "no game has been run"
    assert mutation.report(copy.deepcopy(data)) == data
    doc = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert "<!-- data-table: mutation -->" in doc


def test_survivors_run_again_and_an_equivalent_one_only_if_it_never_ran(monkeypatch):
    monkeypatch.setattr(mutation, "EQUIVALENT", {"g.eq_ran": "why", "g.eq_unrun": "why"})
    statuses = {"g.killed": "killed", "g.alive": "survived", "g.unreached": "no tests", "g.unrun": "not checked"}
    statuses |= {"g.eq_ran": "survived", "g.eq_unrun": "not checked"}
    assert mutation.to_run_again({"statuses": statuses}) == ["g.alive", "g.unreached", "g.unrun", "g.eq_unrun"]
