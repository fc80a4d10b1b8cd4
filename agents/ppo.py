"""Trained MaskablePPO models (sb3-contrib) as Agents.

``PPOAgent(game, path, seed=None)`` loads a model saved by ``training.selfplay`` (or any
MaskablePPO zip whose observation and action sizes match the game, or a ``.npz`` written by
``NumpyPolicy.save``, the model zoo's torch-free format) and plays from the
observation vector and action mask only, like every other agent. It is what the ``"ppo"``
agent kind builds, so ``make_agent("ppo:runs/main/final.zip", game)`` works in matches,
tournaments and ``smuggle play``.

Acting is done in numpy, not torch: the actor of an SB3 MLP policy is a few Linear layers with
an activation between them, and one numpy forward pass of a single observation costs about a
tenth of ``model.predict`` (which builds tensors and a masked distribution every call). Self-play
opponents act millions of times, so this matters. ``NumpyPolicy.from_sb3`` copies the weights and
refuses architectures it does not know (then ``act`` falls back to ``model.predict``); a test
checks the two give the same actions.

Play is stochastic by default (an action sampled from the masked policy with the agent's own
seeded ``random.Random``): a bluffing game rewards mixed strategies, and an argmax player is
easy to read. ``PPOAgent(game, path, deterministic=True)`` (spec ``"ppo_argmax:PATH"``;
``"ppo:PATH"`` always samples) plays the most probable action.
"""

from __future__ import annotations

import io
import os
import random
import threading
import zipfile
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from smuggle_envs.core.game import Game

_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "Tanh": np.tanh,
    "ReLU": lambda x: np.maximum(x, 0.0),
    "Identity": lambda x: x,
}
_CACHE: dict[tuple[str, float], tuple[Any, NumpyPolicy | None]] = {}
_CACHE_LOCK = threading.Lock()


Layer = tuple[np.ndarray, np.ndarray, str]  # weight (out x in), bias, activation name


def torch_layers(modules: Any) -> list[Layer] | None:
    """``(weight, bias, activation)`` of a sequence of torch ``Linear`` layers with an
    activation after some (an SB3 MLP and its head), or None if it is anything else."""
    from torch import nn

    layers: list[Layer] = []
    for module in modules:
        name = type(module).__name__
        if isinstance(module, nn.Linear):
            layers.append((_np(module.weight), _np(module.bias), "Identity"))
        elif name in _ACTIVATIONS and layers and layers[-1][2] == "Identity":
            w, b, _ = layers[-1]
            layers[-1] = (w, b, name)
        else:
            return None
    return layers


class NumpyMLP:
    """A plain MLP in numpy (float32): ``net(x)`` for one observation (a vector) or a batch
    (rows). The one copy of a trained network outside torch: the zoo player, the policy agent
    and the data-parallel workers' rollouts all run it."""

    def __init__(self, layers: list[Layer]):
        # float32 like torch: the same numbers (up to summation order) at half the memory
        # traffic of float64, which is what a single-row matmul costs.
        self.layers = [(np.ascontiguousarray(w, np.float32), np.asarray(b, np.float32), act) for w, b, act in layers]
        # A batch multiplies rows by the transposed weights, kept contiguous (in x out) so that
        # the product runs as one plain matrix multiply.
        self.batched = [(np.ascontiguousarray(w.T), b, act) for w, b, act in self.layers]
        self.obs_size = self.layers[0][0].shape[1]
        self.num_actions = self.layers[-1][0].shape[0]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float32)
        if x.ndim == 1:
            for w, b, act in self.layers:
                x = _ACTIVATIONS[act](w @ x + b)
            return x
        for wt, b, act in self.batched:
            x = _ACTIVATIONS[act](x @ wt + b)
        return x


