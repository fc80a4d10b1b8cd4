"""``benchmarks/lie_detection.py`` reads its calls through the kit's one definition (issue #34):
a forced call is in no score, only counted; its stored calls are what ``--report`` scores again,
and the docs table is what they give."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from training.bluffing.metrics import Settings

from .scripts import load

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "docs" / "img" / "data" / "lie_detection.json"


def _bench() -> ModuleType:
    return load("lie_detection")


def _call(seed: int, truth: bool, p: float, forced: bool = False, agent: str = "rule") -> dict[str, Any]:
    """A scored test call, every score ``p`` (P(lie)); ``challenge_prob`` too."""
    return {
        "role": "call",
        "seed": seed,
        "agent_name": agent,
        "truth": truth,
        "forced": forced,
        "challenged": p > 0.5,
        "challenge_prob": p,
        "p_uniform": p,
        "p_policy": p,
        "policy_fallback": False,
        "p_logistic": p,
    }


def _by_name(found: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {s["scorer"]: s for s in found}


def test_forced_calls_are_left_out_of_every_score_and_counted():
    # chosen: a lie scored 0.6 below a true claim scored 0.8 (AUROC 0); forced keeps of true claims
    # scored 0 would lift it to 2/3 if they counted
    calls = [_call(1, False, 0.6), _call(2, True, 0.8), _call(3, True, 0.0, forced=True), _call(4, True, 0.0, True)]
    found = _by_name(_bench().scorers(calls, Settings(n_boot=20)))
    assert set(found) == {
        "uniform posterior",
        "policy-aware posterior",
        "logistic regression",
        "rule's calls (P(challenge))",
    }
    for s in found.values():
        assert (s["rows"], s["forced"], s["lies"], s["deals"]) == (2, 2, 1, 2)
        assert s["auroc"]["value"] == 0.0
        assert math.isclose(s["brier"]["value"], (0.4**2 + 0.8**2) / 2)


def test_an_auroc_with_only_lies_left_is_na_with_its_reason():
    """CIQ: a true smuggle leaves the target no face card, so KEEP is forced; every chosen Fire
    decision answers a lie, and the forced keeps alone made the AUROC 1.00."""
    bench = _bench()
    calls = [_call(s, False, 0.5, agent="random") for s in (1, 2)] + [_call(3, True, 0.0, True, "random")]
    calls.append(_call(4, True, 0.0, True, "rule"))  # an agent whose every call was forced keeps its row
    found = bench.scorers(calls, Settings(n_boot=20))
    agents = _by_name(found)
    assert agents["rule's calls (decision)"]["rows"] == 0 and agents["rule's calls (decision)"]["forced"] == 1
    assert agents["random's calls (P(challenge))"]["auroc"]["value"] is None
    rows = {r[1]: r for r in bench.table({"ciq_v0": {"scorers": found}})["rows"]}
    random = rows["random's calls (P(challenge))"]
    assert random[2:6] == [2, 1, 2, "n/a"]
    assert random[-1] == "AUROC n/a: every chosen call answers a lie, none to rank it against"
    assert (
        rows["rule's calls (decision)"][5] == "n/a"
        and rows["rule's calls (decision)"][-1] == "AUROC n/a: no chosen call"
    )
    assert rows["uniform posterior"][3] == 2 and rows["uniform posterior"][5] == "n/a"


def test_stored_calls_read_back_as_scored_and_one_a_line():
    bench = _bench()
    calls = [_call(1, False, 0.123456), {**_call(2, True, 0.5, forced=True), "p_policy": None, "challenge_prob": None}]
    stored = bench.store_calls(calls)
    back = bench.read_calls(json.loads(bench.dumps({"calls": stored}))["calls"])
    assert back[0] == {
        **calls[0],
        "challenge_prob": 0.1235,
        "p_uniform": 0.1235,
        "p_policy": 0.1235,
        "p_logistic": 0.1235,
    }
    assert back[1] == {**calls[1], "p_uniform": 0.5, "p_logistic": 0.5}
    lines = bench.dumps({"calls": stored}).splitlines()
    assert '   [1, "rule", 0, 0, 0, 0.1235, 0.1235, 0.1235, 0, 0.1235],' in lines


def test_report_scores_the_stored_calls_again(tmp_path):
    bench = _bench()
    calls = [_call(1, False, 0.6), _call(2, True, 0.8), _call(3, True, 0.0, forced=True)]
    game = {"scorers": [{"stale": True}], "test_calls": bench.store_calls(calls)}
    settings = {"boot": 20, "level": 0.95}
    data, plot = tmp_path / "ld.json", tmp_path / "ld.png"
    data.write_text(json.dumps({"settings": settings, "games": {"smuggle_v0": game}, "table": {}}))
    assert bench.main(["--report", "--data", str(data), "--plot", str(plot)]) == 0
    stored = json.loads(data.read_text())
    assert stored["games"]["smuggle_v0"]["scorers"] == bench.scorers(bench.read_calls(game["test_calls"]), Settings(20))
    assert stored["table"] == bench.table(stored["games"]) and plot.stat().st_size > 0


def test_report_refuses_a_game_without_its_calls_and_changes_nothing(tmp_path):
    data = tmp_path / "ld.json"
    text = json.dumps({"settings": {"boot": 20, "level": 0.95}, "games": {"ciq_v0": {"scorers": [{}]}}, "table": {}})
    data.write_text(text)
    with pytest.raises(SystemExit, match="ciq_v0 keeps no test_calls to score; measure it again"):
        _bench().main(["--report", "--data", str(data), "--plot", str(tmp_path / "ld.png")])
    assert data.read_text() == text and not (tmp_path / "ld.png").exists()


def _docs_block(name: str) -> str:
    text = (ROOT / "docs" / "bluffing.md").read_text(encoding="utf-8")
    start = text.index(f"<!-- data-table: {name} -->\n") + len(f"<!-- data-table: {name} -->\n")
    return text[start : text.index("\n<!-- /data-table -->", start)]


def _points(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scorers' rows less their intervals (a bootstrap of 1000 over every call is slow here)."""
    drop = ("low", "high")
    return [{k: {**v, **dict.fromkeys(drop)} if isinstance(v, dict) else v for k, v in s.items()} for s in found]


def test_the_docs_table_follows_the_stored_calls():
    """The stored scorers are what the stored calls give (their values and counts), the table
    what they make, and the docs page shows that table: a table edited by hand, or numbers
    measured before a change in which calls count, fail here."""
    bench = _bench()
    data = json.loads(DATA.read_text(encoding="utf-8"))
    level = data["settings"]["level"]
    for env, game in data["games"].items():
        if game["scorers"]:
            again = bench.scorers(bench.read_calls(game["test_calls"]), Settings(n_boot=1, level=level))
            assert _points(game["scorers"]) == _points(again), env
    assert data["table"] == bench.table(data["games"])
    assert _docs_block("lie_detection") == bench.render_table(data["table"])
