"""Data-parallel self-play: W workers, each with its share of the games and of every minibatch.

``TrainConfig(workers=W)`` (``smuggle train --workers W``) trains with W worker processes, or W
Ray actors with ``backend="ray"`` (``--backend ray [--ray-address ADDR]``). Each worker holds
``n_envs / W`` games (a ``SelfPlayEnv`` vector env, as the in-process trainer has) and a full
copy of the learner (MaskablePPO from sb3-contrib, unchanged). Per rollout:

1. every worker collects ``n_steps`` decisions in each of its games with its copy of the policy
   (SB3's own ``collect_rollouts``), keeping the rollout where it was made: only the games'
   results (for the league) and episode statistics travel back;
2. every worker runs MaskablePPO's own ``train`` on its rollout with minibatches of
   ``batch_size / W``; after each backward pass the workers average their gradients (one
   all-reduce per minibatch over torch.distributed's gloo backend, before gradient clipping), so
   every worker takes the same optimizer step and the copies stay identical: one PPO update on
   minibatches of ``batch_size`` decisions drawn from all the games;
3. the trainer (the main process: league, snapshots, evaluation, checkpoints, exactly as with
   in-process games) takes the updated weights from worker 0.

Both phases run on all W cores, which is why steps/s grows with W (the update is half the time on
one core: more rollout workers alone would cap near 2x). Two things differ from the same
minibatch on one process, both documented in docs/training.md: advantages are normalised per
worker's share of the minibatch, and each worker's games are sampled with its own RNG (seeded from
the run's seed and the worker's rank). So results are a function of the seed *and* W; for a given
W they are the same on both backends (a test trains on local processes and on a local Ray and
compares the parameters bit for bit), and a resumed run is exact (each worker's RNGs, last
observations and games in progress are in the checkpoint).

Where the runs and league snapshots live: workers load league snapshots from the run directory,
so on a multi-machine Ray cluster it must be on a shared filesystem.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing as mp
import os
import signal
import socket
import traceback
from collections import deque
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from smuggle_envs.core.errors import ConfigError

from ..ray_cluster import init_ray
from .rng import global_rng_state, set_global_rng_state
from .rollout import numpy_rollout

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

BACKENDS = ("local", "ray")
_RESULT_KEYS = ("episode", "selfplay")  # what a step's info carries back to the trainer


# One core per worker. numpy's OpenBLAS otherwise starts a thread per core in every worker, and
# W workers' threads spinning on W cores made Import / Export's rollouts 20x slower at W = 2.
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    """``os.environ`` with ``values`` set, for a child process to inherit; restored after."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _policy_state(policy: Any, optimizer: bool = True) -> bytes:
    """The policy's weights (and its optimizer's state), as torch bytes (how they travel)."""
    import torch

    state = {"policy": policy.state_dict()}
    if optimizer:
        state["optimizer"] = policy.optimizer.state_dict()
    buffer = io.BytesIO()
    torch.save(state, buffer)
    return buffer.getvalue()


def load_policy_state(policy: Any, data: bytes) -> None:
    import torch

    state = torch.load(io.BytesIO(data), weights_only=False)
    policy.load_state_dict(state["policy"])
    if "optimizer" in state:
        policy.optimizer.load_state_dict(state["optimizer"])


