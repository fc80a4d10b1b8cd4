"""The ``smuggle train`` subcommand: self-play training with a league, for any env id.

With ``--teacher SPEC`` it runs expert iteration instead (``expert.py``: the search SPEC teaches
a MaskablePPO student), with its own settings (``ExpertConfig``) and the same outputs; ``--resume``
in a folder that holds such a run continues it.

Its parser is in ``parser.py``; ``training.cli.COMMANDS`` names both, and imports this module only
when ``train`` runs. It also runs on its own as ``python -m training.selfplay train ENV_ID ...``.
The handler returns an exit code and raises ``training.errors.UsageError`` / ``ConfigError``
for bad requests, which ``smuggle``'s ``main`` prints on one line (exit code 2).

Ctrl-C stops at the next safe point (the start of the next rollout): a checkpoint is saved there,
its path is printed, and the exit code is 130; ``--resume`` continues from it. A second Ctrl-C
stops at once (resuming then starts from the latest periodic checkpoint).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from smuggle_envs import registry
from training.errors import UsageError, run
from training.match import build_agent
from training.paths import writable_dir

from .config import TrainConfig
from .expert import ExpertConfig, ExpertIteration, is_expert_run, load_expert_config
from .parser import add_train
from .trainer import Trainer, TrainingStopped, load_config

# Options that a resumed run takes from its saved config; giving a different value is an error.
_FIXED_ON_RESUME = ("num_players", "seed", "n_envs", "workers", "imitate")


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    names = ("num_players", "steps", "seed", "final_eval_games", "n_envs", "vec", "workers", "imitate", "device")
    out = {n: getattr(args, n) for n in names if getattr(args, n, None) is not None}
    if out.get("imitate", "").lower() == "none":
        out["imitate"] = None
    if getattr(args, "no_progress", False):
        out["progress"] = False
    for item in getattr(args, "settings", []):
        name, value = _setting(item)
        out[name] = value
    return out


def _setting(item: str, cls: Any = TrainConfig) -> tuple[str, Any]:
    """``KEY=VALUE`` of ``--set``, checked against the type of the field of ``cls`` (the run's
    settings: ``TrainConfig``, or ``ExpertConfig`` with ``--teacher``)."""
    name, sep, raw = item.partition("=")
    fixed = ("env_id", "teacher") if cls is not TrainConfig else ()  # the command line's own
    fields = {f.name: f for f in dataclasses.fields(cls) if f.name not in fixed}
    if not sep or name not in fields:
        known = ", ".join(sorted(fields))
        what = " (expert iteration's settings)" if cls is not TrainConfig else ""
        raise UsageError(f"--set {item!r}: expected KEY=VALUE with KEY one of{what}: {known}")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw  # a bare string: --set weighting=variance
    default = getattr(cls(), name)
    if isinstance(default, tuple) and isinstance(value, list):
        value = tuple(value)
    elif isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if default is not None and value is not None and type(value) is not type(default):
        raise UsageError(f"--set {name}: expected a {type(default).__name__}, got {raw!r}")
    return name, value


def _check_resumed(
    config: TrainConfig | ExpertConfig, out: Path, env_id: str, overrides: dict[str, Any], fixed: Iterable[str]
) -> None:
    """A ``UsageError`` where the run resumed from ``out`` is of another game than ``env_id``, or
    where ``overrides`` would change one of its ``fixed`` settings."""
    if config.env_id != env_id:
        raise UsageError(f"--resume: {out} holds a {config.env_id} run, not {env_id}")
    for name in fixed:
        if name in overrides and overrides[name] != getattr(config, name):
            raise UsageError(
                f"--resume: the run in {out} has {name}={getattr(config, name)}; "
                f"it cannot change to {overrides[name]} (start a new run instead)"
            )


def cmd_train(args: argparse.Namespace) -> int:
    registry.game_class(args.env_id)  # an unknown env id fails here, on one line
    out = Path(args.out) if args.out else Path("runs") / args.env_id
    if getattr(args, "teacher", None) is not None or (args.resume and is_expert_run(out)):
        return _cmd_expert(args, out)
    overrides = _overrides(args)
    if args.resume:
        if not (out / "config.json").exists():
            raise UsageError(f"--resume: {out} holds no training run (no config.json); drop --resume to start one")
        config = load_config(out)
        _check_resumed(config, out, args.env_id, overrides, _FIXED_ON_RESUME)
        vec = overrides.pop("vec", None)  # results do not depend on the vector env type
        for name, value in overrides.items():
            setattr(config, name, value)
    else:
        if (out / "config.json").exists():
            raise UsageError(
                f"{out} already holds a training run; add --resume to continue it, or choose another --out"
            )
        vec = None
        config = TrainConfig(env_id=args.env_id, **overrides)
    config.validate()
    if args.ray_address and args.backend != "ray":
        raise UsageError("--ray-address needs --backend ray")
    trainer = Trainer(config, out, vec=vec, backend=args.backend, ray_address=args.ray_address)
    if config.imitate and config.imitate != "rule" and (not args.resume or trainer.latest_checkpoint() is None):
        # The warm start's teacher (e.g. ppo:PATH): a bad spec or model file is an error now.
        build_agent(config.imitate, trainer.game, seed=0)
    writable_dir(out, "the run folder", "choose another --out")  # before any work
    again = shlex.join(["smuggle", "train", args.env_id, "--out", str(out), "--resume"])
    try:
        trainer.run(resume=args.resume, handle_sigint=True)
    except TrainingStopped as stop:
        print(
            f"smuggle: stopped at step {stop.step}; checkpoint saved in {stop.checkpoint}. Continue with: {again}",
            file=sys.stderr,
        )
        return 130
    except KeyboardInterrupt:
        latest = trainer.latest_checkpoint()
        if latest is None:
            print(f"\nsmuggle: interrupted before the first checkpoint. Start again with: {again}", file=sys.stderr)
        else:
            print(f"\nsmuggle: interrupted; the latest checkpoint is {latest}. Continue with: {again}", file=sys.stderr)
        return 130
    return 0


# ----- expert iteration (--teacher; training/selfplay/expert/) -------------------------------------
# A resumed expert-iteration run keeps these (the teacher and the first student define the recipe);
# workers may change: they do not change the data.
_EXPERT_FIXED_ON_RESUME = ("num_players", "seed", "teacher", "init", "imitate")


def _expert_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The ExpertConfig fields the command line gives; a PPO-only option is a one-line error."""
    for flag, name in (("--steps", "steps"), ("--n-envs", "n_envs"), ("--vec", "vec")):
        if getattr(args, name, None) is not None:
            raise UsageError(
                f"{flag} is a PPO option; expert iteration (--teacher) runs in rounds: "
                "--set rounds=R --set games_per_round=G"
            )
    names = ("num_players", "seed", "final_eval_games", "workers", "device", "teacher")
    out = {n: getattr(args, n) for n in names if getattr(args, n, None) is not None}
    imitate = getattr(args, "imitate", None)
    if imitate is not None:
        out.update({"init": "none"} if imitate.lower() == "none" else {"init": "imitate", "imitate": imitate})
    if getattr(args, "no_progress", False):
        out["progress"] = False
    for item in getattr(args, "settings", []):
        name, value = _setting(item, ExpertConfig)
        out[name] = value
    return out


