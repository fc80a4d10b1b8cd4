"""Exact beliefs about a claim: how likely is the claim a seat faces to be true?

Two posteriors for a seat at a decision, both Monte Carlo over the worlds its information set
allows (``State.resample``), each returned as an :class:`Estimate` with its standard error:

* :func:`uniform_posterior`: the share of the worlds ``resample`` draws in which the claim holds.
  ``resample`` redraws the hidden cards uniformly from what the seat cannot account for, so
  this is the posterior of a seat that takes the other seats' actions as telling it nothing
  (beyond what the rules force: Smuggle's passed-on hand never keeps the Diplomatic Bag).
* :func:`policy_aware_posterior` and, more generally, :func:`posterior_since`: the same worlds,
  each weighted by the likelihood of the other seats' actions under known policies
  (self-normalised importance sampling; :class:`ActionPolicy` gives an action's probability).

What is weighted. ``resample`` returns a world at one position, not its past, so the weights can
only cover actions taken after the position the worlds are drawn at (the *root*).
:func:`posterior_since` draws the worlds at ``root`` and replays the actions taken since in each
world, multiplying the probabilities of the other seats' actions; actions before the root are
not reweighted. That is exact when the hidden cards at the root do not depend on earlier actions:
in Smuggle, at the deal of a fresh four-card hand (every card drawn earlier in the round is face
up in the open suitcase, and a new round reshuffles the pack), so a root at the last fresh deal
reweights every action that could tell anything about the live hand (the declaration that
passed it on, the accept, the discard, the new declaration). :func:`policy_aware_posterior`
is the one-action case: the root is the claimant's decision, the one action the claim.

A replayed world must show the seat what it saw: a world in which the seat's observation differs
from the true one at any step (or where an action is illegal) gets weight 0, so worlds are
conditioned on everything the seat observed along the way, not only on what it saw at the root.
An action the seat did not see (a face-down choice: ``State.action_to_string(a, seat)`` differs
from its full text) is not forced on the world: the world draws one of its own legal actions with
the same public text, from the actor's policy (weighted by the policy's mass on that text) or,
without a policy, uniformly.

Policies (:func:`policy_for` picks one for an agent): :class:`NetworkPolicy` (a ``ppo:`` or zoo
network's masked softmax, or its argmax as a one-hot), :class:`RuleBotPolicy` (a rule bot's exact
action distribution, found by following every branch of its random draws), :class:`OneHotPolicy`
(any deterministic agent), :class:`SampledPolicy` (frequencies over the agent's own draws, for
randomness the exact enumeration cannot follow) and :class:`UniformPolicy` (the random agent).
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from agents.base import RandomAgent, RuleAgent, legal_of
from agents.ppo import NumpyMLP, PolicyAgent
from smuggle_envs.core.checks import as_rng
from smuggle_envs.core.errors import IllegalActionError
from smuggle_envs.core.game import State

Truth = Callable[[State[Any]], bool]
"""Whether the claim holds in a (possibly hypothetical) world."""


# ----- estimates -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo posterior probability.

    ``p``: the estimate (NaN when no sampled world was consistent); ``stderr``: its standard error
    (binomial for the uniform posterior, the delta method for self-normalised importance
    sampling; 0 when every sample agreed, so read it with ``n``); ``n``: worlds drawn; ``ess``:
    the effective sample size, (sum w)^2 / sum w^2 (``n`` for the uniform posterior)."""

    p: float
    stderr: float
    n: int
    ess: float

    def agrees(self, exact: float, z: float = 4.0) -> bool:
        """Whether ``exact`` lies within ``z`` standard errors of the estimate."""
        return abs(self.p - exact) <= z * self.stderr + 1e-12


