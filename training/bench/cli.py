"""``smuggle bench``: run the protocol and print, write and draw the scorecard; or compare two."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from smuggle_envs import registry
from training.errors import UsageError
from training.exploit import sanitise
from training.paths import check_writable_file, writable_dir

from . import report, schema
from .api import run_bench


def _compare(paths: list[str]) -> int:
    try:
        cards = [schema.read(p) for p in paths]
        text, _ = report.compare(cards[0], cards[1], (Path(paths[0]).stem, Path(paths[1]).stem))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(text)
    return 0


def _out(args: argparse.Namespace, budget: str) -> Path:
    if args.out:
        out = Path(args.out)
        check_writable_file(out, "the scorecard")
        return out
    players = f"-{args.players}p" if args.players else ""
    folder = writable_dir(Path("runs") / "bench" / f"{args.env_id}{players}", "the output folder", "choose --out")
    return folder / f"{sanitise(args.spec)}-{budget}.json"


def _progress(enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    bar: Any = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, file=sys.stderr, desc="games", unit="game", leave=False)
        bar.update(done - bar.n)
        if done == total:
            bar.close()

    return update


def cmd_bench(args: argparse.Namespace) -> int:
    if args.compare:
        if args.spec or args.env_id:
            raise UsageError("--compare takes two scorecards and no SPEC or --env")
        return _compare(args.compare)
    if not args.spec or not args.env_id:
        raise UsageError("give an agent SPEC and --env ENV_ID (or --compare A.json B.json)")
    registry.game_class(args.env_id)  # an unknown env id fails here, on one line
    for option in ("workers", "deals", "exploit"):
        value = getattr(args, option)
        if value is not None and value < 1:
            raise UsageError(f"--{option} must be at least 1, got {value}")
    budget: str | int = "quick" if args.quick else (args.deals or "full")
    name = (
        budget if isinstance(budget, str) else "custom" if budget not in (10, 100) else ("quick", "full")[budget == 100]
    )
    out = _out(args, name)
    try:
        card = run_bench(
            args.spec, args.env_id, args.players, budget, args.workers, args.backend, args.exploit,
            _progress(not args.quiet),
        )  # fmt: skip
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(report.format_card(card))
    schema.write(card, out)
    files = [str(out)]
    if not args.no_plot:
        from .plot import draw

        draw(card, out.with_suffix(".png"))
        files.append(str(out.with_suffix(".png")))
    print(f"\nfiles: {', '.join(files)}")
    return 0