# ----- one worker ------------------------------------------------------------------------------------
class Worker:
    """One share of the games and a copy of the learner (runs in a worker process or a Ray actor)."""

    def __init__(self, config: dict[str, Any], rank: int, world: int, barrier: Any = None):
        import torch

        from .config import TrainConfig, make_local_vec_env, policy_spec, ppo_kwargs

        c = TrainConfig.from_dict(config)
        torch.set_num_threads(c.torch_threads)
        torch.distributions.Distribution.set_default_validate_args(False)
        self.rank, self.world = rank, world
        self.share = c.n_envs // world
        first = rank * self.share
        self.venv = make_local_vec_env(c, self.share)
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.logger import configure
        from stable_baselines3.common.utils import set_random_seed

        from .policy import install

        kwargs = ppo_kwargs(c)
        kwargs["batch_size"] = c.batch_size // world
        policy, policy_kwargs = policy_spec(c, c.game_spec().make_game().observation_layout.size)
        self.model = MaskablePPO(
            policy, self.venv, seed=c.seed, device="cpu", verbose=0, policy_kwargs=policy_kwargs, **kwargs
        )
        self.model.set_logger(configure(None, []))
        install(self.model.policy, c.update_ops)  # a cheaper masked distribution (policy)
        self.model.ep_info_buffer, self.model.ep_success_buffer = deque(maxlen=1), deque(maxlen=1)  # unused here
        # Game i of the run is seeded seed + i whatever W is; the RNGs that sample actions and
        # shuffle minibatches are the worker's own.
        self.venv.seed(c.seed + first)
        set_random_seed(int(np.random.SeedSequence([c.seed, rank]).generate_state(1)[0]))
        self.rng = np.random.default_rng([c.seed, rank])  # samples this worker's actions
        self._params = [p for p in self.model.policy.parameters() if p.requires_grad]
        self._pending = 0
        self._barrier = barrier  # local workers: the shared-memory sum's turnstile
        self._shared: Any = None
        self._slots: np.ndarray | None = None

    # -- the gradient average --
    # Every worker sums the W gradients in rank order, then divides by W: the same float32
    # arithmetic whether they meet in shared memory (local processes: ~0.4 ms per minibatch) or
    # through torch.distributed's gloo (Ray actors, on any machines), so both backends train
    # the same model.
    def param_count(self) -> int:
        return sum(p.numel() for p in self._params)

    def address(self) -> tuple[str, int]:
        """Where worker 0 listens for the gloo process group (asked of worker 0 only)."""
        import ray

        host = ray.util.get_node_ip_address()
        return host, _free_port(host)

    def join(self, host: str, port: int) -> None:
        """Join the gloo process group (Ray actors, every worker together)."""
        import torch.distributed as dist

        dist.init_process_group("gloo", init_method=f"tcp://{host}:{port}", rank=self.rank, world_size=self.world)
        self._hook()

    def join_shared(self, name: str) -> None:
        """Average through the shared memory block ``name`` (local processes)."""
        from multiprocessing import shared_memory

        self._shared = shared_memory.SharedMemory(name=name)
        self._slots = np.ndarray((self.world, self.param_count()), dtype=np.float32, buffer=self._shared.buf)
        self._hook()

    def _hook(self) -> None:
        for p in self._params:
            p.register_post_accumulate_grad_hook(self._on_grad)

    def _on_grad(self, _param: Any) -> None:
        # Called once per parameter per backward pass: when the last one has its gradient,
        # average them all at once, before MaskablePPO clips and steps.
        self._pending += 1
        if self._pending < len(self._params):
            return
        self._pending = 0
        import torch

        grads = [p.grad for p in self._params if p.grad is not None]  # all: every hook fired
        flat = torch.cat([g.reshape(-1) for g in grads])
        mean = self._shared_mean(flat) if self._slots is not None else self._gloo_mean(flat)
        offset = 0
        for g in grads:
            n = g.numel()
            g.copy_(mean[offset : offset + n].view_as(g))
            offset += n

    def _shared_mean(self, flat: Any) -> Any:
        import torch

        slots = self._slots
        assert slots is not None
        slots[self.rank] = flat.numpy()
        self._barrier.wait()  # every worker's gradient is in
        total = slots[0].copy()
        for r in range(1, self.world):
            total += slots[r]
        self._barrier.wait()  # every worker has read them: the slots may be written again
        total /= self.world
        return torch.from_numpy(total)

    def _gloo_mean(self, flat: Any) -> Any:
        import torch
        import torch.distributed as dist

        parts = [torch.empty_like(flat) for _ in range(self.world)]
        dist.all_gather(parts, flat)
        total = parts[0].clone()
        for part in parts[1:]:
            total += part
        total /= self.world
        return total

    # -- the trainer's calls --
    def set_policy(self, data: bytes) -> None:
        load_policy_state(self.model.policy, data)

    def get_policy(self, optimizer: bool = True) -> bytes:
        return _policy_state(self.model.policy, optimizer)

    def reset(self) -> np.ndarray:
        obs: np.ndarray = self.venv.reset()  # type: ignore[assignment]
        self.model._last_obs = obs
        self.model._last_episode_starts = np.ones(self.share, dtype=bool)
        return obs

    def env_method(
        self, name: str, args: Sequence[Any], kwargs: dict[str, Any], indices: list[int] | None
    ) -> list[Any]:
        return list(self.venv.env_method(name, *args, indices=indices, **kwargs))

    def collect(self, n_steps: int, num_timesteps: int) -> list[list[dict[str, Any]]]:
        """A rollout of ``n_steps`` per game into MaskablePPO's rollout buffer, with a numpy copy
        of the policy (``rollout``), its actions drawn from this worker's generator; returns each
        step's infos (the results the league needs)."""
        steps: list[list[dict[str, Any]]] = []

        def keep(infos: list[dict[str, Any]], _dones: np.ndarray) -> bool:
            steps.append([{k: info[k] for k in _RESULT_KEYS if k in info} for info in infos])
            return True

        numpy_rollout(self.model, self.venv, n_steps, self.rng.random, keep)
        self.model.num_timesteps = num_timesteps + n_steps * self.share
        return steps

    def train(self, progress_remaining: float) -> dict[str, float]:
        """MaskablePPO's update on this worker's rollout (gradients averaged with the others)."""
        self.model._current_progress_remaining = progress_remaining
        self.model.train()
        logged = dict(self.model.logger.name_to_value)
        self.model.logger.dump()
        return {k: float(v) for k, v in logged.items()}

    def get_state(self) -> dict[str, Any]:

        return {
            "envs": self.venv.env_method("get_snapshot"),
            "last_obs": self.model._last_obs,
            "last_episode_starts": self.model._last_episode_starts,
            "monitor": {
                "returns": self.venv.episode_returns.copy(),
                "lengths": self.venv.episode_lengths.copy(),
                "count": self.venv.episode_count,
            },
            "rng": {**global_rng_state(), "actions": self.rng.bit_generator.state},
        }

    def set_state(self, state: dict[str, Any]) -> None:

        for i, snap in enumerate(state["envs"]):
            self.venv.env_method("set_snapshot", snap, indices=[i])
        self.model._last_obs = state["last_obs"]
        self.model._last_episode_starts = state["last_episode_starts"]
        mon = state["monitor"]
        self.venv.episode_returns, self.venv.episode_lengths = mon["returns"], mon["lengths"]
        self.venv.episode_count = mon["count"]
        set_global_rng_state(state["rng"])
        self.rng.bit_generator.state = state["rng"]["actions"]

    def close(self) -> None:
        self.venv.close()
        if self._shared is not None:
            self._slots = None
            self._shared.close()
        try:
            import torch.distributed as dist

            if dist.is_initialized():
                dist.destroy_process_group()
        except Exception:
            pass


