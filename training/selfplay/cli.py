"""The ``smuggle train`` subcommand: self-play training with a league, for any env id.

``register(subparsers)`` adds it to the ``smuggle`` parser (``training/cli.py``); it also runs on
its own as ``python -m training.selfplay train ENV_ID ...``. The handler returns an exit code and
raises ``training.match.UsageError`` / ``ConfigError`` for bad requests, which ``smuggle``'s
``main`` prints on one line (exit code 2).

Ctrl-C stops at the next safe point (the start of the next rollout): a checkpoint is saved there,
its path is printed, and the exit code is 130; ``--resume`` continues from it. A second Ctrl-C
stops at once (resuming then starts from the latest periodic checkpoint).

Heavy imports (torch, SB3) happen inside the handler, so ``smuggle list`` stays instant.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# Options that a resumed run takes from its saved config; giving a different value is an error.
_FIXED_ON_RESUME = ("num_players", "seed", "n_envs", "workers", "imitate")


def register(subparsers: Any) -> argparse.ArgumentParser:
    from .trainer import TrainConfig  # numpy only: keeps 'smuggle list' instant

    d = TrainConfig()
    p = subparsers.add_parser(
        "train",
        help="train a self-play agent (MaskablePPO with a league)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Train an agent for ENV_ID by self-play: MaskablePPO plays one seat (a random\n"
        "seat each game) against opponents drawn from a league of its own frozen\n"
        "snapshots, the game's rule-based bot and the random agent, the opponents it\n"
        "beats least drawn most often (prioritised fictitious self-play). It starts\n"
        "from a clone of the rule-based bot where the game has one (--imitate).\n\n"
        "Writes to DIR: final.zip (agent spec ppo:DIR/final.zip), checkpoints,\n"
        "TensorBoard logs (tensorboard --logdir DIR/tb), eval.csv and\n"
        "learning_curve.png (win rate against each baseline over training),\n"
        "league/ and final_eval.json. Ends with a table of win rates against the\n"
        "random and rule-based agents with 95% confidence intervals.\n\n"
        "Ctrl-C saves a checkpoint at the end of the current rollout and stops (exit\n"
        "code 130; Ctrl-C twice stops at once). Interrupted, or crashed? Run the same\n"
        "command with --resume: it continues exactly from the latest checkpoint.",
        epilog="examples:\n  smuggle train smuggle_v0\n"
        "  smuggle train smuggle_v0 --players 4 --steps 200000 --out runs/quick\n"
        "  smuggle train smuggle_v0 --out runs/quick --resume --steps 400000\n"
        "  smuggle train smuggle_v0 --workers 2 --out runs/two-cores\n"
        "  smuggle train smuggle_v0 --workers 16 --backend ray --ray-address auto\n"
        "  smuggle match --agents ppo:runs/quick/final.zip,rule,rule,rule --games 300",
    )
    p.add_argument("env_id", metavar="ENV_ID", help="the game, e.g. smuggle_v0 (see 'smuggle list')")
    p.add_argument(
        "--players", type=int, metavar="N", dest="num_players", help="number of players (default: the game's default)"
    )
    p.add_argument(
        "--steps",
        type=int,
        metavar="S",
        help=f"training steps, i.e. learner decisions, in all (default: {d.steps}; with "
        "--resume: the saved run's target, or a new, larger one)",
    )
    p.add_argument("--out", metavar="DIR", help="run directory (default: runs/ENV_ID)")
    p.add_argument("--resume", action="store_true", help="continue the run in DIR from its latest checkpoint")
    p.add_argument("--seed", type=int, metavar="K", help="seed of the whole run (default: 0)")
    p.add_argument(
        "--eval-games",
        type=int,
        metavar="G",
        dest="final_eval_games",
        help=f"games per baseline in the final evaluation (default: {d.final_eval_games})",
    )
    p.add_argument(
        "--n-envs",
        type=int,
        metavar="E",
        dest="n_envs",
        help=f"games played in parallel by the vector env (default: {d.n_envs})",
    )
    p.add_argument(
        "--vec", choices=("dummy", "subprocess"), help="vector env: in-process (default) or one subprocess per game"
    )
    p.add_argument(
        "--workers",
        type=int,
        metavar="W",
        help="data-parallel training: W worker processes (or Ray actors), each with n-envs/W games and "
        "a share of every minibatch (default: 0, the games in this process); results depend on W, "
        "not on the backend",
    )
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where --workers run: local processes (default) or Ray actors (a local Ray starts by itself)",
    )
    p.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="with --backend ray: the cluster to join (auto, or ray://host:10001); default: a local Ray",
    )
    p.add_argument(
        "--imitate",
        metavar="SPEC",
        help=f"warm start: clone this agent before self-play (default: {d.imitate}, where "
        "the game has a rule-based bot); 'none' for pure self-play from scratch",
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="settings",
        help="any other training option (a TrainConfig field, see config.json of a run), VALUE in "
        "JSON: --set baseline_share=0.3 --set net_arch=[256,256] --set learning_rate=1e-4",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_train)
    parser: argparse.ArgumentParser = p
    return parser


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    names = ("num_players", "steps", "seed", "final_eval_games", "n_envs", "vec", "workers", "imitate")
    out = {n: getattr(args, n) for n in names if getattr(args, n, None) is not None}
    if out.get("imitate", "").lower() == "none":
        out["imitate"] = None
    if getattr(args, "no_progress", False):
        out["progress"] = False
    for item in getattr(args, "settings", []):
        name, value = _setting(item)
        out[name] = value
    return out


def _setting(item: str) -> tuple[str, Any]:
    """``KEY=VALUE`` of ``--set``, checked against the TrainConfig field's type."""
    import dataclasses
    import json

    from training.match import UsageError

    from .config import TrainConfig

    name, sep, raw = item.partition("=")
    fields = {f.name: f for f in dataclasses.fields(TrainConfig)}
    if not sep or name not in fields:
        known = ", ".join(sorted(fields))
        raise UsageError(f"--set {item!r}: expected KEY=VALUE with KEY one of: {known}")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw  # a bare string: --set weighting=variance
    default = getattr(TrainConfig(), name)
    if isinstance(default, tuple) and isinstance(value, list):
        value = tuple(value)
    elif isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if default is not None and value is not None and type(value) is not type(default):
        raise UsageError(f"--set {name}: expected a {type(default).__name__}, got {raw!r}")
    return name, value