def _weighted_estimate(weights: np.ndarray, truths: np.ndarray) -> Estimate:
    """Self-normalised importance sampling: p = sum w t / sum w, with the delta-method error."""
    n, total = len(weights), float(weights.sum())
    if total <= 0.0:
        return Estimate(math.nan, math.inf, n, 0.0)
    p = float(weights @ truths) / total
    stderr = math.sqrt(float(np.sum(weights**2 * (truths - p) ** 2))) / total
    return Estimate(p, stderr, n, total**2 / float(np.sum(weights**2)))


# ----- the uniform posterior ---------------------------------------------------------------------
def uniform_posterior(state: State[Any], seat: int, truth: Truth, samples: int = 1000, rng: Any = None) -> Estimate:
    """P(``truth``) over the worlds ``state.resample(seat)`` draws: ``samples`` of them, with
    the binomial standard error. ``rng``: a ``random.Random``, an int seed, a numpy Generator
    or None (as ``State.resample`` takes)."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    rng = as_rng(rng)
    hits = sum(bool(truth(state.resample(seat, rng))) for _ in range(samples))
    p = hits / samples
    return Estimate(p, math.sqrt(p * (1.0 - p) / samples), samples, float(samples))


# ----- the policy-aware posterior ------------------------------------------------------------------
def policy_aware_posterior(
    before_claim: State[Any],
    claim_action: int,
    seat: int,
    truth: Truth,
    policy: ActionPolicy,
    samples: int = 1000,
    rng: Any = None,
) -> Estimate:
    """P(``truth``) for ``seat`` after the claimant plays ``claim_action`` in ``before_claim``:
    worlds drawn at the claimant's decision (``before_claim.resample(seat)``), each weighted by
    ``policy``'s probability of that claim from the claimant's observation in that world, the
    truth read in the world after the claim. Earlier actions are not reweighted (see the module
    docstring: exact where the claimant's hand was dealt fresh just before, as a Smuggle
    declaration of a fresh hand); :func:`posterior_since` reweights them from an earlier root."""
    claimant = before_claim.current_player()
    return posterior_since(before_claim, [claim_action], seat, truth, {claimant: policy}, samples, rng)


def posterior_since(
    root: State[Any],
    actions: Sequence[int],
    seat: int,
    truth: Truth,
    policies: Mapping[int, ActionPolicy],
    samples: int = 1000,
    rng: Any = None,
    *,
    min_ess: float = 0.0,
    max_samples: int | None = None,
) -> Estimate:
    """P(``truth``) for ``seat`` in the position reached by playing ``actions`` from ``root``:
    worlds drawn at ``root`` from ``seat``'s information set, the actions replayed in each,
    weighted by ``policies[actor]``'s probability of each action of another seat (a seat without
    a policy is not reweighted; ``seat``'s own actions cancel out), a world that shows ``seat``
    anything it did not see weighted 0. Returns the self-normalised estimate and its ESS.

    Near-deterministic policies make most worlds inconsistent (a rule bot declares one thing
    per hand), so the ESS can be a small share of ``samples``; the standard error is only worth
    reading when the ESS is not tiny (say 30 or more). ``min_ess`` with ``max_samples``: keep
    drawing batches of ``samples`` worlds until the ESS reaches ``min_ess`` or ``max_samples``
    worlds were drawn."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    rng = as_rng(rng)
    path = _true_path(root, actions, seat)
    limit = samples if max_samples is None else max(samples, max_samples)
    weights: list[float] = []
    truths: list[float] = []
    while True:
        for _ in range(min(samples, limit - len(weights))):
            world = root.resample(seat, rng)
            weights.append(_replay(world, path, seat, policies, rng))
            truths.append(float(bool(truth(world))) if weights[-1] > 0.0 else 0.0)
        estimate = _weighted_estimate(np.array(weights), np.array(truths))
        if estimate.ess >= min_ess or len(weights) >= limit:
            return estimate


@dataclass(frozen=True)
class _Step:
    """One action of the true path, with what ``seat`` saw just before it."""

    action: int
    actor: int
    observation: np.ndarray  # seat's observation before the action
    public_text: str | None  # what seat saw of the action when it was hidden, else None