# ----- where the workers run -------------------------------------------------------------------------
def _serve(conn: Connection, config: dict[str, Any], rank: int, world: int, barrier: Any) -> None:
    """A worker process: build the worker, then answer calls until told to stop."""
    # Ctrl-C in a terminal reaches the whole process group; the trainer stops its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        worker = Worker(config, rank, world, barrier)
        conn.send(("ok", None))
    except Exception:
        conn.send(("error", traceback.format_exc()))
        return
    while True:
        try:
            name, args = conn.recv()
        except EOFError:
            break
        if name == "stop":
            worker.close()
            conn.send(("ok", None))
            break
        try:
            conn.send(("ok", getattr(worker, name)(*args)))
        except Exception:
            conn.send(("error", traceback.format_exc()))


class WorkerError(RuntimeError):
    """A worker failed; the message carries its traceback."""


class _Processes:
    """W worker processes (spawned: no forked torch state), called over pipes."""

    def __init__(self, config: dict[str, Any], world: int):
        ctx = mp.get_context("spawn")
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        self.shared: Any = None
        barrier = ctx.Barrier(world)
        for rank in range(world):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(theirs, config, rank, world, barrier), daemon=True)
            with _environment(ONE_THREAD):
                proc.start()
            theirs.close()
            self.conns.append(mine)
            self.procs.append(proc)
        for conn in self.conns:
            self._answer(conn)

    def join(self) -> None:
        """Give the workers one shared block to average their gradients in."""
        from multiprocessing import shared_memory

        world = len(self.conns)
        size = self.call("param_count", [()] * world)[0]
        self.shared = shared_memory.SharedMemory(create=True, size=4 * world * size)
        self.call("join_shared", [(self.shared.name,)] * world)

    @staticmethod
    def _answer(conn: Connection) -> Any:
        try:
            status, value = conn.recv()
        except EOFError:
            raise WorkerError("a training worker process died") from None
        if status != "ok":
            raise WorkerError(f"a training worker failed:\n{value}")
        return value

    def call(self, name: str, args: Sequence[Sequence[Any]]) -> list[Any]:
        """``name(*args[r])`` on every worker r at once; their results in rank order."""
        for conn, a in zip(self.conns, args):
            conn.send((name, tuple(a)))
        return [self._answer(conn) for conn in self.conns]

    def close(self) -> None:
        for conn in self.conns:
            try:
                conn.send(("stop", ()))
                conn.recv()
            except (EOFError, OSError, BrokenPipeError):
                pass
        for proc in self.procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()
        if self.shared is not None:
            self.shared.close()
            self.shared.unlink()
            self.shared = None


