"""Playing a tournament's missing games: in-process, on a local process pool, or on Ray.

Workers rebuild each agent from its spec (``agents.make_agent``) once per process and play with
``agents.arena.play_game``, which resets every agent from the game seed and its seat before the
game; so a game is a pure function of its spec and the same game gives the same result in any
worker, on any backend, before or after a resume. Results come back to the main process, which
writes each one to the database as it arrives (one transaction per game).
"""

from __future__ import annotations

import hashlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smuggle_envs import GameSpec
from training.db import AgentEntry, Tournament, TournamentDB, unique_names
from training.errors import UsageError, agent_failure
from training.match import build_agent
from training.ray_cluster import init_ray
from training.scheduled import ScheduledGame

BACKENDS = ("local", "ray")
RAY_BATCH = 4  # games per Ray task (amortises the per-task overhead)


class TournamentError(Exception):
    """A game that could not be played (an agent failed); the games already stored are kept."""


# ----- agents ------------------------------------------------------------------------------------
def _file_fingerprint(arg: str) -> tuple[str, str]:
    """``(absolute path, short sha256)`` if ``arg`` names an existing file, else ``(arg, "")``."""
    path = Path(arg).expanduser()
    if not arg or not path.is_file():
        return arg, ""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return str(path.resolve()), digest.hexdigest()[:16]


def resolve_agents(game, specs: Sequence[str], warn: Callable[[str], None] | None = None) -> list[AgentEntry]:
    """Check every spec by building it once (``training.match.build_agent``: a known kind with no
    bot for this game falls back to ``random`` with a warning and the label ``"rule->random"``),
    and return the tournament's agents with unique names."""
    from agents.zoo import ZooAgent

    labels, play_specs, prints = [], [], []
    for spec in specs:
        try:
            agent, label = build_agent(spec, game, seed=0, warn=warn)
        except UsageError:
            raise
        except Exception as exc:
            raise UsageError(f"cannot build agent {spec!r} for {game.env_id}: {type(exc).__name__}: {exc}") from None
        kind, colon, arg = spec.partition(":")
        if label != spec:  # the fallback agent plays this seat
            play_spec, fingerprint = "random", ""
        elif isinstance(agent, ZooAgent):  # pinned to the zoo's file now: a later zoo model is another agent
            path, fingerprint = _file_fingerprint(agent.path)
            play_spec = f"{'ppo_argmax' if agent.deterministic else 'ppo'}:{path}"
        else:
            path, fingerprint = _file_fingerprint(arg)
            play_spec = f"{kind}{colon}{path}" if fingerprint else spec
        labels.append(label)
        play_specs.append(play_spec)
        prints.append(fingerprint)
    return [
        AgentEntry(name, spec, play, fp)
        for name, spec, play, fp in zip(unique_names(labels), specs, play_specs, prints)
    ]


# ----- the worker side ---------------------------------------------------------------------------
_CACHE: dict[Any, Any] = {}


def _game(spec: GameSpec):
    key = ("game", spec)
    if key not in _CACHE:
        _CACHE[key] = spec.make_game()
    return _CACHE[key]


def _agent(game, spec: GameSpec, index: int, play_spec: str):
    # One object per tournament agent (two copies of "random" are two objects), built once per
    # process; play_game resets it from the game seed and seat before every game.
    key = ("agent", spec, index, play_spec)
    if key not in _CACHE:
        from agents import make_agent

        _CACHE[key] = make_agent(play_spec, game, seed=index)
    return _CACHE[key]


def play_games(
    spec: GameSpec, play_specs: Sequence[str], items: Sequence[tuple[str, int, Sequence[int]]]
) -> list[tuple[str, dict[str, Any]]]:
    """Play ``items`` of ``(game_key, seed, seating)``; returns ``(game_key, result)`` pairs.
    Runs in a worker (any backend) or in-process."""
    from agents.arena import play
    from smuggle_envs.core.outcomes import ranks

    game = _game(spec)
    out = []
    for key, seed, seating in items:
        seat_agents = [_agent(game, spec, a, play_specs[a]) for a in seating]
        start = time.perf_counter()
        try:
            driver = play(game, seat_agents, seed)
        except Exception as exc:
            # An llm: agent's dead or refusing endpoint: its message names the URL (an operator's line)
            reason = agent_failure(exc) or f"{type(exc).__name__}: {exc}"
            raise TournamentError(f"game {key} (seed {seed}, seating {list(seating)}) failed: {reason}") from exc
        scores = [float(s) for s in driver.state.scores()]
        # The termination contract: a truncated game has no winner, so every seat shares one rank.
        placed = ranks(scores) if driver.terminated else ranks([0.0] * len(scores))
        result = {
            "scores": scores,
            "ranks": placed,
            "actions": list(driver.state.history),
            "terminal": driver.terminated,
            "duration": time.perf_counter() - start,
        }
        calls = _take_records(seat_agents)
        if calls:
            result["calls"] = calls
        out.append((key, result))
    return out


