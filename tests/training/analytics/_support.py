"""Helpers shared by the analytics tests: a scripted game stored as a one-game tournament, and the
checks every game's ``smuggle analyze`` output meets."""

from __future__ import annotations

from pathlib import Path

from smuggle_envs import GameSpec
from smuggle_envs.core.outcomes import ranks
from training.db import AgentEntry, TournamentDB
from training.scheduled import ScheduledGame


def store_game(path: Path, state, seating: list[str], seed: int):
    """Store the game played to ``state`` (from deal ``seed``; seats named ``seating``) as the only
    game of a tournament in a new database at ``path``; returns the database and the tournament."""
    db = TournamentDB(path)
    agents = [AgentEntry(name, "random", "random") for name in seating]
    seats = tuple(range(len(seating)))
    spec = ScheduledGame(0, 0, seed, seats, seats)
    t, _ = db.find_or_create(GameSpec(state.game.env_id, state.game.config.to_dict()), agents, 1, seed, [spec])
    scores = state.scores()
    record = {"scores": scores, "ranks": ranks(scores), "actions": list(state.history), "terminal": state.is_terminal()}
    assert db.insert_game(t, spec, record)
    assert not db.insert_game(t, spec, record)  # never stored twice
    return db, t


def check_analyzed(out: str, folder: Path, env_id: str, title: str) -> None:
    """``smuggle analyze`` of ``analyze_small_tournament`` ran the game's own analysis and wrote its
    files (``r_t1_<title>.csv`` and ``.png``)."""
    assert f"=== tournament 1: {env_id}" in out and "no hidden-information analysis" not in out
    assert (folder / f"r_t1_{title}.csv").is_file() and (folder / f"r_t1_{title}.png").is_file()