def start_ray(address: str | None, cpus: int) -> tuple[Any, bool]:
    """Ray for the self-play backends, started by ``training.ray_cluster.init_ray`` (as the
    tournament's Ray backend starts it). Returns the module and whether it was started here (the
    caller then shuts it down)."""
    try:
        import ray
    except ImportError:
        raise ConfigError("the ray backend needs Ray: pip install 'smuggle-envs[ray]'") from None
    return ray, init_ray(ray, address, cpus, log_to_driver=False)


class _RayActors:
    """W Ray actors (one CPU each). Ray is started as the tournament's Ray backend starts it:
    ``address`` joins a cluster (shipping this checkout's code), ``RAY_ADDRESS`` names one, or a
    local Ray starts with W CPUs; a Ray started here is shut down by ``close``."""

    def __init__(self, config: dict[str, Any], world: int, address: str | None):
        self.ray, self.started = start_ray(address, world)
        ray = self.ray
        remote = ray.remote(num_cpus=1, runtime_env={"env_vars": ONE_THREAD})(Worker)
        self.actors: list[Any] = [remote.remote(config, rank, world) for rank in range(world)]

    def join(self) -> None:
        """Join the actors into one gloo process group, worker 0 listening."""
        world = len(self.actors)
        host, port = self.call("address", [()] * world)[0]
        self.call("join", [(host, port)] * world)

    def call(self, name: str, args: Sequence[Sequence[Any]]) -> list[Any]:
        refs = [getattr(actor, name).remote(*a) for actor, a in zip(self.actors, args)]
        try:
            return list(self.ray.get(refs))
        except self.ray.exceptions.RayError as e:
            raise WorkerError(f"a training worker failed: {e}") from None

    def close(self) -> None:
        with contextlib.suppress(WorkerError):
            self.call("close", [()] * len(self.actors))
        for actor in self.actors:
            self.ray.kill(actor)
        if self.started:
            self.ray.shutdown()


def start_workers(config: dict[str, Any], world: int, backend: str, address: str | None = None) -> Any:
    """Start ``world`` workers on ``backend`` and join them into one process group."""
    if backend not in BACKENDS:
        raise ConfigError(f"backend must be one of {BACKENDS}, got {backend!r}")
    group: Any = _Processes(config, world) if backend == "local" else _RayActors(config, world, address)
    try:
        if world > 1:
            group.join()
    except BaseException:
        group.close()
        raise
    return group


