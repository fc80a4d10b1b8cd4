"""The load benchmark (``benchmarks/web_load.py``) at a tiny size: ``smuggle serve`` in its own
process, two tables played to the end by the scripted clients, the budget stopping a run cleanly,
and the checks that find a lost, doubled or unannounced move."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from smuggle_envs import make_game

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "benchmarks" / "web_load.py"
CLEAN = {"unfinished": 0, "length": 0, "lost": 0, "extra": 0, "duplicated": 0}


@pytest.fixture(scope="module")
def web_load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("web_load", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["web_load"] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["web_load"]
    return module


def run_benchmark(tmp_path: Path, *argv: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    out = tmp_path / "load.json"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--quiet", "--out", str(out), *argv],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert out.exists(), proc.stdout + proc.stderr
    return proc, json.loads(out.read_text())


def assert_server_stopped(result: dict[str, Any]) -> None:
    assert result["server"]["exit"] in (0, 130), result["server"]  # 130: smuggle serve's exit after Ctrl-C
    with pytest.raises(ProcessLookupError):
        os.kill(result["server"]["pid"], 0)


def test_two_tables_are_played_to_the_end_and_nothing_is_lost(tmp_path):
    proc, result = run_benchmark(tmp_path, "--tables", "2", "--seconds", "120", "--max-requests", "5000", "--seed", "3")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert result["complete"] and result["tables_finished"] == 2
    assert result["server_errors"] == 0 and result["refusals"] == 0 and result["connection_errors"] == {}
    assert result["checks"] == CLEAN
    assert 0 < result["human_decisions"] < result["decisions"]  # the bots moved too
    act, poll = result["latency_ms"]["act"], result["latency_ms"]["poll"]
    assert act["n"] == result["human_decisions"]
    assert 0 < act["p50"] <= act["p99"] <= act["max"]
    assert poll["n"] > 0 and 0 <= poll["p50"] <= poll["p99"]
    assert result["decisions_per_s"] > 0 and result["requests"] <= 5000
    assert "act" in proc.stdout and "2/2 tables finished and stored" in proc.stdout
    assert_server_stopped(result)


def test_a_spent_budget_stops_cleanly_with_a_partial_result(tmp_path):
    """Here through httpx2, the other client."""
    proc, result = run_benchmark(tmp_path, "--tables", "2", "--max-requests", "40", "--client", "httpx2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not result["complete"] and result["requests"] == 40 and result["client"] == "httpx2"
    assert result["checks"]["unfinished"] == 2 and result["tables_finished"] == 0
    assert {k: v for k, v in result["checks"].items() if k != "unfinished"} == {
        k: 0 for k in CLEAN if k != "unfinished"
    }
    assert result["human_decisions"] > 0 and not result["goal"]["met"]
    assert "partial result" in proc.stdout
    assert_server_stopped(result)


def test_the_checks_find_a_lost_a_doubled_and_an_unannounced_move(web_load):
    """``check_table`` against a real replay: people in seats 0 and 2 of a finished Smuggle game."""
    game = make_game("smuggle_v0", num_players=4)
    state, rng = game.new_initial_state(5), random.Random(5)
    acks = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        if state.current_player() in (0, 2):
            acks.append((len(state.history), state.current_player(), action))
        state.apply_action(action)
    actions = list(state.history)
    row = {"env_id": "smuggle_v0", "config": game.config.to_dict(), "seed": 5, "actions": actions}
    row.update(status="finished", game_id=1)
    stored = {"id": 1, "decisions": len(actions), "actions": actions}
    rows = [{"decision": d, "seat": s, "action": a} for d, s, a in acks]
    api = {"steps": len(actions), "decisions": len(actions)}

    def check(acked: list[tuple[int, int, int]], decisions: list[dict[str, Any]], revision: int = len(actions)):
        run = web_load.TableRun("t", 5, {0: "a", 2: "b"}, acks=list(acked), revision=revision)
        found = {**CLEAN, **web_load.check_table(run, api, row, stored, decisions)}
        return {k: v for k, v in found.items() if v}

    assert check(acks, rows) == {}
    assert check(acks, rows[1:]) == {"lost": 1}  # an act answered 200 but not in human_decisions
    assert check(acks, rows + rows[:1]) == {"duplicated": 1}  # stored twice
    assert check(acks + acks[:1], rows) == {"duplicated": 1}  # answered 200 twice
    assert check(acks[1:], rows) == {"extra": 2}  # applied and stored, never acknowledged
    d, s, a = acks[0]
    assert check([(d, s, a + 1), *acks[1:]], rows) == {"lost": 1}  # another action than the one sent
    assert check(acks, rows, revision=len(actions) - 1) == {"length": 1}  # the clients saw another end
    assert check(acks, rows[:0]) == {"lost": len(acks)}


def test_the_docs_table_is_written_by_the_script(web_load, tmp_path):
    page = tmp_path / "web.md"
    page.write_text("before\n<!-- load: begin -->\nold figures\n<!-- load: end -->\nafter\n", encoding="utf-8")
    web_load.write_docs(page, "| a | b |\n|---|---|\n")
    assert (
        page.read_text(encoding="utf-8")
        == "before\n<!-- load: begin -->\n| a | b |\n|---|---|\n<!-- load: end -->\nafter\n"
    )
    with pytest.raises(SystemExit, match="no <!-- load: begin -->"):
        web_load.write_docs(_page(tmp_path, "no block\n"), "x")
    text = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    assert web_load.DOCS_BLOCK.search(text), "docs/web.md lost the block the benchmark writes"


def _page(folder: Path, text: str) -> Path:
    page = folder / "other.md"
    page.write_text(text, encoding="utf-8")
    return page
