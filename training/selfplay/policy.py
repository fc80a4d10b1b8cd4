"""Cheaper masked distributions for MaskablePPO: sb3-contrib's numbers to the last bit, or fused.

In a self-play profile sb3-contrib's ``MaskableCategorical`` was about a quarter of the training
time (a 510-way head, most of it masked; 8 games per rollout step, minibatches of 512).
Mostly not Python: masked-out actions are filled with -1e8, and on the CPU an ``exp`` of -1e8
(exactly 0) costs about ten times an ordinary one (measured on torch 2.13, AVX2); ``logsumexp``
takes it on every masked logit, forward and in its backward. Two replacements, chosen by the
training config's ``update_ops``:

* ``"sb3"``: ``FastMaskableCategorical`` computes the same operations as sb3-contrib (the same
  normalisation of the raw logits, the same -1e8 fill, ``logsumexp`` as ATen computes it, the same
  softmax, ``gather`` and entropy) but writes the exact zeros of those ``exp`` instead of
  computing them (``_MaskedNormalise``, with the gradient autograd would give), and sets up one
  ``Categorical`` instead of two. Log-probabilities, entropies, samples and gradients are
  identical to the last bit (tests/training/selfplay/test_policy.py), so a seeded run gives the
  same weights: the zoo's recorded runs are made again with it.
* ``"fused"`` (the default; with torch's fused Adam step too): ``FusedMaskableCategorical`` skips the first normalisation (a
  per-row constant that the masked one removes again) and computes what PPO's update asks of
  it, the chosen action's log-probability and the entropy, in one pass with the gradient written
  by hand (``_LogProbEntropy``): about half the passes over the ``[batch, actions]`` logits,
  forward and backward. The same numbers up to float rounding (within 2e-6 of sb3-contrib's on
  the test cases, gradients checked in float64), not to the bit: a seeded run learns the same
  way but ends with other weights.

(The zeros are exact as long as each row's best legal logit is above -1e8 + 104 after
normalisation: a network's log-probabilities are never near -1e8. A row with no legal action is
left to sb3-contrib's code.)

``install(policy, kind)`` swaps one into a ``MaskableActorCriticPolicy`` (``policy.action_dist``,
the distribution extension point SB3 gives a policy). Nothing is saved with it: a model saved
after it is the same ``ppo:`` zip as before and loads anywhere.
"""

from __future__ import annotations

from typing import Any

import torch as th
from sb3_contrib.common.maskable.distributions import (
    MaskableCategorical,
    MaskableCategoricalDistribution,
    MaybeMasks,
)
from torch.distributions.utils import lazy_property

__all__ = [
    "KINDS",
    "FastMaskableCategorical",
    "FastMaskableCategoricalDistribution",
    "FusedMaskableCategorical",
    "FusedMaskableCategoricalDistribution",
    "install",
]

_HUGE_NEG: dict[tuple[th.dtype, th.device], th.Tensor] = {}  # sb3-contrib's fill value, made once


def _huge_neg(dtype: th.dtype, device: th.device) -> th.Tensor:
    key = (dtype, device)
    if key not in _HUGE_NEG:
        _HUGE_NEG[key] = th.tensor(-1e8, dtype=dtype, device=device)
    return _HUGE_NEG[key]


def _exp_where(values: th.Tensor, masks: th.Tensor) -> th.Tensor:
    """``values.exp()`` where ``masks``, exactly 0 elsewhere. The masked-out values are about
    -1e8, whose exp is exactly 0 but costs ten times a normal exp on the CPU (the vectorised exp
    takes a slow path out of range): it is never taken."""
    return values.masked_fill(~masks, 0.0).exp().masked_fill_(~masks, 0.0)


def _masked_normalise(original: th.Tensor, masks: th.Tensor) -> th.Tensor:
    """``_MaskedNormalise``'s values (also what a forward without gradients uses)."""
    z = th.where(masks, original, _huge_neg(original.dtype, original.device))
    top = z.amax(dim=-1, keepdim=True)  # finite: every row has a legal action
    lse = _exp_where(z - top, masks).sum(dim=-1, keepdim=True).log_().add_(top)
    return z - lse


