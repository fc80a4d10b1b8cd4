"""A single-agent gymnasium view of any smuggle_envs game, for MaskablePPO.

The learner plays one seat, drawn at random each episode; the other seats are played by
opponents (any ``agents`` Agent) drawn from a pool with given probabilities (the league's PFSP
weights). One ``step`` applies the learner's action, then lets the opponents act until it is the
learner's turn again or the game is over.

It runs on the engine (``Game``/``State``), not on the AEC env: the AEC wrapper's bookkeeping
(per-agent dicts, cumulative rewards, dead steps) costs more than the game itself, and the engine
contract already gives everything needed. What it guarantees:

* **Rewards go to the seat that earned them.** The reward of a step is 0 until the game ends, then
  ``state.returns(reward_mode)[learner_seat]``: the learner's own result, paid on the learner's
  step that led to the end even when an opponent made the final move. (PettingZoo-to-SB3
  wrappers often hand the reward of whoever moved last to the learner; tests check this.)
* **Masks** come from ``action_masks()`` (the method MaskablePPO looks for), as booleans.
* **Hidden information**: an opponent acts on ``state.observation(its seat)`` and the legal mask
  only, exactly what an AEC agent sees, so it never sees the learner's hidden cards.
* **Seeds**: ``reset(seed=...)`` seeds ``np_random``; every deal, seat, opponent choice and
  opponent seed is drawn from it, so a vector env seeded by SB3 replays identically.
* ``dense_score`` (a weight w, default 0) adds w times the change in the learner's normalised
  score (``state.normalised_scores()``: money minus the table mean, over the game's scale) since its
  previous decision to every step. Summed over a game the rewards are exactly
  ``returns(reward_mode)[seat] + w * (final - initial normalised score)``, but money won or
  lost now is felt now, which makes credit assignment far easier in long games.
* **Termination** is the core's (the game is stepped by a :class:`~smuggle_envs.core.driver.Driver`):
  a game over by its rules is ``terminated``; one stopped by ``max_decisions`` (all seats
  together) or by the game's own cap (a turn limit) is ``truncated``, has no winner and pays no
  terminal reward.
* ``get_snapshot()``/``set_snapshot()`` save and restore the episode in progress (as the
  game's replay plus the opponents' seeds, replayed on restore), which is what makes a resumed
  training run continue exactly where the checkpoint was taken, even in subprocess workers.

A game that ends before the learner's first decision is dealt again (nothing to learn from it).
At the end of an episode ``info["selfplay"]`` reports the seat, the opponent ids per seat and the
final scores, which the league's callback uses to update its results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from agents.base import decide
from smuggle_envs.core.driver import Driver
from smuggle_envs.core.errors import ConfigError, GameOverError
from smuggle_envs.core.game import Game, State
from smuggle_envs.core.outcomes import check_reward_mode
from smuggle_envs.core.spec import GameSpec

AgentFactory = Callable[[str, Game, "int | None"], Any]
DEFAULT_POOL = (("random", "random"),)
_SEED_BOUND = 2**63
_MAX_REDEALS = 100  # deals in a row that may end before the learner acts


def default_agent_factory(spec: str, game: Game, seed: int | None = None):
    from agents import make_agent

    return make_agent(spec, game, seed=seed)


class SelfPlayEnv(gym.Env):
    """The learner's seat of ``game`` against opponents from a weighted pool.

    ``game`` is a Game, a ``GameSpec``, or an env id with its options ``game_config`` (a spec
    or an id keeps the constructor picklable for subprocess workers). ``pool`` is a sequence of ``(id, agent_spec)``; ``weights`` their
    sampling weights (default uniform); both can be changed between episodes with
    ``set_pool``. ``agent_factory(spec, game, seed)`` builds an opponent (default:
    ``agents.make_agent``); one instance is kept per (spec, seat) and reset every episode.
    ``learner_seat`` fixes the seat (default: uniformly random each episode).
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        game: Game | GameSpec | str,
        game_config: dict | None = None,
        *,
        pool: Sequence[tuple[str, str]] = DEFAULT_POOL,
        weights: Sequence[float] | None = None,
        reward_mode: str = "win_loss",
        dense_score: float = 0.0,
        max_decisions: int | None = None,
        agent_factory: AgentFactory | None = None,
        learner_seat: int | None = None,
        privileged: bool = False,
        mixed_tables: float = 0.0,
    ):
        if isinstance(game, str):
            game = GameSpec(game, game_config or {})
        if isinstance(game, GameSpec):
            game = game.make_game()
        check_reward_mode(reward_mode)
        if max_decisions is not None and max_decisions < 1:
            raise ConfigError(f"max_decisions must be a positive int or None, got {max_decisions!r}")
        n = game.num_players
        if learner_seat is not None and not 0 <= learner_seat < n:
            raise ConfigError(f"learner_seat must be a seat in [0, {n}), got {learner_seat!r}")
        self.game = game
        self.num_players = n
        self.reward_mode = reward_mode
        self.dense_score = float(dense_score)
        self._potential = 0.0
        self.max_decisions = max_decisions
        self.learner_seat = learner_seat
        if not 0.0 <= mixed_tables <= 1.0:
            raise ConfigError(f"mixed_tables must be in [0, 1], got {mixed_tables!r}")
        # The share of games played at a mixed table: the pool's rule bot and random agent in
        # turn round the table, instead of an independent draw per seat (which almost never
        # seats both once the league weights the random agent down).
        self.mixed_tables = float(mixed_tables)
        self.agent_factory = agent_factory or default_agent_factory
        layout = game.observation_layout
        # A privileged critic's learner is given every seat's observation, its own first (see
        # agents.privileged_critic: only its critic reads past the first block).
        self.privileged = privileged
        low, high = (np.tile(layout.low, n), np.tile(layout.high, n)) if privileged else (layout.low, layout.high)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(game.num_actions)
        self._agents: dict[tuple[str, int], Any] = {}
        self.driver = Driver(game, max_decisions)
        self.seat = -1
        self.opponent_ids: list[str | None] = []
        self.specs: list[str | None] = []
        self.opponents: list[Any] = []
        self.agent_seeds: list[int] = []
        self.set_pool(pool, weights)

    @property
    def state(self) -> State[Any] | None:
        """The game in progress (None before the first ``reset``)."""
        return self.driver.state if self.driver.has_game else None

    @property
    def decisions(self) -> int:
        """Decisions taken this episode, all seats together."""
        return self.driver.decisions

    # ----- the pool ------------------------------------------------------------------------------
    def set_pool(self, pool: Sequence[tuple[str, str]], weights: Sequence[float] | None = None) -> None:
        """Opponents for the next episodes: ``(id, agent_spec)`` pairs and sampling weights."""
        pool = [(str(i), str(s)) for i, s in pool]
        if not pool:
            raise ConfigError("the opponent pool is empty")
        w = np.ones(len(pool)) if weights is None else np.asarray(weights, dtype=np.float64)
        if w.shape != (len(pool),) or not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
            raise ConfigError(f"pool weights must be {len(pool)} non-negative numbers, not all 0")
        self.pool = pool
        self.probs = w / w.sum()

    def _opponent(self, spec: str, seat: int):
        key = (spec, seat)
        agent = self._agents.get(key)
        if agent is None:
            # Built lazily and cached: in a subprocess worker a snapshot is loaded at its first use.
            agent = self._agents[key] = self.agent_factory(spec, self.game, None)
        return agent

    def _mixed_table(self, seat: int, picks: np.ndarray) -> np.ndarray:
        """The rule bot and the random agent in turn in the other seats (from the seat after the
        learner's), as the trainer's mixed evaluation table; ``picks`` unchanged if the pool lacks
        either."""
        ids = [i for i, _ in self.pool]
        if "rule" not in ids or "random" not in ids:
            return picks
        kinds = (ids.index("rule"), ids.index("random"))
        table = picks.copy()
        for k in range(1, self.num_players):
            table[(seat + k) % self.num_players] = kinds[(k - 1) % 2]
        return table

    # ----- gymnasium API -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        for _ in range(_MAX_REDEALS):
            self.deal()
            self._play_opponents()
            if not self.driver.done:
                return self._observation(), {}
        raise self._never_acts()

    def step(self, action):
        self.act(action)
        self._play_opponents()
        return self.outcome()

    # ----- the parts of reset and step (a vector env plays the opponents of its games together) ----
    def deal(self) -> None:
        """A new game: the learner's seat, the deal and the opponents, drawn from ``np_random``
        (the opponents then play up to the learner's first decision)."""
        rng = self.np_random
        n = self.num_players
        seat = int(rng.integers(n)) if self.learner_seat is None else self.learner_seat
        game_seed = int(rng.integers(_SEED_BOUND))
        picks = rng.choice(len(self.pool), size=n, p=self.probs)
        if self.mixed_tables and rng.random() < self.mixed_tables:
            picks = self._mixed_table(seat, picks)
        agent_seeds = [int(s) for s in rng.integers(_SEED_BOUND, size=n)]
        ids = [None if p == seat else self.pool[picks[p]][0] for p in range(n)]
        specs = [None if p == seat else self.pool[picks[p]][1] for p in range(n)]
        self._start(game_seed, seat, ids, specs, agent_seeds)

    def act(self, action) -> None:
        """The learner's move (the opponents then play up to its next decision)."""
        driver = self.driver
        if not driver.has_game or driver.done:
            raise GameOverError("the episode is over; call reset()")
        driver.step(int(action))  # raises (and changes nothing) if illegal

    def opponent_to_move(self) -> int | None:
        """The seat of the opponent to move, or None (the learner's turn, or the game is over)."""
        if self.driver.done:
            return None
        player = self.driver.state.current_player()
        return None if player == self.seat else player

    def outcome(self) -> tuple[np.ndarray, float, bool, bool, dict]:
        """``step``'s return once the opponents have played."""
        driver = self.driver
        reward = self._shaping() if self.dense_score else 0.0
        if driver.terminated:
            reward += float(driver.returns(self.reward_mode)[self.seat])
            return self._observation(), reward, True, False, {"selfplay": self._result()}
        if driver.truncated:  # a cap: no winner, no terminal reward, nothing for the league
            return self._observation(), reward, False, True, {}
        return self._observation(), reward, False, False, {}

    def _never_acts(self) -> RuntimeError:
        return RuntimeError(
            f"the learner's seat never gets a decision: {_MAX_REDEALS} deals of "
            f"{self.game.env_id} in a row ended before seat {self.seat} was to act"
        )

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (all False once the game is over)."""
        if not self.driver.has_game or self.driver.done:
            return np.zeros(self.game.num_actions, dtype=bool)
        return self.driver.state.legal_action_mask().astype(bool)

    # ----- internals -----------------------------------------------------------------------------
    def _start(self, game_seed: int, seat: int, ids: list, specs: list, agent_seeds: list[int]) -> None:
        state = self.driver.reset(game_seed)
        self.seat = seat
        self.opponent_ids, self.agent_seeds = ids, agent_seeds
        self.specs = specs
        self.opponents = [None if s is None else self._opponent(s, p) for p, s in enumerate(specs)]
        for p, agent in enumerate(self.opponents):
            if agent is not None:
                agent.reset(agent_seeds[p])
        self._potential = state.normalised_scores()[seat] if self.dense_score else 0.0

    def _shaping(self) -> float:
        """``dense_score`` times the change of the learner's normalised score since last time."""
        potential = self.driver.state.normalised_scores()[self.seat]
        change, self._potential = potential - self._potential, potential
        return self.dense_score * change

    def _opponent_action(self, state: State[Any], player: int) -> int:
        # The opponent sees its own observation and mask: what an AEC agent would see.
        return decide(self.opponents[player], state, player)

    def _play_opponents(self) -> None:
        self.driver.play(self._opponent_action, until=self.seat)

    def _observation(self) -> np.ndarray:
        if self.privileged:
            return self.driver.state.global_observation(self.seat)
        return self.driver.state.observation(self.seat)

    def _result(self) -> dict:
        return {
            "seat": self.seat,
            "opponents": list(self.opponent_ids),
            "scores": [float(s) for s in self.driver.state.scores()],
        }

    # ----- exact save / restore (for resuming training) ------------------------------------------
    def get_snapshot(self) -> dict:
        """Everything needed to continue this env exactly: RNG, pool, and the game in progress."""
        episode = None
        if self.state is not None:
            replay = self.state.to_replay()
            episode = {
                "game_seed": replay.seed,
                "actions": list(replay.actions),
                "seat": self.seat,
                "ids": list(self.opponent_ids),
                "specs": list(self.specs),
                "agent_seeds": list(self.agent_seeds),
                "decisions": self.decisions,
                "potential": self._potential,
            }
        return {
            "rng": self.np_random.bit_generator.state,
            "pool": list(self.pool),
            "probs": self.probs.tolist(),
            "episode": episode,
        }

    def set_snapshot(self, snap: dict) -> None:
        """Restore ``get_snapshot()``'s result: replays the game and checks that every opponent
        decision comes out the same (opponents are rebuilt from their specs and seeds)."""
        self.np_random.bit_generator.state = snap["rng"]
        self.set_pool(snap["pool"], snap["probs"])
        self.probs = np.asarray(snap["probs"], dtype=np.float64)  # bit for bit, not renormalised
        ep = snap["episode"]
        if ep is None:
            self.driver = Driver(self.game, self.max_decisions)
            return
        self._start(ep["game_seed"], ep["seat"], ep["ids"], ep["specs"], ep["agent_seeds"])
        state = self.driver.state
        for action in ep["actions"]:
            player = state.current_player()
            if player != self.seat:
                chosen = self._opponent_action(state, player)
                # A network opponent may have decided in a batch (play_opponents_together), whose
                # last bits can tip a sample otherwise: its draw is spent alike, its move is the record's.
                batched = getattr(self.opponents[player], "batch_key", None) is not None
                if chosen != action and not batched:
                    raise RuntimeError(
                        f"cannot restore the episode: opponent {self.specs[player]!r} at seat "
                        f"{player} now plays {chosen} where it played {action}"
                    )
            self.driver.step(action)
        if self.driver.decisions != ep["decisions"]:
            raise RuntimeError(
                f"cannot restore the episode: {self.driver.decisions} decisions, saved {ep['decisions']}"
            )
        self._potential = ep["potential"]


