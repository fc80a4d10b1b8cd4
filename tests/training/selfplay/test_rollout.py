"""The rollout with a numpy copy of the learner (``training.selfplay.rollout``): its network is the
learner's, its draws follow the legal softmax, and the in-process trainer's MaskablePPO fills its
rollout buffer with what the torch policy gives for the same observations and actions."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from training.selfplay import distributed, rollout
from training.selfplay.trainer import TrainConfig

from .test_distributed import tiny


def test_the_numpy_policy_is_the_learners_policy():
    import numpy as np

    worker = distributed.Worker(tiny().to_dict(), 0, 1)
    try:
        obs = worker.reset()
        masks = np.stack(worker.venv.env_method("action_masks"))
        policy = worker.model.policy
        with torch.no_grad():
            tensor = torch.as_tensor(obs)
            values = policy.predict_values(tensor).numpy()[:, 0]
            dist = policy.get_distribution(tensor, action_masks=masks)
            log_probs = dist.distribution.logits.numpy()
        logits, np_values = rollout.NumpyActorCritic(policy)(obs)
        np.testing.assert_allclose(np_values, values, rtol=1e-5, atol=1e-6)
        actions, np_log_probs = rollout.sample_masked(logits, masks, np.random.default_rng(0).random)
        assert masks[np.arange(len(actions)), actions].all()
        np.testing.assert_allclose(np_log_probs, log_probs[np.arange(len(actions)), actions], rtol=1e-4, atol=1e-5)
    finally:
        worker.close()


def test_masked_sampling_follows_the_legal_softmax():
    import numpy as np

    logits = np.array([[0.0, 1.0, 2.0, 5.0]] * 20_000, dtype=np.float32)
    masks = np.array([[True, True, True, False]] * 20_000)
    actions, log_probs = rollout.sample_masked(logits, masks, np.random.default_rng(1).random)
    assert not (actions == 3).any()
    p = np.exp([0.0, 1.0, 2.0]) / np.exp([0.0, 1.0, 2.0]).sum()
    freq = np.bincount(actions, minlength=3)[:3] / len(actions)
    assert np.all(np.abs(freq - p) < 4 * np.sqrt(p * (1 - p) / len(actions)))
    np.testing.assert_allclose(np.exp(log_probs), p[actions], rtol=1e-6)


def _in_process_model(tmp_path, **overrides):
    """The in-process trainer's learner on a tiny Smuggle run, as the trainer builds it."""
    from training.selfplay.config import make_local_vec_env, ppo_kwargs
    from training.selfplay.trainer import _fast_distribution, _learner_class

    config = TrainConfig(
        env_id="smuggle_v0", n_envs=4, n_steps=16, batch_size=32, n_epochs=1, net_arch=(32, 32), **overrides
    )
    venv = make_local_vec_env(config, config.n_envs)
    venv.seed(config.seed)
    kwargs = {**ppo_kwargs(config), "policy_kwargs": {"net_arch": list(config.net_arch)}}
    model = _learner_class(config)("MlpPolicy", venv, seed=config.seed, device="cpu", verbose=0, **kwargs)
    _fast_distribution(model, config)
    return model


def test_the_in_process_learner_rolls_out_in_numpy_then_updates(tmp_path, monkeypatch):
    model = _in_process_model(tmp_path)
    assert type(model).__name__ == "NumpyRolloutMaskablePPO"
    calls = []
    plain = rollout.numpy_rollout
    monkeypatch.setattr(rollout, "numpy_rollout", lambda *a, **k: calls.append(1) or plain(*a, **k))
    model.learn(64)  # one rollout of 4 games x 16 steps, then an update
    assert calls == [1] and model.num_timesteps == 64 and model._n_updates == 1
    buffer = model.rollout_buffer
    actions = buffer.actions.reshape(64).astype(int)
    assert buffer.action_masks.reshape(64, -1).astype(bool)[np.arange(64), actions].all()  # all legal
    assert (buffer.log_probs <= 0).all() and np.isfinite(buffer.values).all()


def test_rollout_numbers_match_the_torch_policy(tmp_path):
    model = _in_process_model(tmp_path)
    seen = []
    model._last_obs = model.env.reset()
    model._last_episode_starts = np.ones(4, dtype=bool)
    np.random.seed(3)
    assert rollout.numpy_rollout(
        model, model.env, 16, np.random.random, lambda infos, dones: seen.append(dones) or True
    )
    assert len(seen) == 16
    buffer = model.rollout_buffer
    obs = torch.as_tensor(buffer.observations.reshape(64, -1))
    actions = torch.as_tensor(buffer.actions.reshape(64))
    masks = buffer.action_masks.reshape(64, -1)
    with torch.no_grad():
        values, log_probs, _ = model.policy.evaluate_actions(obs, actions, action_masks=masks)
    np.testing.assert_allclose(buffer.log_probs.reshape(64), log_probs.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(buffer.values.reshape(64), values.numpy()[:, 0], rtol=1e-5, atol=1e-5)


def test_a_callback_that_says_stop_stops_the_rollout_at_that_step(tmp_path):
    model = _in_process_model(tmp_path)
    model._last_obs = model.env.reset()
    model._last_episode_starts = np.ones(4, dtype=bool)
    calls = []
    done = rollout.numpy_rollout(
        model, model.env, 16, np.random.random, lambda infos, dones: calls.append(1) or len(calls) < 5
    )
    assert done is False and len(calls) == 5
    assert model.rollout_buffer.pos == 4  # the four steps before the stop, not the fifth


@pytest.mark.parametrize("update_ops", ["fused", "sb3"])
def test_seeded_in_process_runs_are_reproducible(tmp_path, update_ops):
    weights = []
    for _ in ("a", "b"):
        model = _in_process_model(tmp_path, update_ops=update_ops)
        model.learn(128)
        weights.append([p.detach().clone() for p in model.policy.parameters()])
    assert all(torch.equal(x, y) for x, y in zip(*weights))
