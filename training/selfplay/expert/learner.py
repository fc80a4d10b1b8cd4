"""The student of an expert-iteration run: a MaskablePPO model (``new_student``) fitted to the
teacher's visit distributions and the games' outcomes (``expert_loss``, ``fit``), and its numpy
network (``numpy_student``), which the search and the evaluations run."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO

    from agents.ppo import NumpyPolicy
    from smuggle_envs.core.game import Game

    from .config import ExpertConfig
    from .games import Positions


def expert_loss(policy: Any, obs: Any, masks: Any, visits: Any, outcomes: Any, value_weight: float) -> tuple[Any, ...]:
    """``(loss, cross_entropy, kl, value_mse)`` of a MaskablePPO ``policy`` on a batch (torch
    tensors): the cross-entropy of its masked policy to the visit distributions, the same less the
    targets' entropy (the KL divergence), the squared error of its value to the outcomes, and
    ``loss = cross_entropy + value_weight * value_mse``."""
    import torch

    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    logits = policy.action_net(latent_pi).masked_fill(~masks, -1e8)  # finite: 0 * log p stays 0
    log_p = torch.log_softmax(logits, dim=-1).masked_fill(~masks, 0.0)
    cross_entropy = -(visits * log_p).sum(-1).mean()
    entropy = -(torch.xlogy(visits, visits)).sum(-1).mean()
    value_mse = torch.nn.functional.mse_loss(policy.value_net(latent_vf).flatten(), outcomes)
    loss = cross_entropy + value_weight * value_mse
    return loss, cross_entropy, cross_entropy - entropy, value_mse


def fit(
    model: MaskablePPO, data: Positions, config: ExpertConfig, rng: np.random.Generator, bar: Any = None
) -> dict[str, float]:
    """``config.epochs`` epochs of ``expert_loss`` over ``data`` in minibatches of ``batch_size``
    (order drawn from ``rng``) with the model's own Adam; each epoch's mean cross-entropy, KL and
    value error: the first epoch's KL and the last epoch's numbers."""
    import torch

    policy = model.policy
    device = policy.device
    optimizer = policy.optimizer
    for group in optimizer.param_groups:  # the run's rate (it may change on --resume)
        group["lr"] = config.learning_rate
    tensors = [torch.as_tensor(getattr(data, f.name), device=device) for f in dataclasses.fields(data)]
    policy.set_training_mode(True)
    stats: dict[str, float] = {}
    for epoch in range(config.epochs):
        order = torch.as_tensor(rng.permutation(len(data)), device=device)
        sums = np.zeros(3)
        for start in range(0, len(data), config.batch_size):
            idx = order[start : start + config.batch_size]
            obs, masks, visits, outcomes = (t[idx] for t in tensors)
            loss, *parts = expert_loss(policy, obs, masks, visits, outcomes, config.value_weight)
            optimizer.zero_grad()
            torch.autograd.backward(loss)
            torch.nn.utils.clip_grad_norm_(policy.parameters(), config.max_grad_norm)
            optimizer.step()
            sums += [float(p.detach()) * len(idx) for p in parts]
            if bar is not None:
                bar.update(1)
        cross_entropy, kl, value_mse = (sums / len(data)).tolist()
        stats.update(cross_entropy=cross_entropy, kl=kl, value_mse=value_mse)
        if epoch == 0:
            stats["first_kl"] = kl
    policy.set_training_mode(False)
    return stats


# ----- the first student ---------------------------------------------------------------------------
def new_student(config: ExpertConfig, game: Game, device: str, network: NumpyPolicy | None = None) -> MaskablePPO:
    """A fresh MaskablePPO model for ``game`` (seeded by ``config.seed``), shaped as ``network``
    and holding its weights when given (the critic's too where it reads a seat's observation)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from ..single_agent import SelfPlayEnv
    from ..weights import copy_network, network_kwargs, own_critic

    kwargs: dict[str, Any] = {"net_arch": list(config.net_arch)}
    critic = None
    if network is not None:
        critic = own_critic(network, game)
        kwargs = network_kwargs(network, critic)
    spec = config.game_spec()
    # The env only gives the model its spaces: MaskablePPO never steps it here.
    venv = DummyVecEnv([lambda: SelfPlayEnv(spec)])
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        seed=config.seed,
        device=device,
        verbose=0,
        policy_kwargs=kwargs,
        learning_rate=config.learning_rate,
        n_steps=64,
        batch_size=64,
    )
    if network is not None:
        copy_network(model.policy, network, critic)
    return model


def numpy_student(model: MaskablePPO) -> NumpyPolicy:
    """The student as the numpy network the search and the evaluations run (with its critic)."""
    from agents.ppo import NumpyPolicy

    policy = NumpyPolicy.from_sb3(model.policy, critic=True)
    if policy is None:  # the student is always an MLP over a flat observation
        raise TypeError("the student's policy is not a plain MLP")
    return policy
