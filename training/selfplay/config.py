"""A training run's settings (``TrainConfig``, saved as ``config.json``) and what is built from
them alone: MaskablePPO's keyword arguments and a vector env of self-play games. Shared by the
trainer (``trainer.py``) and the data-parallel workers (``distributed.py``), which import it, not
each other."""

from __future__ import annotations

import dataclasses
import signal
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from smuggle_envs.core.errors import ConfigError
from smuggle_envs.core.outcomes import check_reward_mode
from smuggle_envs.core.spec import GameSpec

if TYPE_CHECKING:
    import gymnasium as gym
    from stable_baselines3.common.vec_env import VecMonitor

BASELINES = ("random", "rule")
MIXED = "rule+random"  # the mixed evaluation table (TrainConfig.eval_mixed; evaluate.py)
CRITICS = ("own", "privileged")
UPDATE_OPS = ("fused", "sb3")
VEC_KINDS = ("batched", "dummy", "subprocess")  # training.selfplay.policy.KINDS


@dataclasses.dataclass
class RunSettings:
    """What every trainer's run shares (``TrainConfig``'s and expert iteration's ``ExpertConfig``'s):
    its evaluations and where it runs. Declared once, inherited by both; a command line lists
    these after the trainer's own settings (``command_fields``)."""

    eval_games: int = 100  # per baseline, periodic (at most final_eval_games)
    final_eval_games: int = 500  # per baseline, the final evaluation
    eval_seed: int = 1_000_000
    # Also evaluate at mixed tables of the rule bot and the random agent (2 rule bots and a
    # random agent at 4 players: the main job's field), with the rule bots' own win rate there:
    # a learner can beat each baseline alone and still finish behind the rule bots (issue #14).
    eval_mixed: bool = True
    # Keep the checkpoint that did best in the periodic evaluations (against the rule bot, or
    # random where the game has none) as best.zip; the final evaluation plays it and the last
    # model on the same games and recommends the stronger (issue #14: strength fell late in runs).
    keep_best: bool = True
    deterministic_eval: bool = False
    # Torch's threads per process. One: two speed the update up on an idle 2-core machine and
    # slow it down far more while another process keeps a core busy (docs/benchmarks.md).
    torch_threads: int = 1
    # Where the learner (the PPO model and its update) runs: "cpu" (bit-exact runs), "cuda" or
    # "auto" (cuda where torch sees a GPU); see ``device``. Rollouts stay on the CPU.
    device: str = "cpu"
    progress: bool = True


def command_fields(cls: type) -> list[dataclasses.Field[Any]]:
    """The fields of a run's config in command-line order: the trainer's own, then ``RunSettings``'."""
    shared = {f.name for f in dataclasses.fields(RunSettings)}
    fields = dataclasses.fields(cls)
    return [f for f in fields if f.name not in shared] + [f for f in fields if f.name in shared]


