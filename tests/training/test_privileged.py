"""The privileged ``State.global_observation`` (every seat's view at once, for critics only) is
never handed to a policy: no env, agent or tool calls it while acting, training, evaluating or
running matches and tournaments."""

from __future__ import annotations

import numpy as np
import pytest

import smuggle_envs
from agents import make_agent
from agents.arena import play
from smuggle_envs.core.game import State
from training.cli import main
from training.selfplay.evaluate import evaluate
from training.selfplay.single_agent import SelfPlayEnv


@pytest.fixture
def forbidden(monkeypatch):
    """Every call of ``global_observation`` fails the test."""
    calls = []

    def trap(self, player):
        calls.append(player)
        raise AssertionError("global_observation reached a policy path")

    monkeypatch.setattr(State, "global_observation", trap)
    yield calls
    assert calls == []


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_the_aec_env_and_every_agent_kind_act_without_it(env_id, forbidden):
    env = smuggle_envs.make(env_id)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for step, _name in enumerate(env.agent_iter()):
        obs, _reward, terminated, truncated, _info = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if step > 200:
            break
    game = smuggle_envs.make_game(env_id)
    specs = ["rule", "random", "ismcts:sims=2;rollout_depth=5", "pimc:worlds=1;sims=1;rollout_depth=5"]
    lineup = [make_agent(specs[i % len(specs)], game, seed=i) for i in range(game.num_players)]
    play(game, lineup, seed=1, max_decisions=300)


def test_self_play_training_env_and_evaluation_run_without_it(forbidden):
    env = SelfPlayEnv("smuggle_v0", {}, pool=(("rule", "rule"), ("random", "random")))
    env.reset(seed=0)
    for _ in range(50):
        _obs, _r, terminated, truncated, _info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if terminated or truncated:
            env.reset()
    game = smuggle_envs.make_game("smuggle_v0")
    assert evaluate(game, make_agent("random", game, seed=0), "rule", games=4, seed=0).games == 4


def test_matches_and_tournaments_run_without_it(tmp_path, forbidden, capsys):
    assert main(["match", "--agents", "rule,random,rule,random", "--games", "2", "--quiet"]) == 0
    db = str(tmp_path / "t.sqlite")
    args = ["tournament", "smuggle_v0", "--agents", "rule,random,rule,random", "--games", "4"]
    assert main([*args, "--workers", "1", "--db", db, "--no-plots", "--quiet"]) == 0
