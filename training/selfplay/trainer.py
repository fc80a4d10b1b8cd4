"""Self-play training with a league: MaskablePPO on ``SelfPlayEnv``, for any env id.

``Trainer(config, out_dir).run(resume=...)`` trains, checkpoints, evaluates and plots. The run
directory holds everything needed to inspect or continue a run::

    config.json                  the TrainConfig (a resumed run reads it back)
    final.zip                    the trained model: agent spec "ppo:<out>/final.zip"
    final_eval.json              the final evaluation against each baseline
    eval.csv, learning_curve.png win rate against each baseline over training, 95% CIs
    league/league.json           the opponent pool and its results
    league/snapshots/*.zip       frozen snapshots of the learner (each loadable as an agent)
    checkpoints/step_*/          model (with optimizer), env states, RNGs, league, schedule
    checkpoints/latest.txt       the name of the newest complete checkpoint
    tb/                          TensorBoard logs (SB3's plus eval/ and league/ scalars)

**Exact resume.** Checkpoints are taken at the start of a rollout, where SB3's state is small
and well defined: the model (policy and Adam state), the step and update counters, the last
observations, every env's episode in progress (``SelfPlayEnv.get_snapshot``), the global RNGs
(torch samples the actions, numpy shuffles the minibatches), the league and the schedule. A run
interrupted at any point and resumed from its latest checkpoint produces the same model, league
and curves as an uninterrupted run (a test checks the parameters bit for bit).

**Ctrl-C.** ``run(handle_sigint=True)`` (what ``smuggle train`` does) turns the first Ctrl-C into
a request to stop at the next safe point, the start of the next rollout: a checkpoint is saved
there and ``TrainingStopped`` (a ``KeyboardInterrupt``) is raised, naming it; resuming from it
gives the same run as one never interrupted. During the warm start the next safe point is the
first rollout after it; after the final checkpoint (during the final evaluation), Ctrl-C stops at
once. A second Ctrl-C always stops at once. ``request_stop()`` does the same from code.

**Defaults** were tuned for Smuggle with 4 players on 2 CPU cores (see README "Training"):
an in-process vector env of 8 games (SB3's subprocess workers were slower on 2 busy cores: a
step is two pipe round trips per game, and each waits for a time slice), one torch thread (two
threads on two busy cores were 3x slower), distribution argument checks off (they cost a third
of the rollout time). A script that uses ``vec="subprocess"`` needs the usual
``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import pickle
import random
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import numpy as np

from smuggle_envs.core.errors import ConfigError
from smuggle_envs.core.outcomes import REWARD_MODES

if TYPE_CHECKING:
    import gymnasium as gym
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from agents.base import Agent
    from smuggle_envs.core.game import Game

    from .evaluate import EvalResult
    from .league import League

BASELINES = ("random", "rule")
_DEMO_BYTES = 512 * 2**20


@dataclasses.dataclass
class TrainConfig:
    """Everything that defines a run. Saved as ``config.json``; a resumed run uses it.

    The defaults are the ones the benchmark (``benchmarks/train_smuggle.py``) was tuned and run
    with; the comments say what each choice bought on Smuggle (README, Training).
    """

    env_id: str = "smuggle_v0"
    num_players: int | None = None  # None: the game's default
    game_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    steps: int = 500_000  # learner decisions (SB3 timesteps)
    seed: int = 0
    n_envs: int = 8  # games stepped together: one batched forward pass
    vec: str = "dummy"  # "dummy" (in-process) or "subprocess"
    # Data-parallel workers (see ``distributed``): 0 steps the games in this process; W >= 1
    # gives each of W worker processes (or Ray actors) n_envs / W games and a share of every
    # minibatch. Results depend on the seed and W, not on the backend.
    workers: int = 0
    reward_mode: str = "win_loss"  # the final reward, as in the AEC env
    # Money felt when it changes (see SelfPlayEnv): a terminal-only reward left the learner
    # 0% against the rule bots after 200k steps; with it the same run was at -3000 -> +1000.
    dense_score: float = 3.0
    max_decisions: int | None = 5000  # truncates a runaway game (all seats' decisions)
    # MaskablePPO. 10 epochs per rollout; entropy bonus off: with 495 declarations it only
    # kept the policy spread over lies. (From scratch, a 1e-3 learning rate learned faster;
    # after the warm start it was noisier than 3e-4.)
    net_arch: tuple[int, ...] = (128, 128)
    learning_rate: float = 3e-4
    n_steps: int = 256  # per env and rollout: 2048 steps per update
    batch_size: int = 512
    n_epochs: int = 10
    gamma: float = 0.99
    gae_lambda: float = 0.9
    ent_coef: float = 0.0
    clip_range: float = 0.2
    vf_coef: float = 0.5
    # Warm start: behaviour cloning of a teacher agent before self-play ("" or None: none;
    # "rule" is skipped for games without a rule bot). See ``imitation``.
    imitate: str | None = "rule"
    imitation_samples: int = 200_000  # teacher decisions recorded
    imitation_epochs: int = 6
    # league
    snapshot_every: int = 50_000
    max_snapshots: int = 3  # with the rule bot, about half the seats are its
    weighting: str = "hard"
    baselines_in_league: tuple[str, ...] = ("rule", "random")
    # bookkeeping
    checkpoint_every: int = 50_000
    eval_every: int = 50_000
    eval_games: int = 100  # per baseline, periodic (at most final_eval_games)
    final_eval_games: int = 500  # per baseline, the final evaluation
    eval_seed: int = 1_000_000
    deterministic_eval: bool = False
    torch_threads: int = 1
    tensorboard: bool = True
    progress: bool = True

    def validate(self) -> None:
        def positive(name: str, allow_none: bool = False) -> None:
            v = getattr(self, name)
            if v is None and allow_none:
                return
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ConfigError(f"{name} must be a positive int, got {v!r}")

        for name in (
            "steps",
            "n_envs",
            "n_steps",
            "batch_size",
            "n_epochs",
            "snapshot_every",
            "checkpoint_every",
            "eval_every",
            "torch_threads",
        ):
            positive(name)
        positive("max_decisions", allow_none=True)
        positive("num_players", allow_none=True)
        for name in (
            "eval_games",
            "final_eval_games",
            "seed",
            "max_snapshots",
            "imitation_samples",
            "imitation_epochs",
        ):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ConfigError(f"{name} must be 0 or more, got {v!r}")
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 0:
            raise ConfigError(f"workers must be 0 or more, got {self.workers!r}")
        if self.workers and (self.n_envs % self.workers or self.batch_size % self.workers):
            raise ConfigError(
                f"with {self.workers} workers, n_envs ({self.n_envs}) and batch_size ({self.batch_size}) "
                f"must be multiples of {self.workers}: each worker takes an equal share"
            )
        if self.vec not in ("dummy", "subprocess"):
            raise ConfigError(f"vec must be 'dummy' or 'subprocess', got {self.vec!r}")
        if self.reward_mode not in REWARD_MODES:
            raise ConfigError(f"reward_mode must be one of {REWARD_MODES}, got {self.reward_mode!r}")
        from .league import WEIGHTINGS

        if self.weighting not in WEIGHTINGS:
            raise ConfigError(f"weighting must be one of {WEIGHTINGS}, got {self.weighting!r}")
        if self.imitate:
            from agents import AGENT_KINDS

            if self.imitate.split(":")[0] not in AGENT_KINDS:
                raise ConfigError(
                    f"imitate: unknown agent {self.imitate!r}; known kinds are "
                    f"{', '.join(sorted(AGENT_KINDS))} (or none)"
                )
        bad = [b for b in self.baselines_in_league if b not in BASELINES]
        if bad:
            raise ConfigError(f"baselines_in_league may hold {BASELINES}, got {bad}")

    def game_config(self) -> dict[str, Any]:
        cfg = dict(self.game_options)
        if self.num_players is not None:
            cfg["num_players"] = self.num_players
        return cfg

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["net_arch"] = list(self.net_arch)
        d["baselines_in_league"] = list(self.baselines_in_league)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown training option(s) {unknown}")
        data = dict(data)
        for name in ("net_arch", "baselines_in_league"):
            if name in data:
                data[name] = tuple(data[name])
        return cls(**data)


def ppo_kwargs(c: TrainConfig) -> dict[str, Any]:
    """MaskablePPO's hyperparameters from a config (the trainer's and ``smuggle exploit``'s)."""
    return {
        "n_steps": c.n_steps,
        "batch_size": c.batch_size,
        "n_epochs": c.n_epochs,
        "gamma": c.gamma,
        "gae_lambda": c.gae_lambda,
        "ent_coef": c.ent_coef,
        "clip_range": c.clip_range,
        "vf_coef": c.vf_coef,
        "learning_rate": c.learning_rate,
    }


