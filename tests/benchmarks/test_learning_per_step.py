"""``benchmarks/learning_per_step.py``: seeds pooled per evaluation step with Wilson intervals,
the steps where the two trees agree counted, the stored run's table the docs show, the figure."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from .scripts import load

ROOT = Path(__file__).resolve().parents[2]


def _module() -> ModuleType:
    return load("learning_per_step")


def _run(seed: int, wins: list[float], seconds: list[float]) -> dict:
    curve = []
    for step, w, s in zip((0, 1000, 2000), wins, seconds):
        curve += [
            {"step": step, "opponent": "rule", "games": 100, "wins": w, "seconds": s},
            {"step": step, "opponent": "rule+random", "games": 100, "wins": w / 2, "seconds": s},
        ]
    final = [
        {"opponent": o, "games": 500, "wins": 5 * wins[-1] / k, "win_rate": 0, "ci_low": 0, "ci_high": 0}
        for o, k in (("rule", 1), ("rule+random", 2))
    ]
    return {"seed": seed, "wall_seconds": seconds[-1], "curve": curve, "final": final}


def _report() -> dict:
    return {
        "env_id": "smuggle_v0",
        "steps": 2000,
        "reference_commit": "abc1234",
        "machine": "test",
        "runs": {
            "this": [_run(0, [20, 30, 40], [10, 20, 30]), _run(1, [22, 32, 44], [11, 21, 31])],
            # the reference learns as fast at first, then falls behind: one step apart
            "reference": [_run(0, [20, 30, 10], [10, 40, 70]), _run(1, [22, 28, 12], [12, 41, 72])],
        },
    }


def test_seeds_are_pooled_per_step_with_an_interval() -> None:
    lps = _module()
    points = lps.pooled(_report()["runs"]["this"], "rule")
    assert [p["step"] for p in points] == [0, 1000, 2000]
    assert points[2]["games"] == 200 and points[2]["rate"] == pytest.approx(84 / 200)
    assert points[2]["low"] < points[2]["rate"] < points[2]["high"]
    assert points[1]["seconds"] == pytest.approx(20.5)


def test_agreement_counts_the_steps_whose_intervals_overlap() -> None:
    lps = _module()
    assert lps.agreement(_report(), "rule") == (2, 3)
    data = lps.table_data(_report())
    assert data["rows"][0][0] == "this tree" and data["rows"][1][0] == "reference (abc1234)"
    assert data["rows"][0][-1] == "2 of 3, 2 of 3"
    assert data["rows"][0][3].startswith("42.0% [") and data["rows"][0][3].endswith("of 1,000")


def test_the_figure_is_drawn(tmp_path) -> None:
    lps = _module()
    path = tmp_path / "fig.png"
    lps.plot(_report(), path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_stored_run_s_table_is_its_own() -> None:
    lps = _module()
    stored = json.loads(lps.DATA.read_text(encoding="utf-8"))
    assert stored["table"] == lps.table_data(stored)
    assert len(stored["runs"]["this"]) == len(stored["runs"]["reference"]) >= 3