def cmd_train(args: argparse.Namespace) -> int:
    from smuggle_envs import registry
    from training.match import UsageError, build_agent, writable_dir

    from .trainer import TrainConfig, Trainer, TrainingStopped, load_config

    registry.game_class(args.env_id)  # an unknown env id fails here, on one line
    out = Path(args.out) if args.out else Path("runs") / args.env_id
    overrides = _overrides(args)
    if args.resume:
        if not (out / "config.json").exists():
            raise UsageError(f"--resume: {out} holds no training run (no config.json); drop --resume to start one")
        config = load_config(out)
        if config.env_id != args.env_id:
            raise UsageError(f"--resume: {out} holds a {config.env_id} run, not {args.env_id}")
        for name in _FIXED_ON_RESUME:
            if name in overrides and overrides[name] != getattr(config, name):
                raise UsageError(
                    f"--resume: the run in {out} has {name}={getattr(config, name)}; "
                    f"it cannot change to {overrides[name]} (start a new run instead)"
                )
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


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m training.selfplay train ...``: the same errors and exit codes as ``smuggle``
    (``training.match.run_command``)."""
    from training.match import parse_args, run_command

    parser = argparse.ArgumentParser(prog="python -m training.selfplay")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    register(sub)
    args = parse_args(parser, argv)
    return args if isinstance(args, int) else run_command(args, prog=parser.prog)
