"""The expert-iteration run (``ExpertIteration``): the first student, rounds of self-play and
learning, each committed atomically with its evaluation, exact resume from the last complete
round, and the final evaluation with the model to ship."""

from __future__ import annotations

import csv
import json
import os
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from smuggle_envs.core.errors import ConfigError

from ..config import BASELINES, MIXED
from .config import INITS, RECIPE, ExpertConfig
from .games import GameTask, Positions, _LocalGames, _RayGames
from .learner import fit, new_student, numpy_student
from .teacher import check_teacher, resolve_teacher

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO

    from agents.ppo import NumpyPolicy

    from ..evaluate import EvalResult

ROUND_FIELDS = (
    "round",
    "games",
    "positions",
    "total_positions",
    "decisions_per_game",
    "sims_per_search",
    "selfplay_seconds",
    "learn_seconds",
    "eval_seconds",
    "first_kl",
    "kl",
    "cross_entropy",
    "value_mse",
)


def _bar(progress: bool, total: int, desc: str, unit: str) -> Any:
    from ..imitation import _bar as bar

    return bar(progress, total, desc, unit)


class ExpertIteration:
    """One expert-iteration run in ``out_dir``; see the package docstring (``training.selfplay.expert``).
    ``run(resume=...)`` plays and learns ``config.rounds`` rounds, then evaluates; returns the
    summary (also in ``final_eval.json``)."""

    model: MaskablePPO

    def __init__(
        self,
        config: ExpertConfig,
        out_dir: str | os.PathLike[str],
        log: Callable[[str], None] | None = None,
        backend: str = "local",
        ray_address: str | None = None,
    ):
        config.validate()
        if backend not in ("local", "ray"):
            raise ConfigError(f"backend must be local or ray, got {backend!r}")
        if backend == "ray" and not config.workers:
            raise ConfigError("the ray backend plays the games in W Ray tasks: set workers (--workers W)")
        self.config, self.out = config, Path(out_dir)
        self.backend, self.ray_address = backend, ray_address
        self.log: Callable[[str], None] = log or (lambda text: print(text, flush=True))
        from ..device import resolve_device
        from ..trainer import rule_bot_available

        self.device = resolve_device(config.device, 0, self.log)  # the games never touch torch
        self.game = config.game_spec().make_game()
        self.teacher = check_teacher(config.teacher, self.game)
        if config.init not in INITS:
            self._init_network()  # a missing or unfit network fails now
        if "seconds" in self.teacher:
            self.log("the teacher searches for a wall time (seconds=): this run is not reproducible")
        self.has_rule = rule_bot_available(self.game)
        baselines = [b for b in BASELINES if b != "rule" or self.has_rule]
        self.eval_tables = baselines + ([MIXED] if self.has_rule and config.eval_mixed else [])
        self.state: dict[str, Any] = {}  # of the last complete round: round, positions, best, wall
        self._started = time.perf_counter()

    @property
    def rounds_dir(self) -> Path:
        return self.out / "rounds"

    def round_dir(self, r: int) -> Path:
        return self.rounds_dir / f"round_{r:04d}"

    def latest_round(self) -> int | None:
        """The newest complete round (0: the first student), or None before it."""
        pointer = self.rounds_dir / "latest.txt"
        if not pointer.exists():
            return None
        name = pointer.read_text(encoding="utf-8").strip()
        return int(name.removeprefix("round_")) if (self.rounds_dir / name / "state.json").exists() else None

    @property
    def selection_baseline(self) -> str:
        return "rule" if self.has_rule else "random"

    def run(self, resume: bool = False) -> dict[str, Any]:
        import torch

        torch.set_num_threads(self.config.torch_threads)
        self.out.mkdir(parents=True, exist_ok=True)
        self._started = time.perf_counter()
        done = self.latest_round() if resume else None
        if resume and done is None:
            self.log(f"no complete round in {self.out} yet: starting the run from the beginning")
        if done is None:
            self._start_fresh()
        else:
            self._restore(done)
        games = (
            _RayGames(self.config.workers, self.ray_address)
            if self.backend == "ray"
            else _LocalGames(self.config.workers)
        )
        bar = _bar(self.config.progress, self.config.rounds, f"expert iteration {self.config.env_id}", "round")
        if bar is not None:
            bar.leave = True
            bar.update(min(self.state["round"], self.config.rounds))
        try:
            for r in range(self.state["round"] + 1, self.config.rounds + 1):
                self._round(r, games)
                if bar is not None:
                    bar.set_postfix(
                        {f"vs {k}": f"{100 * v:.0f}%" for k, v in self.state["eval"].items()}, refresh=False
                    )
                    bar.update(1)
        finally:
            games.close()
            if bar is not None:
                bar.close()
        return self._finish()

    def training_seconds(self) -> float:
        return float(self.state.get("wall_seconds", 0.0)) + time.perf_counter() - self._started

    # ----- setup -----------------------------------------------------------------------------------
    def _init_network(self) -> NumpyPolicy:
        from ..weights import load_init

        return load_init(self.config.init, self.game)

    def _start_fresh(self) -> None:
        c = self.config
        for stale in ("eval.csv", "rounds.csv", "final_eval.json", "learning_curve.png", "final.zip", "best.zip"):
            (self.out / stale).unlink(missing_ok=True)
        shutil.rmtree(self.rounds_dir, ignore_errors=True)
        (self.out / "config.json").write_text(json.dumps(c.to_dict(), indent=1) + "\n", encoding="utf-8")
        network = self._init_network() if c.init not in INITS else None
        self.model = new_student(c, self.game, self.device, network)
        if c.init == "imitate":
            self._imitate()
        self.log(
            f"expert iteration on {c.env_id} ({self.game.num_players} players): {c.rounds} rounds of "
            f"{c.games_per_round} games, teacher {c.teacher!r}, into {self.out}"
        )
        self.state = {"round": 0, "positions": 0, "best": None, "wall_seconds": 0.0, "eval": {}}
        self._evaluate(0)
        self._commit(0, None, {})

    def _imitate(self) -> None:
        """Behaviour cloning of ``config.imitate`` (``smuggle train``'s warm start), its value head
        fitted to the ``win_loss`` outcome (no shaping, no discount), as the rounds fit it."""
        from ..config import TrainConfig
        from ..trainer import warm_start

        c = self.config
        if c.imitate == "rule" and not self.has_rule:
            self.log(f"{c.env_id} has no rule-based bot: no imitation warm start")
            return
        if not c.imitation_samples or not c.imitation_epochs:
            return
        clone_config = TrainConfig(
            env_id=c.env_id,
            num_players=c.num_players,
            game_options=dict(c.game_options),
            seed=c.seed,
            imitate=c.imitate,
            imitation_samples=c.imitation_samples,
            imitation_epochs=c.imitation_epochs,
            batch_size=c.batch_size,
            dense_score=0.0,
            gamma=1.0,
            vf_coef=c.value_weight,
            max_decisions=c.max_decisions,
            progress=c.progress,
        )
        start = time.perf_counter()
        data, stats = warm_start(self.model, self.game, clone_config, c.imitation_samples)
        self.log(
            f"warm start: cloned {c.imitate!r} from {len(data)} decisions in {time.perf_counter() - start:.0f}s "
            f"(its action over half the probability in {100 * stats['teacher_over_half']:.0f}% of them)"
        )

    def _restore(self, done: int) -> None:
        from sb3_contrib import MaskablePPO

        folder = self.round_dir(done)
        self.model = MaskablePPO.load(folder / "model.zip", device=self.device)
        self.state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
        (self.out / "config.json").write_text(json.dumps(self.config.to_dict(), indent=1) + "\n", encoding="utf-8")
        # Rows written after the round being resumed (its successor's, never committed) go.
        from ..trainer import _truncate_csv

        _truncate_csv(self.out / "eval.csv", self.state["positions"])
        _truncate_csv(self.out / "rounds.csv", done)
        self.log(f"resuming {self.config.env_id} after round {done} towards {self.config.rounds} rounds")

    # ----- a round ---------------------------------------------------------------------------------
    def _round(self, r: int, games: _LocalGames | _RayGames) -> None:
        """Play round ``r``'s games with the last student guiding the teacher, fit, evaluate, commit."""
        c = self.config
        start = time.perf_counter()
        student = (self.round_dir(r - 1) / "student.npz").resolve()
        teacher = resolve_teacher(self.teacher, str(student))
        spec = c.game_spec()
        tasks = [
            GameTask(spec, teacher, (c.seed, r, g), c.explore_moves, c.temperature, c.max_decisions)
            for g in range(c.games_per_round)
        ]
        bar = _bar(c.progress, len(tasks), f"round {r}: self-play", "game")
        records = []
        for record in games.map(tasks):
            records.append(record)
            if bar is not None:
                bar.update(1)
        if bar is not None:
            bar.close()
        positions = Positions.concat([record.positions for record in records])
        played = time.perf_counter()
        data = Positions.concat([*self._replay(r), positions])
        batches = c.epochs * -(-len(data) // c.batch_size)
        bar = _bar(c.progress, batches, f"round {r}: learning ({len(data)} positions)", "batch")
        stats = fit(self.model, data, c, np.random.default_rng([c.seed, r, 1]), bar)
        if bar is not None:
            bar.close()
        learnt = time.perf_counter()
        self.state["round"] = r
        self.state["positions"] += len(positions)
        self._evaluate(r)
        evaluated = time.perf_counter()
        searches = sum(record.searches for record in records)
        row = {
            "round": r,
            "games": len(records),
            "positions": len(positions),
            "total_positions": self.state["positions"],
            "decisions_per_game": round(len(positions) / len(records), 1),
            "sims_per_search": round(sum(record.iterations for record in records) / max(searches, 1), 1),
            "selfplay_seconds": round(played - start, 2),
            "learn_seconds": round(learnt - played, 2),
            "eval_seconds": round(evaluated - learnt, 2),
            **{k: round(stats[k], 6) for k in ("first_kl", "kl", "cross_entropy", "value_mse")},
        }
        self._commit(r, positions, row)
        rates = ", ".join(f"vs {k} {100 * v:.0f}%" for k, v in self.state["eval"].items())
        self.log(
            f"round {r}/{c.rounds}: {len(records)} games, {len(positions)} positions in {played - start:.1f}s; "
            f"fit on {len(data)} in {learnt - played:.1f}s (KL to the visits {stats['first_kl']:.3f} -> "
            f"{stats['kl']:.3f}, value MSE {stats['value_mse']:.3f}){'; ' + rates if rates else ''}"
        )

    def _replay(self, r: int) -> list[Positions]:
        """The positions of the ``replay_rounds - 1`` rounds before ``r`` (oldest first)."""
        first = max(1, r - self.config.replay_rounds + 1)
        paths = [self.round_dir(k) / "positions.npz" for k in range(first, r)]
        missing = [p.parent.name for p in paths if not p.exists()]
        if missing:  # replay_rounds was raised on --resume: those rounds' positions were dropped
            self.log(f"round {r}: no positions left of {', '.join(missing)} to replay")
        return [Positions.load(p) for p in paths if p.exists()]

    def _evaluate(self, r: int) -> None:
        """The student against every table (``eval_games`` each), into eval.csv at the step of the
        positions learnt so far; the best round so far (``keep_best``) is remembered."""
        from agents.ppo import PolicyAgent

        from ..evaluate import EVAL_FIELDS, evaluate

        c = self.config
        if not c.eval_games:
            return
        agent = PolicyAgent(numpy_student(self.model), deterministic=c.deterministic_eval)
        bar = _bar(c.progress, c.eval_games * len(self.eval_tables), f"round {r}: evaluation", "game")
        progress = None if bar is None else bar.update
        results = [
            evaluate(
                self.game, agent, t, c.eval_games, seed=c.eval_seed, max_decisions=c.max_decisions, progress=progress
            )
            for t in self.eval_tables
        ]
        if bar is not None:
            bar.close()
        _append_csv(self.out / "eval.csv", EVAL_FIELDS, [res.csv_row(self.state["positions"]) for res in results])
        self.state["eval"] = {res.opponent: res.win_rate for res in results}
        best = self.state.get("best")
        chosen = next((res for res in results if res.opponent == self.selection_baseline), None)
        if c.keep_best and r > 0 and chosen is not None and (best is None or chosen.win_rate > best["win_rate"]):
            self.state["best"] = {"round": r, "step": self.state["positions"], **chosen.to_dict()}
        self._plot()

    def _commit(self, r: int, positions: Positions | None, row: dict[str, Any]) -> None:
        """Write round ``r`` (model with its Adam state, the student's npz, the positions, the
        state) into a temporary folder, move it into place and point latest.txt at it; then drop
        positions no later round will replay."""
        final, tmp = self.round_dir(r), self.rounds_dir / f".tmp_round_{r:04d}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        self.model.save(tmp / "model.zip")
        numpy_student(self.model).save(tmp / "student.npz")
        if positions is not None:
            positions.save(tmp / "positions.npz")
        if row:
            _append_csv(self.out / "rounds.csv", ROUND_FIELDS, [[row[k] for k in ROUND_FIELDS]])
        self.state["wall_seconds"] = self.training_seconds()
        self._started = time.perf_counter()
        (tmp / "state.json").write_text(json.dumps(self.state, indent=1) + "\n", encoding="utf-8")
        shutil.rmtree(final, ignore_errors=True)
        os.replace(tmp, final)
        (self.rounds_dir / "latest.tmp").write_text(final.name + "\n", encoding="utf-8")
        os.replace(self.rounds_dir / "latest.tmp", self.rounds_dir / "latest.txt")
        # Round r + 1 replays rounds r + 2 - replay_rounds .. r; the latest is kept even without replay.
        stale = self.round_dir(r - max(self.config.replay_rounds - 1, 1)) / "positions.npz"
        stale.unlink(missing_ok=True)

    def _plot(self) -> None:
        from ..trainer import plot_learning_curve

        path = self.out / "eval.csv"
        if path.exists():
            title = f"{self.config.env_id}, {self.game.num_players} players, expert iteration"
            plot_learning_curve(path, self.out / "learning_curve.png", title=title, chance=1.0 / self.game.num_players)

    # ----- the end ---------------------------------------------------------------------------------
    def _finish(self) -> dict[str, Any]:
        """final.zip / final.npz / best.zip, the final evaluation of the last and the best round on
        the same games, and final_eval.json with the model to ship (``recommended``)."""
        from ..evaluate import results_table

        c = self.config
        wall = self.training_seconds()
        final_path = self.out / "final.zip"
        self.model.save(final_path)
        numpy_student(self.model).save(self.out / "final.npz")
        start = time.perf_counter()
        results = self._final_games(final_path)
        best_info = self._best(results)
        ship = self.out / "best.zip" if best_info is not None and best_info["ship"] else final_path
        summary = {
            "recipe": RECIPE,
            "teacher": c.teacher,
            "env_id": c.env_id,
            "num_players": self.game.num_players,
            "rounds": self.state["round"],
            "steps": self.state["positions"],  # positions learnt from (each round's once)
            "training_wall_seconds": round(wall, 1),
            "model": str(final_path),
            "agent_spec": f"ppo:{final_path}",
            "best": best_info,
            "recommended": f"ppo:{ship}",
            "eval_seed": c.eval_seed,
            "deterministic": c.deterministic_eval,
            "results": [res.to_dict() for res in results],
        }
        (self.out / "final_eval.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        if results:
            self.log(
                f"\n=== final evaluation: {c.env_id}, {self.game.num_players} players, after {self.state['round']} "
                f"rounds of expert iteration, {c.final_eval_games} games per table, seats rotated, game g uses "
                f"seed {c.eval_seed}+g ({time.perf_counter() - start:.0f}s) ==="
            )
            self.log(results_table(results))
            self.log(f"recommended (the stronger against {self.selection_baseline} here): ppo:{ship}")
        self.log(f"model: {final_path}   learning curve: {self.out / 'learning_curve.png'}")
        return summary

    def _final_games(self, path: Path) -> list[EvalResult]:
        """The model in ``path`` against every table, ``final_eval_games`` each (seeds as periodic)."""
        from agents.ppo import PPOAgent

        from ..evaluate import evaluate

        c = self.config
        if not c.final_eval_games:
            return []
        agent = PPOAgent(self.game, str(path), deterministic=c.deterministic_eval)
        return [
            evaluate(self.game, agent, t, c.final_eval_games, seed=c.eval_seed, max_decisions=c.max_decisions)
            for t in self.eval_tables
        ]

    def _best(self, results: list[EvalResult]) -> dict[str, Any] | None:
        """best.zip (the best round's model) played on the final evaluation's games, and whether to
        ship it rather than the last round's (stronger against the selection baseline)."""
        best = self.state.get("best")
        if best is None:
            return None
        path = self.out / "best.zip"
        shutil.copyfile(self.round_dir(best["round"]) / "model.zip", path)
        if not results:
            return None
        same = best["round"] == self.state["round"]  # the last round is the best: one model
        best_results = results if same else self._final_games(path)
        key = self.selection_baseline
        rate = {res.opponent: res.win_rate for res in best_results}[key]
        last = {res.opponent: res.win_rate for res in results}[key]
        return {
            "round": best["round"],
            "step": best["step"],
            "model": str(path),
            "agent_spec": f"ppo:{path}",
            "selected_by": f"evaluation after round {best['round']} vs {key}: "
            f"{100 * best['win_rate']:.1f}% in {best['games']} games",
            "results": [res.to_dict() for res in best_results],
            "ship": rate > last,
        }


def _append_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    new = not path.exists()
    with open(path, "a", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        if new:
            writer.writerow(header)
        writer.writerows(rows)