def _true_path(root: State[Any], actions: Sequence[int], seat: int) -> tuple[list[_Step], np.ndarray]:
    """The steps from ``root`` in the true game, and ``seat``'s observation at the end."""
    state, steps = root.clone(), []
    for action in actions:
        actor = state.current_player()
        text = state.action_to_string(action, seat)
        hidden = actor != seat and text != state.action_to_string(action)
        steps.append(_Step(int(action), actor, state.observation(seat), text if hidden else None))
        state.apply_action(action)
    return steps, state.observation(seat)


def _replay(
    world: State[Any],
    path: tuple[list[_Step], np.ndarray],
    seat: int,
    policies: Mapping[int, ActionPolicy],
    rng: random.Random,
) -> float:
    """Play the true path in ``world`` (mutated); return the product of the other seats' action
    probabilities, or 0 as soon as the world disagrees with what ``seat`` saw."""
    steps, final = path
    weight = 1.0
    for step in steps:
        if world.current_player() != step.actor or not np.array_equal(world.observation(seat), step.observation):
            return 0.0
        policy = policies.get(step.actor) if step.actor != seat else None
        action = step.action
        if step.public_text is not None:
            action, mass = _hidden_action(world, step, seat, policy, rng)
            weight *= mass
        elif policy is not None:
            weight *= float(
                policy.action_probabilities(world.observation(step.actor), world.legal_action_mask())[action]
            )
        if weight <= 0.0:
            return 0.0
        try:
            world.apply_action(action)
        except IllegalActionError:  # e.g. a discard of a card this world's hand lacks
            return 0.0
    return weight if np.array_equal(world.observation(seat), final) else 0.0


def _hidden_action(
    world: State[Any], step: _Step, seat: int, policy: ActionPolicy | None, rng: random.Random
) -> tuple[int, float]:
    """A face-down action for ``world``: one of its legal actions that ``seat`` would see as it
    saw the true one, drawn from ``policy`` restricted to them (weight: the policy's mass on
    them) or uniformly without a policy (weight 1). ``(-1, 0.0)`` when none fits."""
    candidates = [a for a in world.legal_actions() if world.action_to_string(a, seat) == step.public_text]
    if not candidates:
        return -1, 0.0
    if policy is None:
        return candidates[rng.randrange(len(candidates))], 1.0
    probs = policy.action_probabilities(world.observation(step.actor), world.legal_action_mask())[candidates]
    mass = float(probs.sum())
    if mass <= 0.0:
        return -1, 0.0
    u, cumulative = rng.random() * mass, np.cumsum(probs)
    return candidates[min(int(np.searchsorted(cumulative, u, side="right")), len(candidates) - 1)], mass


# ----- policies: an agent's action distribution -----------------------------------------------------
@runtime_checkable
class ActionPolicy(Protocol):
    """An agent's probability of each action, from what the agent sees."""

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """A float vector over the action space, summing to 1 over the legal actions."""


class UniformPolicy:
    """Every legal action equally likely: the random agent."""

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        legal = legal_of(action_mask)
        probs = np.zeros(len(action_mask))
        probs[legal] = 1.0 / legal.size
        return probs


class NetworkPolicy:
    """A trained network's policy (``NumpyPolicy``: ``ppo:`` models and the zoo): the softmax of
    its logits over the legal actions, as ``PPOAgent`` samples it; or, ``deterministic``, a
    one-hot on its most probable legal action, as ``ppo_argmax`` and the zoo models marked
    deterministic play."""

    def __init__(self, network: NumpyMLP, deterministic: bool = False):
        self.network, self.deterministic = network, deterministic

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        legal = legal_of(action_mask)
        logits = self.network(np.asarray(observation).reshape(-1))[legal].astype(np.float64)
        probs = np.zeros(len(action_mask))
        if self.deterministic:
            probs[legal[int(np.argmax(logits))]] = 1.0  # np.argmax: the first of ties, as act does
            return probs
        weights = np.exp(logits - logits.max())
        probs[legal] = weights / weights.sum()
        return probs


