"""Networks inside the search: a policy prior and a value estimate for :class:`agents.search.ISMCTSAgent`.

``ismcts:prior=zoo`` (or ``zoo:ENV_ID[@N]``, ``ppo:PATH``) makes the tree choose by PUCT over the
network's masked action probabilities; ``value=zoo`` (or ``ppo:PATH``) scores a leaf by the
network's value instead of a playout. Both read numpy networks (``agents.ppo.NumpyPolicy``, the
zoo's format: no torch to play) and only ever a *sampled world* of the search, never the true
state: :class:`SearchNetwork` takes the world the search is in and builds each seat's observation
of it. A value network trained with the privileged critic (input: every seat's observation,
``State.global_observation``) is given that of the sampled world, which the search owns.

The value is in the network's own units: PPO's critic estimates the discounted return of its
training reward (``win_loss`` and, with ``dense_score``, the money still to change hands), close
to the [-1, 1] of the search's ``win_loss`` returns but not equal to them. Terminal worlds are
scored exactly (``State.returns``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from smuggle_envs.core.game import Game, State

    from .ppo import NumpyMLP, NumpyPolicy

NETWORK_FORMS = "zoo[:ENV[@N]]|ppo:PATH"


def is_network_spec(text: str) -> bool:
    """Whether ``text`` names a network: ``zoo``, ``zoo:ENV_ID[@N]`` or ``ppo:PATH``."""
    return text == "zoo" or (text.startswith(("zoo:", "ppo:")) and len(text) > 4)


def option_parser(*words: str) -> Callable[[str], str]:
    """An option type for ``agents.parse_options``: one of ``words`` or a network spec; its name
    (what an error message lists) spells the allowed forms."""

    def parse(text: str) -> str:
        if text in words or is_network_spec(text):
            return text
        raise ValueError(text)

    parse.__name__ = "|".join((*words, NETWORK_FORMS))
    return parse


def load_network(spec: str, game: Game) -> tuple[NumpyPolicy, str]:
    """The numpy network that ``spec`` names for ``game`` and a label for messages: the zoo's
    model (checksum verified) or a ``ppo:`` file (a MaskablePPO zip, whose critic comes with it,
    or an ``.npz``). A one-line ValueError for anything that cannot serve."""
    from .ppo import PPOAgent
    from .zoo import ZooAgent

    kind, _, arg = spec.partition(":")
    try:
        agent = ZooAgent(game, arg) if kind == "zoo" else PPOAgent(game, arg)
    except OSError as exc:  # a missing or unreadable file: one line, as a ValueError
        raise ValueError(str(exc)) from None
    if agent.policy is None:
        raise ValueError(f"{spec}: not a plain MLP policy, so the search has no numpy network to run")
    label = f"the zoo's model {agent.entry['file']}" if isinstance(agent, ZooAgent) else arg
    return agent.policy, label


class SearchNetwork:
    """The prior and value networks of one search agent (either may be None), with call counts.

    ``prior_logits(world, actor)``: the policy's logits for ``actor``'s observation of ``world``
    (one forward pass; the tree caches it per node). ``values(world, seats)``: the critic's value
    of ``world`` from each of ``seats``, one batched forward pass for all of them;
    ``values_many(items)``: the same for several ``(world, seats)`` leaves in one forward pass
    (the search's ``leaf_batch``), as ``prior_logits_many`` is for several priors."""

    def __init__(self, game: Game, prior: str | None, value: str | None):
        self.prior: NumpyPolicy | None = None
        self.critic: NumpyMLP | None = None
        self.prior_calls = 0  # forward passes, for tests and benchmarks
        self.prior_rows = 0  # observations those passes read (prior_calls with leaf_batch=1)
        self.value_calls = 0
        self.value_leaves = 0  # leaves (worlds) those passes scored: value_calls with leaf_batch=1
        if prior is not None:
            self.prior, _ = load_network(prior, game)
        if value is not None:
            policy, label = load_network(value, game)
            if policy.critic is None:
                raise ValueError(
                    f"value={value}: {label} has no value head (a policy only); give a MaskablePPO zip "
                    "(value=ppo:RUN/final.zip) or an .npz exported with its critic (smuggle zoo add)"
                )
            self.critic = policy.critic
            size, n = game.observation_layout.size, game.num_players
            if self.critic.obs_size not in (size, n * size):
                raise ValueError(
                    f"value={value}: its value network reads {self.critic.obs_size} numbers, not a seat's "
                    f"observation ({size}) nor every seat's ({n * size})"
                )
            # A privileged critic reads every seat's observation of the (sampled) world.
            self._global = self.critic.obs_size == n * size != size

    def prior_logits(self, world: State[Any], actor: int) -> np.ndarray:
        """The policy's logits over every action for ``actor``'s observation of ``world``."""
        assert self.prior is not None
        self.prior_calls += 1
        self.prior_rows += 1
        logits: np.ndarray = self.prior.logits(world.observation(actor))
        return logits

    def prior_logits_many(self, items: Sequence[tuple[State[Any], int]]) -> list[np.ndarray]:
        """``prior_logits`` of several ``(world, actor)`` pairs in ONE forward pass (the search's
        ``leaf_batch``: the new nodes of a batch), in order."""
        assert self.prior is not None
        if not items:
            return []
        self.prior_calls += 1
        self.prior_rows += len(items)
        return list(self.prior(np.stack([world.observation(actor) for world, actor in items])))

    def values(self, world: State[Any], seats: Iterable[int]) -> dict[int, float]:
        """The critic's value of ``world`` from each seat in ``seats`` (one batch): ``values_many``
        of one leaf."""
        return self.values_many([(world, list(seats))])[0]

    def values_many(self, items: Sequence[tuple[State[Any], Sequence[int]]]) -> list[dict[int, float]]:
        """``values`` of several leaves, ``(world, seats)`` each, in ONE forward pass: every
        (leaf, seat) observation stacked into one matrix, so the network runs one matrix-matrix
        product per layer instead of one small product per leaf (the point on a GPU, and with
        numpy too). Returns one ``{seat: value}`` per item, in order."""
        assert self.critic is not None
        if not items:
            return []
        self.value_calls += 1
        self.value_leaves += len(items)
        view = "global_observation" if self._global else "observation"  # decided once, not per row
        rows = [getattr(world, view)(p) for world, seats in items for p in seats]
        out = self.critic(np.stack(rows))[:, 0].tolist()
        result, start = [], 0
        for _, seats in items:
            result.append({p: float(v) for p, v in zip(seats, out[start : start + len(seats)])})
            start += len(seats)
        return result


def masked_probabilities(logits: np.ndarray, legal: tuple[int, ...]) -> tuple[dict[int, float], list[int]]:
    """The softmax of ``logits`` over the ``legal`` actions: the probability of each, and the
    actions from the most probable down (ties in ``legal``'s order)."""
    z = logits[list(legal)].astype(np.float64)
    p = np.exp(z - z.max())
    p /= p.sum()
    order = np.argsort(-p, kind="stable")
    return dict(zip(legal, p.tolist())), [legal[i] for i in order.tolist()]


__all__ = ["NETWORK_FORMS", "SearchNetwork", "is_network_spec", "load_network", "masked_probabilities", "option_parser"]