class NumpyPolicy(NumpyMLP):
    """The actor of an SB3 MLP policy as a ``NumpyMLP``: ``logits(obs)`` = action_net(policy_net(obs)).

    ``critic``: the model's value network as a ``NumpyMLP`` with one output (value_net of
    mlp_extractor.value_net), where it was copied or saved: the search's ``value=`` leaves use it
    (agents.search_net). Its input is the seat's observation, or every seat's
    (``State.global_observation``) for a model trained with the privileged critic."""

    critic: NumpyMLP | None = None

    @classmethod
    def from_sb3(cls, policy: Any, critic: bool = False) -> NumpyPolicy | None:
        """Copy the actor of ``policy`` (a MaskableActorCriticPolicy), or None if it is not a
        plain MLP over a flattened Box observation; ``critic``: its value network too (where it
        is a plain MLP). Off by default: the rollouts that copy the actor every update need no
        critic."""
        from stable_baselines3.common.torch_layers import FlattenExtractor

        if not isinstance(policy.pi_features_extractor, FlattenExtractor):
            return None
        layers = torch_layers([*policy.mlp_extractor.policy_net, policy.action_net])
        if layers is None:
            return None
        actor = cls(layers)
        if critic and isinstance(policy.vf_features_extractor, FlattenExtractor):
            value_layers = torch_layers([*policy.mlp_extractor.value_net, policy.value_net])
            actor.critic = None if value_layers is None else NumpyMLP(value_layers)
        return actor

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the actor as a compressed ``.npz`` (what the model zoo ships): numpy alone loads
        and plays it, no torch, and it is a fraction of the SB3 zip (no Adam state). The critic,
        where there is one, goes beside it under ``critic_*`` keys (older files have none). Every zip
        member carries one fixed date: the same network makes the same bytes."""
        arrays = _layer_arrays(self.layers, "")
        if self.critic is not None:
            arrays.update(_layer_arrays(self.critic.layers, _CRITIC))
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        # np.savez dates each member now; one fixed date makes the same arrays the same bytes,
        # so a zoo file made again by its recorded command has the recorded checksum.
        with zipfile.ZipFile(buffer) as source, open(path, "wb") as f, zipfile.ZipFile(f, "w") as target:
            for info in source.infolist():
                member = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
                target.writestr(member, source.read(info), compress_type=zipfile.ZIP_DEFLATED)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> NumpyPolicy:
        """Read a policy written by ``save`` (with its critic, if saved); a one-line ValueError
        for anything else."""
        try:
            with np.load(path, allow_pickle=False) as data:
                layers = _read_layers(data, "")
                critic = _read_layers(data, _CRITIC) if f"{_CRITIC}activations" in data.files else None
        except (KeyError, ValueError, OSError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{path} is not a saved numpy policy: {type(exc).__name__}: {exc}") from None
        policy = cls(_check_layers(layers, path))
        if critic is not None:
            _check_layers(critic, path)
            if critic[-1][0].shape[0] != 1:
                raise ValueError(f"{path} is not a saved numpy policy: its critic has {critic[-1][0].shape[0]} outputs")
            policy.critic = NumpyMLP(critic)
        return policy

    def logits(self, observation: np.ndarray) -> np.ndarray:
        return self(np.asarray(observation).reshape(-1))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: random.Random | None = None) -> int:
        """Argmax (``rng`` None) or a sample of the policy restricted to the legal actions."""
        return self.choose(self.logits(observation), action_mask, rng)

    @staticmethod
    def choose(logits: np.ndarray, action_mask: np.ndarray, rng: random.Random | None = None) -> int:
        """``act``'s choice from the network's ``logits`` (every action): argmax (``rng`` None) or
        a sample restricted to the legal actions, one draw of ``rng``."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("the action mask has no legal action: this agent is not to act")
        logits = logits[legal]
        if rng is None:
            return int(legal[int(np.argmax(logits))])
        probs = np.exp((logits - logits.max()).astype(np.float64))
        cumulative = np.cumsum(probs)
        u = rng.random() * cumulative[-1]
        return int(legal[min(int(np.searchsorted(cumulative, u, side="right")), legal.size - 1)])


_CRITIC = "critic_"  # the npz key prefix of a saved critic


def _layer_arrays(layers: list[Layer], prefix: str) -> dict[str, Any]:
    """``layers`` as npz arrays: ``{prefix}activations``, ``{prefix}w{i}``, ``{prefix}b{i}``."""
    arrays: dict[str, Any] = {f"{prefix}activations": np.array([act for _, _, act in layers])}
    for i, (w, b, _) in enumerate(layers):
        arrays[f"{prefix}w{i}"], arrays[f"{prefix}b{i}"] = w, b
    return arrays


def _read_layers(data: Any, prefix: str) -> list[Layer]:
    """The layers saved under ``prefix`` in an open npz (a KeyError where one is missing)."""
    activations = [str(a) for a in data[f"{prefix}activations"]]
    return [(data[f"{prefix}w{i}"], data[f"{prefix}b{i}"], act) for i, act in enumerate(activations)]


