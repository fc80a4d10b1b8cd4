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

**Defaults** were tuned for Smuggle with 4 players on 2 CPU cores (see docs/training.md and
docs/benchmarks.md): an in-process vector env of 8 games (SB3's subprocess workers were slower on
2 busy cores: a step is two pipe round trips per game, and each waits for a time slice; games
whose network opponents decide together, ``vec_env``, were no faster), the learner's rollouts in numpy (``rollout``), one
torch thread (two speed the update up on an idle machine and slow it down far more while another
process keeps a core busy: docs/benchmarks.md), distribution argument checks off (they cost
a third of the rollout time), and the update's masked softmax and Adam step fused
(``update_ops``, ``policy``; ``"sb3"`` gives sb3-contrib's numbers to the last bit).
A script that uses ``vec="subprocess"`` needs the usual
``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import json
import os
import pickle
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from smuggle_envs.core.errors import ConfigError
from training.match import build_agent

from .config import BASELINES, MIXED, TrainConfig, make_local_vec_env, policy_spec, ppo_kwargs
from .learner import fast_distribution as _fast_distribution
from .learner import learner_class as _learner_class  # a module name benchmarks/train_scaling.py patches
from .learner import warm_start
from .rng import global_rng_state, set_global_rng_state

__all__ = ["BASELINES", "TrainConfig", "Trainer", "TrainingStopped", "load_config", "make_vec_env", "ppo_kwargs"]

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from agents.base import Agent
    from smuggle_envs.core.game import Game

    from .evaluate import EvalResult
    from .league import League

_DEMO_BYTES = 512 * 2**20


def blas_threads(n: int) -> contextlib.AbstractContextManager[Any]:
    """numpy's BLAS held to ``n`` threads while a run trains in this process (torch's own count,
    ``torch_threads``). The numpy rollout's small matrix products gain nothing from a second
    thread, which spins on a core the process needs (Import / Export's wide observation most:
    more wall time and far more CPU time with OpenBLAS's default). Worker processes get the same
    from their environment (``distributed.ONE_THREAD``)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # scikit-learn brings it with the train extra; without it, numpy's default
        return contextlib.nullcontext()
    return threadpool_limits(limits=n, user_api="blas")


def rule_bot_available(game: Game) -> bool:
    """Whether ``game`` has a rule-based bot (``training.match.build_agent`` falls back to
    random, with a label ``"rule->random"``, where it has none yet)."""
    return build_agent("rule", game, seed=0)[1] == "rule"


def make_vec_env(
    config: TrainConfig, vec: str | None = None, backend: str = "local", address: str | None = None
) -> VecMonitor:
    """The trainer's vector env: the games of ``config.workers`` data-parallel workers (see
    ``distributed``; ``backend`` "local" or "ray"), or ``make_local_vec_env``."""
    if config.workers:
        from .distributed import worker_vec_env

        return worker_vec_env(config, backend, address)
    return make_local_vec_env(config, config.n_envs, vec)


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
        self.config = config
        self.out = Path(out_dir)
        self.log: Callable[[str], None] = log or (lambda text: print(text, flush=True))
        from .device import resolve_device

        # Before any work: --device cuda without a GPU is a one-line error here.
        self.device = resolve_device(config.device, config.workers, self.log)
        self.vec = vec or config.vec  # may differ on resume: results do not depend on it
        self.backend, self.ray_address = backend, ray_address  # nor on these
        self.game = config.game_spec().make_game()
        self.has_rule = rule_bot_available(self.game)
        self.baselines = [b for b in BASELINES if b != "rule" or self.has_rule]
        # What the periodic and final evaluations play: each baseline's table, and the mixed one.
        self.eval_tables = self.baselines + ([MIXED] if self.has_rule and config.eval_mixed else [])
        self.schedule: dict[str, int] = {}
        self.latest_eval: dict[str, float] = {}
        self.best: dict[str, Any] | None = None  # the best periodic evaluation so far (keep_best)
        self.callback: Any = None
        self.stop_requested = False
        self._phase = "setup"  # "warm start", "learning", "final evaluation": for Ctrl-C's notice
        self._sigint_handled = False  # run(handle_sigint=True) installed _on_sigint
        self._previous_sigint: Any = None
        # Training time (warm start and learning, not the final evaluation), carried across
        # resumes in the checkpoints: the training cost the model zoo records.
        self._started = time.perf_counter()
        self._wall_before = 0.0

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
        self._started = time.perf_counter()
        checkpoint = self.latest_checkpoint() if resume else None
        if resume and checkpoint is None:
            self.log(f"no checkpoint in {self.out} yet: starting the run from the beginning")
        if handle_sigint and threading.current_thread() is threading.main_thread():
            self._previous_sigint = signal.signal(signal.SIGINT, self._on_sigint)
            self._sigint_handled = True
        with blas_threads(self.config.torch_threads):
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
        for stale in ("eval.csv", "final_eval.json", "learning_curve.png", "final.zip", "best.zip", "best.json"):
            (self.out / stale).unlink(missing_ok=True)
        fixed = [b for b in c.baselines_in_league if b != "rule" or self.has_rule]
        if not fixed:
            fixed = ["random"]  # the pool must not be empty before the first snapshot
        self.league = League(
            self.out / "league",
            initial_entries(fixed),
            max_snapshots=c.max_snapshots,
            max_exploiters=c.max_exploiters,
            weighting=c.weighting,
            baseline_share=c.baseline_share,
        )
        policy, policy_kwargs = policy_spec(c, self.game.observation_layout.size)
        network = critic = None
        if c.init:
            from .weights import load_init, network_kwargs, own_critic

            network = load_init(c.init, self.game)
            critic = own_critic(network, self.game)
            policy_kwargs = network_kwargs(network, critic)
        self.model = _learner_class(c)(
            policy,
            self.venv,
            seed=c.seed,
            device=self.device,
            verbose=0,
            policy_kwargs=policy_kwargs,
            tensorboard_log=self._tb_dir(),
            **ppo_kwargs(c),
        )
        _fast_distribution(self.model, c)
        self.schedule = {"snapshot": c.snapshot_every, "eval": 0, "checkpoint": c.checkpoint_every}
        if network is not None:
            from .weights import copy_network

            copy_network(self.model.policy, network, critic)
            self.log(f"starting weights: {c.init} (no imitation warm start)")
        elif c.imitate:
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
        from gymnasium.spaces import flatdim

        row_bytes = 4 * flatdim(self.model.observation_space) + self.game.num_actions
        cap = max(10_000, _DEMO_BYTES // row_bytes)
        samples = min(c.imitation_samples, cap)
        data, stats = warm_start(self.model, self.game, c, samples, limit=cap)
        self.log(
            f"warm start: cloned {c.imitate!r} from {len(data)} decisions in "
            f"{time.perf_counter() - start:.0f}s (the teacher's action gets over half the "
            f"probability in {100 * stats['teacher_over_half']:.0f}% of them)"
        )

    def _restore(self, checkpoint: Path) -> None:

        from .league import League

        with open(checkpoint / "state.pkl", "rb") as f:
            state = pickle.load(f)
        self.model = _learner_class(self.config).load(
            checkpoint / "model.zip",
            env=self.venv,
            device=self.device,
            force_reset=False,
            tensorboard_log=self._tb_dir(),
        )
        _fast_distribution(self.model, self.config)
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
        set_global_rng_state(state["rng"])
        (self.out / "config.json").write_text(
            json.dumps(self.config.to_dict(), indent=1) + "\n", encoding="utf-8"
        )  # e.g. a new, larger --steps
        self.league = League.from_dict(self.out / "league", state["league"])
        self.league.save()
        self.schedule = dict(state["schedule"])
        self.best = state.get("best")
        self._wall_before = float(state.get("wall_seconds", 0.0))
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
        if c.exploiter_every and t >= s.setdefault("exploiter", c.exploiter_every):
            s["exploiter"] = _next(t, c.exploiter_every)
            self._train_exploiter(t)
        if t >= s["eval"]:
            s["eval"] = _next(t, c.eval_every)
            # Never more games than the final evaluation: a quick run asks for a quick curve.
            results = self.evaluate_now(min(c.eval_games, c.final_eval_games))
            if c.keep_best and t > 0:
                self._keep_if_best(results)
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

    def _train_exploiter(self, t: int) -> None:
        """A best response to the learner of step ``t`` joins the league (``exploiter_every``).
        It starts from the learner's weights and trains in this process, its seed the run's plus
        the step; the global random streams its seeding resets are put back afterwards, so the
        learner's own draws do not depend on it."""
        from . import best_response

        c = self.config
        start = time.perf_counter()
        target = self.league.exploiter_path(t).with_name(f"target_{t:010d}.zip")
        target.parent.mkdir(parents=True, exist_ok=True)
        self.model.save(target)
        rng = global_rng_state()
        config = dataclasses.replace(
            c, steps=c.exploiter_steps, seed=c.seed + t, imitate=None, init=None, workers=0, progress=False
        )
        try:
            best_response.train(self.game, f"ppo:{target}", config, self.league.exploiter_path(t), self.model)
        finally:
            set_global_rng_state(rng)
        entry = self.league.add_exploiter(t)
        self.league.save()
        self.log(
            f"exploiter {entry.id}: {c.exploiter_steps} steps against the learner ({time.perf_counter() - start:.0f}s)"
        )

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
            for b in self.eval_tables
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

    @property
    def selection_baseline(self) -> str:
        """The baseline the best checkpoint is chosen against: the rule bot where there is one."""
        return "rule" if self.has_rule else "random"

    def _keep_if_best(self, results: list[EvalResult]) -> None:
        """Save the learner as best.zip if it beat the best periodic evaluation so far."""
        result = next((r for r in results if r.opponent == self.selection_baseline), None)
        if result is None or (self.best is not None and result.win_rate <= self.best["win_rate"]):
            return
        tmp = self.out / "best.tmp.zip"
        self.model.save(tmp)
        os.replace(tmp, self.out / "best.zip")
        self.best = {"step": self.model.num_timesteps, **result.to_dict()}
        (self.out / "best.json").write_text(json.dumps(self.best, indent=1) + "\n", encoding="utf-8")

    def _final_best(self, final_results: list[EvalResult]) -> tuple[dict[str, Any], list[EvalResult]] | None:
        """Play best.zip on the final evaluation's games; say which model to ship."""
        from agents.ppo import PPOAgent

        from .evaluate import evaluate

        c, best = self.config, self.best
        path = self.out / "best.zip"
        if best is None or not path.exists() or not final_results:
            return None
        agent = PPOAgent(self.game, str(path), deterministic=c.deterministic_eval)
        results = [
            evaluate(self.game, agent, b, c.final_eval_games, seed=c.eval_seed, max_decisions=c.max_decisions)
            for b in self.eval_tables
        ]
        key = self.selection_baseline
        rate = {r.opponent: r.win_rate for r in results}[key]
        last = {r.opponent: r.win_rate for r in final_results}[key]
        info = {
            "step": best["step"],
            "model": str(path),
            "agent_spec": f"ppo:{path}",
            "selected_by": f"periodic evaluation vs {key}: {100 * best['win_rate']:.1f}% in {best['games']} games",
            "results": [r.to_dict() for r in results],
            "ship": rate > last,
        }
        return info, results

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
    def training_seconds(self) -> float:
        """Wall-clock seconds spent training so far, over every resume (up to the checkpoint
        each resumed from)."""
        return self._wall_before + time.perf_counter() - self._started

    def save_checkpoint(self, plot: bool = True) -> Path:

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
            "rng": global_rng_state(),
            "league": self.league.to_dict(),
            "schedule": dict(self.schedule),
            "best": self.best,
            "wall_seconds": self.training_seconds(),
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

        c = self.config
        t = self.model.num_timesteps
        wall = self.training_seconds()
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
        found = self._final_best(results) if c.keep_best else None
        best, best_results = found if found else (None, [])
        ship = best["model"] if best and best["ship"] else str(final_path)
        summary = {
            "env_id": c.env_id,
            "num_players": self.game.num_players,
            "steps": t,
            "training_wall_seconds": round(wall, 1),
            "model": str(final_path),
            "agent_spec": f"ppo:{final_path}",
            "best": best,
            "recommended": f"ppo:{ship}",
            "eval_seed": c.eval_seed,
            "deterministic": c.deterministic_eval,
            "results": [r.to_dict() for r in results],
            "league": self.league.summary(),
        }
        (self.out / "final_eval.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        self._log_final(results, best, best_results, ship, final_path, time.perf_counter() - start)
        return summary

    def _log_final(
        self,
        results: list[Any],
        best: dict[str, Any] | None,
        best_results: list[Any],
        ship: str,
        final_path: Path,
        seconds: float,
    ) -> None:
        """The final evaluation's tables, the best checkpoint's and the recommendation, on the log."""
        from .evaluate import results_table

        c = self.config
        if results:
            self.log(
                f"\n=== final evaluation: {c.env_id}, {self.game.num_players} players, "
                f"{c.final_eval_games} games per table, seats rotated, game g uses seed "
                f"{c.eval_seed}+g; a shared win counts 1/k ({seconds:.0f}s) ==="
            )
            self.log(results_table(results))
        if best is not None:
            self.log(
                f"best checkpoint (step {best['step']}, {best['selected_by']}), on the same games:\n"
                + results_table(best_results, name="best")
            )
            self.log(f"recommended (the stronger against {self.selection_baseline} here): ppo:{ship}")
        if not self.has_rule:
            self.log(f"({c.env_id} has no rule-based bot yet: evaluated against random only)")
        self.log(f"model: {final_path}   learning curve: {self.out / 'learning_curve.png'}")


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
    """The rows of an eval.csv, numbers as floats (an empty ``rival_win_rate``: None)."""
    with open(path, newline="", encoding="utf-8") as f:
        return [
            {k: (v if k == "opponent" else float(v) if v else None) for k, v in row.items()}
            for row in csv.DictReader(f)
        ]


def plot_learning_curve(
    csv_path: str | os.PathLike[str], png_path: str | os.PathLike[str], title: str = "", chance: float | None = None
) -> None:
    """Win rate against each baseline over training steps, with 95% Wilson bands, the games per
    point on the axis, the chance line (dashed) and the legend beside the axes, off the data."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    rows = read_eval_csv(csv_path)
    fig, ax = plt.subplots(figsize=(9, 4.2))
    for opponent in dict.fromkeys(r["opponent"] for r in rows):
        pts = sorted((r["step"], r["win_rate"], r["ci_low"], r["ci_high"]) for r in rows if r["opponent"] == opponent)
        x = [p[0] for p in pts]
        (line,) = ax.plot(x, [p[1] for p in pts], marker="o", ms=3, label=f"vs {opponent}")
        ax.fill_between(x, [p[2] for p in pts], [p[3] for p in pts], color=line.get_color(), alpha=0.2)
        rivals = sorted(
            (r["step"], r["rival_win_rate"])
            for r in rows
            if r["opponent"] == opponent and r.get("rival_win_rate") is not None
        )
        if rivals:  # a mixed table: the best opponent kind's win rate at the same tables
            ax.plot(*zip(*rivals), ls="--", color=line.get_color(), lw=1, label=f"best rival at the {opponent} tables")
    if chance is not None:
        players = f"1 in {round(1 / chance)} players, " if chance > 0 else ""
        ax.axhline(chance, color="grey", ls="--", lw=1, label=f"chance ({players}{100 * chance:.0f}%)")
    games = sorted({int(r["games"]) for r in rows if r.get("games")})
    per_point = "/".join(f"{g:,}" for g in games)
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel(f"win rate (%)\n{per_point} games per point, 95% Wilson band" if games else "win rate (%)")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, fontsize=8)
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