class OneHotPolicy:
    """A deterministic agent's action as a one-hot (its ``act``, asked once)."""

    def __init__(self, agent: Any):
        self.agent = agent

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        probs = np.zeros(len(action_mask))
        probs[int(self.agent.act(observation, action_mask))] = 1.0
        return probs


class SampledPolicy:
    """Frequencies of ``draws`` actions of the agent (its own ``rng`` reseeded for each, from
    ``seed`` and the observation, so one observation always gives the same frequencies): an
    unbiased estimate for agents whose randomness :class:`RuleBotPolicy` cannot follow."""

    def __init__(self, agent: Any, draws: int = 64, seed: int = 0):
        self.agent, self.draws, self.seed = agent, draws, seed

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        probs = np.zeros(len(action_mask))
        saved = self.agent.rng
        # crc32, not hash(): bytes hash differently in each process (PYTHONHASHSEED).
        base = zlib.crc32(np.asarray(observation).tobytes()) + (self.seed << 32)
        try:
            for i in range(self.draws):
                self.agent.rng = random.Random(base + i)
                probs[int(self.agent.act(observation, action_mask))] += 1.0 / self.draws
        finally:
            self.agent.rng = saved
        return probs


class UnsupportedRandomness(TypeError):
    """A rule bot used its ``rng`` in a way :class:`RuleBotPolicy` cannot enumerate."""


class RuleBotPolicy:
    """A rule bot's exact action distribution.

    The rule bots draw only from their own ``self.rng`` (``random() < p``, ``choice``,
    ``randrange``), so their action is a function of the observation and those draws. The
    policy replaces the bot's ``rng`` with one that answers each draw by a branch, runs ``act``
    once per branch (depth first, every branch of positive probability) and adds each branch's
    probability to the action it led to. ``random()`` returns a value that only answers
    comparisons (each narrows the interval it can still lie in, so two thresholds on one draw
    are handled); arithmetic on it, or any other ``rng`` method, raises
    :class:`UnsupportedRandomness` (use :class:`SampledPolicy` then). The bot must not keep
    memory between decisions (the package's rule bots do not), as ``act`` runs once per branch.
    """

    def __init__(self, agent: Any, max_branches: int = 4096):
        self.agent, self.max_branches = agent, max_branches

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        probs = np.zeros(len(action_mask))
        pending: list[tuple[int, ...]] = [()]
        saved, runs = self.agent.rng, 0
        try:
            while pending:
                rng = _BranchingRng(pending.pop())
                self.agent.rng = rng
                action = int(self.agent.act(observation, action_mask))
                probs[action] += math.prod(options[t] for options, t in zip(rng.options, rng.taken))
                pending.extend(rng.siblings())
                runs += 1
                if runs > self.max_branches:
                    raise UnsupportedRandomness(f"more than {self.max_branches} random branches in one decision")
        finally:
            self.agent.rng = saved
        return probs


class _BranchingRng:
    """Stands in for a bot's ``random.Random``: each draw is a branch point; the first draws
    follow ``prefix`` (branch indices), later ones take their first branch of positive
    probability, and ``siblings`` lists the prefixes of the branches not taken."""

    def __init__(self, prefix: tuple[int, ...]):
        self.prefix = prefix
        self.taken: list[int] = []
        self.options: list[tuple[float, ...]] = []

    def branch(self, options: tuple[float, ...]) -> int:
        i = len(self.taken)
        choice = self.prefix[i] if i < len(self.prefix) else next(j for j, p in enumerate(options) if p > 0)
        self.taken.append(choice)
        self.options.append(options)
        return choice

    def siblings(self) -> list[tuple[int, ...]]:
        # Only branch points past the prefix: those before it were expanded by an earlier run.
        return [
            (*self.taken[:i], alt)
            for i in range(len(self.prefix), len(self.taken))
            for alt, p in enumerate(self.options[i])
            if alt != self.taken[i] and p > 0
        ]

    def random(self) -> _Draw:
        return _Draw(self)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        values = range(start) if stop is None else range(start, stop, step)
        if not values:
            raise ValueError("empty range for randrange()")
        return values[self.branch((1.0 / len(values),) * len(values))]

    def choice(self, seq: Sequence[Any]) -> Any:
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.branch((1.0 / len(seq),) * len(seq))]

    def __getattr__(self, name: str) -> Any:
        raise UnsupportedRandomness(f"RuleBotPolicy cannot enumerate rng.{name}(); use SampledPolicy")