class _MaskedNormalise(th.autograd.Function):
    """``z - z.logsumexp(-1)`` for ``z = where(masks, original, -1e8)`` (every row with a legal
    action), bit for bit what sb3-contrib computes forward and what autograd computes backward
    for it, without an exp of the -1e8 fill in either: ``logsumexp`` is max + log(sum(exp(z - max)))
    as ATen computes it, with the fill's exact zeros written instead of computed; its gradient
    is ``grad_s * exp(z - s)``, the same zeros likewise."""

    @staticmethod
    def forward(ctx: Any, original: th.Tensor, masks: th.Tensor) -> th.Tensor:
        logits = _masked_normalise(original, masks)
        ctx.save_for_backward(logits, masks)
        return logits

    @staticmethod
    def backward(ctx: Any, grad: th.Tensor) -> tuple[th.Tensor, None]:
        logits, masks = ctx.saved_tensors
        grad_lse = (-grad).sum(dim=-1, keepdim=True)  # z - lse: the broadcast operand's gradient
        grad_z = grad + grad_lse * _exp_where(logits, masks)  # logsumexp's: grad * exp(z - lse)
        return th.where(masks, grad_z, th.zeros((), dtype=grad.dtype, device=grad.device)), None


class FastMaskableCategorical(MaskableCategorical):
    """``MaskableCategorical`` for a batch of logits (``[batch, actions]``) without torch's
    ``Distribution`` set-up (argument validation is off, as the trainer runs it); every other
    method (``entropy``, ``sample``, ``probs``, ...) is inherited unchanged."""

    def __init__(self, logits: th.Tensor, masks: MaybeMasks = None) -> None:
        # What Categorical.__init__ stores, with the same normalisation of the raw logits.
        self._original_logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._num_events = logits.size(-1)
        self._batch_shape = logits.shape[:-1]
        self._event_shape = th.Size()
        self._validate_args = False
        self.apply_masking(masks)

    def apply_masking(self, masks: MaybeMasks) -> None:
        self.__dict__.pop("probs", None)  # computed again, lazily, from the new logits
        original = self._original_logits
        if masks is None:
            self.masks = None
            # normalised once more, as sb3-contrib's re-initialisation does
            self.logits = original - original.logsumexp(dim=-1, keepdim=True)
        else:
            self.masks = th.as_tensor(masks, dtype=th.bool, device=original.device).reshape(original.shape)
            if not self.masks.any(-1).all():  # a row with no legal action: sb3-contrib's way
                logits = th.where(self.masks, original, _huge_neg(original.dtype, original.device))
                self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
            elif original.requires_grad and th.is_grad_enabled():
                self.logits = _MaskedNormalise.apply(original, self.masks)
            else:  # the rollout's forward: the values alone
                self.logits = _masked_normalise(original, self.masks)
        self._param = self.logits

    def log_prob(self, value: th.Tensor) -> th.Tensor:
        if value.shape != self._batch_shape:  # anything but one action per row: torch's way
            return super().log_prob(value)
        # Categorical.log_prob broadcasts the actions over the logits, then keeps one column:
        # the same gather, without the broadcast.
        return self.logits.gather(-1, value.long().unsqueeze(-1)).squeeze(-1)


class FastMaskableCategoricalDistribution(MaskableCategoricalDistribution):
    """``MaskableCategoricalDistribution`` whose distribution is a ``FastMaskableCategorical``."""

    distribution: FastMaskableCategorical

    def proba_distribution(self, action_logits: th.Tensor) -> FastMaskableCategoricalDistribution:
        self.distribution = FastMaskableCategorical(action_logits.view(-1, self.action_dim))
        return self