# ----- many games at once ------------------------------------------------------------------------
def play_opponents_together(envs: Sequence[SelfPlayEnv]) -> None:
    """Play the opponents of every game in ``envs`` up to its learner's next decision (or its
    end). The network opponents that share a network (``batch_key``) decide together, in one
    forward pass across the games (``act_together``): each game first plays its other opponents
    until a network or its learner is to move, then every waiting network decision is taken at
    once, and so on. Each game's decisions are its own agents' (seeded per game), so a game plays
    as it would alone, up to a network's rounding (``act_together``)."""
    from agents.ppo import act_together

    while True:
        groups: dict[Any, list[tuple[SelfPlayEnv, int]]] = {}
        for env in envs:
            while (seat := env.opponent_to_move()) is not None:
                key = getattr(env.opponents[seat], "batch_key", None)
                if key is not None:
                    groups.setdefault(key, []).append((env, seat))
                    break
                env.driver.step(env._opponent_action(env.driver.state, seat))
        if not groups:
            return
        for members in groups.values():
            states = [env.driver.state for env, _ in members]
            actions = act_together(
                [env.opponents[seat] for env, seat in members],
                [st.observation(seat) for st, (_, seat) in zip(states, members)],
                [st.legal_action_mask() for st in states],
            )
            for (env, _), action in zip(members, actions):
                env.driver.step(action)


def reset_together(envs: Sequence[SelfPlayEnv]) -> list[np.ndarray]:
    """``reset()`` (no seed) of every game in ``envs``, their opponents played together; the
    learner's first observations."""
    pending = list(envs)
    for _ in range(_MAX_REDEALS):
        for env in pending:
            env.deal()
        play_opponents_together(pending)
        pending = [env for env in pending if env.driver.done]
        if not pending:
            return [env._observation() for env in envs]
    raise pending[0]._never_acts()