def _check_layers(layers: list[Layer], path: str | os.PathLike[str]) -> list[Layer]:
    """``layers`` if they make a network: known activations, at least one layer, shapes that
    chain; a one-line ValueError naming ``path`` otherwise."""
    unknown = sorted({act for _, _, act in layers} - set(_ACTIVATIONS))
    if unknown or not layers:
        raise ValueError(f"{path} is not a saved numpy policy: unknown activations {unknown} or no layers")
    for (w, b, _), (w_next, _, _) in zip(layers, layers[1:] + [(None, None, "")]):
        if w.ndim != 2 or b.shape != (w.shape[0],) or (w_next is not None and w_next.shape[1] != w.shape[0]):
            raise ValueError(f"{path} is not a saved numpy policy: its layer shapes do not chain")
    return layers


def _np(tensor: Any) -> np.ndarray:
    array: np.ndarray = tensor.detach().cpu().numpy().copy()
    return array


def model_file(path: str) -> str:
    """The model file ``path`` names: ``path`` itself, or ``path + ".zip"`` where only that exists
    (SB3 saves ``runs/x/final`` as ``runs/x/final.zip``). Raises ``FileNotFoundError`` for a
    missing file and ``IsADirectoryError`` for a folder, saying which file was probably meant;
    messages name the path as given."""
    if os.path.isdir(path):
        final = os.path.join(path, "final.zip")
        if os.path.isfile(final):
            raise IsADirectoryError(f"{path} is a folder, not a model file; did you mean {final}?")
        zips = sorted(name for name in os.listdir(path) if name.endswith(".zip"))[:3]
        hint = (
            f"; it holds {', '.join(os.path.join(path, z) for z in zips)}"
            if zips
            else " (a training run's model is DIR/final.zip)"
        )
        raise IsADirectoryError(f"{path} is a folder, not a model file{hint}")
    if os.path.isfile(path):
        return path
    if not path.endswith(".zip") and os.path.isfile(path + ".zip"):
        return path + ".zip"
    raise FileNotFoundError(f"no trained model at {path} (no such file)")


def load_model(path: str) -> tuple[Any, NumpyPolicy | None]:
    """``(model, numpy_policy)`` for a MaskablePPO zip, or ``(None, numpy_policy)`` for a
    ``.npz`` from ``NumpyPolicy.save``; cached per file (path and mtime), so many agents (and
    many league seats) share one copy of the weights.

    A path that is not a model raises ``FileNotFoundError`` (missing), ``IsADirectoryError``
    (a folder; the message names the model inside it, e.g. ``DIR/final.zip``), ``OSError``
    (unreadable) or ``ValueError`` (not a zip, or a zip that is not a MaskablePPO model), each
    with a one-line message."""
    given = path
    path = os.path.abspath(model_file(path))
    try:
        key = (path, os.path.getmtime(path))
        with _CACHE_LOCK:
            hit = _CACHE.get(key)
        if hit is not None:
            return hit
        if path.endswith(".npz"):  # the zoo's format: the actor alone, no torch needed
            entry: tuple[Any, NumpyPolicy | None] = (None, NumpyPolicy.load(path))
            with _CACHE_LOCK:
                _CACHE[key] = entry
            return entry
        with open(path, "rb") as f:
            is_zip = zipfile.is_zipfile(f)
    except OSError as exc:
        raise OSError(f"cannot read the model {given}: {exc.strerror or exc}") from None
    if not is_zip:
        raise ValueError(
            f"{given} is not a trained model: not a zip file (models are the .zip files 'smuggle train' writes)"
        )
    import torch
    from sb3_contrib import MaskablePPO

    # Loading reseeds the global RNGs from the model's saved seed; an agent loaded during
    # training (a league snapshot) must not disturb the learner's action sampling.
    saved = random.getstate(), np.random.get_state(), torch.get_rng_state()
    try:
        model = MaskablePPO.load(path, device="cpu")
    except Exception as exc:  # a zip of something else: SB3 raises KeyError, ValueError, pickle errors...
        raise ValueError(f"{given} is not a trained MaskablePPO model: {type(exc).__name__}: {exc}") from None
    finally:
        random.setstate(saved[0])
        np.random.set_state(saved[1])
        torch.set_rng_state(saved[2])
    # With its critic: what the search's value leaves read (agents.search_net).
    entry = (model, NumpyPolicy.from_sb3(model.policy, critic=True))
    with _CACHE_LOCK:
        _CACHE[key] = entry
    return entry


class PolicyAgent:
    """An Agent over a ``NumpyPolicy``: sampled with its own seeded RNG, or argmax."""

    name = "policy"
    policy: NumpyPolicy | None  # None only in a PPOAgent whose model NumpyPolicy cannot copy

    def __init__(self, policy: NumpyPolicy | None, seed: int | None = None, deterministic: bool = False):
        self.policy = policy
        self.deterministic = deterministic
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if self.policy is None:
            raise TypeError(f"{type(self).__name__} has no numpy policy to act with")
        return self.policy.act(observation, action_mask, None if self.deterministic else self.rng)

    @property
    def batch_key(self) -> Hashable | None:
        """Agents with equal keys play one network: ``act_together`` decides for them in one
        forward pass (None: this agent decides alone)."""
        return None if self.policy is None else ("policy", id(self.policy))


