"""Every script in examples/ runs with a small budget and its agent beats random agents."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cleanrl_style_masked_ppo_beats_random_agents_on_smuggle(capsys):
    result = _load("cleanrl_ppo_masked").main(["--steps", "4000", "--rollout", "500", "--eval-games", "100"])
    lo, _hi = result["ci"]
    assert lo > 0.25  # chance against 3 random agents is 25%
    assert "win rate vs 3 random agents" in capsys.readouterr().out
