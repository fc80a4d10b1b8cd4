"""A numpy network's weights as a MaskablePPO model's starting point (``init=NETWORK``).

Both trainers start from a network this way: expert iteration (``expert.py``, ``--set
init=zoo``) and PPO (``trainer.py``, ``--set 'init="ppo:runs/exit/final.zip"'``: PPO fine-tuning
of a model that expert iteration made). The model takes the network's shape (hidden sizes and
activation), its policy layers' weights and, where the network carries a critic that reads the
seat's own observation, the critic's too (a fresh value head otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .config import ConfigError

if TYPE_CHECKING:
    from agents.ppo import NumpyMLP, NumpyPolicy
    from smuggle_envs.core.game import Game

TORCH_ACTIVATIONS = ("Tanh", "ReLU")


def load_init(spec: str, game: Game) -> NumpyPolicy:
    """The network ``init`` names for ``game`` (``zoo``, ``zoo:ENV[@N]``, ``ppo:PATH``), or a one-line
    ConfigError when it cannot serve."""
    from agents.search_net import load_network

    try:
        network, _ = load_network(spec, game)
    except (ValueError, OSError) as exc:
        raise ConfigError(f"init={spec}: {exc}") from None
    return network


def own_critic(network: NumpyPolicy, game: Game) -> NumpyMLP | None:
    """The network's critic when it reads one seat's observation (a privileged one does not fit)."""
    critic = network.critic
    return critic if critic is not None and critic.obs_size == game.observation_layout.size else None


def network_kwargs(network: NumpyPolicy, critic: NumpyMLP | None) -> dict[str, Any]:
    """MaskablePPO's policy_kwargs for a model shaped as ``network`` (and ``critic``)."""
    from torch import nn

    hidden = [(w.shape[0], act) for w, _, act in network.layers[:-1]]
    vf_hidden = [(w.shape[0], act) for w, _, act in critic.layers[:-1]] if critic is not None else hidden
    acts = {act for _, act in hidden + vf_hidden}
    if len(acts) > 1 or not acts <= set(TORCH_ACTIVATIONS):
        raise ConfigError(f"init: a network with activations {sorted(acts)} cannot be a MaskablePPO policy")
    activation = getattr(nn, acts.pop()) if acts else nn.Tanh
    net_arch = {"pi": [h for h, _ in hidden], "vf": [h for h, _ in vf_hidden]}
    return {"net_arch": net_arch, "activation_fn": activation}


def copy_network(policy: Any, network: NumpyPolicy, critic: NumpyMLP | None) -> None:
    """Write ``network``'s layers (and ``critic``'s) into a MaskablePPO policy made with
    ``network_kwargs``."""
    import torch

    with torch.no_grad():
        _copy_layers([*policy.mlp_extractor.policy_net, policy.action_net], network.layers)
        if critic is not None:
            _copy_layers([*policy.mlp_extractor.value_net, policy.value_net], critic.layers)


def _copy_layers(modules: Sequence[Any], layers: Sequence[tuple[np.ndarray, np.ndarray, str]]) -> None:
    import torch
    from torch import nn

    linear = [m for m in modules if isinstance(m, nn.Linear)]
    for module, (w, b, _) in zip(linear, layers, strict=True):
        module.weight.copy_(torch.as_tensor(w))
        module.bias.copy_(torch.as_tensor(b))
