"""Expert iteration: a MaskablePPO network taught by the search it guides (``smuggle train --teacher``).

``smuggle train ENV --teacher "ismcts:prior=student;value=student;sims=100"`` trains a student
network the way ExIt (Anthony et al. 2017) and AlphaZero do, round after round:

1. **Self-play positions.** ``games_per_round`` games in which every seat is the teacher, an
   IS-MCTS search (:class:`agents.search.ISMCTSAgent`) whose ``prior=student`` / ``value=student``
   is the *current* student's numpy network (``ppo:PATH`` or ``zoo`` names a fixed network
   instead). Each decision records the seat's observation, its action mask and the search's root
   visit distribution (``ISMCTSAgent.last_visits``); when the game ends, every decision gets its
   seat's ``win_loss`` outcome. For the first ``explore_moves`` decisions of a game the move is
   sampled from the visits (``visits ** (1 / temperature)``), after that it is the search's own.
   The networks in the search read sampled worlds only (:class:`agents.search_net.SearchNetwork`):
   the true state reaches no network.
2. **Learning.** The student (an sb3-contrib MaskablePPO policy, so its zip plays as ``ppo:PATH``,
   joins the zoo with ``smuggle zoo add`` and warm-starts PPO with ``--imitate ppo:PATH``) is fitted
   for ``epochs`` epochs to this round's positions and those of the ``replay_rounds - 1`` before:
   cross-entropy of its masked policy to the visit distribution plus ``value_weight`` times the
   squared error of its value head to the outcome (``expert_loss``), Adam (the model's own
   optimizer, saved in its zip) with gradients clipped to ``max_grad_norm``.
3. **Checkpoint and evaluation.** The round's model (zip and npz), positions and state are
   committed together; the student is evaluated against the random and rule-based agents
   (``evaluate.py``), and the next round's search is guided by it.

**Workers.** ``workers`` W > 0 plays the round's games in W processes (``backend="ray"``: W Ray
tasks at a time); game ``g`` of round ``r`` is seeded from ``(seed, r, g)`` alone and the games
are assembled in game order, so W and the backend do not change the data (tests compare W = 1
and W = 2). The learner runs in the main process (``device``).

**Determinism and resume.** Everything is a function of the seed: the deals, the searches' own
RNGs, the exploration draws, the minibatch order (a generator seeded from ``(seed, r)``) and
the initial weights. A round is committed atomically (``rounds/round_NNNN/`` and
``rounds/latest.txt``), so a run stopped at any point resumes from its last complete round into
exactly the run that was not stopped (a test compares the npz bytes). A teacher with
``seconds=`` searches for a wall time instead of a number of simulations, and is not
reproducible.

The run directory::

    config.json                 {"recipe": "expert-iteration", "teacher": ..., the ExpertConfig}
    final.zip, final.npz        the last student: agent spec "ppo:<out>/final.zip"
    best.zip                    the round that did best against the rule bot (random without one)
    final_eval.json             the final evaluation, "recommended" as ``smuggle train`` writes it
    eval.csv, learning_curve.png the student's win rates after every round (step: positions learnt)
    rounds.csv                  per round: games, positions, times, losses
    rounds/round_NNNN/          model.zip (with Adam), student.npz, positions.npz, state.json
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import os
import shutil
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from smuggle_envs.core.errors import ConfigError
from smuggle_envs.core.spec import GameSpec

from .config import BASELINES, MIXED, run_game_spec

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO

    from agents.ppo import NumpyPolicy
    from smuggle_envs.core.game import Game

    from .evaluate import EvalResult

RECIPE = "expert-iteration"
STUDENT = "student"  # in the teacher spec: the student's current network
_NETWORK_OPTIONS = ("prior", "value")
INITS = ("none", "imitate")  # or a network spec: zoo[:ENV[@N]], ppo:PATH
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


@dataclasses.dataclass
class ExpertConfig:
    """Everything that defines an expert-iteration run; saved in ``config.json`` with the recipe."""

    env_id: str = "smuggle_v0"
    num_players: int | None = None  # None: the game's default
    game_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    teacher: str = "ismcts:sims=100;prior=student;value=student"
    seed: int = 0
    rounds: int = 20
    games_per_round: int = 32
    # Self-play: the first explore_moves decisions of each game (every seat's) play an action
    # sampled from visits ** (1 / temperature), as AlphaZero's opening moves do; then the search's.
    explore_moves: int = 30
    temperature: float = 1.0
    max_decisions: int | None = 5000  # truncates a runaway game (no winner: outcome 0)
    # The learner: Adam on (cross-entropy to the visits) + value_weight * (value - outcome)^2.
    epochs: int = 4
    batch_size: int = 256
    learning_rate: float = 3e-4
    value_weight: float = 1.0
    max_grad_norm: float = 0.5
    replay_rounds: int = 4  # fit on the positions of this many latest rounds (this one included)
    net_arch: tuple[int, ...] = (128, 128)  # with init=NETWORK: that network's
    # The first student: "none" (fresh weights), "imitate" (behaviour cloning of `imitate`, as
    # smuggle train's warm start, its value head fitted to the win_loss outcome), or a network
    # (zoo[:ENV[@N]], ppo:PATH.zip|.npz) whose weights it copies.
    init: str = "none"
    imitate: str = "rule"
    imitation_samples: int = 50_000
    imitation_epochs: int = 6
    workers: int = 0  # processes playing the games (0: this one); the data does not depend on it
    eval_games: int = 100  # per table, after every round (0: none)
    final_eval_games: int = 500
    eval_seed: int = 1_000_000
    eval_mixed: bool = True
    keep_best: bool = True
    deterministic_eval: bool = False
    torch_threads: int = 1
    device: str = "cpu"
    progress: bool = True

    def validate(self) -> None:
        """A one-line ``ConfigError`` for any value out of range (the teacher: ``teacher_options``)."""
        for name in ("rounds", "games_per_round", "epochs", "batch_size", "replay_rounds", "torch_threads"):
            _check_int(name, getattr(self, name), 1)
        for name in ("seed", "explore_moves", "imitation_samples", "imitation_epochs", "workers"):
            _check_int(name, getattr(self, name), 0)
        for name in ("eval_games", "final_eval_games", "eval_seed"):
            _check_int(name, getattr(self, name), 0)
        if self.max_decisions is not None:
            _check_int("max_decisions", self.max_decisions, 1)
        if self.num_players is not None:
            _check_int("num_players", self.num_players, 1)
        for name in ("temperature", "learning_rate", "max_grad_norm"):
            _check_number(name, getattr(self, name), positive=True)
        _check_number("value_weight", self.value_weight, positive=False)
        if not self.net_arch or any(isinstance(h, bool) or not isinstance(h, int) or h < 1 for h in self.net_arch):
            raise ConfigError(f"net_arch must be a list of positive ints, got {list(self.net_arch)!r}")
        from agents.search_net import NETWORK_FORMS, is_network_spec

        if self.init not in INITS and not is_network_spec(self.init):
            raise ConfigError(
                f"init must be one of {', '.join(INITS)} or a network ({NETWORK_FORMS}), got {self.init!r}"
            )
        from .device import check_device

        check_device(self.device)
        teacher_options(self.teacher)

    def game_spec(self) -> GameSpec:
        """The run's game: ``env_id`` with ``game_options`` at ``num_players`` (when set)."""
        return run_game_spec(self.env_id, self.game_options, self.num_players)

    def to_dict(self) -> dict[str, Any]:
        """``config.json``: the recipe, then every field."""
        data = dataclasses.asdict(self)
        data["net_arch"] = list(self.net_arch)
        return {"recipe": RECIPE, **data}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExpertConfig:
        data = {k: v for k, v in data.items() if k != "recipe"}
        unknown = sorted(set(data) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise ConfigError(f"unknown expert-iteration option(s) {unknown}")
        if "net_arch" in data:
            data["net_arch"] = tuple(data["net_arch"])
        return cls(**data)


def _check_int(name: str, value: Any, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ConfigError(f"{name} must be an int of at least {low}, got {value!r}")


def _check_number(name: str, value: Any, positive: bool) -> None:
    ok = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
    if not ok or value < 0 or (positive and value == 0):
        raise ConfigError(f"{name} must be a {'positive' if positive else 'non-negative'} number, got {value!r}")


def is_expert_run(out: str | os.PathLike[str]) -> bool:
    """Whether the run folder ``out`` holds an expert-iteration run (its config.json says so)."""
    path = Path(out) / "config.json"
    if not path.exists():
        return False
    return bool(json.loads(path.read_text(encoding="utf-8")).get("recipe") == RECIPE)


def load_expert_config(out: str | os.PathLike[str]) -> ExpertConfig:
    return ExpertConfig.from_dict(json.loads((Path(out) / "config.json").read_text(encoding="utf-8")))


_FLAGS = {"num_players": "--players", "seed": "--seed", "workers": "--workers", "final_eval_games": "--eval-games"}
_NOT_IN_COMMAND = ("env_id", "teacher", "progress", "workers", "game_options", "device")


def expert_command(config: ExpertConfig) -> str:
    """The ``smuggle train`` command line that makes this run (what the model zoo records):
    ``--players``, ``--seed`` and ``--teacher`` always, every other field that differs from its
    default as a flag or ``--set KEY=JSON``."""
    import shlex

    if config.game_options:
        raise ConfigError("a run with game_options has no smuggle train command line (rule variants are set in code)")
    default = ExpertConfig()
    parts = ["smuggle", "train", config.env_id, "--teacher", config.teacher]
    for field in dataclasses.fields(ExpertConfig):
        name, value = field.name, getattr(config, field.name)
        always = name in ("num_players", "seed")
        if name in _NOT_IN_COMMAND or value is None or (value == getattr(default, name) and not always):
            continue
        if name in _FLAGS:
            parts += [_FLAGS[name], str(value)]
        else:
            plain = list(value) if isinstance(value, tuple) else value
            parts += ["--set", f"{name}={json.dumps(plain, separators=(',', ':'))}"]
    return shlex.join(parts)


# ----- the teacher --------------------------------------------------------------------------------
def _or_student(parse: Any) -> Callable[[str], str]:
    """An ``ISMCTSAgent.OPTIONS`` parser that also takes ``student``."""

    def parse_with_student(text: str) -> str:
        return STUDENT if text == STUDENT else str(parse(text))

    parse_with_student.__name__ = f"{getattr(parse, '__name__', 'network')}|{STUDENT}"
    return parse_with_student


def teacher_options(teacher: str) -> dict[str, Any]:
    """The options of a ``--teacher`` spec (``ismcts:KEY=VALUE;...``, ``prior`` and ``value`` may
    be ``student``); a one-line ``ConfigError`` for anything else."""
    from agents import parse_options
    from agents.search import ISMCTSAgent

    kind, _, text = teacher.partition(":")
    if kind != "ismcts":
        raise ConfigError(
            f"--teacher {teacher!r}: the teacher is an IS-MCTS search, ismcts:KEY=VALUE;... "
            "(e.g. ismcts:prior=student;value=student;sims=100)"
        )
    options = dict(ISMCTSAgent.OPTIONS)
    for name in _NETWORK_OPTIONS:
        options[name] = _or_student(options[name])
    try:
        return parse_options(teacher, text, options)
    except ValueError as exc:
        raise ConfigError(f"--teacher: {exc}") from None


def resolve_teacher(options: dict[str, Any], student: str | None) -> dict[str, Any]:
    """The teacher's options with ``student`` replaced by ``ppo:STUDENT_PATH``."""
    out = dict(options)
    for name in _NETWORK_OPTIONS:
        if out.get(name) == STUDENT:
            if student is None:
                raise ValueError(f"the teacher's {name}=student needs the student's network")
            out[name] = f"ppo:{student}"
    return out


def check_teacher(teacher: str, game: Game) -> dict[str, Any]:
    """Parse the teacher and build it once (with ``none`` for the student's networks, which do not
    exist yet), so that a bad option or a missing fixed network fails before any work."""
    from agents.search import ISMCTSAgent

    options = teacher_options(teacher)
    probe: dict[str, Any] = {k: ("none" if v == STUDENT else v) for k, v in options.items()}
    if options.get("value") == STUDENT:
        probe.pop("value_playout", None)  # needs a value network, which the student will be
    try:
        ISMCTSAgent(game, seed=0, **probe)
    except ValueError as exc:
        raise ConfigError(f"--teacher {teacher!r}: {exc}") from None
    return options


# ----- self-play positions -------------------------------------------------------------------------
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
    """Play one game with the teacher in every seat and record its decisions (see the module
    docstring); a function of ``task`` alone."""
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

            from .distributed import ONE_THREAD, _environment

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
        from .distributed import ONE_THREAD, start_ray

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


# ----- the learner ---------------------------------------------------------------------------------
def expert_loss(policy: Any, obs: Any, masks: Any, visits: Any, outcomes: Any, value_weight: float) -> tuple[Any, ...]:
    """``(loss, cross_entropy, kl, value_mse)`` of a MaskablePPO ``policy`` on a batch (torch
    tensors): the cross-entropy of its masked policy to the visit distributions, the same less the
    targets' entropy (the KL divergence), the squared error of its value to the outcomes, and
    ``loss = cross_entropy + value_weight * value_mse``."""
    import torch

    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    logits = policy.action_net(latent_pi).masked_fill(~masks, -1e8)  # finite: 0 * log p stays 0
    log_p = torch.log_softmax(logits, dim=-1).masked_fill(~masks, 0.0)
    cross_entropy = -(visits * log_p).sum(-1).mean()
    entropy = -(torch.xlogy(visits, visits)).sum(-1).mean()
    value_mse = torch.nn.functional.mse_loss(policy.value_net(latent_vf).flatten(), outcomes)
    loss = cross_entropy + value_weight * value_mse
    return loss, cross_entropy, cross_entropy - entropy, value_mse


def fit(
    model: MaskablePPO, data: Positions, config: ExpertConfig, rng: np.random.Generator, bar: Any = None
) -> dict[str, float]:
    """``config.epochs`` epochs of ``expert_loss`` over ``data`` in minibatches of ``batch_size``
    (order drawn from ``rng``) with the model's own Adam; each epoch's mean cross-entropy, KL and
    value error: the first epoch's KL and the last epoch's numbers."""
    import torch

    policy = model.policy
    device = policy.device
    optimizer = policy.optimizer
    for group in optimizer.param_groups:  # the run's rate (it may change on --resume)
        group["lr"] = config.learning_rate
    tensors = [torch.as_tensor(getattr(data, f.name), device=device) for f in dataclasses.fields(data)]
    policy.set_training_mode(True)
    stats: dict[str, float] = {}
    for epoch in range(config.epochs):
        order = torch.as_tensor(rng.permutation(len(data)), device=device)
        sums = np.zeros(3)
        for start in range(0, len(data), config.batch_size):
            idx = order[start : start + config.batch_size]
            obs, masks, visits, outcomes = (t[idx] for t in tensors)
            loss, *parts = expert_loss(policy, obs, masks, visits, outcomes, config.value_weight)
            optimizer.zero_grad()
            torch.autograd.backward(loss)
            torch.nn.utils.clip_grad_norm_(policy.parameters(), config.max_grad_norm)
            optimizer.step()
            sums += [float(p.detach()) * len(idx) for p in parts]
            if bar is not None:
                bar.update(1)
        cross_entropy, kl, value_mse = (sums / len(data)).tolist()
        stats.update(cross_entropy=cross_entropy, kl=kl, value_mse=value_mse)
        if epoch == 0:
            stats["first_kl"] = kl
    policy.set_training_mode(False)
    return stats


# ----- the first student ---------------------------------------------------------------------------
def new_student(config: ExpertConfig, game: Game, device: str, network: NumpyPolicy | None = None) -> MaskablePPO:
    """A fresh MaskablePPO model for ``game`` (seeded by ``config.seed``), shaped as ``network``
    and holding its weights when given (the critic's too where it reads a seat's observation)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from .single_agent import SelfPlayEnv
    from .weights import copy_network, network_kwargs, own_critic

    kwargs: dict[str, Any] = {"net_arch": list(config.net_arch)}
    critic = None
    if network is not None:
        critic = own_critic(network, game)
        kwargs = network_kwargs(network, critic)
    spec = config.game_spec()
    # The env only gives the model its spaces: MaskablePPO never steps it here.
    venv = DummyVecEnv([lambda: SelfPlayEnv(spec)])
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        seed=config.seed,
        device=device,
        verbose=0,
        policy_kwargs=kwargs,
        learning_rate=config.learning_rate,
        n_steps=64,
        batch_size=64,
    )
    if network is not None:
        copy_network(model.policy, network, critic)
    return model


def numpy_student(model: MaskablePPO) -> NumpyPolicy:
    """The student as the numpy network the search and the evaluations run (with its critic)."""
    from agents.ppo import NumpyPolicy

    policy = NumpyPolicy.from_sb3(model.policy, critic=True)
    if policy is None:  # the student is always an MLP over a flat observation
        raise TypeError("the student's policy is not a plain MLP")
    return policy


# ----- the run -------------------------------------------------------------------------------------
def _bar(progress: bool, total: int, desc: str, unit: str) -> Any:
    from .imitation import _bar as bar

    return bar(progress, total, desc, unit)


class ExpertIteration:
    """One expert-iteration run in ``out_dir``; see the module docstring. ``run(resume=...)``
    plays and learns ``config.rounds`` rounds, then evaluates; returns the summary (also in
    ``final_eval.json``)."""

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
        from .device import resolve_device
        from .trainer import rule_bot_available

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
        from .weights import load_init

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
        from .config import TrainConfig
        from .trainer import warm_start

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
        from .trainer import _truncate_csv

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

        from .evaluate import EVAL_FIELDS, evaluate

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
        from .trainer import plot_learning_curve

        path = self.out / "eval.csv"
        if path.exists():
            title = f"{self.config.env_id}, {self.game.num_players} players, expert iteration"
            plot_learning_curve(path, self.out / "learning_curve.png", title=title, chance=1.0 / self.game.num_players)

    # ----- the end ---------------------------------------------------------------------------------
    def _finish(self) -> dict[str, Any]:
        """final.zip / final.npz / best.zip, the final evaluation of the last and the best round on
        the same games, and final_eval.json with the model to ship (``recommended``)."""
        from .evaluate import results_table

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

        from .evaluate import evaluate

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


__all__ = [
    "RECIPE",
    "ExpertConfig",
    "ExpertIteration",
    "GameTask",
    "Positions",
    "check_teacher",
    "expert_command",
    "expert_loss",
    "fit",
    "is_expert_run",
    "load_expert_config",
    "new_student",
    "play_game",
    "teacher_options",
]
