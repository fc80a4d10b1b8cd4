"""The best checkpoint by the periodic evaluations is kept (best.zip), played again on the final
evaluation's games beside the last model, and the stronger one is recommended (issue #14)."""

from __future__ import annotations

import csv
import json

import torch

from training.selfplay.trainer import Trainer

from .test_pipeline import _params, tiny


def _curve(path, opponent: str) -> dict[int, float]:
    with open(path, newline="") as f:
        return {int(r["step"]): float(r["win_rate"]) for r in csv.DictReader(f) if r["opponent"] == opponent}


def test_the_best_periodic_checkpoint_is_kept_and_compared_with_the_last(tmp_path):
    config = tiny("smuggle_v0", steps=1536, eval_every=256, eval_games=12, final_eval_games=12, tensorboard=False)
    logs: list[str] = []
    summary = Trainer(config, tmp_path, log=logs.append).run()

    curve = _curve(tmp_path / "eval.csv", "rule")
    periodic = {step: rate for step, rate in curve.items() if 0 < step < summary["steps"]}
    best = json.loads((tmp_path / "best.json").read_text())
    # The first step reaching the highest periodic win rate (later ties do not replace it).
    top = max(periodic.values())
    assert best["step"] == min(step for step, rate in periodic.items() if rate == top)
    assert best["win_rate"] == top and best["opponent"] == "rule"

    info = summary["best"]
    assert info["step"] == best["step"] and info["model"].endswith("best.zip")
    assert [r["opponent"] for r in info["results"]] == ["random", "rule", "rule+random"]
    last_rule = next(r["win_rate"] for r in summary["results"] if r["opponent"] == "rule")
    best_rule = next(r["win_rate"] for r in info["results"] if r["opponent"] == "rule")
    assert info["ship"] == (best_rule > last_rule)
    assert summary["recommended"] == (info["agent_spec"] if info["ship"] else summary["agent_spec"])
    assert any(line.startswith("recommended") for line in logs)
    # best.zip is the learner as it was at that step, not the last model.
    if best["step"] != summary["steps"]:
        a, b = _params(tmp_path / "best.zip"), _params(tmp_path / "final.zip")
        assert not all(torch.equal(a[k], b[k]) for k in a)


def test_keep_best_off_writes_no_best_model(tmp_path):
    config = tiny("smuggle_v0", steps=512, eval_every=256, eval_games=4, final_eval_games=4, keep_best=False)
    summary = Trainer(config, tmp_path, log=lambda _: None).run()
    assert not (tmp_path / "best.zip").exists() and summary["best"] is None
    assert summary["recommended"] == summary["agent_spec"]
