"""The self-play speed scripts: a py-spy profile cut into shares (``benchmarks/selfplay_profile.py``)
and the stored speed comparison's tables (``benchmarks/selfplay_speed.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from .scripts import load

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str) -> ModuleType:
    return load(name)


LEARN = "main (x.py:1);MaskablePPO.learn (sb3_contrib/ppo_mask/ppo_mask.py:9)"


def test_a_profile_is_cut_into_nested_shares(tmp_path) -> None:
    raw = tmp_path / "prof.txt"
    raw.write_text(
        "\n".join(
            [
                "main (x.py:1);import (y.py:2) 50",  # before learning: not counted
                f"{LEARN};MaskablePPO.train (a.py:1);evaluate_actions (b.py:1);apply_masking (sb3_contrib/common/maskable/distributions.py:70) 3",
                f"{LEARN};MaskablePPO.train (a.py:1);backward (torch/_tensor.py:1) 3",
                f"{LEARN};collect_rollouts (c.py:1);step (smuggle_envs/core/driver.py:1);_opponent_action (s.py:1);act (agents/rule/smuggle.py:1) 2",
                f"{LEARN};collect_rollouts (c.py:1);step (smuggle_envs/core/driver.py:1) 2",
            ]
        )
        + "\n"
    )
    profile = _load("selfplay_profile")
    out = tmp_path / "shares.json"
    assert profile.main([str(raw), "--command", "py-spy ...", "--label", "before", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    shares = report["before"]["shares"]
    assert shares["learning samples"] == 10
    assert shares["update"] == 0.6 and shares["update: masked distribution"] == 0.3
    assert shares["rollout: rule bot"] == 0.2
    assert shares["rollout: engine and observation"] == 0.2  # the opponents' stack is theirs, not the engine's
    assert report["before"]["command"] == "py-spy ..."
    assert ["update", "60%"] in report["table"]["rows"]


def test_the_stored_speed_comparison_prints_its_tables(capsys) -> None:
    speed = _load("selfplay_speed")
    stored = ROOT / "docs" / "img" / "data" / "selfplay_speed.json"
    assert speed.main(["--from-json", str(stored)]) == 0
    printed = capsys.readouterr().out
    report = json.loads(stored.read_text())
    assert report["tables"]["runs"] == speed.table_data(report)  # the docs' table is the runs' own
    assert "Smuggle rule bot, per decision" in printed and "| smuggle_v0 | 0 |" in printed


def test_running_needs_a_reference_tree(tmp_path, capsys) -> None:
    speed = _load("selfplay_speed")
    for argv in ([], ["--reference", str(tmp_path)]):
        try:
            speed.main(argv)
        except SystemExit as stop:
            assert stop.code == 2
        else:
            raise AssertionError("no error")
    assert "not a tree of this project" in capsys.readouterr().err
