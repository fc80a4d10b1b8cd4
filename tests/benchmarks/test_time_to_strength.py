"""``benchmarks/time_to_strength.py``: seeds' finals pooled, "reaches" judged by the default's
interval, seconds to the model as a ratio to the default's, the stored run's table, the figure."""

from __future__ import annotations

import json
from types import ModuleType

import pytest

from .scripts import load


def _module() -> ModuleType:
    return load("time_to_strength")


def _run(seed: int, rule_wins: float, model_seconds: float) -> dict:
    curve = [
        {"step": step, "opponent": o, "games": 100, "wins": w, "seconds": s}
        for step, w, s in ((0, 20, 5), (1000, 30, model_seconds / 2))
        for o in ("rule", "rule+random")
    ]
    final = [
        {"opponent": o, "games": 500, "wins": rule_wins / k, "win_rate": 0, "ci_low": 0, "ci_high": 0}
        for o, k in (("rule", 1), ("rule+random", 2))
    ]
    return {
        "seed": seed,
        "wall_seconds": model_seconds + 30,
        "model_seconds": model_seconds,
        "curve": curve,
        "final": final,
    }


def _report(fast_wins: float) -> dict:
    return {
        "env_id": "smuggle_v0",
        "machine": "test",
        "recipes": {"default": {"steps": 2000, "arguments": ""}, "fast": {"steps": 500, "arguments": "--set a=1"}},
        "runs": {
            "default": [_run(0, 220, 200), _run(1, 210, 220)],
            "fast": [_run(0, fast_wins, 40), _run(1, fast_wins, 44)],
        },
    }


def test_finals_are_pooled_over_seeds() -> None:
    tts = _module()
    rate, low, high, games = tts.pooled_final(_report(200)["runs"]["default"], "rule")
    assert games == 1000 and rate == pytest.approx(0.43) and low < rate < high


@pytest.mark.parametrize(("fast_wins", "reached"), [(215, True), (180, False)])
def test_a_recipe_reaches_the_default_only_where_its_interval_meets_the_default_s(fast_wins, reached) -> None:
    tts = _module()
    assert tts.reaches(_report(fast_wins), "rule") is reached
    row = tts.table_data(_report(fast_wins))["rows"][1]
    assert row[4] == "0.20"  # (40 + 44) / 2 against (200 + 220) / 2
    assert row[5].endswith("(reaches)" if reached else "(below)")


def test_the_figure_is_drawn(tmp_path) -> None:
    tts = _module()
    path = tmp_path / "fig.png"
    tts.plot(_report(200), path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_stored_run_s_table_is_its_own() -> None:
    tts = _module()
    stored = json.loads(tts.DATA.read_text(encoding="utf-8"))
    assert stored["table"] == tts.table_data(stored)
    assert len(stored["runs"]["default"]) == len(stored["runs"]["fast"]) >= 3
