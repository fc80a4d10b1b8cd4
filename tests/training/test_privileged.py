"""The privileged ``State.global_observation`` (every seat's view at once, for critics only) is
never handed to a policy: no env, agent or tool calls it while acting, training, evaluating or
running matches and tournaments; the one place it is used, a privileged critic's training
(``TrainConfig(critic="privileged")``), gives it to the learner's value network only, and the
trained model acts on the seat's own observation."""

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


# ----- the privileged critic (TrainConfig(critic="privileged")): the one place it is used ---------
def test_a_privileged_learner_is_given_every_seat_and_its_opponents_their_own(monkeypatch):
    calls = []
    original = State.global_observation

    def spy(self, player):
        calls.append(player)
        return original(self, player)

    monkeypatch.setattr(State, "global_observation", spy)
    env = SelfPlayEnv("smuggle_v0", {}, pool=(("rule", "rule"), ("random", "random")), privileged=True)
    obs, _ = env.reset(seed=0)
    size = env.game.observation_layout.size
    assert env.observation_space.shape == (env.num_players * size,) and obs.shape == env.observation_space.shape
    seen = 1
    for _ in range(40):
        state = env.state
        np.testing.assert_array_equal(obs[:size], state.observation(env.seat))  # its own block first
        np.testing.assert_array_equal(obs, original(state, env.seat))
        obs, _r, terminated, truncated, _info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        seen += 1
        if terminated or truncated:
            obs, _ = env.reset()
            seen += 1
    # Only the learner's observations, only for its seat: opponents acted on their own.
    assert len(calls) == seen and set(calls) <= set(range(env.num_players))


def test_the_privileged_policy_acts_on_its_own_block_only():
    import torch
    from gymnasium import spaces

    from agents.ppo import NumpyPolicy
    from agents.privileged_critic import PrivilegedCriticPolicy

    own, n = 6, 4
    space = spaces.Box(-1.0, 1.0, shape=(own * n,), dtype=np.float32)
    policy = PrivilegedCriticPolicy(space, spaces.Discrete(5), lambda _: 1e-3, net_arch=[16, 16], own_size=own)
    obs = torch.rand(3, own * n)
    other = obs.clone()
    other[:, own:] = torch.rand(3, own * (n - 1))  # other seats' cards changed
    with torch.no_grad():
        same = policy.get_distribution(obs).distribution.logits, policy.get_distribution(other).distribution.logits
        values = policy.predict_values(obs), policy.predict_values(other)
    assert torch.equal(*same)  # the policy cannot see past its own block...
    assert not torch.equal(*values)  # ...the critic does
    numpy_policy = NumpyPolicy.from_sb3(policy)
    assert numpy_policy is not None and numpy_policy.obs_size == own
    logits = numpy_policy.logits(obs[0, :own].numpy()).astype(np.float64)
    log_probs = logits - np.log(np.exp(logits - logits.max()).sum()) - logits.max()
    np.testing.assert_allclose(log_probs, same[0][0].numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("workers", [0, 2])
def test_a_privileged_critic_trains_and_its_model_plays_on_its_own_observation(tmp_path, workers):
    from agents.arena import play_game
    from training.selfplay.trainer import Trainer

    from .selfplay.test_pipeline import tiny

    config = tiny(
        "smuggle_v0",
        critic="privileged",
        workers=workers,
        steps=512,
        batch_size=128,
        net_arch=(16, 16),
        snapshot_every=256,
        checkpoint_every=10_000,
        eval_every=256,
        eval_games=2,
        final_eval_games=2,
        imitation_samples=200,
        tensorboard=False,
    )
    summary = Trainer(config, tmp_path, log=lambda _: None).run()
    game = smuggle_envs.make_game("smuggle_v0")
    agent = make_agent(f"ppo:{tmp_path / 'final.zip'}", game, seed=0)
    assert agent.model.observation_space.shape == (game.num_players * game.observation_layout.size,)
    assert agent.policy.obs_size == game.observation_layout.size
    lineup = [agent] + [make_agent("random", game, seed=i) for i in range(game.num_players - 1)]
    assert play_game(game, lineup, seed=3, max_decisions=3000).history
    assert summary["results"] and all(r["games"] == 2 for r in summary["results"])
