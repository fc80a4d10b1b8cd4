"""Tournament results in SQLite (the standard library's ``sqlite3``).

One file holds any number of tournaments. Tables:

``tournaments``
    ``id``, ``key`` (a hash of env id, config, agents, requested games, seed and schedule version:
    the same command finds the same tournament), ``env_id``, ``config`` (JSON, the game's full
    config), ``agents`` (JSON list of ``{"name", "spec", "play_spec", "fingerprint"}``),
    ``requested_games``, ``games`` (scheduled: rounded up to whole cycles of the schedule),
    ``seed``, ``schedule`` (JSON list of ``[deal, rotation, seed, lineup]``, the definition of the
    tournament), ``created``.
``games``
    One row per finished game: ``id`` (the GAME_ID of ``smuggle replay``), ``tournament_id``,
    ``game_key`` (unique within a tournament), ``deal``, ``rotation``, ``seed``, ``env_id``,
    ``config`` (JSON), ``seating`` (JSON agent name per seat), ``agents`` (JSON agent spec per
    seat), ``scores`` and ``ranks`` (JSON per seat; rank 1 is best, ties share the mean place),
    ``actions`` (JSON action list: with env id, config and seed, the replay), ``decisions``,
    ``terminal`` (1 for a game over by its rules; 0 for a truncated one, stopped by the game's
    own cap: it has no winner and every seat shares one rank), ``duration`` (seconds of play),
    ``finished`` (UTC time).
``ratings``
    The latest ratings of each tournament's agents (rebuilt from the games after each run).
``agent_calls``
    What the agents that keep records (``take_records()``, the ``llm:`` agent's model calls) did
    in a stored game, one row a decision: ``game_id``, ``seat``, ``step`` (the actions before
    it), ``agent`` (the tournament's name for it), ``prompt_json`` (the messages sent, JSON),
    ``answer``, ``action``, ``prompt_tokens`` and ``completion_tokens`` (when reported),
    ``latency_s``, ``retries``, ``parse_failures``, ``fallback`` (the move's source when the
    answers gave none), ``error`` (the last one) and ``extra`` (the record's other keys, JSON).
    Stored in the game's own transaction; added to older databases when opened for writing.

The database runs in WAL mode and each finished game is committed in its own transaction, so a
tournament killed at any moment loses at most the games still being played; ``INSERT ... ON
CONFLICT DO NOTHING`` on ``(tournament_id, game_key)`` means no game is ever stored twice.

``TournamentDB(path, readonly=True)`` (what ``smuggle replay`` and ``analyze`` use) reads without
writing anything: it opens the file with SQLite's ``mode=ro``, so a database in a read-only folder
or a read-only file can be read, and it creates no journal or other file next to it. While no
other connection has the database open (no ``-wal`` file beside it) it is opened
``immutable=1`` too, since even a read-only WAL connection would create ``-wal`` and ``-shm``
files and leave them behind; such a connection sees the games stored when it was opened, and
reads each query's rows at once, so that a tournament writing to the file meanwhile cannot change
pages under a long read. While a tournament is writing, it reads through that run's ``-wal`` and
``-shm`` files instead, seeing every committed game.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from smuggle_envs.core import GameSpec, Replay

from .scheduled import SCHEDULE_VERSION, ScheduledGame

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournaments (
    id              INTEGER PRIMARY KEY,
    key             TEXT NOT NULL UNIQUE,
    env_id          TEXT NOT NULL,
    config          TEXT NOT NULL,
    agents          TEXT NOT NULL,
    requested_games INTEGER NOT NULL,
    games           INTEGER NOT NULL,
    seed            INTEGER NOT NULL,
    schedule        TEXT NOT NULL,
    created         TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    game_key      TEXT NOT NULL,
    deal          INTEGER NOT NULL,
    rotation      INTEGER NOT NULL,
    seed          INTEGER NOT NULL,
    env_id        TEXT NOT NULL,
    config        TEXT NOT NULL,
    seating       TEXT NOT NULL,
    agents        TEXT NOT NULL,
    scores        TEXT NOT NULL,
    ranks         TEXT NOT NULL,
    actions       TEXT NOT NULL,
    decisions     INTEGER NOT NULL,
    terminal      INTEGER NOT NULL,
    duration      REAL NOT NULL,
    finished      TEXT NOT NULL,
    UNIQUE (tournament_id, game_key)
);
CREATE INDEX IF NOT EXISTS games_by_order ON games (tournament_id, deal, rotation);
CREATE TABLE IF NOT EXISTS ratings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    agent         TEXT NOT NULL,
    mu            REAL NOT NULL,
    sigma         REAL NOT NULL,
    ordinal       REAL NOT NULL,
    games         INTEGER NOT NULL,
    updated       TEXT NOT NULL,
    PRIMARY KEY (tournament_id, agent)
);
CREATE TABLE IF NOT EXISTS agent_calls (
    game_id           INTEGER NOT NULL REFERENCES games(id),
    seat              INTEGER NOT NULL,
    step              INTEGER NOT NULL,
    agent             TEXT NOT NULL,
    prompt_json       TEXT NOT NULL,
    answer            TEXT,
    action            INTEGER,
    prompt_tokens     INTEGER,
    completion_tokens INTEGER,
    latency_s         REAL NOT NULL,
    retries           INTEGER NOT NULL,
    parse_failures    INTEGER NOT NULL,
    fallback          TEXT,
    error             TEXT,
    extra             TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_calls_by_game ON agent_calls (game_id, step);
"""