@dataclasses.dataclass
class TrainConfig(RunSettings):
    """Everything that defines a run. Saved as ``config.json``; a resumed run uses it.

    The defaults are the ones the benchmark (``benchmarks/train_smuggle.py``) was tuned and run
    with; the comments say what each choice bought on Smuggle (docs/training.md).
    """

    env_id: str = "smuggle_v0"
    num_players: int | None = None  # None: the game's default
    game_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    steps: int = 500_000  # learner decisions (SB3 timesteps)
    seed: int = 0
    n_envs: int = 8  # games stepped together: one batched forward pass
    # "dummy": SB3's DummyVecEnv, in-process, one game and one opponent decision at a time;
    # "batched": in-process, network opponents of all games deciding together (vec_env: no
    # faster at these sizes on a CPU, docs/benchmarks.md); "subprocess": a process per game.
    vec: str = "dummy"
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
    # "own": the value network sees the learner's observation, as the policy does; "privileged":
    # it sees every seat's (State.global_observation), the policy still its own only
    # (agents.privileged_critic; PerfectDou's and Suphx's oracle critic).
    critic: str = "own"
    # Starting weights: a network (zoo, zoo:ENV[@N], ppo:PATH) whose shape and weights the model
    # takes, e.g. PPO fine-tuning of an expert-iteration model (``training.selfplay.weights``);
    # the imitation warm start is then skipped.
    init: str | None = None
    learning_rate: float = 3e-4
    n_steps: int = 256  # per env and rollout: 2048 steps per update
    batch_size: int = 512
    n_epochs: int = 10
    gamma: float = 0.99
    gae_lambda: float = 0.9
    ent_coef: float = 0.0
    clip_range: float = 0.2
    vf_coef: float = 0.5
    # The update's arithmetic: "fused" computes the masked softmax's log-probability and entropy
    # in one pass (training.selfplay.policy) and steps torch's fused Adam (the same numbers up to
    # float rounding; faster updates, docs/benchmarks.md); "sb3" is
    # sb3-contrib's masked softmax to the bit (a cheaper form of it) and torch's default Adam,
    # which is what made the zoo's recorded models (a run gives their weights again only with it).
    update_ops: str = "fused"
    # Warm start: behaviour cloning of a teacher agent before self-play ("" or None: none;
    # "rule" is skipped for games without a rule bot). See ``imitation``.
    imitate: str | None = "rule"
    imitation_samples: int = 200_000  # teacher decisions recorded
    imitation_epochs: int = 6
    # The clone's minibatch (None: batch_size) and Adam's step size. Its cost is the arithmetic of
    # samples x epochs, so a larger minibatch with a larger step is cheaper per epoch at the same
    # fit (docs/benchmarks.md, "Time to strength").
    imitation_batch_size: int | None = None
    imitation_learning_rate: float = 1e-3
    # Share of the warm start's seats played by the random agent (not recorded): the clone then
    # sees how its teacher plays with weak players at the table (see ``imitation.collect``).
    imitation_random_share: float = 0.0
    # DAgger rounds after the first clone: the clone plays (samples / 2 decisions a round), the
    # teacher labels its positions, and the clone is fitted again on all of it (newest first
    # when over the memory cap). 0: plain behaviour cloning.
    imitation_dagger: int = 0
    # league
    snapshot_every: int = 50_000
    max_snapshots: int = 3  # with the rule bot, about half the seats are its
    # League exploiters (AlphaStar): every ``exploiter_every`` steps (0: never), a best response
    # to the learner as it is then, trained for ``exploiter_steps`` steps from the learner's own
    # weights against it in every other seat, joins the league; the newest ``max_exploiters``
    # stay. The learner then meets what beats it (``best_response``; docs/training.md).
    exploiter_every: int = 0
    exploiter_steps: int = 20_000
    max_exploiters: int = 2
    weighting: str = "hard"
    baselines_in_league: tuple[str, ...] = ("rule", "random")
    baseline_share: float = 0.0  # at least this share of opponent draws for them (League)
    # Share of games at a mixed table (the rule bot and the random agent in turn round the table,
    # as the mixed evaluation) instead of per-seat league draws (issue #14: self-play otherwise
    # never meets weak and strong players together and trains that play away).
    mixed_tables: float = 0.0
    # bookkeeping
    checkpoint_every: int = 50_000
    eval_every: int = 50_000
    tensorboard: bool = True

    def validate(self) -> None:
        """Raise ``ConfigError`` with one line naming the first setting that is out of range."""
        self._check_counts()
        self._check_choices()
        self._check_init()
        self._check_shares()

    def _check_counts(self) -> None:
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
            "exploiter_steps",
        ):
            positive(name)
        positive("max_decisions", allow_none=True)
        positive("num_players", allow_none=True)
        positive("imitation_batch_size", allow_none=True)
        rate = self.imitation_learning_rate
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0.0 < rate < 1.0:
            raise ConfigError(f"imitation_learning_rate must be a number in (0, 1), got {rate!r}")
        for name in (
            "eval_games",
            "final_eval_games",
            "seed",
            "max_snapshots",
            "exploiter_every",
            "max_exploiters",
            "imitation_samples",
            "imitation_epochs",
            "imitation_dagger",
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

    def _check_choices(self) -> None:
        if self.vec not in VEC_KINDS:
            raise ConfigError(f"vec must be one of {VEC_KINDS}, got {self.vec!r}")
        check_reward_mode(self.reward_mode)
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
        from .device import check_device

        check_device(self.device)
        if self.update_ops not in UPDATE_OPS:
            raise ConfigError(f"update_ops must be one of {UPDATE_OPS}, got {self.update_ops!r}")
        if self.critic not in CRITICS:
            raise ConfigError(f"critic must be one of {CRITICS}, got {self.critic!r}")

    def _check_shares(self) -> None:
        mixed = self.mixed_tables
        if isinstance(mixed, bool) or not isinstance(mixed, (int, float)) or not 0.0 <= mixed <= 1.0:
            raise ConfigError(f"mixed_tables must be a number in [0, 1], got {mixed!r}")
        for name in ("baseline_share", "imitation_random_share"):
            share = getattr(self, name)
            if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0.0 <= share < 1.0:
                raise ConfigError(f"{name} must be a number in [0, 1), got {share!r}")
        bad = [b for b in self.baselines_in_league if b not in BASELINES]
        if bad:
            raise ConfigError(f"baselines_in_league may hold {BASELINES}, got {bad}")

    def _check_init(self) -> None:
        if self.init is None:
            return
        from agents.search_net import NETWORK_FORMS, is_network_spec

        if not isinstance(self.init, str) or not is_network_spec(self.init):
            raise ConfigError(f"init must be a network ({NETWORK_FORMS}) or null, got {self.init!r}")
        if self.critic == "privileged":
            raise ConfigError(
                "init: a network's value head reads one seat's observation; critic=privileged cannot start from it"
            )

    def game_spec(self) -> GameSpec:
        """The run's game: ``env_id`` with ``game_options`` at ``num_players`` (when set);
        ``ConfigError`` if the game or an option is not valid."""
        return run_game_spec(self.env_id, self.game_options, self.num_players)

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


# Fields that do not change the trained model (bookkeeping, the vector env type: a run is the
# same bit for bit in-process or in subprocesses), left out of ``train_command``.
_NOT_IN_COMMAND = ("env_id", "progress", "tensorboard", "vec", "game_options")
_FLAGS = {
    "num_players": "--players",
    "steps": "--steps",
    "seed": "--seed",
    "workers": "--workers",
    "final_eval_games": "--eval-games",
    "n_envs": "--n-envs",
    "device": "--device",
    "imitate": "--imitate",
}


def command_line(
    config: Any,
    head: Sequence[str],
    flags: Mapping[str, str],
    skip: Collection[str],
    always: Collection[str] = (),
    none_flags: Collection[str] = (),
) -> str:
    """A run's ``smuggle train`` command line: ``head``, then in ``command_fields`` order every
    field of ``config`` (a ``RunSettings`` dataclass) not in ``skip`` and not None that differs
    from its default or is in ``always``: as its ``flags`` option where it has one, else ``--set
    KEY=JSON``. A field of ``none_flags`` whose default is not None but whose value is, is written
    ``FLAG none``. A run with ``game_options`` has none (a ``ConfigError``)."""
    import json
    import shlex

    if config.game_options:
        raise ConfigError("a run with game_options has no smuggle train command line (rule variants are set in code)")
    default = type(config)()
    parts = list(head)
    for field in command_fields(type(config)):
        name, value = field.name, getattr(config, field.name)
        if value is None and name in none_flags and getattr(default, name) is not None:
            parts += [flags[name], "none"]  # an option on by default, turned off
        elif name in skip or value is None or (value == getattr(default, name) and name not in always):
            continue
        elif name in flags:
            parts += [flags[name], str(value)]
        else:
            plain = list(value) if isinstance(value, tuple) else value
            parts += ["--set", f"{name}={json.dumps(plain, separators=(',', ':'))}"]
    return shlex.join(parts)


def train_command(config: TrainConfig) -> str:
    """The ``smuggle train`` command line that makes this run: ``--players``, ``--steps`` and
    ``--seed`` always, then every other field that differs from its default (as a flag where
    there is one, else ``--set KEY=JSON``). What the model zoo's manifest records."""
    head = ["smuggle", "train", config.env_id]
    always = ("num_players", "steps", "seed")
    return command_line(config, head, _FLAGS, _NOT_IN_COMMAND, always, none_flags=("imitate",))


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


def run_game_spec(env_id: str, game_options: dict[str, Any], num_players: int | None) -> GameSpec:
    """A training run's game (both trainers' ``game_spec``): ``env_id`` with ``game_options`` at
    ``num_players`` (when set)."""
    options = dict(game_options)
    if num_players is not None:
        options["num_players"] = num_players
    return GameSpec(env_id, options)


def policy_spec(config: TrainConfig, observation_size: int) -> tuple[Any, dict[str, Any]]:
    """MaskablePPO's ``policy`` and ``policy_kwargs`` for ``config`` (``observation_size``: the
    seat's own observation, which the policy network reads with either critic)."""
    kwargs: dict[str, Any] = {"net_arch": list(config.net_arch)}
    if config.critic == "privileged":
        from agents.privileged_critic import PrivilegedCriticPolicy

        return PrivilegedCriticPolicy, {**kwargs, "own_size": observation_size}
    return "MlpPolicy", kwargs


def _make_env(
    spec: GameSpec,
    reward_mode: str,
    dense_score: float,
    max_decisions: int | None,
    ignore_sigint: bool = False,
    privileged: bool = False,
    mixed_tables: float = 0.0,
) -> gym.Env[Any, Any]:
    # A module-level function (not a lambda) so subprocess workers can unpickle it.
    from .single_agent import SelfPlayEnv

    if ignore_sigint:
        # A subprocess worker: Ctrl-C in a terminal reaches the whole process group, and a
        # worker that died of it would break the checkpoint the main process then saves.
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    return SelfPlayEnv(
        spec,
        reward_mode=reward_mode,
        dense_score=dense_score,
        max_decisions=max_decisions,
        privileged=privileged,
        mixed_tables=mixed_tables,
    )


def make_local_vec_env(config: TrainConfig, n_envs: int, vec: str | None = None) -> VecMonitor:
    """``n_envs`` ``SelfPlayEnv`` in-process (``vec_env.SelfPlayVecEnv``, or SB3's
    ``DummyVecEnv``) or in subprocess workers (which ignore Ctrl-C: the main process stops them),
    with a ``VecMonitor`` for episode statistics."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

    kind = vec or config.vec
    fn = partial(
        _make_env,
        config.game_spec(),
        config.reward_mode,
        config.dense_score,
        config.max_decisions,
        kind == "subprocess",
        config.critic == "privileged",
        config.mixed_tables,
    )
    fns: list[Callable[[], gym.Env[Any, Any]]] = [fn] * n_envs
    if kind == "batched":
        from .vec_env import SelfPlayVecEnv

        venv: VecEnv = SelfPlayVecEnv(fns)
    else:
        venv = SubprocVecEnv(fns) if kind == "subprocess" else DummyVecEnv(fns)
    return VecMonitor(venv)
