"""The ``smuggle zoo`` subcommand: list the model zoo with its strength table, add a trained
run's model to it, or fit a value head for a shipped model.

    smuggle zoo                              # every model: steps, cost, measured strength
    smuggle zoo add runs/zoo/smuggle_v0      # the run's recommended model joins the zoo
    smuggle zoo value smuggle_v0@4           # a value head for a model shipped without one

``add`` takes the model ``smuggle train`` recommended (``final_eval.json``: ``best.zip`` or
``final.zip``, whichever won the final evaluation against the rule bot), or ``--checkpoint
best|final``, and records how to make it again: the ``smuggle train`` command line rebuilt from
the run's ``config.json`` (``training.selfplay.config.train_command``, or for an expert-iteration
run ``training.selfplay.expert.expert_command``) and its ``recipe`` (``ppo-self-play`` or
``expert-iteration``), the checkpoint, its step, the commit, the training's wall time, and the
machine that ran ``add`` (``"machine"``: CPU model, core count, Python, torch and numpy versions,
``training.provenance``; a run repeats bit for bit on that CPU kind with those versions, not
necessarily on others). ``--argmax`` marks the model to play its most probable action
(``"deterministic": true``; compare both first with ``benchmarks/compare_models.py``). Strength
is measured afterwards by ``python benchmarks/zoo.py`` (1000 games against 3 rule bots, 1000
against 3 random agents, and a mixed-field tournament), which writes it into the manifest;
``smuggle zoo`` prints it, and whether each model has a value head (what the search's
``value=zoo`` reads). ``value`` fits one for a shipped policy-only model:
``training/zoo_value.py`` (its record keeps the same ``"machine"``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from agents.ppo import NumpyPolicy
from agents.zoo import add_model, git_commit, manifest, sha256, zoo_dir
from training.errors import UsageError
from training.stats import format_table

from .provenance import machine_record
from .selfplay.config import train_command
from .selfplay.expert import RECIPE, expert_command, is_expert_run, load_expert_config
from .selfplay.trainer import load_config
from .zoo_value import cmd_value

PPO_RECIPE = "ppo-self-play"  # the zoo entry's "recipe" for a smuggle train run without --teacher


def cmd_zoo(args: argparse.Namespace) -> int:
    if args.action == "list":
        if args.target:
            raise UsageError("smuggle zoo list takes no RUN_DIR (did you mean: smuggle zoo add RUN_DIR?)")
        print(zoo_table())
        return 0
    if args.action == "value":
        return cmd_value(args)
    if not args.target:
        raise UsageError("smuggle zoo add needs the training run's folder, e.g. smuggle zoo add runs/zoo/smuggle_v0")
    key, entry = add_run(Path(args.target), args.checkpoint, deterministic=args.argmax)
    print(
        f"added {key}: {entry['file']} ({entry['checkpoint']}, step {entry['steps']}); measure it with "
        f"python benchmarks/zoo.py --only {key}"
    )
    return 0


def add_run(run: Path, checkpoint: str = "recommended", deterministic: bool = False) -> tuple[str, dict[str, Any]]:
    """Add the model of the training run in ``run`` to the zoo (see the module docstring)."""
    summary_path = run / "final_eval.json"
    if not (run / "config.json").exists() or not summary_path.exists():
        raise UsageError(f"{run} holds no finished training run (no config.json and final_eval.json)")
    config, command, recipe = _recipe(run)
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    model = _checkpoint_path(run, summary, checkpoint)
    if not model.exists():
        raise UsageError(f"{run} has no {model.name} (the run kept no such checkpoint)")
    best = summary.get("best") or {}
    steps = best["step"] if model.name == "best.zip" and best else summary["steps"]
    info = {
        "recipe": recipe,
        "command": command,
        "seed": config.seed,
        "checkpoint": model.name,
        "deterministic": deterministic,
        "steps": steps,
        "trained_steps": summary["steps"],
        "commit": git_commit(),
        "wall_minutes": round(_wall_seconds(run, summary) / 60, 1),
        "cores": max(config.workers, 1),
        "machine": machine_record(),  # normally the machine that trained: where a repeat is known exact
        # The run's own final evaluation (sampled play, on the seeds that chose best.zip).
        "training_eval": {r["opponent"]: _rate(r) for r in _results_of(summary, model.name)},
    }
    game = config.game_spec().make_game()
    init = _init_record(getattr(config, "init", None), game)
    if init:
        info["init"] = init
    return add_model(model, game, info)


def _init_record(init: str | None, game: Any) -> dict[str, str] | None:
    """The network a run started from (``--set init=...``), where it names a file: its spec, the
    file and its checksum. The recorded command makes the model again only from that very file
    (``init="zoo"`` names whatever the zoo holds at the time)."""
    from agents.search_net import is_network_spec

    if not init or not is_network_spec(init):  # fresh weights, or expert iteration's "none" / "imitate"
        return None
    if init == "zoo" or init.startswith("zoo:"):
        from agents.zoo import resolve

        _, entry = resolve(init.partition(":")[2], game)
        return {"spec": init, "file": str(zoo_dir() / entry["file"]), "sha256": entry["sha256"]}
    path = Path(init.partition(":")[2])
    return {"spec": init, "file": str(path), "sha256": sha256(path) if path.exists() else "?"}


def _recipe(run: Path) -> tuple[Any, str, str]:
    """The run's settings, the ``smuggle train`` command that makes it, and its recipe: what its
    config.json names (``"expert-iteration"``: ``smuggle train --teacher``), else PPO self-play."""
    if is_expert_run(run):
        expert = load_expert_config(run)
        return expert, expert_command(expert), RECIPE
    config = load_config(run)
    return config, train_command(config), PPO_RECIPE


def _checkpoint_path(run: Path, summary: dict[str, Any], checkpoint: str) -> Path:
    if checkpoint == "recommended":  # by name: the run folder may have moved since
        return run / Path(summary["recommended"].removeprefix("ppo:")).name
    return run / f"{checkpoint}.zip"


def _results_of(summary: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The final evaluation's rows for the shipped model (best.zip's or final.zip's)."""
    if name == "best.zip" and summary.get("best"):
        return list(summary["best"]["results"])
    return list(summary["results"])