# The columns of ``agent_calls`` read from a record by name (``extra`` keeps the rest).
_CALL_FIELDS = ("answer", "action", "prompt_tokens", "completion_tokens", "fallback", "error")


class DatabaseError(Exception):
    """A database file that cannot be opened or is not a tournament database."""


@dataclass(frozen=True)
class AgentEntry:
    """One agent of a tournament: ``name`` (unique label), the ``spec`` the user gave, the
    ``play_spec`` workers build (a fallback or an absolute path), and a ``fingerprint`` of the
    checkpoint file a spec names ("" if none), so a changed model is a different tournament."""

    name: str
    spec: str
    play_spec: str
    fingerprint: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "spec": self.spec, "play_spec": self.play_spec, "fingerprint": self.fingerprint}


@dataclass(frozen=True)
class Tournament:
    id: int
    key: str
    env_id: str
    config: dict[str, Any]
    agents: tuple[AgentEntry, ...]
    requested_games: int
    games: int
    seed: int
    schedule: tuple[ScheduledGame, ...]
    created: str

    @property
    def names(self) -> list[str]:
        return [a.name for a in self.agents]

    @property
    def spec(self) -> GameSpec:
        """The tournament's game: its env id and full config."""
        return GameSpec(self.env_id, self.config)

    @property
    def num_players(self) -> int:
        return len(self.schedule[0].seating) if self.schedule else int(self.config.get("num_players", 0))


@dataclass(frozen=True)
class GameRecord:
    id: int
    tournament_id: int
    game_key: str
    deal: int
    rotation: int
    seed: int
    env_id: str
    config: dict[str, Any]
    seating: list[str]
    agents: list[str]
    scores: list[float]
    ranks: list[float]
    actions: list[int]
    decisions: int
    terminal: bool
    duration: float
    finished: str

    @property
    def spec(self) -> GameSpec:
        """The game's env id and config."""
        return GameSpec(self.env_id, self.config)

    def replay(self) -> Replay:
        return Replay(self.env_id, dict(self.config), self.seed, list(self.actions))


@dataclass(frozen=True)
class GameResult:
    id: int
    game_key: str
    deal: int
    rotation: int
    seating: list[str]
    scores: list[float]
    ranks: list[float]