def _expert_config(args: argparse.Namespace, out: Path) -> ExpertConfig:
    """A new run's settings, or a resumed run's (with the changes the command line may make)."""
    overrides = _expert_overrides(args)
    if not args.resume:
        if (out / "config.json").exists():
            raise UsageError(
                f"{out} already holds a training run; add --resume to continue it, or choose another --out"
            )
        return ExpertConfig(env_id=args.env_id, **overrides)
    if not (out / "config.json").exists():
        raise UsageError(f"--resume: {out} holds no training run (no config.json); drop --resume to start one")
    if not is_expert_run(out):
        raise UsageError(f"--resume: {out} holds a PPO self-play run, not expert iteration; drop --teacher")
    config = load_expert_config(out)
    _check_resumed(config, out, args.env_id, overrides, _EXPERT_FIXED_ON_RESUME)
    for name, value in overrides.items():
        setattr(config, name, value)
    return config


def _cmd_expert(args: argparse.Namespace, out: Path) -> int:
    """``smuggle train ENV --teacher SPEC``: expert iteration (see ``expert``)."""
    config = _expert_config(args, out)
    config.validate()
    if args.ray_address and args.backend != "ray":
        raise UsageError("--ray-address needs --backend ray")
    runner = ExpertIteration(config, out, backend=args.backend, ray_address=args.ray_address)
    writable_dir(out, "the run folder", "choose another --out")  # before any work
    again = shlex.join(["smuggle", "train", args.env_id, "--out", str(out), "--resume"])
    try:
        runner.run(resume=args.resume)
    except KeyboardInterrupt:
        done = runner.latest_round()
        where = "before the first round was saved" if done is None else f"after round {done} (saved)"
        print(f"\nsmuggle: interrupted {where}. Continue with: {again}", file=sys.stderr)
        return 130
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m training.selfplay train ...``: the same errors and exit codes as ``smuggle``
    (``training.errors.run_command``)."""
    parser = argparse.ArgumentParser(prog="python -m training.selfplay")
    add_train(parser.add_subparsers(dest="command", metavar="COMMAND", required=True))
    return run(parser, argv, lambda name: cmd_train, parser.prog)
