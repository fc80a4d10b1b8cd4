"""A privileged critic: the value function sees the whole table while training, the policy only
its own seat (as PerfectDou's and Suphx's oracle critics do).

Trained with ``TrainConfig(critic="privileged")`` (``smuggle train --set critic=privileged``), the
learner's observation is ``State.global_observation(seat)``: every seat's observation round the
table, starting with its own. ``PrivilegedCriticPolicy`` reads only the first block (the seat's
own observation, ``own_size`` numbers) in its policy network, and all of it in its value
network. So what acts is a policy over the seat's own observation: ``agents.ppo`` copies exactly
that network into a ``NumpyPolicy`` whose input is the seat's observation, and a trained model
plays as ``ppo:PATH`` like any other, never asking for more. (The class lives in ``agents``
because a saved model names it: loading an agent must not need the training code.)
"""

from __future__ import annotations

from typing import Any

from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn


class SplitMlpExtractor(nn.Module):
    """SB3's ``MlpExtractor`` with two inputs: the policy network over the first ``own_size``
    features, the value network over all of them."""

    def __init__(self, own_size: int, feature_dim: int, net_arch: Any, activation_fn: type[nn.Module]):
        super().__init__()
        pi_arch, vf_arch = (
            (net_arch.get("pi", []), net_arch.get("vf", [])) if isinstance(net_arch, dict) else (net_arch, net_arch)
        )
        self.own_size = own_size
        self.policy_net, self.latent_dim_pi = _mlp(own_size, pi_arch, activation_fn)
        self.value_net, self.latent_dim_vf = _mlp(feature_dim, vf_arch, activation_fn)

    def forward(self, features: Any) -> tuple[Any, Any]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: Any) -> Any:
        return self.policy_net(features[:, : self.own_size])

    def forward_critic(self, features: Any) -> Any:
        return self.value_net(features)


def _mlp(size: int, arch: list[int], activation_fn: type[nn.Module]) -> tuple[nn.Sequential, int]:
    layers: list[nn.Module] = []
    for width in arch:
        layers += [nn.Linear(size, width), activation_fn()]
        size = width
    return nn.Sequential(*layers), size


class PrivilegedCriticPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's MLP policy whose actor sees the first ``own_size`` observation numbers only."""

    def __init__(self, *args: Any, own_size: int, **kwargs: Any):
        self.own_size = own_size  # read by _build_mlp_extractor, during the parent's __init__
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        # Duck-typed: the same attributes and methods as SB3's MlpExtractor.
        self.mlp_extractor = SplitMlpExtractor(  # type: ignore[assignment]
            self.own_size, self.features_dim, self.net_arch, self.activation_fn
        )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "own_size": self.own_size}
