"""Stored games as the dataset reads them: every game of a database, whether a tournament played
it or the browser app, and a person's time per decision where the app recorded one.

Both kinds of database share the tournament schema (``training/db.py``): the app
(``smuggle serve --db``, ``training/web/store.py``) files its finished tables as games of
tournaments keyed ``web:...`` and keeps each human decision in its own table, ``human_decisions``
(the game's id, the decision's index in the actions, the seat, the seconds it took). This module
reads that SQLite format directly, read-only, rather than importing the browser app: the dataset
needs two columns of one table, and ``training.bluffing`` stays independent of ``training.web``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from training.db import AgentEntry, GameRecord, TournamentDB

WEB_KEY_PREFIX = "web:"
"""The key prefix of the browser app's tournaments (``training.web.store.WEB_KEY_PREFIX``; a test
checks that the two agree)."""


@dataclass(frozen=True)
class StoredGame:
    """A stored game, where it came from (``"tournament"`` or ``"web"``), the seconds a person
    took for each of its decisions (step -> seconds; empty for a game without people), and its
    tournament's agents by seat name (the spec the user gave, the model file's fingerprint)."""

    record: GameRecord
    source: str
    seconds: dict[int, float] = field(default_factory=dict)
    entries: dict[str, AgentEntry] = field(default_factory=dict)


def open_db(path: str | os.PathLike[str]) -> TournamentDB:
    """The database, read-only (``DatabaseError`` for a missing file or one that is not one)."""
    return TournamentDB(path, readonly=True)


def human_seconds(db: TournamentDB) -> dict[int, dict[int, float]]:
    """game id -> {step: seconds} of every human decision of a finished app game (empty for a
    database without the app's table)."""
    tables = {name for (name,) in db.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "human_decisions" not in tables:
        return {}
    found: dict[int, dict[int, float]] = {}
    query = "SELECT game_id, decision, seconds FROM human_decisions WHERE game_id IS NOT NULL"
    for game_id, step, seconds in db.conn.execute(query).fetchall():
        found.setdefault(int(game_id), {})[int(step)] = float(seconds)
    return found


def stored_games(db: TournamentDB) -> Iterator[StoredGame]:
    """Every game of the database, tournament by tournament, each in schedule order."""
    seconds = human_seconds(db)
    for tid in db.tournament_ids():
        key = db.conn.execute("SELECT key FROM tournaments WHERE id = ?", (tid,)).fetchone()[0]
        source = "web" if str(key).startswith(WEB_KEY_PREFIX) else "tournament"
        entries = {a.name: a for a in db.tournament(tid).agents}
        for record in db.games(tid):
            yield StoredGame(record, source, seconds.get(record.id, {}), entries)