def _take_records(seat_agents: Sequence[Any]) -> list[dict[str, Any]]:
    """The records of the game just played by every agent that keeps them (``take_records()``,
    e.g. the ``llm:`` agent's model calls), each tagged with its seat, for the database."""
    calls: list[dict[str, Any]] = []
    for seat, agent in enumerate(seat_agents):
        take = getattr(agent, "take_records", None)
        if take is not None:
            # a record's own seat, where it names one, wins: one agent object may play several seats
            calls += [{"seat": seat, **record} for record in take()]
    return calls


def _worker_init(parent_pid: int) -> None:
    """Pool workers ignore Ctrl-C (the main process handles it) and die with their parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)


# ----- the main side -----------------------------------------------------------------------------
@dataclass
class RunSummary:
    scheduled: int
    already: int  # games found in the database before this run
    played: int  # games played and stored by this run
    duplicates: int  # games played but found already stored (another run stored them first)
    seconds: float


def _items(specs: Iterable[ScheduledGame]) -> list[tuple[str, int, list[int]]]:
    return [(s.game_key, s.seed, list(s.seating)) for s in specs]


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def run_tournament(
    db: TournamentDB,
    tournament: Tournament,
    workers: int | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    progress: bool = True,
) -> RunSummary:
    """Play every game of ``tournament`` that ``db`` does not hold yet and store each result as
    it arrives. ``workers``: local processes (1 = in this process; default: the CPU count) or
    Ray tasks in flight (default: the cluster's CPUs)."""
    if backend not in BACKENDS:
        raise UsageError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    start = time.perf_counter()
    done = db.played_keys(tournament.id)
    todo = [s for s in tournament.schedule if s.game_key not in done]
    summary = RunSummary(len(tournament.schedule), len(done), 0, 0, 0.0)
    if not todo:
        return summary
    by_key = {s.game_key: s for s in todo}
    bar = _progress_bar(len(tournament.schedule), len(done), progress)

    def store(key: str, result: dict[str, Any]) -> None:
        if db.insert_game(tournament, by_key[key], result):
            summary.played += 1
        else:
            summary.duplicates += 1
        if bar is not None:
            bar.update(1)

    play_specs = [a.play_spec for a in tournament.agents]
    args = (tournament.spec, play_specs)
    try:
        if backend == "ray":
            _run_ray(args, todo, workers, ray_address, store)
        elif (workers or default_workers()) <= 1 or len(todo) == 1:
            _CACHE.clear()  # agents of an earlier run (a checkpoint may have changed)
            for item in _items(todo):
                for key, result in play_games(*args, [item]):
                    store(key, result)
        else:
            _run_pool(args, todo, min(workers or default_workers(), len(todo)), store)
    finally:
        if bar is not None:
            bar.close()
        summary.seconds = time.perf_counter() - start
    return summary


def _progress_bar(total: int, initial: int, enabled: bool):
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(
        total=total, initial=initial, file=sys.stderr, desc="games", unit="game", leave=False, dynamic_ncols=True
    )


def _pool_context():
    import multiprocessing as mp

    # fork is fastest; but never fork a process holding torch's (or Ray's) threads.
    if sys.platform.startswith("linux") and not {"torch", "ray"} & set(sys.modules):
        return mp.get_context("fork")
    return mp.get_context("spawn")


def _run_pool(args: tuple[GameSpec, Sequence[str]], todo: Sequence[ScheduledGame], workers: int, store) -> None:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    items = iter(_items(todo))
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=_pool_context(), initializer=_worker_init, initargs=(os.getpid(),)
    )
    pending: set = set()
    try:
        while True:
            while len(pending) < 4 * workers:  # a bounded queue: a kill loses little
                item = next(items, None)
                if item is None:
                    break
                pending.add(pool.submit(play_games, *args, [item]))
            if not pending:
                break
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                for key, result in future.result():  # re-raises a worker's TournamentError
                    store(key, result)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _run_ray(
    args: tuple[GameSpec, Sequence[str]], todo: Sequence[ScheduledGame], workers: int | None, address: str | None, store
) -> None:
    try:
        import ray
    except ImportError:
        raise UsageError(
            "--backend ray needs Ray: pip install 'ray[default]' (or the project's extra: pip install -e '.[ray]')"
        ) from None
    started = init_ray(ray, address, workers)
    try:
        in_flight = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(num_cpus=1, max_retries=2)(play_games)
        items = _items(todo)
        batches = iter([items[i : i + RAY_BATCH] for i in range(0, len(items), RAY_BATCH)])
        pending: list = []
        try:
            while True:
                while len(pending) < 2 * in_flight:
                    batch = next(batches, None)
                    if batch is None:
                        break
                    pending.append(remote.remote(*args, batch))
                if not pending:
                    break
                finished, pending = ray.wait(pending, num_returns=1)
                try:
                    results = ray.get(finished[0])
                except Exception as exc:
                    cause = getattr(exc, "cause", None)
                    raise TournamentError(str(cause) if cause is not None else str(exc)) from exc
                for key, result in results:
                    store(key, result)
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
    finally:
        if started:
            ray.shutdown()