class PPOAgent(PolicyAgent):
    """A trained MaskablePPO model (a zip file) playing one seat; see the module docstring."""

    name = "ppo"

    def __init__(self, game: Game, path: str = "", seed: int | None = None, deterministic: bool = False):
        if not path:
            raise ValueError("a ppo agent needs a model file: write the spec as ppo:PATH")
        self.path = path
        model, policy = load_model(path)
        super().__init__(policy, seed=seed, deterministic=deterministic)
        self.model = model
        self._batch_key = None if policy is None else ("ppo", os.path.realpath(path))
        # What the policy reads: the seat's observation (a privileged critic's model was given
        # every seat's while training, but its policy network reads the first block only).
        if policy is not None:
            obs_size, num_actions = policy.obs_size, policy.num_actions
        else:
            obs_size, num_actions = int(np.prod(model.observation_space.shape)), int(model.action_space.n)
        expected = game.observation_layout.size
        if obs_size != expected or num_actions != game.num_actions:
            raise ValueError(
                f"the model {path} takes observations of size {obs_size} and "
                f"{num_actions} actions, but {game.env_id} with {game.num_players} "
                f"players has {expected} and {game.num_actions}: it was trained for another game "
                "or player count"
            )

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if self.policy is not None:
            return self.policy.act(observation, action_mask, None if self.deterministic else self.rng)
        return self._act_torch(observation, action_mask)

    @property
    def batch_key(self) -> Hashable | None:
        # Every PPOAgent loads its own copy of the file: the same file is the same network.
        return self._batch_key

    def _act_torch(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Fallback for policies ``NumpyPolicy`` cannot copy (custom feature extractors)."""
        import torch

        mask = np.asarray(action_mask) > 0
        if self.deterministic:
            action, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
            return int(action)
        # Sample with the agent's own RNG so that a seed fixes the play, as on the numpy path.
        with torch.no_grad():
            obs_t, _ = self.model.policy.obs_to_tensor(observation)
            dist = self.model.policy.get_distribution(obs_t, action_masks=mask)
            probs = dist.distribution.probs[0].numpy().astype(np.float64) * mask
        cumulative = np.cumsum(probs)
        u = self.rng.random() * cumulative[-1]
        return int(min(np.searchsorted(cumulative, u, side="right"), len(probs) - 1))

    def __getstate__(self) -> dict[str, Any]:
        # A pickled agent (e.g. sent to a subprocess) carries the path, not the weights.
        state = self.__dict__.copy()
        state["model"] = state["policy"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.model, self.policy = load_model(self.path)


class ArgmaxPPOAgent(PPOAgent):
    """``ppo_argmax:PATH``: a trained model playing its most probable legal action. Against
    fixed bots this can win more than sampling (the model zoo measures both); against players
    who adapt it is easier to read."""

    name = "ppo_argmax"

    def __init__(self, game: Game, path: str = "", seed: int | None = None, deterministic: bool = True):
        super().__init__(game, path, seed=seed, deterministic=True)


def act_together(
    agents: Sequence[PolicyAgent], observations: Sequence[np.ndarray], masks: Sequence[np.ndarray]
) -> list[int]:
    """The moves of ``agents`` (one ``batch_key``: one network) for their observations and action
    masks, the network run once over all of them (a batch costs about what two single decisions
    do); each agent then chooses as its ``act`` does, with its own RNG. The logits of a batch can
    differ from one row's in the last bits (BLAS sums in another order), so a sample on the edge
    between two actions may come out otherwise than one decision at a time."""
    if len({a.batch_key for a in agents}) != 1 or agents[0].batch_key is None:
        raise ValueError("act_together takes agents that share one network (equal, non-None batch_key)")
    policy = agents[0].policy
    assert policy is not None
    logits = policy(np.stack([np.asarray(o).reshape(-1) for o in observations]))
    return [
        NumpyPolicy.choose(row, mask, None if agent.deterministic else agent.rng)
        for agent, row, mask in zip(agents, logits, masks)
    ]


__all__ = [
    "ArgmaxPPOAgent",
    "NumpyMLP",
    "NumpyPolicy",
    "PPOAgent",
    "PolicyAgent",
    "act_together",
    "load_model",
    "model_file",
]
