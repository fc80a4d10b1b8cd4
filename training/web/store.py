"""The app's SQLite database: the tournament schema plus two tables of its own.

``smuggle serve --db FILE`` opens (or creates) a tournament database (``training/db.py``)
so that games played in the browser and games played by tournaments are stored, replayed and
analysed the same way:

* A finished table becomes one row of ``games``, in a tournament of its own kind: one per env id
  and game config, keyed ``web:<hash>``, whose ``agents`` list grows with every seat label seen
  (``human:NAME`` for a person, the agent's label for a bot). ``smuggle replay`` and ``smuggle
  analyze`` read them like any tournament's games (human seats included).
* ``web_tables``: every table, finished or not: its game (env id, config, seed), its seats (kind,
  agent spec, display name, a SHA-256 of the seat token, never the token itself) and the actions
  so far, written after every action, and while it is in play a SHA-256 of its creator's client
  key (``creator``: the per-client table limit counts it after a restart; cleared once the table
  ends). A restarted server restores the unfinished ones.
* ``human_decisions``: one row per decision a person took: the table, seat, display name and
  session id (random; no personal data), the full hidden state (the replay up to the decision:
  env id, config, seed and the actions before it, which rebuild the exact position, and its
  full text), the seat's observation, the legal actions, the action, and the seconds taken.

``export_human`` writes the decisions as JSON lines. This module needs only the standard library
(``smuggle export-human`` works without the ``web`` extra).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from training.db import DatabaseError, TournamentDB, Transaction

WEB_KEY_PREFIX = "web:"

_WEB_SCHEMA = """
CREATE TABLE IF NOT EXISTS web_tables (
    id        TEXT PRIMARY KEY,
    env_id    TEXT NOT NULL,
    config    TEXT NOT NULL,
    seed      INTEGER NOT NULL,
    seats     TEXT NOT NULL,
    actions   TEXT NOT NULL,
    status    TEXT NOT NULL,
    note      TEXT NOT NULL DEFAULT '',
    bot_delay REAL NOT NULL DEFAULT 0,
    game_id   INTEGER,
    owner_hash TEXT NOT NULL DEFAULT '',
    creator   TEXT NOT NULL DEFAULT '',
    created   TEXT NOT NULL,
    updated   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS human_decisions (
    id            INTEGER PRIMARY KEY,
    table_id      TEXT NOT NULL,
    game_id       INTEGER,
    env_id        TEXT NOT NULL,
    config        TEXT NOT NULL,
    seed          INTEGER NOT NULL,
    decision      INTEGER NOT NULL,
    seat          INTEGER NOT NULL,
    name          TEXT NOT NULL,
    session       TEXT NOT NULL,
    history       TEXT NOT NULL,
    state_text    TEXT NOT NULL,
    observation   TEXT NOT NULL,
    legal_actions TEXT NOT NULL,
    action        INTEGER NOT NULL,
    action_text   TEXT NOT NULL,
    asked_at      TEXT NOT NULL,
    decided_at    TEXT NOT NULL,
    seconds       REAL NOT NULL,
    UNIQUE (table_id, decision)
);
CREATE INDEX IF NOT EXISTS human_decisions_by_table ON human_decisions (table_id, decision);
"""


_TABLE_COLUMNS = (
    "id",
    "env_id",
    "config",
    "seed",
    "seats",
    "actions",
    "status",
    "note",
    "bot_delay",
    "game_id",
    "owner_hash",
    "creator",
    "created",
    "updated",
)
# Columns added since the first version, each added to an older database when it is opened.
_ADDED_COLUMNS = {
    "owner_hash": "TEXT NOT NULL DEFAULT ''",  # tables had no owner
    "creator": "TEXT NOT NULL DEFAULT ''",  # the creator was not stored: restored tables count for nobody
}
# A table no longer in play keeps no trace of who made it (``?``: the new status; a SET clause
# reads the row as it was).
_CREATOR_KEPT = "creator = CASE WHEN ? = 'playing' THEN creator ELSE '' END"


def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def web_key(env_id: str, config: dict[str, Any]) -> str:
    """The key of the tournament that holds the app's games of one env id and config."""
    digest = hashlib.sha256(_dumps([env_id, config]).encode()).hexdigest()[:16]
    return f"{WEB_KEY_PREFIX}{env_id}:{digest}"


class Store:
    """One app database. Every method takes the store's lock: the server calls it from the event
    loop, and tests from their own threads."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        TournamentDB(self.path).close()  # creates or checks the tournament schema (clear errors)
        try:
            self.conn = sqlite3.connect(str(self.path), timeout=60, isolation_level=None, check_same_thread=False)
            self.conn.execute("PRAGMA busy_timeout = 60000")
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            self.conn.executescript(_WEB_SCHEMA)
            columns = {row[1] for row in self.conn.execute("PRAGMA table_info(web_tables)")}
            for name, kind in _ADDED_COLUMNS.items():
                if name not in columns:  # a database of an earlier version
                    self.conn.execute(f"ALTER TABLE web_tables ADD COLUMN {name} {kind}")
        except sqlite3.DatabaseError as exc:
            raise DatabaseError(f"cannot use {str(path)!r} as the app's database: {exc}") from None
        self.lock = threading.Lock()

    def close(self) -> None:
        with self.lock:
            self.conn.close()

    def _tx(self) -> Transaction:
        return Transaction(self.conn)

    # ----- tables -------------------------------------------------------------------------------------
    def save_table(self, row: dict[str, Any]) -> None:
        """Insert a new table (``id, env_id, config, seed, seats, bot_delay, owner_hash`` and
        optionally ``creator``)."""
        stamp = now()
        with self.lock, self._tx():
            self.conn.execute(
                "INSERT INTO web_tables (id, env_id, config, seed, seats, actions, status, bot_delay, owner_hash, "
                "creator, created, updated) VALUES (?, ?, ?, ?, ?, '[]', 'playing', ?, ?, ?, ?, ?)",
                (
                    row["id"],
                    row["env_id"],
                    _dumps(row["config"]),
                    row["seed"],
                    _dumps(row["seats"]),
                    row["bot_delay"],
                    row["owner_hash"],
                    row.get("creator", ""),
                    stamp,
                    stamp,
                ),
            )

    def update_table(
        self, table_id: str, actions: list[int], seats: list[dict[str, Any]], status: str = "playing", note: str = ""
    ) -> None:
        """Save a change that is not a move: a seat taken, a table ended."""
        with self.lock, self._tx():
            self.conn.execute(
                f"UPDATE web_tables SET actions = ?, seats = ?, status = ?, note = ?, updated = ?, {_CREATOR_KEPT} "
                "WHERE id = ?",
                (_dumps(actions), _dumps(seats), status, note, now(), status, table_id),
            )

    def table(self, table_id: str) -> dict[str, Any] | None:
        rows = self._tables(" WHERE id = ?", (table_id,))
        return rows[0] if rows else None

    def tables(self, status: str | None = None) -> list[dict[str, Any]]:
        """Stored tables (newest first), optionally only those with ``status``."""
        if status is None:
            return self._tables("", ())
        return self._tables(" WHERE status = ?", (status,))

    def _tables(self, where: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        query = f"SELECT {', '.join(_TABLE_COLUMNS)} FROM web_tables{where} ORDER BY created DESC"
        with self.lock:
            rows = self.conn.execute(query, params).fetchall()
        result = []
        for row in rows:
            item = dict(zip(_TABLE_COLUMNS, row))
            for key in ("config", "seats", "actions"):
                item[key] = json.loads(item[key])
            result.append(item)
        return result

    # ----- moves -------------------------------------------------------------------------------------
    def commit_move(
        self,
        table_id: str,
        table: dict[str, Any],
        decision: dict[str, Any] | None = None,
        game: dict[str, Any] | None = None,
    ) -> int | None:
        """Save a move in one transaction: the table's new ``actions``, ``seats``, ``status`` and
        ``note``; the person's decision that made it, if any (see the module docstring for its
        fields); and the finished game, if the move ended it (``_insert_game``'s ``game``). A crash
        leaves all of them or none, so a decision is never stored without the action it records.
        Returns the finished game's id, or None."""
        with self.lock, self._tx():
            if decision is not None:
                self._insert_decision(decision)
            game_id = None if game is None else self._insert_game(table_id, game)
            self.conn.execute(
                "UPDATE web_tables SET actions = ?, seats = ?, status = ?, note = ?, game_id = COALESCE(?, game_id), "
                f"updated = ?, {_CREATOR_KEPT} WHERE id = ?",
                (
                    _dumps(table["actions"]),
                    _dumps(table["seats"]),
                    table["status"],
                    table["note"],
                    game_id,
                    now(),
                    table["status"],
                    table_id,
                ),
            )
            if game_id is not None:
                self.conn.execute("UPDATE human_decisions SET game_id = ? WHERE table_id = ?", (game_id, table_id))
        return game_id

    def _insert_decision(self, row: dict[str, Any]) -> None:
        # A plain INSERT: a decision is stored once, with its action, or the transaction fails.
        self.conn.execute(
            "INSERT INTO human_decisions (table_id, env_id, config, seed, decision, seat, name, "
            "session, history, state_text, observation, legal_actions, action, action_text, asked_at, "
            "decided_at, seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row["table_id"],
                row["env_id"],
                _dumps(row["config"]),
                row["seed"],
                row["decision"],
                row["seat"],
                row["name"],
                row["session"],
                _dumps(row["history"]),
                row["state_text"],
                _dumps(row["observation"]),
                _dumps(row["legal_actions"]),
                row["action"],
                row["action_text"],
                row["asked_at"],
                row["decided_at"],
                row["seconds"],
            ),
        )

    # ----- finished games -----------------------------------------------------------------------------
    def _insert_game(self, table_id: str, game: dict[str, Any]) -> int:
        """A finished table as a ``games`` row of its web tournament (inside a transaction);
        returns the game id. ``game``: ``env_id, config, seed, labels, specs, scores, ranks,
        actions, terminal, duration``."""
        env_id, config = game["env_id"], game["config"]
        key = web_key(env_id, config)
        row = self.conn.execute("SELECT id, agents FROM tournaments WHERE key = ?", (key,)).fetchone()
        if row is None:
            cur = self.conn.execute(
                "INSERT INTO tournaments (key, env_id, config, agents, requested_games, games, seed, schedule, "
                "created) VALUES (?, ?, ?, '[]', 0, 0, 0, '[]', ?)",
                (key, env_id, _dumps(config), now()),
            )
            tid, agents = cur.lastrowid, []
        else:
            tid, agents = row[0], json.loads(row[1])
        known = {a["name"] for a in agents}
        for label, spec in zip(game["labels"], game["specs"]):
            if label not in known:
                agents.append({"name": label, "spec": spec, "play_spec": spec, "fingerprint": ""})
                known.add(label)
        deal = self.conn.execute("SELECT COUNT(*) FROM games WHERE tournament_id = ?", (tid,)).fetchone()[0]
        cur = self.conn.execute(
            "INSERT INTO games (tournament_id, game_key, deal, rotation, seed, env_id, config, seating, agents, "
            "scores, ranks, actions, decisions, terminal, duration, finished) "
            "VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                tid,
                table_id,
                deal,
                game["seed"],
                env_id,
                _dumps(config),
                _dumps(game["labels"]),
                _dumps(game["specs"]),
                _dumps(game["scores"]),
                _dumps(game["ranks"]),
                _dumps(game["actions"]),
                len(game["actions"]),
                int(game["terminal"]),
                float(game["duration"]),
                now(),
            ),
        )
        self.conn.execute("UPDATE tournaments SET agents = ?, games = games + 1 WHERE id = ?", (_dumps(agents), tid))
        return int(cur.lastrowid or 0)

    def games(self, limit: int = 200) -> list[dict[str, Any]]:
        """The newest stored games of every tournament (the app's and the others'), for the lobby."""
        with self.lock:
            rows = self.conn.execute(
                "SELECT g.id, g.tournament_id, t.key, g.env_id, g.seating, g.scores, g.decisions, g.terminal, "
                "g.finished FROM games g JOIN tournaments t ON t.id = g.tournament_id ORDER BY g.id DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [
            {
                "id": gid,
                "tournament_id": tid,
                "source": "app" if key.startswith(WEB_KEY_PREFIX) else "tournament",
                "env_id": env_id,
                "seating": json.loads(seating),
                "scores": json.loads(scores),
                "decisions": decisions,
                "terminal": bool(terminal),
                "finished": finished,
            }
            for gid, tid, key, env_id, seating, scores, decisions, terminal, finished in rows
        ]

    def game(self, game_id: int) -> dict[str, Any] | None:
        """A stored game's replay (env id, config, seed, actions) and seating, or None."""
        with self.lock:
            row = self.conn.execute(
                "SELECT id, env_id, config, seed, seating, actions, scores FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            return None
        gid, env_id, config, seed, seating, actions, scores = row
        return {
            "id": gid,
            "env_id": env_id,
            "config": json.loads(config),
            "seed": seed,
            "seating": json.loads(seating),
            "actions": json.loads(actions),
            "scores": json.loads(scores),
        }


# ----- export ---------------------------------------------------------------------------------------------
_EXPORT_COLUMNS = (
    "id",
    "table_id",
    "game_id",
    "env_id",
    "config",
    "seed",
    "decision",
    "seat",
    "name",
    "session",
    "history",
    "state_text",
    "observation",
    "legal_actions",
    "action",
    "action_text",
    "asked_at",
    "decided_at",
    "seconds",
)
_JSON_COLUMNS = ("config", "history", "observation", "legal_actions")


def human_decisions(db_path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Every stored human decision of an app database, oldest first, read-only (the database
    is not written). Raises ``DatabaseError`` for a file that is not one."""
    db = TournamentDB(db_path, readonly=True)
    try:
        tables = {r[0] for r in db.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "human_decisions" not in tables:
            raise DatabaseError(f"{str(db_path)!r} holds no human decisions (it is not a 'smuggle serve' database)")
        rows = db.conn.execute(f"SELECT {', '.join(_EXPORT_COLUMNS)} FROM human_decisions ORDER BY id").fetchall()
    finally:
        db.close()
    for row in rows:
        item = dict(zip(_EXPORT_COLUMNS, row))
        for key in _JSON_COLUMNS:
            item[key] = json.loads(item[key])
        yield item


def export_human(db_path: str | os.PathLike[str], out: str | os.PathLike[str]) -> int:
    """Write every human decision of ``db_path`` to ``out`` as JSON lines; returns how many."""
    count = 0
    rows = list(human_decisions(db_path))  # read (and check) everything before creating the file
    with open(out, "w", encoding="utf-8") as f:
        for item in rows:
            f.write(json.dumps(item, separators=(",", ":")) + "\n")
            count += 1
    return count