class _Draw:
    """A uniform draw in [lo, hi) that only answers comparisons: a comparison with a threshold
    is a two-way branch whose probabilities are the interval's shares below and above it."""

    __slots__ = ("hi", "lo", "rng")

    def __init__(self, rng: _BranchingRng):
        self.rng, self.lo, self.hi = rng, 0.0, 1.0

    def _below(self, threshold: float) -> bool:
        cut = min(max(float(threshold), self.lo), self.hi)
        width = self.hi - self.lo
        share = (cut - self.lo) / width if width > 0 else 0.0
        if self.rng.branch((share, 1.0 - share)) == 0:
            self.hi = cut
            return True
        self.lo = cut
        return False

    # A continuous draw equals a threshold with probability 0, so < and <= branch alike.
    def __lt__(self, other: float) -> bool:
        return self._below(other)

    def __le__(self, other: float) -> bool:
        return self._below(other)

    def __gt__(self, other: float) -> bool:
        return not self._below(other)

    def __ge__(self, other: float) -> bool:
        return not self._below(other)

    def _unsupported(self, *args: Any) -> Any:
        raise UnsupportedRandomness("RuleBotPolicy follows comparisons of rng.random() only, not arithmetic on it")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _unsupported
    __float__ = __int__ = __bool__ = _unsupported


class _Dense:
    """An agent's own ``action_probabilities`` as a vector over the action space, whether it
    returns one or a mapping action -> probability (``agents.tabular``)."""

    def __init__(self, agent: Any):
        self.agent = agent

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        given = self.agent.action_probabilities(observation, action_mask)
        if not isinstance(given, Mapping):
            return np.asarray(given, dtype=np.float64)
        probs = np.zeros(len(action_mask))
        for action, p in given.items():
            probs[int(action)] = float(p)
        return probs


def policy_for(agent: Any) -> ActionPolicy:
    """The action distribution of one of the library's agents: a network's softmax (or one-hot,
    for an agent playing argmax), a rule bot's exact distribution, the random agent's uniform
    one, or the agent's own ``action_probabilities`` (as a vector) if it has one. Search agents (``act_in``) have
    none that is cheap: a TypeError."""
    if isinstance(agent, (NetworkPolicy, RuleBotPolicy, OneHotPolicy, SampledPolicy, UniformPolicy)):
        return agent
    if isinstance(agent, ActionPolicy):  # an agent with its own (the tabular agent: a dict)
        return _Dense(agent)
    if isinstance(agent, PolicyAgent):
        if agent.policy is None:
            raise TypeError(f"{type(agent).__name__} has no numpy network to read probabilities from")
        return NetworkPolicy(agent.policy, deterministic=agent.deterministic)
    if isinstance(agent, RandomAgent):
        return UniformPolicy()
    if isinstance(agent, RuleAgent):
        return RuleBotPolicy(agent)
    raise TypeError(f"no action distribution for a {type(agent).__name__}: give an ActionPolicy")


__all__ = [
    "ActionPolicy",
    "Estimate",
    "NetworkPolicy",
    "OneHotPolicy",
    "RuleBotPolicy",
    "SampledPolicy",
    "Truth",
    "UniformPolicy",
    "UnsupportedRandomness",
    "policy_aware_posterior",
    "policy_for",
    "posterior_since",
    "uniform_posterior",
]
