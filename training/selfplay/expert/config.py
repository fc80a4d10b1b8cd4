"""The settings of an expert-iteration run: ``ExpertConfig`` (saved in ``config.json`` with the
recipe) and its validation, whether a run folder holds such a run, its config, and the
``smuggle train`` command line that makes it."""

from __future__ import annotations

import dataclasses
import json
import math
import os
from pathlib import Path
from typing import Any

from smuggle_envs.core.errors import ConfigError
from smuggle_envs.core.spec import GameSpec

from ..config import RunSettings, command_line, run_game_spec
from .teacher import teacher_options

RECIPE = "expert-iteration"
INITS = ("none", "imitate")  # or a network spec: zoo[:ENV[@N]], ppo:PATH


@dataclasses.dataclass
class ExpertConfig(RunSettings):
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
    # eval_games (per table, after every round; 0: none) ... progress: RunSettings'

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
        from ..device import check_device

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
    head = ["smuggle", "train", config.env_id, "--teacher", config.teacher]
    return command_line(config, head, _FLAGS, _NOT_IN_COMMAND, always=("num_players", "seed"))
