"""``smuggle replay-json FILE``: a game stored as replay JSON (``smuggle match --save-replay``,
``Replay.to_json``) printed turn by turn, in full or, with ``--seat S``, as seat S saw it."""

from __future__ import annotations

import argparse
import json

from smuggle_envs import GameSpec
from smuggle_envs.core import Replay
from training.gamelog import GameLog, ReplayActionError, print_replay

from ..errors import UsageError


def _read_replay(path: str) -> Replay:
    """The replay in the file ``path``; a one-line ``UsageError`` if it cannot be read or is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}", 2) from None
    try:
        replay = Replay.from_json(text)
    except (ValueError, TypeError, KeyError) as exc:  # JSONDecodeError is a ValueError
        kind = "not valid JSON" if isinstance(exc, json.JSONDecodeError) else "not a replay"
        raise UsageError(f"{path} is {kind}: {exc}", 2) from None
    if not isinstance(replay.env_id, str) or not isinstance(replay.config, dict):
        raise UsageError(f"{path} is not a replay: 'env_id' must be a string and 'config' an object", 2)
    return replay


def cmd_replay_json(args: argparse.Namespace) -> int:
    replay = _read_replay(args.file)
    print(f"replay: {replay.env_id}, config {replay.config}, seed {replay.seed}, {len(replay.actions)} actions")
    seat = _replay_seat(args.seat, replay)
    try:
        print_replay(replay.game(), replay.seed, replay.actions, GameLog(viewer=seat))
    except ReplayActionError as exc:
        raise UsageError(f"the replay's action {exc.number} cannot be applied: {exc.cause}", 2) from None
    return 0


def _replay_seat(seat: int | None, replay: Replay) -> int | None:
    """``--seat`` of a replay, checked against the game's player count."""
    if seat is None:
        return None
    n = GameSpec(replay.env_id, replay.config).num_players
    if not 0 <= seat < n:
        raise UsageError(f"--seat {seat} is not a seat of this {n}-player game; choose 0 to {n - 1}", 2)
    return seat