def tournament_key(
    env_id: str,
    config: dict[str, Any],
    agents: Sequence[AgentEntry],
    requested_games: int,
    seed: int,
    seating: str = "rotation",
) -> str:
    """The identity of a tournament: what the command asked for (not workers or backend). The
    seating mode joins the key only when it is not the default, so keys made before the option
    existed still find their tournaments."""
    data: dict[str, Any] = {
        "env_id": env_id,
        "config": config,
        "games": requested_games,
        "seed": seed,
        "agents": [[a.name, a.spec, a.fingerprint] for a in agents],
        "schedule_version": SCHEDULE_VERSION,
    }
    if seating != "rotation":
        data["seating"] = seating
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:20]


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class TournamentDB:
    """A tournament database. ``create=False`` refuses a missing file instead of making one;
    ``readonly=True`` (implies ``create=False``) only reads, writing nothing at all (see the
    module docstring)."""

    def __init__(self, path: str | os.PathLike[str], create: bool = True, readonly: bool = False):
        self.path = Path(path)
        self.readonly = readonly
        self._immutable = False  # opened immutable=1: read rows at once (see the module docstring)
        if (readonly or not create) and not self.path.is_file():
            raise DatabaseError(
                f"{str(path)!r} is a folder, not a database file"
                if self.path.is_dir()
                else f"no database file {str(path)!r}"
            )
        if readonly:
            self.conn = self._connect_readonly()
            return
        try:
            self.conn = sqlite3.connect(str(self.path), timeout=60, isolation_level=None)
            self.conn.execute("PRAGMA busy_timeout = 60000")
            mode = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal":  # e.g. a file system without shared memory
                self.conn.execute("PRAGMA journal_mode = DELETE")
            self.conn.execute("PRAGMA synchronous = NORMAL")  # durable against a killed process
            self.conn.execute("PRAGMA foreign_keys = ON")
            tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not create and "tournaments" not in tables:
                raise DatabaseError(f"{str(path)!r} is not a tournament database (no tournaments table)")
            with self._tx():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self.conn.execute(statement)
                self.conn.execute(
                    "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
                )
        except sqlite3.DatabaseError as exc:
            raise DatabaseError(f"cannot use {str(path)!r} as a tournament database: {self._why(exc)}") from None

    def _connect_readonly(self) -> sqlite3.Connection:
        wal = self.path.with_name(self.path.name + "-wal")
        self._immutable = not wal.exists()
        query = "mode=ro&immutable=1" if self._immutable else "mode=ro"
        try:
            conn = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?{query}", uri=True, timeout=60, isolation_level=None
            )
            try:
                conn.execute("PRAGMA busy_timeout = 60000")
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            except BaseException:
                conn.close()
                raise
        except sqlite3.DatabaseError as exc:
            raise DatabaseError(f"cannot read {str(self.path)!r} as a tournament database: {exc}") from None
        if "tournaments" not in tables:
            conn.close()
            raise DatabaseError(f"{str(self.path)!r} is not a tournament database (no tournaments table)")
        return conn

    def _why(self, exc: sqlite3.DatabaseError) -> str:
        """SQLite's reason, with what usually causes it where its own words are vague."""
        text = str(exc)
        folder = self.path.resolve().parent
        if "readonly" in text or "unable to open" in text:
            if not os.access(self.path if self.path.exists() else folder, os.W_OK):
                what = "the file" if self.path.exists() else f"the folder {folder}"
                return f"{text} ({what} is read-only)"
            if not os.access(folder, os.W_OK):
                return f"{text} (the folder {folder} is read-only; SQLite writes its -wal file there)"
        return text

    # ----- plumbing ----------------------------------------------------------------------------
    def _tx(self) -> Transaction:
        return Transaction(self.conn)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> TournamentDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- tournaments -------------------------------------------------------------------------
    def find_or_create(
        self,
        spec: GameSpec,
        agents: Sequence[AgentEntry],
        requested_games: int,
        seed: int,
        schedule: Sequence[ScheduledGame] | Callable[[], Sequence[ScheduledGame]],
        seating: str = "rotation",
    ) -> tuple[Tournament, bool]:
        """The tournament with this identity, created with ``schedule`` (a list of specs, or a
        function making it, called only for a new tournament) if new; returns ``(tournament,
        created)``. An existing tournament keeps its stored schedule. ``spec``: the game, with its
        full config (every option, as stored)."""
        env_id, config = spec.env_id, spec.to_dict()["config"]
        key = tournament_key(env_id, config, agents, requested_games, seed, seating)
        row = self.conn.execute("SELECT id FROM tournaments WHERE key = ?", (key,)).fetchone()
        if row is not None:
            return self.tournament(row[0]), False
        if callable(schedule):
            schedule = schedule()
        with self._tx():
            row = self.conn.execute("SELECT id FROM tournaments WHERE key = ?", (key,)).fetchone()
            if row is not None:  # created by a concurrent run meanwhile
                return self.tournament(row[0]), False
            cur = self.conn.execute(
                "INSERT INTO tournaments (key, env_id, config, agents, requested_games, games, seed, "
                "schedule, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    env_id,
                    _dumps(config),
                    _dumps([a.to_dict() for a in agents]),
                    requested_games,
                    len(schedule),
                    seed,
                    _dumps([s.to_list() for s in schedule]),
                    _now(),
                ),
            )
            tid = cur.lastrowid
        if tid is None:  # never: an INSERT always sets it
            raise DatabaseError(f"the new tournament was not stored in {str(self.path)!r}")
        return self.tournament(tid), True

    def tournament(self, tournament_id: int) -> Tournament:
        row = self.conn.execute(
            "SELECT id, key, env_id, config, agents, requested_games, games, seed, schedule, created "
            "FROM tournaments WHERE id = ?",
            (tournament_id,),
        ).fetchone()
        if row is None:
            known = [t for (t,) in self.conn.execute("SELECT id FROM tournaments ORDER BY id")]
            raise DatabaseError(f"no tournament {tournament_id} in {str(self.path)!r}; it has {_list_ids(known)}")
        tid, key, env_id, config, agents, requested, games, seed, schedule, created = row
        return Tournament(
            tid,
            key,
            env_id,
            json.loads(config),
            tuple(AgentEntry(**a) for a in json.loads(agents)),
            requested,
            games,
            seed,
            tuple(ScheduledGame.from_list(item) for item in json.loads(schedule)),
            created,
        )

    def tournament_ids(self) -> list[int]:
        return [t for (t,) in self.conn.execute("SELECT id FROM tournaments ORDER BY id")]

    # ----- games -------------------------------------------------------------------------------
    def game_id_range(self, tournament_id: int) -> tuple[int | None, int | None]:
        """The smallest and largest game id of a tournament (None, None if it has no games)."""
        return tuple(
            self.conn.execute("SELECT MIN(id), MAX(id) FROM games WHERE tournament_id = ?", (tournament_id,)).fetchone()
        )

    def played_keys(self, tournament_id: int) -> set[str]:
        return {k for (k,) in self.conn.execute("SELECT game_key FROM games WHERE tournament_id = ?", (tournament_id,))}

    def count_games(self, tournament_id: int | None = None) -> int:
        if tournament_id is None:
            return int(self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        return int(
            self.conn.execute("SELECT COUNT(*) FROM games WHERE tournament_id = ?", (tournament_id,)).fetchone()[0]
        )

    def insert_game(self, tournament: Tournament, spec: ScheduledGame, result: dict[str, Any]) -> bool:
        """Store one finished game in its own transaction; False if its key was already stored.

        ``result`` holds ``scores``, ``ranks``, ``actions``, ``terminal`` and ``duration``, and
        ``calls`` (optional): the records of the agents that keep them, each with its ``seat``,
        stored in ``agent_calls`` with the game.
        """
        names = tournament.names
        play_specs = [a.play_spec for a in tournament.agents]
        with self._tx():
            cur = self.conn.execute(
                "INSERT INTO games (tournament_id, game_key, deal, rotation, seed, env_id, config, "
                "seating, agents, scores, ranks, actions, decisions, terminal, duration, finished) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (tournament_id, game_key) DO NOTHING",
                (
                    tournament.id,
                    spec.game_key,
                    spec.deal,
                    spec.rotation,
                    spec.seed,
                    tournament.env_id,
                    _dumps(tournament.config),
                    _dumps([names[a] for a in spec.seating]),
                    _dumps([play_specs[a] for a in spec.seating]),
                    _dumps(result["scores"]),
                    _dumps(result["ranks"]),
                    _dumps(result["actions"]),
                    len(result["actions"]),
                    int(bool(result.get("terminal", True))),
                    float(result.get("duration", 0.0)),
                    _now(),
                ),
            )
            if cur.rowcount != 1:
                return False
            if result.get("calls"):
                names_by_seat = [names[a] for a in spec.seating]
                self.conn.executemany(
                    "INSERT INTO agent_calls (game_id, seat, step, agent, prompt_json, answer, action, prompt_tokens, "
                    "completion_tokens, latency_s, retries, parse_failures, fallback, error, extra) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [_call_row(cur.lastrowid, names_by_seat, r) for r in result["calls"]],
                )
            return True

    _GAME_COLUMNS = (
        "id, tournament_id, game_key, deal, rotation, seed, env_id, config, seating, "
        "agents, scores, ranks, actions, decisions, terminal, duration, finished"
    )

    @staticmethod
    def _record(row: Sequence[Any]) -> GameRecord:
        # The columns are GameRecord's fields in order; config to actions (7 to 12) are JSON.
        values = [json.loads(v) if 7 <= i < 13 else v for i, v in enumerate(row)]
        values[14] = bool(values[14])  # terminal
        return GameRecord(*values)

    def games(self, tournament_id: int) -> Iterator[GameRecord]:
        """The tournament's games in schedule order (deal, then rotation), whatever order they
        finished in, so everything computed from them is the same after a resume."""
        cur = self.conn.execute(
            f"SELECT {self._GAME_COLUMNS} FROM games WHERE tournament_id = ? ORDER BY deal, rotation", (tournament_id,)
        )
        for row in self._rows(cur):
            yield self._record(row)

    def _rows(self, cur: sqlite3.Cursor) -> Iterable[Any]:
        """A query's rows: streamed, or all at once on an ``immutable=1`` connection, whose file
        a tournament started meanwhile may change under a long read."""
        return cur.fetchall() if self._immutable else cur

    def results(self, tournament_id: int) -> Iterator[GameResult]:
        """Like ``games`` without the action lists (what ratings need), in schedule order."""
        cur = self.conn.execute(
            "SELECT id, game_key, deal, rotation, seating, scores, ranks FROM games "
            "WHERE tournament_id = ? ORDER BY deal, rotation",
            (tournament_id,),
        )
        for gid, key, deal, rotation, seating, scores, ranks in self._rows(cur):
            yield GameResult(gid, key, deal, rotation, json.loads(seating), json.loads(scores), json.loads(ranks))

    def game(self, game_id: int) -> GameRecord:
        row = self.conn.execute(f"SELECT {self._GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            lo, hi = self.conn.execute("SELECT MIN(id), MAX(id) FROM games").fetchone()
            have = "no games" if lo is None else f"game ids {lo} to {hi}"
            raise DatabaseError(f"no game {game_id} in {str(self.path)!r}; it has {have}")
        return self._record(row)

    # ----- agent calls -------------------------------------------------------------------------
    def agent_calls(self, tournament_id: int | None = None) -> Iterator[dict[str, Any]]:
        """The stored agent records (``agent_calls``) of one tournament or all, in game then step
        order, each a dict of the table's columns (``messages``: the prompt, parsed; ``extra``
        merged in) with its game's ``tournament_id``, ``env_id`` and ``game_seed``. None in a
        database older than the table."""
        if not self._has_table("agent_calls"):
            return
        where, args = ("WHERE g.tournament_id = ?", (tournament_id,)) if tournament_id is not None else ("", ())
        cur = self.conn.execute(
            "SELECT c.game_id, g.tournament_id, g.env_id, g.seed, c.seat, c.step, c.agent, c.prompt_json, c.answer, "
            "c.action, c.prompt_tokens, c.completion_tokens, c.latency_s, c.retries, c.parse_failures, c.fallback, "
            f"c.error, c.extra FROM agent_calls c JOIN games g ON g.id = c.game_id {where} "
            "ORDER BY c.game_id, c.step, c.seat",
            args,
        )
        for row in self._rows(cur):
            yield _call_record(row)

    def _has_table(self, name: str) -> bool:
        found = self.conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name = ?", (name,)).fetchone()
        return found is not None

    # ----- ratings -----------------------------------------------------------------------------
    def save_ratings(self, tournament_id: int, ratings: Sequence[tuple[str, float, float, float, int]]) -> None:
        """Replace the stored ratings: rows of (agent, mu, sigma, ordinal, games)."""
        now = _now()
        with self._tx():
            self.conn.execute("DELETE FROM ratings WHERE tournament_id = ?", (tournament_id,))
            self.conn.executemany(
                "INSERT INTO ratings (tournament_id, agent, mu, sigma, ordinal, games, updated) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(tournament_id, a, mu, sigma, ordinal, g, now) for a, mu, sigma, ordinal, g in ratings],
            )

    def ratings(self, tournament_id: int) -> dict[str, tuple[float, float, float, int]]:
        """Stored ratings: agent -> (mu, sigma, ordinal, games)."""
        return {
            a: (mu, sigma, o, g)
            for a, mu, sigma, o, g in self.conn.execute(
                "SELECT agent, mu, sigma, ordinal, games FROM ratings WHERE tournament_id = ?", (tournament_id,)
            )
        }


def _call_row(game_id: int | None, names_by_seat: Sequence[str], record: dict[str, Any]) -> tuple[Any, ...]:
    """One ``agent_calls`` row of an agent's record (any agent's: missing fields stay empty)."""
    seat = int(record["seat"])
    known = {"seat", "step", "messages", "latency_s", "retries", "parse_failures", *_CALL_FIELDS}
    extra = {k: v for k, v in record.items() if k not in known}
    return (
        game_id,
        seat,
        int(record.get("step", 0)),
        names_by_seat[seat],
        _dumps(record.get("messages", [])),
        *(record.get(name) for name in _CALL_FIELDS[:4]),
        float(record.get("latency_s") or 0.0),
        int(record.get("retries") or 0),
        int(record.get("parse_failures") or 0),
        *(record.get(name) for name in _CALL_FIELDS[4:]),
        _dumps(extra),
    )


def _call_record(row: Sequence[Any]) -> dict[str, Any]:
    """A stored ``agent_calls`` row (joined with its game) as a plain dict."""
    (gid, tid, env_id, seed, seat, step, agent, prompt, answer, action, p_tok, c_tok, latency, retries, fails,
     fallback, error, extra) = row  # fmt: skip
    record = {
        "game_id": gid,
        "tournament_id": tid,
        "env_id": env_id,
        "game_seed": seed,
        "seat": seat,
        "step": step,
        "agent": agent,
        "messages": json.loads(prompt),
        "answer": answer,
        "action": action,
        "prompt_tokens": p_tok,
        "completion_tokens": c_tok,
        "latency_s": latency,
        "retries": retries,
        "parse_failures": fails,
        "fallback": fallback,
        "error": error,
    }
    return {**json.loads(extra), **record}


class Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on error), for autocommit connections:
    the results database's writes and the browser app's (``training/web/store.py``)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.conn.execute("COMMIT" if exc_type is None else "ROLLBACK")


def unique_names(labels: Sequence[str]) -> list[str]:
    """Labels made unique as the database stores agents: a second ``random`` becomes
    ``random#2``, a third ``random#3`` (a tournament's agents, a browser table's seats)."""
    seen: dict[str, int] = {}
    names = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        names.append(label if seen[label] == 1 else f"{label}#{seen[label]}")
    return names


def _list_ids(ids: Sequence[int]) -> str:
    if not ids:
        return "no tournaments"
    return "tournament" + ("s " if len(ids) > 1 else " ") + ", ".join(map(str, ids))