class _LogProbEntropy(th.autograd.Function):
    """``(log p[action], entropy)`` of the softmax of ``original`` over the legal actions
    (every row with one), in one pass; the gradient by hand: d log p_a / dx = onehot(a) - p and
    d H / dx = -p (log p + H), on the legal actions (p is exactly 0 on the others)."""

    @staticmethod
    def forward(ctx: Any, original: th.Tensor, masks: th.Tensor, actions: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        z = th.where(masks, original, _huge_neg(original.dtype, original.device))
        top = z.amax(dim=-1, keepdim=True)
        weights = _exp_where(z - top, masks)
        total = weights.sum(dim=-1, keepdim=True)
        logits = z - (total.log() + top)
        probs = weights / total
        entropy = -(probs * logits).sum(dim=-1)  # 0 * (about -1e8) on the masked-out actions: 0
        ctx.save_for_backward(probs, logits, entropy, actions)
        return logits.gather(-1, actions.unsqueeze(-1)).squeeze(-1), entropy

    @staticmethod
    def backward(ctx: Any, grad_log_prob: th.Tensor, grad_entropy: th.Tensor) -> tuple[th.Tensor, None, None]:
        probs, logits, entropy, actions = ctx.saved_tensors
        scale = grad_entropy.unsqueeze(-1) * (logits + entropy.unsqueeze(-1)) + grad_log_prob.unsqueeze(-1)
        grad = (probs * scale).neg_()
        grad.scatter_add_(-1, actions.unsqueeze(-1), grad_log_prob.unsqueeze(-1))
        return grad, None, None


class FusedMaskableCategorical(MaskableCategorical):
    """``MaskableCategorical`` for a batch of logits (``[batch, actions]``) that keeps the raw
    logits and computes only what is asked: ``log_prob`` of one action per row, with gradients,
    gives the entropy with it (``_LogProbEntropy``); ``logits`` and ``probs`` (sampling, the
    rollout's forward) are made on first use."""

    def __init__(self, logits: th.Tensor, masks: MaybeMasks = None) -> None:
        self._raw = self._param = logits
        self._num_events = logits.size(-1)
        self._batch_shape = logits.shape[:-1]
        self._event_shape = th.Size()
        self._validate_args = False
        self._entropy: th.Tensor | None = None
        self.apply_masking(masks)

    def apply_masking(self, masks: MaybeMasks) -> None:
        self.__dict__.pop("logits", None)  # both made again, lazily, for the new masks
        self.__dict__.pop("probs", None)
        self._entropy = None
        raw = self._raw
        self.masks = None if masks is None else th.as_tensor(masks, dtype=th.bool, device=raw.device).reshape(raw.shape)
        self._every_row_legal = self.masks is not None and bool(self.masks.any(-1).all())

    @lazy_property
    def logits(self) -> th.Tensor:
        raw, masks = self._raw, self.masks
        if masks is None:
            return raw - raw.logsumexp(dim=-1, keepdim=True)
        if not self._every_row_legal:  # sb3-contrib's way
            z = th.where(masks, raw, _huge_neg(raw.dtype, raw.device))
            return z - z.logsumexp(dim=-1, keepdim=True)
        if raw.requires_grad and th.is_grad_enabled():
            return _MaskedNormalise.apply(raw, masks)
        return _masked_normalise(raw, masks)

    def log_prob(self, value: th.Tensor) -> th.Tensor:
        if value.shape != self._batch_shape:  # anything but one action per row: torch's way
            return super().log_prob(value)
        if self._every_row_legal and self._raw.requires_grad and th.is_grad_enabled():
            log_prob, self._entropy = _LogProbEntropy.apply(self._raw, self.masks, value.long())
            return log_prob
        return self.logits.gather(-1, value.long().unsqueeze(-1)).squeeze(-1)

    def entropy(self) -> th.Tensor:
        if self._entropy is not None:  # computed with the last log_prob, for these masks
            return self._entropy
        return super().entropy()


class FusedMaskableCategoricalDistribution(MaskableCategoricalDistribution):
    """``MaskableCategoricalDistribution`` whose distribution is a ``FusedMaskableCategorical``."""

    distribution: FusedMaskableCategorical

    def proba_distribution(self, action_logits: th.Tensor) -> FusedMaskableCategoricalDistribution:
        self.distribution = FusedMaskableCategorical(action_logits.view(-1, self.action_dim))
        return self


KINDS = {"fused": FusedMaskableCategoricalDistribution, "sb3": FastMaskableCategoricalDistribution}


def install(policy: Any, kind: str = "fused") -> bool:
    """Give ``policy`` (a ``MaskableActorCriticPolicy``) the ``kind`` of distribution (``KINDS``)
    where it uses sb3-contrib's plain masked categorical or one of these, and with ``"fused"``
    torch's fused Adam step (one kernel over every parameter, the same update up to rounding;
    ``"sb3"``: torch's default step); returns whether it did (other action spaces, or a subclass
    with its own distribution, are left alone)."""
    if kind not in KINDS:
        raise ValueError(f"update_ops must be one of {sorted(KINDS)}, got {kind!r}")
    dist = getattr(policy, "action_dist", None)
    if dist is None or type(dist) not in (MaskableCategoricalDistribution, *KINDS.values()):
        return False
    policy.action_dist = KINDS[kind](dist.action_dim)
    optimizer = getattr(policy, "optimizer", None)
    if isinstance(optimizer, th.optim.Adam) and all(p.device.type == "cpu" for p in policy.parameters()):
        for group in optimizer.param_groups:  # read at every step; a loaded state's flag is replaced
            group["fused"] = True if kind == "fused" else None
    return True
