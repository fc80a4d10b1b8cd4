"""Rollouts with a numpy copy of the learner, in the trainer and in every data-parallel worker.

SB3's ``collect_rollouts`` runs the learner's torch policy once per rollout step: at 8 games a
step that is torch's per-operation overhead (about 0.6 ms a step, a fifth of a self-play run's
time in the profile of docs/benchmarks.md), not arithmetic. A numpy copy of the same MLP
(``NumpyActorCritic``, made from the policy's weights at the start of each rollout) does it in
about 0.05 ms, and ``sample_masked`` draws each game's action from the softmax over its legal
actions.

``numpy_rollout`` is the one rollout loop, in SB3's order (step the games, report the step,
bootstrap a truncated game's value, add to MaskablePPO's rollout buffer, then the returns and
advantages); ``NumpyRolloutMaskablePPO`` (from ``numpy_rollout_ppo()``) is sb3-contrib's
``MaskablePPO`` with it as its ``collect_rollouts``, which is all it changes: same buffer, same
update, models saved as the same ``ppo:`` zips. Its actions are drawn from numpy's global RNG,
which a checkpoint saves (``rng.global_rng_state``), so a resumed run continues exactly; a
data-parallel worker draws from its own generator.

The actions are drawn from the same distribution as SB3's (the policy's logits, masked), with
other random numbers: a seeded run is reproducible, but not the same run as SB3's own loop.
A policy that is not a plain MLP (``NumpyActorCritic`` raises ``TypeError``) keeps SB3's loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Uniform = Callable[[int], np.ndarray]  # n uniform numbers in [0, 1)
OnStep = Callable[[list[dict[str, Any]], np.ndarray], bool]  # a step's infos and dones: go on?


class NumpyActorCritic:
    """A batched numpy copy of a MaskablePPO MLP policy: ``(logits, values) = net(obs)``."""

    def __init__(self, policy: Any):
        from agents.ppo import NumpyMLP, torch_layers

        extractor = policy.mlp_extractor
        actor = torch_layers([*extractor.policy_net, policy.action_net])
        critic = torch_layers([*extractor.value_net, policy.value_net])
        if actor is None or critic is None:
            raise TypeError("the learner's network is not a plain MLP (Linear layers and Tanh/ReLU)")
        self.actor, self.critic = NumpyMLP(actor), NumpyMLP(critic)

    def __call__(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = np.asarray(obs, dtype=np.float32)
        own = self.actor.obs_size  # a privileged critic's actor reads the first block only
        return self.actor(x[:, :own]), self.critic(x)[:, 0]


def sample_masked(logits: np.ndarray, masks: np.ndarray, uniform: Uniform) -> tuple[np.ndarray, np.ndarray]:
    """One legal action per row, drawn from the softmax over the legal actions; and its log
    probability (float32, as MaskablePPO stores it). ``uniform(n)``: n numbers in [0, 1)."""
    z = np.where(masks, logits.astype(np.float64), -np.inf)
    z -= z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    cdf = np.cumsum(np.exp(log_p), axis=1)
    # u in (0, 1]: the first index whose cdf reaches u * total has a positive probability.
    u = (1.0 - uniform(len(z)))[:, None] * cdf[:, -1:]
    actions = np.minimum((cdf < u).sum(axis=1), z.shape[1] - 1)
    return actions, log_p[np.arange(len(z)), actions].astype(np.float32)


def numpy_rollout(
    model: Any, env: Any, n_steps: int, uniform: Uniform, on_step: OnStep, net: NumpyActorCritic | None = None
) -> bool:
    """``n_steps`` decisions in each of ``env``'s games into ``model.rollout_buffer`` (a
    MaskablePPO and its vector env), continuing from ``model._last_obs``, with ``net`` (default:
    a numpy copy of ``model.policy`` made now); ``on_step(infos, dones)`` after each step of the
    games (False stops the rollout there, as an SB3 callback may). Returns whether the rollout is
    complete."""
    import torch

    net = net or NumpyActorCritic(model.policy)
    buffer = model.rollout_buffer
    buffer.reset()
    obs: np.ndarray = model._last_obs
    starts: np.ndarray = model._last_episode_starts
    for _ in range(n_steps):
        masks = np.stack(env.env_method("action_masks"))
        logits, values = net(obs)
        actions, log_probs = sample_masked(logits, masks, uniform)
        new_obs, rewards, dones, infos = env.step(actions)
        if not on_step(infos, dones):
            return False
        for i in np.flatnonzero(dones):  # a truncated game: bootstrap its value, as SB3 does
            terminal = infos[i].get("terminal_observation")
            if terminal is not None and infos[i].get("TimeLimit.truncated", False):
                rewards[i] += model.gamma * net(terminal[None])[1][0]
        buffer.add(
            obs,
            actions.reshape(-1, 1),
            rewards,
            starts,
            torch.as_tensor(values),
            torch.as_tensor(log_probs),
            action_masks=masks,
        )
        obs, starts = new_obs, dones
        model._last_obs, model._last_episode_starts = obs, starts
    buffer.compute_returns_and_advantage(last_values=torch.as_tensor(net(obs)[1]), dones=starts)
    return True


def _legacy_uniform(n: int) -> np.ndarray:
    """n draws of numpy's global RNG (which a training checkpoint saves and restores)."""
    values: np.ndarray = np.random.random(n)
    return values


def numpy_rollout_ppo() -> Any:
    """``NumpyRolloutMaskablePPO`` (a class made on demand: sb3-contrib is imported only when
    training starts)."""
    from sb3_contrib import MaskablePPO

    class NumpyRolloutMaskablePPO(MaskablePPO):
        """sb3-contrib's MaskablePPO whose rollouts run a numpy copy of its policy."""

        def collect_rollouts(
            self, env: Any, callback: Any, rollout_buffer: Any, n_rollout_steps: int, use_masking: bool = True
        ) -> bool:
            try:
                net = NumpyActorCritic(self.policy)
            except TypeError:
                return bool(super().collect_rollouts(env, callback, rollout_buffer, n_rollout_steps, use_masking))
            self.policy.set_training_mode(False)
            callback.on_rollout_start()

            def on_step(infos: list[dict[str, Any]], dones: np.ndarray) -> bool:
                self.num_timesteps += env.num_envs
                callback.update_locals({"infos": infos, "dones": dones})
                if not callback.on_step():
                    return False
                self._update_info_buffer(infos, dones)
                return True

            if not numpy_rollout(self, env, n_rollout_steps, _legacy_uniform, on_step, net):
                return False
            callback.on_rollout_end()
            return True

    return NumpyRolloutMaskablePPO


__all__ = ["NumpyActorCritic", "numpy_rollout", "numpy_rollout_ppo", "sample_masked"]
