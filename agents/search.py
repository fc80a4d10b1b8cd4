"""Search bots built only on the engine contract: single-observer IS-MCTS and determinized PIMC.

Both implement ``act_in(view)`` (see :mod:`agents.base`): they get a :class:`~agents.base.SeatView`
and use only ``view.player``, ``view.game``, ``view.legal_actions()`` and
``view.sample_world(rng)``, a full state drawn from the seat's information set. The worlds are
full states, so the search plays them out freely; the true state is never read.

* :class:`ISMCTSAgent` (spec ``ismcts``): SO-ISMCTS (Cowling, Powley & Whitehouse 2012). Every
  iteration samples a world, descends one tree keyed by the actions taken since the root with
  UCB1 over the actions available in that world (availability counts), expands one node, plays
  out, and backs the returns up, each edge with the return of the seat that chose it. With a
  network (``prior=zoo``, ``prior=ppo:PATH``) the descent is PUCT over the network's masked
  action probabilities, and with ``value=...`` a leaf is scored by the network's value of the
  sampled world instead of a playout (:mod:`agents.search_net`; networks see sampled worlds only).
* :class:`PIMCAgent` (spec ``pimc``): perfect-information Monte Carlo. Samples ``worlds`` worlds;
  in each, every legal action is tried ``sims`` times with a playout; the action with the best
  mean return over all worlds is played.

Options come in the spec after a colon, ``key=value`` separated by ``;``:
``ismcts:sims=400;c=1.0;rollout=rule`` (see ``docs/search.md``).
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from smuggle_envs.core.outcomes import REWARD_MODES, check_reward_mode

from .search_net import SearchNetwork, is_network_spec, masked_probabilities, option_parser

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from smuggle_envs.core.game import Game, State

    from .base import SeatView

ROLLOUTS = ("random", "rule")
OPPONENT_MODELS = ("search", "rule")  # how the tree chooses the other seats' moves
PRIORS = ("none", "rule")  # which new actions a node tries, and how fast it widens (or a network: PUCT)


class _Node:
    """A tree node: the information set reached by one action sequence from the root. The edge
    statistics (``visits``, ``total``) are of the seat that chose the action into this node (the
    seat to act at its parent); ``avail`` counts the parent's visits in which the action was
    legal (the UCB1 ``N`` of SO-ISMCTS). ``prior``: with a network prior, the node's cached
    ``(legal, actor, logits, probability by action, actions most probable first)`` (one forward
    pass per node)."""

    __slots__ = ("avail", "children", "passes", "prior", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.passes = 0  # descents that chose an action here (progressive widening counts them)
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.prior: tuple[tuple[int, ...], int, np.ndarray, dict[int, float], list[int]] | None = None


def _check_positive(name: str, value: Any, kind: type, allow_none: bool = False) -> Any:
    if value is None and allow_none:
        return None
    if kind is int and (isinstance(value, bool) or not isinstance(value, (int, np.integer))):
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    if kind is float and (isinstance(value, bool) or not isinstance(value, (int, float, np.number))):
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    value = kind(value)
    if not value > 0 or (kind is float and not math.isfinite(value)):
        raise ValueError(f"{name} must be positive, got {value!r}")
    return value


class _SearchBase:
    """Shared by the search agents: seeded RNG, option checks, rollouts and decision bookkeeping."""

    name = "search"
    # option name -> int, float, or a tuple of allowed strings (parsed by ``agents.parse_options``)
    OPTIONS: dict[str, Any] = {}

    def __init__(
        self,
        game: Game | None = None,
        seed: int | None = None,
        *,
        rollout: str = "random",
        rollout_depth: int | None = None,
        mode: str = "win_loss",
    ):
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        check_reward_mode(mode, "mode")
        self.game = game
        self.rollout = rollout
        self.rollout_depth = _check_positive("rollout_depth", rollout_depth, int, allow_none=True)
        self.mode = mode
        self.rng = random.Random(seed)
        self._bots: dict[tuple[int, int], Any] = {}
        self.iterations = 0  # search iterations (or playouts) of the last decision, for benchmarks
        # Asked between iterations: True ends the search early and plays the best move so far. A
        # server sets it to stop a bot whose table ended or whose time budget ran out.
        self.stop: Callable[[], bool] | None = None

    def _stopped(self) -> bool:
        return self.stop is not None and self.stop()

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
        self._bots = {}  # rule bots of the rollouts are rebuilt from the new seed

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise TypeError(
            f"{type(self).__name__} searches sampled worlds: ask it through agents.base.decide "
            "(it implements act_in(view)), not act(observation, mask)"
        )

    # ----- playouts ---------------------------------------------------------------------------
    def _rule_bot(self, game: Game, seat: int) -> Any:
        key = (id(game), seat)
        bot = self._bots.get(key)
        if bot is None:
            from . import make_agent

            bot = self._bots[key] = make_agent("rule", game, seed=self.rng.getrandbits(63))
        return bot

    def _playout(self, world: State[Any]) -> list[float]:
        """Play ``world`` out (in place) and return every seat's return under ``mode``. A playout
        stopped by ``rollout_depth`` (default: the game's ``playout_depth``, None for most games)
        is scored by ``world.returns(mode)`` as the scores stand."""
        cap = self.rollout_depth if self.rollout_depth is not None else world.game.playout_depth
        self._advance(world, cap if cap is not None else -1)
        return world.returns(self.mode)

    def _advance(self, world: State[Any], steps: int) -> None:
        """Play up to ``steps`` decisions of ``world`` (in place; -1: to the end) with the
        rollout policy."""
        if self.rollout == "random":
            rand = self.rng.random
            while steps and not world.is_terminal():
                legal = world.legal_actions()
                world.apply_action(legal[int(rand() * len(legal))])
                steps -= 1
        else:
            game = world.game
            while steps and not world.is_terminal():
                p = world.current_player()
                bot = self._rule_bot(game, p)
                world.apply_action(int(bot.act(world.observation(p), world.legal_action_mask())))
                steps -= 1

    def _world_rng(self) -> random.Random:
        return random.Random(self.rng.getrandbits(64))


def _num_actions(view: SeatView, legal: tuple[int, ...]) -> int:
    """The game's number of actions (a view without a game, a test's stand-in: up to ``legal``'s)."""
    game = view.game
    return int(game.num_actions) if game is not None else max(legal) + 1


def _root_visits(root: _Node, legal: tuple[int, ...], num_actions: int) -> np.ndarray:
    """The visit count of each of the seat's ``legal`` actions at ``root``, over every action (a
    child made in a sampled world where another action was legal is left out)."""
    visits = np.zeros(num_actions, np.int64)
    for a in legal:
        child = root.children.get(a)
        if child is not None:
            visits[a] = child.visits
    return visits


class ISMCTSAgent(_SearchBase):
    """Single-observer information-set MCTS (SO-ISMCTS); see the module docstring.

    ``sims`` iterations per decision (or ``seconds`` of wall time, if given), UCB1 constant ``c``
    (returns lie in [-1, 1] under ``win_loss`` and ``rank``), ``rollout`` ``random`` or ``rule``,
    ``max_depth`` caps the tree depth (below it the iteration goes straight to the playout),
    ``rollout_depth`` caps the playout, ``mode`` is the reward mode backed up. ``opponents``
    ``search`` (SO-ISMCTS: every seat's move in the tree by UCB1 on its own returns) or ``rule``
    (an opponent model: the other seats play their rule bot on their own observation of the
    world, so the tree branches on the searcher's moves only and searches a best response to
    the rule bots). ``prior`` ``none`` or ``rule``: see ``_widen``; with ``rule`` the move played is the rule
    bot's unless another beats it by ``margin`` standard errors (``_keep_or_improve``). ``prior``
    a network (``zoo``, ``zoo:ENV_ID[@N]``, ``ppo:PATH``): PUCT (``_puct_choice``). ``value`` a
    network: leaves scored by its value (after ``value_playout`` rollout decisions) instead of a
    playout (``_leaf``). ``leaf_batch`` K > 1 (with both networks): K descents under a virtual
    loss, their leaves scored in one forward pass (``_search_batched``)."""

    name = "ismcts"
    # The root's visit count of every action after the last ``act_in`` (size ``game.num_actions``,
    # zero on the actions not legal there; its sum is ``iterations``, or 1 on a forced move, played
    # without a search): the search's policy, which expert iteration (training.selfplay.expert)
    # teaches a network. A function of the agent's seed, as its moves are.
    last_visits: np.ndarray | None = None
    OPTIONS = {
        "sims": int,
        "c": float,
        "rollout": ROLLOUTS,
        "max_depth": int,
        "rollout_depth": int,
        "mode": REWARD_MODES,
        "seconds": float,
        "opponents": OPPONENT_MODELS,
        "prior": option_parser(*PRIORS),
        "margin": float,
        "value": option_parser("none"),
        "value_playout": int,
        "leaf_batch": int,
    }

    def __init__(
        self,
        game: Game | None = None,
        seed: int | None = None,
        *,
        sims: int = 200,
        c: float = 0.7,
        rollout: str = "random",
        max_depth: int | None = None,
        rollout_depth: int | None = None,
        mode: str = "win_loss",
        seconds: float | None = None,
        opponents: str = "search",
        prior: str = "none",
        margin: float = 2.0,
        value: str = "none",
        value_playout: int = 0,
        leaf_batch: int = 1,
    ):
        super().__init__(game, seed, rollout=rollout, rollout_depth=rollout_depth, mode=mode)
        if opponents not in OPPONENT_MODELS:
            raise ValueError(f"opponents must be one of {', '.join(OPPONENT_MODELS)}, got {opponents!r}")
        self.opponents = opponents
        self.prior, self.value = prior, value
        self.value_playout = value_playout
        self.network = self._networks(game)
        self.leaf_batch = self._check_leaf_batch(leaf_batch)
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not math.isfinite(margin) or margin < 0:
            raise ValueError(f"margin must be a non-negative number, got {margin!r}")
        self.margin = float(margin)
        self.sims = _check_positive("sims", sims, int)
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not math.isfinite(c) or c < 0:
            raise ValueError(f"c must be a non-negative number, got {c!r}")
        self.c = float(c)
        self.max_depth = _check_positive("max_depth", max_depth, int, allow_none=True)
        self.seconds = _check_positive("seconds", seconds, float, allow_none=True)

    def _networks(self, game: Game | None) -> SearchNetwork | None:
        """Check ``prior``, ``value`` and ``value_playout``; load the networks they name."""
        if self.prior not in PRIORS and not is_network_spec(self.prior):
            raise ValueError(f"prior must be one of {', '.join(PRIORS)} or a network, got {self.prior!r}")
        if self.value != "none" and not is_network_spec(self.value):
            raise ValueError(f"value must be none or a network (zoo, ppo:PATH), got {self.value!r}")
        vp = self.value_playout
        if isinstance(vp, bool) or not isinstance(vp, (int, np.integer)) or vp < 0:
            raise ValueError(f"value_playout must be 0 or more, got {vp!r}")
        if vp and self.value == "none":
            raise ValueError(
                "value_playout needs value=zoo or value=ppo:PATH (without a value, rollout_depth caps the playout)"
            )
        prior = self.prior if is_network_spec(self.prior) else None
        value = self.value if self.value != "none" else None
        if prior is None and value is None:
            return None
        if game is None:
            raise ValueError("a search with a network (prior= or value=) needs the game")
        return SearchNetwork(game, prior, value)

    def _check_leaf_batch(self, leaf_batch: Any) -> int:
        """``leaf_batch``: a positive int; above 1 only where there is a batch to gain, a network
        value (the leaves' forward pass) and a network prior (PUCT, whose virtual loss spreads
        the batch's descents: UCB1's untried-first expansion has no such rule)."""
        if isinstance(leaf_batch, bool) or not isinstance(leaf_batch, (int, np.integer)) or leaf_batch < 1:
            raise ValueError(f"leaf_batch must be a positive integer, got {leaf_batch!r}")
        if leaf_batch > 1 and not (is_network_spec(self.prior) and self.value != "none"):
            raise ValueError(
                f"leaf_batch={leaf_batch} needs a network prior (prior=zoo or prior=ppo:PATH: PUCT) and a "
                "network value (value=zoo or value=ppo:PATH), whose forward passes it batches"
            )
        return int(leaf_batch)

    def act_in(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            self.iterations = 0
            self.last_visits = np.zeros(_num_actions(view, legal), np.int64)
            self.last_visits[legal[0]] = 1  # a forced move: certain, without a search
            return legal[0]
        root = _Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        if self.leaf_batch > 1:
            n = self._search_batched(view, root, deadline)
        else:
            n = self._search(view, root, deadline)
        self.iterations = n
        self.last_visits = _root_visits(root, legal, _num_actions(view, legal))
        if self.prior == "rule" and root.children:
            return self._keep_or_improve(root)
        best, key = legal[0], (-1, -math.inf)
        for a in legal:  # most visited; ties to the better mean, then the lower action id
            child = root.children.get(a)
            k = (0, -math.inf) if child is None else (child.visits, child.total / max(child.visits, 1))
            if k > key:
                best, key = a, k
        return best

    def _search(self, view: SeatView, root: _Node, deadline: float | None) -> int:
        """The search one simulation at a time (``leaf_batch=1``, the default): ``sims``
        iterations, or until the deadline. Returns the iterations run."""
        puct = self.network is not None and self.network.prior is not None
        n = 0
        while True:
            if puct:
                self._iterate_puct(view, root)
            else:
                self._iterate(view, root)
            n += 1
            if deadline is None and n >= self.sims:
                break
            if (deadline is not None and time.perf_counter() >= deadline) or self._stopped():
                break
        return n

    def _keep_or_improve(self, root: _Node) -> int:
        """With ``prior=rule``: the rule bot's move (the root's first child) unless another move's
        mean return beats it by ``margin`` standard errors (returns in [-1, 1]: a variance of at
        most 1 per playout), so that a handful of noisy playouts cannot talk the search out of a
        good default (safe policy improvement over the rule bot)."""
        children = iter(root.children.items())
        best, base = next(children)
        best_gain = 0.0
        base_mean = base.total / max(base.visits, 1)
        for a, child in children:
            if child.visits < 2 or base.visits < 2:
                continue
            gain = child.total / child.visits - base_mean
            if gain > self.margin * math.sqrt(1 / child.visits + 1 / base.visits) and gain > best_gain:
                best, best_gain = a, gain
        return best

    def _iterate(self, view: SeatView, root: _Node) -> None:
        world = view.sample_world(self._world_rng())
        node = root
        path: list[tuple[_Node, int]] = []
        max_depth = self.max_depth
        c = self.c
        depth = 0
        modelled = self.opponents == "rule"
        me = view.player
        while not world.is_terminal():
            actor = world.current_player()
            if modelled and actor != me:
                node = self._modelled_move(world, actor, node)
                continue
            legal = world.legal_actions()
            children = node.children
            tried = [a for a in legal if a in children]
            if self._widen(node, tried, legal):
                if max_depth is not None and depth >= max_depth:
                    break
                for a in tried:
                    children[a].avail += 1
                action = self._new_action(world, actor, legal, children)
                child = children[action] = _Node()
                child.avail = 1
                world.apply_action(action)
                path.append((child, actor))
                break
            node.passes += 1
            best_action, best_value = tried[0], -math.inf
            for a in tried:
                child = children[a]
                child.avail += 1
                if not child.visits:  # made by an opponent model's move in a world where another seat acted here
                    value = math.inf
                else:
                    value = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if value > best_value:
                    best_action, best_value = a, value
            node = children[best_action]
            world.apply_action(best_action)
            path.append((node, actor))
            depth += 1
        returns = self._leaf(world, path)
        for child, actor in path:
            child.visits += 1
            child.total += returns[actor]

    def _modelled_move(self, world: State[Any], actor: int, node: _Node) -> _Node:
        """The opponent model (the rule bot) moves for ``actor`` in ``world``; its edge carries no
        statistics (nobody chooses it by UCB or PUCT). Returns the child it leads to."""
        action = int(self._rule_bot(world.game, actor).act(world.observation(actor), world.legal_action_mask()))
        world.apply_action(action)
        return node.children.setdefault(action, _Node())

    def _leaf(self, world: State[Any], path: list[tuple[_Node, int]]) -> Mapping[int, float] | list[float]:
        """Every seat's return from the leaf ``world`` (each edge of ``path`` takes its chooser's):
        a playout, or with ``value`` the network's value of the world from each seat on the path
        (one batch) after ``value_playout`` rollout decisions; a terminal world is scored
        exactly."""
        network = self.network
        if network is None or network.critic is None:
            return self._playout(world)
        if self.value_playout:
            self._advance(world, self.value_playout)
        if world.is_terminal():
            return world.returns(self.mode)
        seats = sorted({actor for _, actor in path})
        return network.values(world, seats) if seats else {}

    def _iterate_puct(self, view: SeatView, root: _Node) -> None:
        """One iteration with a network prior: descend by PUCT (``_descend_puct``), score the
        leaf (``_leaf``), back the returns up."""
        world, path = self._descend_puct(view, root)
        returns = self._leaf(world, path)
        for child, actor in path:
            child.visits += 1
            child.total += returns[actor]

    def _descend_puct(self, view: SeatView, root: _Node) -> tuple[State[Any], list[tuple[_Node, int]]]:
        """Sample a world and descend it by PUCT (``_puct_choice``) until an action with no node
        yet, which it makes: the leaf world and the path (each edge with its chooser). Opponent
        models move as in ``_iterate``; ``max_depth`` stops the descent there."""
        world = view.sample_world(self._world_rng())
        node = root
        path: list[tuple[_Node, int]] = []
        modelled, me, depth = self.opponents == "rule", view.player, 0
        while not world.is_terminal():
            actor = world.current_player()
            if modelled and actor != me:
                node = self._modelled_move(world, actor, node)
                continue
            if self.max_depth is not None and depth >= self.max_depth:
                break
            action = self._puct_choice(node, world, actor)
            child = node.children.get(action)
            world.apply_action(action)
            if child is None:  # a new node: the leaf of this iteration
                child = node.children[action] = _Node()
                path.append((child, actor))
                break
            path.append((child, actor))
            node, depth = child, depth + 1
        return world, path

    # ----- leaf_batch > 1: several descents, one forward pass ---------------------------------
    def _search_batched(self, view: SeatView, root: _Node, deadline: float | None) -> int:
        """The search with ``leaf_batch`` K > 1: batches of K descents (``_batch``) until
        ``sims`` simulations (the last batch cut to what is left, so exactly ``sims``) or, with
        ``seconds``, until the deadline, checked between batches. Returns the simulations run."""
        n = 0
        while True:
            size = self.leaf_batch if deadline is not None else min(self.leaf_batch, self.sims - n)
            self._batch(view, root, size)
            n += size
            if deadline is None and n >= self.sims:
                break
            if (deadline is not None and time.perf_counter() >= deadline) or self._stopped():
                break
        return n

    def _batch(self, view: SeatView, root: _Node, size: int) -> None:
        """``size`` PUCT descents, each on its own sampled world (drawn in order from the
        agent's RNG: a function of the seed), under a virtual loss; their leaves scored together
        (``_score_leaves``: one forward pass); then the backup, which takes the virtual loss
        back: each edge's ``total`` gets ``1 + return`` (its visit was counted on the way down).

        Why a virtual loss: the descents of a batch run before any of their leaves is scored, so
        without it all K would follow the same PUCT choices to the same leaf. Counting each edge
        as visited and lost (-1, the worst return in the [-1, 1] of ``win_loss`` and ``rank``,
        and about the critic's range) for its chooser lowers its ``Q`` and raises its ``n``, so
        the next descent of the batch prefers another edge wherever the choice was close."""
        leaves = []
        for _ in range(size):
            world, path = self._descend_puct(view, root)
            for child, _ in path:  # no node repeats on one path: adding it after the descent is the same
                child.visits += 1
                child.total -= 1.0
            leaves.append((world, path))
        self._prime_priors(leaves, view.player)
        if self.value_playout:
            for world, _ in leaves:
                self._advance(world, self.value_playout)
        for (_, path), returns in zip(leaves, self._score_leaves(leaves)):
            for child, actor in path:
                child.total += 1.0 + returns[actor]

    def _prime_priors(self, leaves: list[tuple[State[Any], list[tuple[_Node, int]]]], me: int) -> None:
        """The prior of each new leaf node of a batch, all in ONE forward pass: made from the
        world the node was made in (its chooser's observation of it), where a one-at-a-time
        search waits for the node's next visit and makes it from that visit's world, one pass a
        node. Both are worlds of the same information set, so either is the searcher's belief;
        ``_puct_choice`` computes the probabilities over a world's legal actions at the node's
        first choice, and again where a later world has other legal actions. Nodes
        where a modelled opponent moves next (``opponents=rule``) choose by their rule bot and
        take no prior; terminal leaves none either."""
        assert self.network is not None
        modelled = self.opponents == "rule"
        asked: list[tuple[_Node, State[Any], int]] = []
        for world, path in leaves:
            node = path[-1][0] if path else None
            if node is None or node.prior is not None or node.children or world.is_terminal():
                continue
            actor = world.current_player()
            if not (modelled and actor != me):
                asked.append((node, world, actor))
        for (node, _, actor), logits in zip(asked, self.network.prior_logits_many([(w, a) for _, w, a in asked])):
            # No legal actions yet: the node's first choice computes its probabilities from these
            # logits (most leaves of a search are never chosen from, so they never pay for it).
            node.prior = ((), actor, logits, {}, [])

    def _score_leaves(
        self, leaves: list[tuple[State[Any], list[tuple[_Node, int]]]]
    ) -> list[Mapping[int, float] | list[float]]:
        """Every seat's return from each leaf, as ``_leaf`` gives one (without its
        ``value_playout``, already played): terminal worlds exactly by ``returns(mode)``, all
        the others by the critic in ONE forward pass (``SearchNetwork.values_many``)."""
        assert self.network is not None
        scores: list[Mapping[int, float] | list[float]] = [{} for _ in leaves]
        asked, items = [], []
        for i, (world, path) in enumerate(leaves):
            if world.is_terminal():
                scores[i] = world.returns(self.mode)
            elif path:
                asked.append(i)
                items.append((world, sorted({actor for _, actor in path})))
        for i, values in zip(asked, self.network.values_many(items)):
            scores[i] = values
        return scores

    def _puct_choice(self, node: _Node, world: State[Any], actor: int) -> int:
        """PUCT: the legal action maximising ``Q + c * P * sqrt(N) / (1 + n)``, ``P`` the network's
        masked probability for ``actor``'s observation of the world (computed at the node's first
        visit and cached; renormalised where another world has other legal actions), ``N`` the
        node's descents, ``n`` and ``Q`` the child's visits and mean return for ``actor``. An
        unvisited action's ``Q`` is the mean over the visited ones (0 before any), so the prior
        alone orders them; ties go to the more probable action."""
        legal = world.legal_actions()
        cached = node.prior
        if cached is None or cached[0] != legal or cached[1] != actor:
            assert self.network is not None
            logits = cached[2] if cached is not None and cached[1] == actor else self.network.prior_logits(world, actor)
            by_action, ranked = masked_probabilities(logits, legal)
            node.prior = cached = (legal, actor, logits, by_action, ranked)
        by_action, ranked = cached[3], cached[4]
        c = self.c
        sqrt_n = math.sqrt(node.passes)
        node.passes += 1
        best, best_key = ranked[0], (-math.inf, -math.inf)
        total, visits = 0.0, 0
        # The visited children only (a few), not every legal action (hundreds in Smuggle).
        for a, child in node.children.items():
            p = by_action.get(a)
            if p is None or not child.visits:  # not legal in this world, or never visited
                continue
            total += child.total
            visits += child.visits
            key = (child.total / child.visits + c * p * sqrt_n / (1 + child.visits), p)
            if key > best_key:
                best, best_key = a, key
        fpu = total / visits if visits else 0.0
        for a in ranked:  # the most probable unvisited action stands for all of them
            unvisited = node.children.get(a)
            if unvisited is None or not unvisited.visits:
                p = by_action[a]
                if (fpu + c * p * sqrt_n, p) > best_key:
                    best = a
                break
        return best

    def _widen(self, node: _Node, tried: list[int], legal: tuple[int, ...]) -> bool:
        """Whether to try a new action here. Plain SO-ISMCTS tries every legal action once before
        choosing by UCB1; with ``prior=rule`` the node grows as ``1 + sqrt(passes)`` children
        (progressive widening), so a decision of hundreds of actions (a Smuggle declaration)
        spends its simulations on a few candidates, the rule bot's first, not one each."""
        if len(tried) == len(legal):
            return False
        if self.prior == "none" or not tried:
            return True
        return len(tried) < 1 + math.isqrt(node.passes)

    def _new_action(self, world: State[Any], actor: int, legal: tuple[int, ...], children: dict[int, _Node]) -> int:
        """The action a node tries next: with ``prior=rule`` the rule bot's choice (on the actor's
        own observation of the world) if not tried yet, otherwise one at random."""
        if self.prior == "rule":
            suggested = int(self._rule_bot(world.game, actor).act(world.observation(actor), world.legal_action_mask()))
            if suggested not in children:
                return suggested
        untried = [a for a in legal if a not in children]
        return untried[self.rng.randrange(len(untried))]


class PIMCAgent(_SearchBase):
    """Perfect-information Monte Carlo (determinized flat Monte Carlo): ``worlds`` worlds, in each
    ``sims`` playouts per legal action from a copy of the world (the action's candidates share the
    world's future chance draws), the best mean return of the seat over every world wins."""

    name = "pimc"
    OPTIONS = {
        "worlds": int,
        "sims": int,
        "rollout": ROLLOUTS,
        "rollout_depth": int,
        "mode": REWARD_MODES,
    }

    def __init__(
        self,
        game: Game | None = None,
        seed: int | None = None,
        *,
        worlds: int = 20,
        sims: int = 4,
        rollout: str = "random",
        rollout_depth: int | None = None,
        mode: str = "win_loss",
    ):
        super().__init__(game, seed, rollout=rollout, rollout_depth=rollout_depth, mode=mode)
        self.worlds = _check_positive("worlds", worlds, int)
        self.sims = _check_positive("sims", sims, int)

    def act_in(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            self.iterations = 0
            return legal[0]
        me = view.player
        totals = dict.fromkeys(legal, 0.0)
        counts = dict.fromkeys(legal, 0)
        for _ in range(self.worlds):
            if self._stopped():
                break
            world = view.sample_world(self._world_rng())
            available = set(world.legal_actions())
            for a in legal:
                if a not in available:  # a resample that disagrees with the seat's view
                    continue
                if self._stopped():
                    break
                for _ in range(self.sims):
                    w = world.clone()
                    w.apply_action(a)
                    totals[a] += self._playout(w)[me]
                    counts[a] += 1
        self.iterations = sum(counts.values())
        return max(legal, key=lambda a: (totals[a] / counts[a] if counts[a] else -math.inf, -a))


__all__ = ["ISMCTSAgent", "PIMCAgent"]