def warm_start(model: MaskablePPO, game: Game, c: TrainConfig, samples: int) -> tuple[Any, dict[str, float]]:
    """Behaviour cloning of ``c.imitate`` into ``model`` from ``samples`` recorded decisions, under
    the learner's own reward (see ``imitation``); returns the demonstrations and the fit's stats."""
    from .imitation import clone, collect

    data = collect(
        game,
        c.imitate or "rule",
        samples,
        seed=c.seed,
        reward_mode=c.reward_mode,
        dense_score=c.dense_score,
        gamma=c.gamma,
        max_decisions=c.max_decisions,
        progress=c.progress,
    )
    stats = clone(
        model, data, c.imitation_epochs, batch_size=c.batch_size, seed=c.seed, vf_coef=c.vf_coef, progress=c.progress
    )
    return data, stats


def rule_bot_available(game: Game) -> bool:
    """Whether ``game`` has a rule-based bot (``training.match.build_agent`` falls back to
    random, with a label ``"rule->random"``, where it has none yet)."""
    from training.match import build_agent

    return build_agent("rule", game, seed=0)[1] == "rule"


def _make_env(
    env_id: str,
    game_config: dict[str, Any],
    reward_mode: str,
    dense_score: float,
    max_decisions: int | None,
    ignore_sigint: bool = False,
) -> gym.Env[Any, Any]:
    # A module-level function (not a lambda) so subprocess workers can unpickle it.
    from .single_agent import SelfPlayEnv

    if ignore_sigint:
        # A subprocess worker: Ctrl-C in a terminal reaches the whole process group, and a
        # worker that died of it would break the checkpoint the main process then saves.
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    return SelfPlayEnv(
        env_id, game_config, reward_mode=reward_mode, dense_score=dense_score, max_decisions=max_decisions
    )