def _rate(row: dict[str, Any]) -> dict[str, Any]:
    return {"games": row["games"], "win_rate": row["win_rate"], "ci": [row["ci_low"], row["ci_high"]]}


def _wall_seconds(run: Path, summary: dict[str, Any]) -> float:
    """The trainer's own count (warm start and learning, over resumes), or for runs from before
    it kept one, config.json's time (written at the start) to final.zip's (the end)."""
    if "training_wall_seconds" in summary:
        return float(summary["training_wall_seconds"])
    return (run / "final.zip").stat().st_mtime - (run / "config.json").stat().st_mtime


def _cell(rate: dict[str, Any] | None) -> str:
    if not rate:
        return "-"
    lo, hi = rate["ci"]
    return f"{100 * rate['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] ({rate['games']})"


def zoo_table() -> str:
    """The zoo as a table: one row per model, then each model's training command."""
    entries = manifest()
    if not entries:
        return f"the model zoo ({zoo_dir()}) is empty"
    rows, commands = [], []
    for key, e in entries.items():
        measured = e.get("eval", {})
        mixed = measured.get("mixed")
        place = f"{mixed['rank_rating']}/{mixed['rank_win_rate']} of {mixed['agents']}" if mixed else "-"
        rows.append(
            [
                f"zoo:{key}",
                f"{e.get('steps', '?')} ({e.get('checkpoint', '?')})",
                "argmax" if e.get("deterministic") else "sampled",
                f"{e.get('wall_minutes', '?')} min x {e.get('cores', 1)} core",
                _cell(measured.get("random")),
                _cell(measured.get("rule")),
                _cell(mixed),
                place,
                _value_head(e),
            ]
        )
        recipe = e.get("recipe", PPO_RECIPE)  # entries older than the field were all PPO runs
        commands.append(
            f"zoo:{key} ({recipe}, commit {e.get('commit', '?')}{_machine_text(e.get('machine'))}): "
            f"{e.get('command', '?')}  (then the run's {e.get('checkpoint', 'final.zip')})"
        )
        if "value" in e:
            commands.append(_value_line(key, e["value"]))
    header = [
        "agent",
        "steps (checkpoint)",
        "plays",
        "training",
        "vs 3 random",
        "vs 3 rule bots",
        "mixed field",
        "place",
        "value head",
    ]
    note = (
        "win rate [95% interval] (games); mixed field: the model, 2 rule bots and 2 random agents;\n"
        "place: by rating / by win rate. Measured by benchmarks/zoo.py; '-' not measured yet.\n"
        "value head (what ismcts:value=zoo reads): trained (the run's critic), fitted (smuggle zoo\n"
        "value, to the policy's game returns), none (the search refuses value=zoo)."
    )
    return "\n".join([format_table(header, rows), note, "", "reproduce:", *commands])


def _machine_text(machine: dict[str, Any] | None) -> str:
    """Where a model was added (its manifest's ``machine``): the same weights again are known
    only there; entries from before the field say nothing."""
    if not machine:
        return ""
    return f"; added on {machine['cpu']}, torch {machine['torch']}, numpy {machine['numpy']}"


def _value_head(entry: dict[str, Any]) -> str:
    """Whether the model's file holds a value head: "fitted" (``smuggle zoo value``), "trained"
    (the run's own critic, ``smuggle zoo add``) or "none"; "unreadable" for a missing or
    damaged file."""
    try:
        policy = NumpyPolicy.load(zoo_dir() / entry["file"])
    except (OSError, ValueError):
        return "unreadable"
    if policy.critic is None:
        return "none"
    return "fitted" if "value" in entry else "trained"


def _value_line(key: str, value: dict[str, Any]) -> str:
    """How a fitted value head was made and how well it predicts held-out games."""
    return (
        f"zoo:{key} value head (held-out MSE {value['held_out_mse']:.4f} vs {value['baseline_mse']:.4f} "
        f"predicting the mean; {value['games']} games, commit {value.get('commit', '?')}): {value['command']}"
    )


__all__ = ["add_run", "cmd_zoo", "zoo_table"]
