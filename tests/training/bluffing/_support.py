"""Helpers of the bluffing kit's tests: small tournaments played in this process, their games read
back as records, replays and positions."""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

from smuggle_envs import make_game
from smuggle_envs.core import Replay
from smuggle_envs.core.outcomes import ranks
from training.cli import main
from training.db import GameRecord, TournamentDB

# Extra game options per env id: Illegal trades only with ``trading`` on (its declined trades).
CONFIG = {"illegal_v0": ["--config", "trading=true"]}


def play_tournament(
    env_id: str, db: Path, games: int = 6, players: int = 3, agents: str = "rule,random,random"
) -> Path:
    """Run ``smuggle tournament`` in this process into ``db`` (its report silenced)."""
    argv = ["tournament", env_id, "--players", str(players), "--agents", agents, "--games", str(games)]
    argv += [*CONFIG.get(env_id, []), "--workers", "1", "--db", str(db), "--quiet", "--no-plots"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert main([*argv, "--out", str(db.parent)]) == 0
    return db


def records(db: Path) -> list[GameRecord]:
    """Every game stored in ``db``."""
    with TournamentDB(db, readonly=True) as t:
        return [g for tid in t.tournament_ids() for g in t.games(tid)]


def replays(db: Path) -> list[Replay]:
    """The replays of every game stored in ``db``."""
    return [g.replay() for g in records(db)]


def positions(replay: Replay) -> list:
    """The state before each action of ``replay`` (index = step), then the final state."""
    return [state for state, _ in replay.states()]


def store_web_game(db: Path, env_id: str, seed: int, humans: dict[int, str], num_players: int = 3) -> list[float]:
    """Store a finished game as the browser app does (``training.web.store.Store``): seats in
    ``humans`` (seat -> name) are people whose every decision is kept with its seconds (0.5 +
    step / 100), the others random bots; every seat plays seeded random moves. Returns the
    seconds by step (None for a bot's step)."""
    from training.web.store import Store, now

    store, rng = Store(db), random.Random(seed)
    game = make_game(env_id, num_players=num_players)
    state, table_id = game.new_initial_state(seed), f"t{seed}"
    seats = [
        {"kind": "human" if s in humans else "bot", "spec": "human" if s in humans else "random"}
        for s in range(num_players)
    ]
    store.save_table(
        {
            "id": table_id,
            "env_id": env_id,
            "config": {"num_players": num_players},
            "seed": seed,
            "seats": seats,
            "bot_delay": 0.0,
            "owner_hash": "",
        }
    )
    timing: list[float] = []
    while not state.is_terminal():
        seat, step = state.current_player(), len(state.history)
        action = rng.choice(state.legal_actions())
        decision = None
        if seat in humans:
            decision = {
                "table_id": table_id,
                "env_id": env_id,
                "config": {"num_players": num_players},
                "seed": seed,
                "decision": step,
                "seat": seat,
                "name": humans[seat],
                "session": "s" * 16,
                "history": list(state.history),
                "state_text": "",
                "observation": [],
                "legal_actions": list(state.legal_actions()),
                "action": action,
                "action_text": "",
                "asked_at": now(),
                "decided_at": now(),
                "seconds": 0.5 + step / 100,
            }
        timing.append(0.5 + step / 100 if seat in humans else None)
        state.apply_action(action)
        finished = None
        if state.is_terminal():
            labels = [f"human:{humans[s]}" if s in humans else "random" for s in range(num_players)]
            finished = {
                "env_id": env_id,
                "config": {"num_players": num_players},
                "seed": seed,
                "labels": labels,
                "specs": [s["spec"] for s in seats],
                "scores": state.scores(),
                "ranks": ranks(state.scores()),
                "actions": list(state.history),
                "terminal": True,
                "duration": 1.0,
            }
        table = {
            "actions": list(state.history),
            "seats": seats,
            "status": "finished" if finished else "playing",
            "note": "",
        }
        store.commit_move(table_id, table, decision, finished)
    store.close()
    return timing
