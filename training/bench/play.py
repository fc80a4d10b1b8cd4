"""Playing a bench's games on any backend, the subject's decisions timed and checked.

A game is ``(field, deal, rotation, seed, seating)``; its result is a pure function of that and
the agents' specs (every agent is reset from the game seed and its seat before the game, as in a
tournament), so the same games give the same outcomes in this process, on a process pool or on
Ray (the tournament runner's pool and Ray set-up, ``training.tournament.runner``). Only the
decision times differ from run to run.

The subject's move goes through :class:`Checked`: its time is measured, and a move it cannot make
(an exception, an illegal action) is counted as an **error** and replaced by a legal action drawn
from a generator seeded by the game and step, so one error does not end the benchmark. Its
**fallbacks** are the moves an agent reports it did not choose itself (the ``llm:`` agent's
``take_records()`` rows whose ``fallback`` is set).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from smuggle_envs import GameSpec
from smuggle_envs.core.game import Replay

Item = tuple[str, int, int, int, tuple[int, ...]]  # field, deal, rotation, seed, seating
Result = dict[str, Any]


class Checked:
    """The subject as the table sees it: its moves timed, failures counted and replaced."""

    def __init__(self, agent: Any):
        self.agent = agent
        self.name = getattr(agent, "name", "subject")
        self.times: list[float] = []
        self.errors: list[str] = []
        self._seed = 0

    def reset(self, seed: int | None = None) -> None:
        self._seed = 0 if seed is None else seed
        self.agent.reset(seed)

    def act_in(self, view: Any) -> int:
        legal = view.legal_actions()
        start = time.perf_counter()
        try:
            if callable(getattr(self.agent, "act_in", None)):
                action = int(self.agent.act_in(view))
            else:
                action = int(self.agent.act(view.observation(), view.legal_action_mask()))
        except Exception as exc:  # the agent's failure is the scorecard's to count, not to raise
            self.times.append(time.perf_counter() - start)
            return self._replace(view, legal, f"{type(exc).__name__}: {exc}")
        self.times.append(time.perf_counter() - start)
        if action not in legal:
            return self._replace(view, legal, f"illegal action {action}")
        return action

    def _replace(self, view: Any, legal: Sequence[int], why: str) -> int:
        self.errors.append(why)
        return random.Random(f"bench-error:{self._seed}:{view.step()}").choice(list(legal))


_CACHE: dict[Any, Any] = {}


def _agent(game: Any, env: GameSpec, index: int, spec: str) -> Any:
    key = (env, index, spec)  # one object per agent of a field, built once per process
    if key not in _CACHE:
        from agents import make_agent

        _CACHE[key] = make_agent(spec, game, seed=index)
    return _CACHE[key]


def _fallbacks(agent: Any) -> int:
    take = getattr(agent, "take_records", None)
    return sum(1 for r in take() if r.get("fallback")) if take is not None else 0


def _claims(env: GameSpec, seed: int, actions: list[int], seats: Sequence[int]) -> list[dict[str, Any]]:
    """The subject's labelled decisions (the bluffing kit's claims), empty for a game without."""
    from training.bluffing.games import CLAIMS, label_replay

    if env.env_id not in CLAIMS:
        return []
    labelled = label_replay(Replay(env.env_id, dict(env.config), seed, actions))
    return [c.to_dict() for c, _ in labelled if c.seat in seats]


def play_items(env: GameSpec, specs: Mapping[str, Sequence[str | None]], items: Sequence[Item], subject: Any = None):
    """Play ``items``; ``specs``: field -> its agents' specs (index 0, the subject's, a spec or
    None when ``subject``, an agent object, plays it: in-process only). Returns one result each."""
    from agents.arena import play
    from smuggle_envs.core.outcomes import ranks

    game = _game(env)
    out = []
    for field, deal, rotation, seed, seating in items:
        field_specs = specs[field]
        base = subject if field_specs[0] is None else _agent(game, env, 0, str(field_specs[0]))
        checked = Checked(base)
        agents: list[Any] = [checked if a == 0 else _agent(game, env, a, str(field_specs[a])) for a in seating]
        driver = play(game, agents, seed)
        scores = [float(s) for s in driver.state.scores()]
        seats = [s for s, a in enumerate(seating) if a == 0]
        out.append(
            {
                "field": field,
                "deal": deal,
                "rotation": rotation,
                "seed": seed,
                "seating": list(seating),
                "scores": scores,
                "ranks": ranks(scores) if driver.terminated else ranks([0.0] * len(scores)),
                "terminal": bool(driver.terminated),
                "times": checked.times,
                "errors": checked.errors,
                "fallbacks": _fallbacks(base),
                "claims": _claims(env, seed, list(driver.state.history), seats),
            }
        )
    return out


def _game(env: GameSpec) -> Any:
    if ("game", env) not in _CACHE:
        _CACHE[("game", env)] = env.make_game()
    return _CACHE[("game", env)]


def run_items(
    env: GameSpec,
    specs: Mapping[str, Sequence[str | None]],
    items: Sequence[Item],
    workers: int = 1,
    backend: str = "local",
    subject: Any = None,
    progress: Callable[[int], None] | None = None,
) -> list[Result]:
    """Every item's result, in the order of ``items``, on ``backend`` (``local``: this process
    for ``workers`` 1, else a process pool; ``ray``: Ray tasks)."""
    done: list[Result] = []
    if subject is not None or (backend == "local" and workers <= 1):
        _CACHE.clear()
        for item in items:
            done += play_items(env, specs, [item], subject)
            if progress:
                progress(len(done))
        return done
    batches = [list(items[i : i + 4]) for i in range(0, len(items), 4)]
    run = _run_ray if backend == "ray" else _run_pool
    for results in run(env, specs, batches, workers):
        done += results
        if progress:
            progress(len(done))
    order = {(r["field"], r["deal"], r["rotation"]): r for r in done}
    return [order[(f, d, r)] for f, d, r, _, _ in items]


def _run_pool(env: GameSpec, specs: Any, batches: list[list[Item]], workers: int) -> Iterable[list[Result]]:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from training.tournament.runner import _pool_context, _worker_init

    with ProcessPoolExecutor(
        workers, mp_context=_pool_context(), initializer=_worker_init, initargs=(os.getpid(),)
    ) as pool:
        futures = [pool.submit(play_items, env, specs, batch) for batch in batches]
        for future in as_completed(futures):
            yield future.result()


def _run_ray(env: GameSpec, specs: Any, batches: list[list[Item]], workers: int) -> Iterable[list[Result]]:
    from training.errors import UsageError
    from training.ray_cluster import init_ray

    try:
        import ray
    except ImportError:
        raise UsageError("--backend ray needs Ray: pip install 'ray[default]' (or pip install -e '.[ray]')") from None
    started = init_ray(ray, None, workers)
    try:
        remote = ray.remote(num_cpus=1, max_retries=2)(play_items)
        pending = [remote.remote(env, specs, batch) for batch in batches]
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            yield ray.get(finished[0])
    finally:
        if started:
            ray.shutdown()
