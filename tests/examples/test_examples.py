"""Every script in examples/ runs as a user runs it (``python examples/X.py``) with a small budget,
and the agent it trains beats random agents at Smuggle: the lower end of the 95% interval of its
win rate against 3 random agents is above 1/4, their share. The evaluation samples the agent's
actions, so an untrained agent scores about 1/4 (checked below): the margin is what training added."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULT = re.compile(r"win rate vs 3 random agents: ([\d.]+)% \[([\d.]+)%, ([\d.]+)%\] over (\d+) games")

# each script with a budget that takes well under a minute on 2 cores
BUDGETS = {
    "cleanrl_ppo_masked": ["--steps", "4000", "--rollout", "500"],
    "torchrl_ppo_masked": ["--frames", "4000"],
    "rllib_ppo_masked": ["--iterations", "16"],
}


def run_example(name: str, *args: str) -> tuple[float, float, float]:
    """Run one example in its own process; return its win rate and 95% interval (fractions)."""
    command = [sys.executable, str(ROOT / "examples" / f"{name}.py"), "--env-id", "smuggle_v0", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    match = RESULT.search(done.stdout)
    assert match, done.stdout[-2000:]
    rate, lo, hi, games = match.groups()
    assert int(games) == 200
    return float(rate) / 100, float(lo) / 100, float(hi) / 100


@pytest.mark.parametrize("name", sorted(BUDGETS))
def test_the_example_trains_an_agent_that_beats_random_agents_on_smuggle(name):
    rate, lo, hi = run_example(name, *BUDGETS[name], "--eval-games", "200")
    assert lo > 0.25, (rate, lo, hi)


def test_an_untrained_agent_scores_like_a_random_one():
    """The bar is fair: with no training the sampled policy wins about 1/4 of its games."""
    _rate, lo, hi = run_example("cleanrl_ppo_masked", "--steps", "0", "--eval-games", "200")
    assert lo < 0.25 < hi


def test_bad_input_is_refused_with_one_line_before_any_work():
    command = [sys.executable, str(ROOT / "examples" / "cleanrl_ppo_masked.py"), "--players", "9"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2 and "smuggle_v0 takes 3 to 6 players, got 9" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout
