"""Self-play of an expert-iteration round: the teacher's decisions (``Positions``), one game's
task and record (``GameTask``, ``GameRecord``, ``play_game``), and the pools that play a
round's games in this process, in spawned processes or in Ray tasks."""

from __future__ import annotations

import dataclasses
import signal
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from smuggle_envs.core.spec import GameSpec

if TYPE_CHECKING:
    from smuggle_envs.core.game import Game


@dataclasses.dataclass
class Positions:
    """Decisions of the teacher: what the deciding seat saw, its legal actions, the search's visit
    distribution (sums to 1) and the seat's ``win_loss`` outcome of the game."""

    observations: np.ndarray  # (N, obs) float32
    masks: np.ndarray  # (N, actions) bool
    visits: np.ndarray  # (N, actions) float32
    outcomes: np.ndarray  # (N,) float32

    def __len__(self) -> int:
        return len(self.outcomes)

    @classmethod
    def concat(cls, parts: Sequence[Positions]) -> Positions:
        return cls(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in dataclasses.fields(cls)))

    def save(self, path: Path) -> None:
        with open(path, "wb") as f:
            np.savez_compressed(f, **dataclasses.asdict(self))

    @classmethod
    def load(cls, path: Path) -> Positions:
        with np.load(path, allow_pickle=False) as data:
            return cls(*(data[f.name] for f in dataclasses.fields(cls)))


@dataclasses.dataclass(frozen=True)
class GameTask:
    """One self-play game: everything it depends on (picklable, for the workers)."""

    spec: GameSpec
    teacher: dict[str, Any]  # the ISMCTSAgent options, networks resolved to files
    seed: tuple[int, int, int]  # (run seed, round, game)
    explore_moves: int
    temperature: float
    max_decisions: int | None


@dataclasses.dataclass
class GameRecord:
    """A played game's positions and its bookkeeping."""

    positions: Positions
    decisions: int
    searches: int  # decisions with more than one legal action
    iterations: int  # search iterations over them


_GAMES: dict[GameSpec, Game] = {}  # a worker builds each game once


def play_game(task: GameTask) -> GameRecord:
    """Play one game with the teacher in every seat and record its decisions (see the package
    docstring, ``training.selfplay.expert``); a function of ``task`` alone."""
    from agents.base import SeatView
    from agents.search import ISMCTSAgent
    from smuggle_envs.core.driver import Driver

    game = _GAMES.get(task.spec)
    if game is None:
        game = _GAMES[task.spec] = task.spec.make_game()
    rng = np.random.default_rng(list(task.seed))
    driver = Driver(game, task.max_decisions)
    driver.reset(int(rng.integers(2**63)))
    seats = [ISMCTSAgent(game, seed=int(rng.integers(2**63)), **task.teacher) for _ in range(game.num_players)]
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    visits: list[np.ndarray] = []
    deciders: list[int] = []
    counts = [0, 0]  # searches, iterations

    def teach(state: Any, p: int) -> int:
        obs.append(state.observation(p))
        masks.append(state.legal_action_mask().astype(bool))
        agent = seats[p]
        action = agent.act_in(SeatView(state, p))
        counts[0] += agent.iterations > 0
        counts[1] += agent.iterations
        assert agent.last_visits is not None  # set by every act_in
        seen = agent.last_visits.astype(np.float64)
        visits.append((seen / seen.sum()).astype(np.float32))
        deciders.append(p)
        if len(deciders) <= task.explore_moves:
            weights = (seen / seen.max()) ** (1.0 / task.temperature)  # scaled first: no overflow
            action = int(rng.choice(len(weights), p=weights / weights.sum()))
        return action

    driver.play(teach)
    outcome = np.asarray(driver.returns("win_loss"), np.float32)
    n, size, actions = len(deciders), game.observation_layout.size, game.num_actions
    positions = Positions(  # shaped even for a game without a decision
        np.asarray(obs, np.float32).reshape(n, size),
        np.asarray(masks, bool).reshape(n, actions),
        np.asarray(visits, np.float32).reshape(n, actions),
        outcome[deciders],
    )
    return GameRecord(positions, len(deciders), counts[0], counts[1])


def _ignore_sigint() -> None:
    # A worker: Ctrl-C reaches the whole process group; the main process stops the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _LocalGames:
    """The games in this process (``workers=0``) or in a pool of W spawned processes."""

    def __init__(self, workers: int):
        self.pool: Any = None
        if workers:
            import multiprocessing as mp

            from ..distributed import ONE_THREAD, _environment

            with _environment(ONE_THREAD):  # one core per worker (see distributed.ONE_THREAD)
                self.pool = mp.get_context("spawn").Pool(workers, initializer=_ignore_sigint)

    def map(self, tasks: Sequence[GameTask]) -> Iterator[GameRecord]:
        if self.pool is None:
            return map(play_game, tasks)
        return iter(self.pool.imap(play_game, tasks))  # in game order, whichever worker finishes first

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()


class _RayGames:
    """Up to W Ray tasks at a time (one CPU each). Ray starts as ``smuggle train --backend ray``
    starts it; the student's file is read from the run folder, so on a cluster ``--out`` must be
    on a shared filesystem."""

    def __init__(self, workers: int, address: str | None):
        from ..distributed import ONE_THREAD, start_ray

        self.ray, self.started = start_ray(address, workers)
        self.workers = workers
        ray = self.ray
        self.remote = ray.remote(num_cpus=1, runtime_env={"env_vars": ONE_THREAD})(play_game)

    def map(self, tasks: Sequence[GameTask]) -> Iterator[GameRecord]:
        refs = [self.remote.remote(task) for task in tasks]
        for ref in refs:  # in game order
            yield self.ray.get(ref)

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