def make_vec_env(
    config: TrainConfig, vec: str | None = None, backend: str = "local", address: str | None = None
) -> VecMonitor:
    """The trainer's vector env: the games of ``config.workers`` data-parallel workers (see
    ``distributed``; ``backend`` "local" or "ray"), or ``make_local_vec_env``."""
    if config.workers:
        from .distributed import worker_vec_env

        return worker_vec_env(config, backend, address)
    return make_local_vec_env(config, config.n_envs, vec)


def make_local_vec_env(config: TrainConfig, n_envs: int, vec: str | None = None) -> VecMonitor:
    """``n_envs`` ``SelfPlayEnv`` in-process or in subprocess workers (which ignore Ctrl-C: the
    main process stops them), with a ``VecMonitor`` for episode statistics."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

    kind = vec or config.vec
    fn = partial(
        _make_env,
        config.env_id,
        config.game_config(),
        config.reward_mode,
        config.dense_score,
        config.max_decisions,
        kind == "subprocess",
    )
    fns: list[Callable[[], gym.Env[Any, Any]]] = [fn] * n_envs
    venv: VecEnv = SubprocVecEnv(fns) if kind == "subprocess" else DummyVecEnv(fns)
    return VecMonitor(venv)


class TrainingStopped(KeyboardInterrupt):
    """Training stopped on request (Ctrl-C) at a safe point, after saving ``checkpoint`` at
    ``step``; ``--resume`` continues from it."""

    def __init__(self, checkpoint: Path, step: int):
        super().__init__(f"stopped at step {step}; checkpoint saved in {checkpoint}")
        self.checkpoint = checkpoint
        self.step = step


# ----- the run --------------------------------------------------------------------------------------
class Trainer:
    """One training run in ``out_dir``; see the module docstring."""

    # Set by ``run``: the learner, its vector env and the league.
    model: MaskablePPO
    venv: VecMonitor
    league: League

    def __init__(
        self,
        config: TrainConfig,
        out_dir: str | os.PathLike[str],
        log: Callable[[str], None] | None = None,
        vec: str | None = None,
        backend: str = "local",
        ray_address: str | None = None,
    ):
        config.validate()
        from .distributed import BACKENDS

        if backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {BACKENDS}, got {backend!r}")
        if backend == "ray" and not config.workers:
            raise ConfigError("the ray backend runs data-parallel workers: set workers (--workers W)")
        from smuggle_envs import make_game

        self.config = config
        self.out = Path(out_dir)
        self.log: Callable[[str], None] = log or (lambda text: print(text, flush=True))
        self.vec = vec or config.vec  # may differ on resume: results do not depend on it
        self.backend, self.ray_address = backend, ray_address  # nor on these
        self.game = make_game(config.env_id, **config.game_config())
        self.has_rule = rule_bot_available(self.game)
        self.baselines = [b for b in BASELINES if b != "rule" or self.has_rule]
        self.schedule: dict[str, int] = {}
        self.latest_eval: dict[str, float] = {}
        self.callback: Any = None
        self.stop_requested = False
        self._phase = "setup"  # "warm start", "learning", "final evaluation": for Ctrl-C's notice
        self._sigint_handled = False  # run(handle_sigint=True) installed _on_sigint
        self._previous_sigint: Any = None

    # ----- paths ---------------------------------------------------------------------------------
    @property
    def checkpoints(self) -> Path:
        return self.out / "checkpoints"

    def latest_checkpoint(self) -> Path | None:
        pointer = self.checkpoints / "latest.txt"
        if not pointer.exists():
            return None
        path = self.checkpoints / pointer.read_text(encoding="utf-8").strip()
        return path if (path / "state.pkl").exists() else None

    # ----- public entry point ----------------------------------------------------------------------
    def run(self, resume: bool = False, interrupt_at: int | None = None, handle_sigint: bool = False) -> dict[str, Any]:
        """Train to ``config.steps``, evaluate, plot; returns the summary (also in
        ``final_eval.json``). ``interrupt_at`` raises KeyboardInterrupt once that many steps are
        done, to test resuming. ``handle_sigint``: the first Ctrl-C stops at the next safe point
        with a checkpoint (``TrainingStopped``; see the module docstring)."""
        import torch

        torch.set_num_threads(self.config.torch_threads)
        # Argument validation of every Categorical costs a third of the rollout time.
        torch.distributions.Distribution.set_default_validate_args(False)
        self.out.mkdir(parents=True, exist_ok=True)
        checkpoint = self.latest_checkpoint() if resume else None
        if resume and checkpoint is None:
            self.log(f"no checkpoint in {self.out} yet: starting the run from the beginning")
        if handle_sigint and threading.current_thread() is threading.main_thread():
            self._previous_sigint = signal.signal(signal.SIGINT, self._on_sigint)
            self._sigint_handled = True
        try:
            self.venv = make_vec_env(self.config, self.vec, self.backend, self.ray_address)
            try:
                if checkpoint is None:
                    self._start_fresh()
                else:
                    self._restore(checkpoint)
                self._phase = "learning"
                self._learn(interrupt_at)
                return self._finish()
            finally:
                if self.callback is not None and self.callback.bar is not None:
                    self.callback.bar.close()
                self.venv.close()
        finally:
            self._restore_sigint()

    def request_stop(self) -> None:
        """Stop at the next safe point: save a checkpoint there and raise ``TrainingStopped``."""
        self.stop_requested = True

    def _on_sigint(self, signum: int, frame: FrameType | None) -> None:
        """The first Ctrl-C: a stop at the next safe point; the next one stops at once."""
        self.request_stop()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        when = {
            "setup": "as soon as training starts",
            "warm start": "when the warm start is done",
        }.get(self._phase, "at the end of this rollout and its update")
        print(
            f"\nCtrl-C: saving a checkpoint {when}, then stopping (Ctrl-C again stops at once, without it)",
            file=sys.stderr,
            flush=True,
        )

    def _restore_sigint(self) -> None:
        """Ctrl-C as it was before ``run`` (a handler not set from Python: the default one)."""
        if self._sigint_handled:
            self._sigint_handled = False
            previous = self._previous_sigint
            signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)

    def _stop_if_requested(self, checkpoint: Path | None = None) -> None:
        """At a safe point: if a stop was requested, save a checkpoint (unless ``checkpoint``
        was just saved at this step) and raise ``TrainingStopped``."""
        if not self.stop_requested:
            return
        if checkpoint is None:
            checkpoint = self.save_checkpoint()
        raise TrainingStopped(checkpoint, self.model.num_timesteps)

    # ----- setup -----------------------------------------------------------------------------------
    def _tb_dir(self) -> str | None:
        return str(self.out / "tb") if self.config.tensorboard else None

    def _start_fresh(self) -> None:
        from .league import League, initial_entries

        c = self.config
        (self.out / "config.json").write_text(json.dumps(c.to_dict(), indent=1) + "\n", encoding="utf-8")
        for stale in ("eval.csv", "final_eval.json", "learning_curve.png", "final.zip"):
            (self.out / stale).unlink(missing_ok=True)
        fixed = [b for b in c.baselines_in_league if b != "rule" or self.has_rule]
        if not fixed:
            fixed = ["random"]  # the pool must not be empty before the first snapshot
        self.league = League(
            self.out / "league", initial_entries(fixed), max_snapshots=c.max_snapshots, weighting=c.weighting
        )
        self.model = _learner_class(c)(
            "MlpPolicy",
            self.venv,
            seed=c.seed,
            device="cpu",
            verbose=0,
            policy_kwargs={"net_arch": list(c.net_arch)},
            tensorboard_log=self._tb_dir(),
            **ppo_kwargs(c),
        )
        self.schedule = {"snapshot": c.snapshot_every, "eval": 0, "checkpoint": c.checkpoint_every}
        if c.imitate:
            self._phase = "warm start"
            self._imitate()
        self.log(
            f"training {c.env_id} ({self.game.num_players} players) for {c.steps} steps into "
            f"{self.out}; league: {', '.join(e.id for e in self.league.entries)}"
        )

    def _imitate(self) -> None:
        """Behaviour cloning of ``config.imitate`` (see ``imitation``), where the game has it."""
        c = self.config
        teacher = c.imitate
        if not teacher or not c.imitation_samples or not c.imitation_epochs:
            return
        if c.imitate == "rule" and not self.has_rule:
            self.log(f"{c.env_id} has no rule-based bot: no imitation warm start")
            return
        start = time.perf_counter()
        # Demonstrations live in memory: cap them near 512 MB for games with big observations.
        row_bytes = 4 * self.game.observation_layout.size + self.game.num_actions
        samples = min(c.imitation_samples, max(10_000, _DEMO_BYTES // row_bytes))
        data, stats = warm_start(self.model, self.game, c, samples)
        self.log(
            f"warm start: cloned {c.imitate!r} from {len(data)} decisions in "
            f"{time.perf_counter() - start:.0f}s (the teacher's action gets over half the "
            f"probability in {100 * stats['teacher_over_half']:.0f}% of them)"
        )

    def _restore(self, checkpoint: Path) -> None:
        import torch

        from .league import League

        with open(checkpoint / "state.pkl", "rb") as f:
            state = pickle.load(f)
        self.model = _learner_class(self.config).load(
            checkpoint / "model.zip", env=self.venv, device="cpu", force_reset=False, tensorboard_log=self._tb_dir()
        )
        self.model._last_obs = state["last_obs"]
        self.model._last_episode_starts = state["last_episode_starts"]
        if "workers" in state:
            self.venv.set_states(state["workers"])
        else:
            for i, snap in enumerate(state["envs"]):
                self.venv.env_method("set_snapshot", snap, indices=[i])
            mon = state["monitor"]
            self.venv.episode_returns, self.venv.episode_lengths = mon["returns"], mon["lengths"]
            self.venv.episode_count = mon["count"]
        # After the load, which reseeds the global RNGs from the model's seed.
        random.setstate(state["rng"]["python"])
        np.random.set_state(state["rng"]["numpy"])
        torch.set_rng_state(state["rng"]["torch"])
        (self.out / "config.json").write_text(
            json.dumps(self.config.to_dict(), indent=1) + "\n", encoding="utf-8"
        )  # e.g. a new, larger --steps
        self.league = League.from_dict(self.out / "league", state["league"])
        self.league.save()
        self.schedule = dict(state["schedule"])
        _truncate_csv(self.out / "eval.csv", self.model.num_timesteps)
        self.log(
            f"resuming {self.config.env_id} from step {self.model.num_timesteps} "
            f"({checkpoint.name}) towards {self.config.steps} steps"
        )

    # ----- the loop --------------------------------------------------------------------------------
    def _learn(self, interrupt_at: int | None) -> None:
        remaining = self.config.steps - self.model.num_timesteps
        if remaining <= 0:
            self.log(f"already trained for {self.model.num_timesteps} steps")
            return
        self.callback = _self_play_callback(self, interrupt_at)
        self.model.learn(
            remaining, callback=self.callback, reset_num_timesteps=False, tb_log_name="selfplay", progress_bar=False
        )

    def on_rollout_start(self) -> None:
        """At a rollout boundary: snapshot, evaluate, checkpoint when due (and when a stop was
        requested, then stop); then hand the league's current pool and PFSP weights to every
        env."""
        c, t, s = self.config, self.model.num_timesteps, self.schedule
        if t >= s["snapshot"]:
            self.league.add_snapshot(self.model, t)
            s["snapshot"] = _next(t, c.snapshot_every)
            self.league.save()
        if t >= s["eval"]:
            s["eval"] = _next(t, c.eval_every)
            # Never more games than the final evaluation: a quick run asks for a quick curve.
            self.evaluate_now(min(c.eval_games, c.final_eval_games))
        saved = None
        if t >= s["checkpoint"]:
            s["checkpoint"] = _next(t, c.checkpoint_every)
            saved = self.save_checkpoint()
        # The safe point: the state a checkpoint stores here (as the periodic ones above do)
        # resumes into exactly the run that was not stopped.
        self._stop_if_requested(saved)
        for item in self.league.summary():
            self._record(f"league/p_{item['id']}", item["probability"])
            self._record(f"league/winrate_{item['id']}", item["win_rate"])
        self.venv.env_method("set_pool", self.league.pool(), self.league.probabilities())

    def record_game(self, result: dict[str, Any]) -> None:
        self.league.record_game(result)

    # ----- evaluation --------------------------------------------------------------------------------
    def evaluate_now(self, games: int, agent: Agent | None = None) -> list[EvalResult]:
        """Evaluate the current policy (or ``agent``) against every baseline; append to eval.csv."""
        from agents.ppo import NumpyPolicy, PolicyAgent

        from .evaluate import EVAL_FIELDS, evaluate

        if games <= 0:
            return []
        if agent is None:
            policy = NumpyPolicy.from_sb3(self.model.policy)
            if policy is None:  # the learner is always an MLP over a flat observation
                raise TypeError("the learner's policy is not a plain MLP")
            agent = PolicyAgent(policy, deterministic=self.config.deterministic_eval)
        t = self.model.num_timesteps
        results = [
            evaluate(self.game, agent, b, games, seed=self.config.eval_seed, max_decisions=self.config.max_decisions)
            for b in self.baselines
        ]
        path = self.out / "eval.csv"
        new = not path.exists()
        with open(path, "a", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            if new:
                w.writerow(EVAL_FIELDS)
            for r in results:
                w.writerow(r.csv_row(t))
        for r in results:
            self.latest_eval[r.opponent] = r.win_rate
            self._record(f"eval/win_rate_vs_{r.opponent}", r.win_rate)
        return results

    def _record(self, key: str, value: float) -> None:
        """A TensorBoard scalar, once SB3's logger exists (it is made by ``learn``)."""
        if getattr(self.model, "_logger", None) is not None:
            self.model.logger.record(key, value)

    def plot(self) -> None:
        """Redraw learning_curve.png from eval.csv (at every checkpoint and at the end)."""
        path = self.out / "eval.csv"
        if path.exists():
            plot_learning_curve(
                path,
                self.out / "learning_curve.png",
                title=f"{self.config.env_id}, {self.game.num_players} players",
                chance=1.0 / self.game.num_players,
            )

    # ----- checkpoints -------------------------------------------------------------------------------
    def save_checkpoint(self, plot: bool = True) -> Path:
        import torch

        t = self.model.num_timesteps
        self.checkpoints.mkdir(parents=True, exist_ok=True)
        final = self.checkpoints / f"step_{t:010d}"
        tmp = self.checkpoints / f".tmp_step_{t:010d}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        self.model.save(tmp / "model.zip")
        state: dict[str, Any] = {
            "version": 1,
            "timesteps": t,
            "last_obs": self.model._last_obs,
            "last_episode_starts": self.model._last_episode_starts,
            "rng": {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()},
            "league": self.league.to_dict(),
            "schedule": dict(self.schedule),
        }
        if self.config.workers:  # each worker's games, observations, RNGs and statistics
            state["workers"] = self.venv.get_states()
        else:
            state["envs"] = self.venv.env_method("get_snapshot")
            state["monitor"] = {
                "returns": self.venv.episode_returns.copy(),
                "lengths": self.venv.episode_lengths.copy(),
                "count": self.venv.episode_count,
            }
        with open(tmp / "state.pkl", "wb") as f:
            pickle.dump(state, f)
        shutil.rmtree(final, ignore_errors=True)
        os.replace(tmp, final)
        pointer = self.checkpoints / "latest.txt"
        (self.checkpoints / "latest.tmp").write_text(final.name + "\n", encoding="utf-8")
        os.replace(self.checkpoints / "latest.tmp", pointer)
        for old in sorted(self.checkpoints.glob("step_*"))[:-2]:  # keep the newest two
            shutil.rmtree(old, ignore_errors=True)
        self.league.save()
        if plot:
            self.plot()
        return final

    # ----- the end -----------------------------------------------------------------------------------
    def _finish(self) -> dict[str, Any]:
        from agents.ppo import PPOAgent

        from .evaluate import results_table

        c = self.config
        t = self.model.num_timesteps
        final_path = self.out / "final.zip"
        self.model.save(final_path)
        saved = None
        if self.schedule.get("final_checkpoint") != t:
            self.schedule["final_checkpoint"] = t
            saved = self.save_checkpoint(plot=False)  # so that a later --resume with more --steps continues
        # Ctrl-C during the last rollout stops here; from now on it stops at once (a resume
        # only repeats the final evaluation).
        self._stop_if_requested(saved or self.latest_checkpoint())
        self._restore_sigint()
        self._phase = "final evaluation"
        agent = PPOAgent(self.game, str(final_path), deterministic=c.deterministic_eval)
        start = time.perf_counter()
        _truncate_csv(self.out / "eval.csv", t - 1)  # a repeated finish replaces its rows
        results = self.evaluate_now(c.final_eval_games, agent)
        if getattr(self.model, "_logger", None) is not None:
            self.model.logger.dump(step=t)  # the final point of the TensorBoard curves
        self.plot()
        summary = {
            "env_id": c.env_id,
            "num_players": self.game.num_players,
            "steps": t,
            "model": str(final_path),
            "agent_spec": f"ppo:{final_path}",
            "eval_seed": c.eval_seed,
            "deterministic": c.deterministic_eval,
            "results": [r.to_dict() for r in results],
            "league": self.league.summary(),
        }
        (self.out / "final_eval.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        if results:
            self.log(
                f"\n=== final evaluation: {c.env_id}, {self.game.num_players} players, "
                f"{c.final_eval_games} games per table, seats rotated, game g uses seed "
                f"{c.eval_seed}+g; a shared win counts 1/k ({time.perf_counter() - start:.0f}s) ==="
            )
            self.log(results_table(results))
        if not self.has_rule:
            self.log(f"({c.env_id} has no rule-based bot yet: evaluated against random only)")
        self.log(f"model: {final_path}   learning curve: {self.out / 'learning_curve.png'}")
        return summary


def _learner_class(config: TrainConfig) -> type[MaskablePPO]:
    """MaskablePPO, or its data-parallel form when ``config.workers`` is set."""
    if config.workers:
        from .distributed import data_parallel_ppo

        return data_parallel_ppo()
    from sb3_contrib import MaskablePPO

    return MaskablePPO


def _next(t: int, every: int) -> int:
    """The next multiple of ``every`` after ``t``."""
    return (t // every + 1) * every


def _truncate_csv(path: Path, max_step: int) -> None:
    """Drop evaluation rows after ``max_step`` (written after the checkpoint being resumed)."""
    if not path.exists():
        return
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    keep = [rows[0]] + [r for r in rows[1:] if int(r[0]) <= max_step]
    if len(keep) != len(rows):
        with open(path, "w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows(keep)


def read_eval_csv(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    with open(path, newline="", encoding="utf-8") as f:
        return [{k: (v if k == "opponent" else float(v)) for k, v in row.items()} for row in csv.DictReader(f)]


def plot_learning_curve(
    csv_path: str | os.PathLike[str], png_path: str | os.PathLike[str], title: str = "", chance: float | None = None
) -> None:
    """Win rate against each baseline over training steps, with 95% Wilson bands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_eval_csv(csv_path)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for opponent in dict.fromkeys(r["opponent"] for r in rows):
        pts = sorted((r["step"], r["win_rate"], r["ci_low"], r["ci_high"]) for r in rows if r["opponent"] == opponent)
        x = [p[0] for p in pts]
        (line,) = ax.plot(x, [p[1] for p in pts], marker="o", ms=3, label=f"vs {opponent}")
        ax.fill_between(x, [p[2] for p in pts], [p[3] for p in pts], color=line.get_color(), alpha=0.2)
    if chance is not None:
        ax.axhline(chance, color="grey", ls="--", lw=1, label=f"chance ({100 * chance:.0f}%)")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    tmp = Path(str(png_path) + ".tmp.png")
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, png_path)


def _self_play_callback(trainer: Trainer, interrupt_at: int | None) -> BaseCallback:
    """Glue between SB3's learn loop and the Trainer (a class made on demand: SB3 is imported only
    when training starts)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Callback(BaseCallback):
        def __init__(self) -> None:
            super().__init__(verbose=0)
            self.bar: Any = None  # a tqdm bar while training, with trainer.config.progress

        def _on_training_start(self) -> None:
            if trainer.config.progress:
                from tqdm import tqdm

                self.bar = tqdm(
                    total=trainer.config.steps,
                    initial=self.model.num_timesteps,
                    unit="step",
                    unit_scale=True,
                    file=sys.stderr,
                    dynamic_ncols=True,
                    desc=f"self-play {trainer.config.env_id}",
                    smoothing=0.05,
                    mininterval=0.2 if sys.stderr.isatty() else 30.0,
                    maxinterval=10.0 if sys.stderr.isatty() else 60.0,
                )

        def _on_rollout_start(self) -> None:
            trainer.on_rollout_start()
            if self.bar is not None and trainer.latest_eval:
                self.bar.set_postfix(
                    {f"vs {k}": f"{100 * v:.0f}%" for k, v in trainer.latest_eval.items()}, refresh=False
                )

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                result = info.get("selfplay")
                if result is not None:
                    trainer.record_game(result)
            if self.bar is not None:  # the last rollout may overshoot the target
                self.bar.update(max(0, min(self.training_env.num_envs, self.bar.total - self.bar.n)))
            if interrupt_at is not None and self.num_timesteps >= interrupt_at:
                raise KeyboardInterrupt
            return True

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.close()

    return Callback()


def load_config(out_dir: str | os.PathLike[str]) -> TrainConfig:
    path = Path(out_dir) / "config.json"
    return TrainConfig.from_dict(json.loads(path.read_text(encoding="utf-8")))