# ----- what the trainer sees ---------------------------------------------------------------------------
class _WorkerVecEnvMethods:
    """The trainer's handle on the workers' games: league calls, snapshots, whole rollouts (the
    methods of ``worker_vec_env``'s class, which adds SB3's ``VecEnv`` base, imported on demand)."""

    num_envs: int

    def __init__(self, config: Any, backend: str, address: str | None) -> None:
        from .single_agent import SelfPlayEnv

        game = config.game_spec().make_game()
        probe = SelfPlayEnv(game, privileged=config.critic == "privileged")  # its spaces
        self.world = config.workers
        self.share = config.n_envs // self.world
        self.group = start_workers(config.to_dict(), self.world, backend, address)
        super().__init__(config.n_envs, probe.observation_space, probe.action_space)  # type: ignore[call-arg]

    def _all(self, name: str, *args: Any) -> list[Any]:
        return list(self.group.call(name, [args] * self.world))

    # SB3's VecEnv interface: what a trainer asks of its vector env.
    def reset(self) -> np.ndarray:
        return np.concatenate(self._all("reset"))

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        return [None] * self.num_envs  # each worker seeds its games from the config

    def step_async(self, actions: np.ndarray) -> None:
        raise NotImplementedError("the workers step whole rollouts: use DataParallelMaskablePPO")

    def step_wait(self) -> Any:
        raise NotImplementedError("the workers step whole rollouts: use DataParallelMaskablePPO")

    def close(self) -> None:
        self.group.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return self.env_method("__getattribute__", attr_name, indices=indices)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        self.env_method("__setattr__", attr_name, value, indices=indices)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        wanted = range(self.num_envs) if indices is None else [int(i) for i in np.atleast_1d(indices)]
        per = [[i - r * self.share for i in wanted if i // self.share == r] for r in range(self.world)]
        results = self.group.call("env_method", [(method_name, args, kwargs, p) for p in per])
        return [x for part in results for x in part]

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * (self.num_envs if indices is None else len(list(np.atleast_1d(indices))))

    def action_masks(self) -> np.ndarray:  # only so that MaskablePPO accepts it
        raise NotImplementedError("the workers mask their own games")

    # The data-parallel calls.
    def set_policy(self, data: bytes) -> None:
        self._all("set_policy", data)

    def get_policy(self, optimizer: bool = True) -> bytes:
        return bytes(self.group.call("get_policy", [(optimizer,)] * self.world)[0])

    def collect(self, n_steps: int, num_timesteps: int) -> list[list[dict[str, Any]]]:
        parts = self._all("collect", n_steps, num_timesteps)
        return [[info for part in parts for info in part[t]] for t in range(n_steps)]

    def train(self, progress_remaining: float) -> dict[str, float]:
        return dict(self._all("train", progress_remaining)[0])

    def get_states(self) -> list[dict[str, Any]]:
        return self._all("get_state")

    def set_states(self, states: list[dict[str, Any]]) -> None:
        if len(states) != self.world:
            raise ConfigError(f"the checkpoint was taken with {len(states)} workers, not {self.world}")
        self.group.call("set_state", [(s,) for s in states])


def worker_vec_env(config: Any, backend: str = "local", address: str | None = None) -> Any:
    """A vector env of ``config.n_envs`` games held by ``config.workers`` workers (see the module
    docstring). It steps only as whole rollouts, through ``DataParallelMaskablePPO``."""
    from stable_baselines3.common.vec_env import VecEnv

    class WorkerVecEnv(_WorkerVecEnvMethods, VecEnv):
        """The trainer's handle on the workers' games (``_WorkerVecEnvMethods``) as SB3's ``VecEnv``."""

    return WorkerVecEnv(config, backend, address)


def data_parallel_ppo() -> Any:
    """``DataParallelMaskablePPO``: MaskablePPO whose rollouts and updates run on the workers
    (a class made on demand: sb3-contrib is imported only when training starts)."""
    from sb3_contrib import MaskablePPO

    class DataParallelMaskablePPO(MaskablePPO):
        """The trainer's learner when ``workers`` is set: holds the authoritative weights between
        updates (for snapshots, evaluation, checkpoints); the workers do the work."""

        _pushed = False  # the workers have this learner's weights (after a start or a restore)
        _stale_optimizer = False  # the workers' Adam state is newer than this one's

        def _excluded_save_params(self) -> list[str]:
            # A loaded learner has not pushed its weights to the new workers yet.
            return [*super()._excluded_save_params(), "_pushed", "_stale_optimizer"]

        def save(self, *args: Any, **kwargs: Any) -> None:
            if self._stale_optimizer:  # fetched only when saved: it is 2/3 of the bytes
                load_policy_state(self.policy, self.env.get_policy())  # type: ignore[union-attr]
                self._stale_optimizer = False
            super().save(*args, **kwargs)

        def collect_rollouts(
            self, env: Any, callback: Any, rollout_buffer: Any, n_rollout_steps: int, use_masking: bool = True
        ) -> bool:
            callback.on_rollout_start()  # the league's pool is handed to the workers here
            if not self._pushed:
                env.set_policy(_policy_state(self.policy))
                self._pushed = True
            steps = env.collect(n_rollout_steps, self.num_timesteps)
            for infos in steps:
                self.num_timesteps += env.num_envs
                callback.update_locals({"infos": infos})
                if not callback.on_step():
                    return False
                self._update_info_buffer(infos, np.zeros(len(infos), dtype=bool))
            callback.on_rollout_end()
            return True

        def train(self) -> None:
            logged = self.env.train(self._current_progress_remaining)  # type: ignore[union-attr]
            load_policy_state(self.policy, self.env.get_policy(optimizer=False))  # type: ignore[union-attr]
            self._stale_optimizer = True
            self._n_updates += self.n_epochs
            for key, value in logged.items():
                self.logger.record(key, value)

    return DataParallelMaskablePPO
