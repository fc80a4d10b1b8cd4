"""The tables the server runs: seats, tokens, one engine state each, bots off the event loop.

A ``Table`` holds a game in play: its state, its seats (a person or an agent spec each), the log
(every action's text as each seat saw it, ``views.log_entry``) and a revision number that goes up
with every change, which the pages wait on (long polling). Every change happens on the event
loop, with no ``await`` between checking a request and applying it, so two requests can never
interleave inside one change. A bot thinks in a worker thread (``asyncio.to_thread``) on a clone
of the state, so a slow search never holds up another table; its move is applied back on the
loop, and only if the table has not moved on meanwhile.

**Tokens.** Each human seat gets an unguessable token (``secrets.token_urlsafe``) when the table
is made; the server keeps only its SHA-256 (in memory and in the database), so the database does
not hold the keys to its own seats. Whoever has a seat's link is that seat: closing the tab or
restarting the browser resumes it, and so does restarting the server.

**Exactly once.** A table's ``revision`` is its position: the number of decisions played. It
changes only when a move is made, is derived from the stored actions (so it survives a
restart), and every act must name the revision it answers. A repeat of an act already applied
(the same seat, revision and action: a double click, a retried request) is answered with the
current view and ``repeated``, never applied twice; any other stale act is refused. Pages wait
on ``version``, a counter of every change (moves, joins, the end), which a page load never bumps.

**Restarts.** A move is saved before it is shown, in one transaction with the person's decision
that made it and, if it ended the game, the finished game (``Store.commit_move``): a crash keeps
all of them or none. Unfinished tables are replayed from their actions and continue (bots are
rebuilt from their specs), and one that cannot be rebuilt (a model gone) is marked ended with the
reason, which its pages show.

**Bots.** What a client may seat, and how much work it may ask for, is ``limits.py``'s: each bot
decision has a wall-clock budget, and a search whose table ends stops between iterations.

**Limits that outlive a restart.** A table's creator is stored with it as a SHA-256 of the client
key (``client_hash``; cleared once the table is no longer in play), so the per-client cap counts
the restored tables too; and a table without a move for ``limits.table_idle_minutes`` is closed
(``expire_idle``: stored as ended, like a close), counted from its last stored change across
restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import hashlib
import hmac
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from smuggle_envs.core.errors import ConfigError, GameOverError, IllegalActionError, MalformedActionError
from smuggle_envs.core.spec import GameSpec
from training.db import unique_names

from .errors import TableError, shown
from .games import web_game
from .limits import ServeLimits, build
from .store import Store, now
from .views import LogEntry, apply_logged, full_view, seat_view

log = logging.getLogger("smuggle.web")

HUMAN = "human"
NAME_LIMIT = 32
MAX_BOT_DELAY = 10.0
MAX_SEATS = 16  # seat specs looked at in one request (every game has at most 6 players)
MAX_SEED = 2**63 - 1  # seeds are stored as SQLite integers
INLINE_KINDS = ("rule", "random", "zoo", "ppo", "ppo_argmax")  # bots that decide on the event loop

AgentFactory = Callable[[str, Any, int], tuple[Any, str]]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def default_agent_factory(spec: str, game: Any, seed: int) -> tuple[Any, str]:
    """A bot a client may ask for under the default ``ServeLimits`` (see ``limits.build``)."""
    return build(spec, game, seed, ServeLimits())


@dataclass
class Table:
    """One table (see the module docstring)."""

    id: str
    env_id: str
    config: dict[str, Any]
    seed: int
    game: Any
    state: Any
    seats: list[dict[str, Any]]  # kind, spec, label, name, token_hash, session
    bot_delay: float = 0.0
    agents: dict[int, Any] = field(default_factory=dict)
    log: list[LogEntry] = field(default_factory=list)
    status: str = "playing"  # playing, finished, ended
    note: str = ""
    game_id: int | None = None
    version: int = 0  # every change (a move, a join, the end): what long polls wait on
    owner_hash: str = ""  # SHA-256 of the token that may close the table ("" = nobody)
    creator: str = ""  # ``client_hash`` of the client that made it (its bot tables are counted)
    moved_at: float = field(default_factory=time.time)  # the last move (wall clock): idle tables close
    asked_at: float = field(default_factory=time.time)  # when the decision now open was posed
    started: float = field(default_factory=time.monotonic)
    closing: bool = False  # the server is stopping: long polls return at once
    stopped: threading.Event = field(default_factory=threading.Event)  # set when the table ends
    _changed: asyncio.Event | None = None
    _bot_task: asyncio.Task[None] | None = None

    # ----- reading ----------------------------------------------------------------------------------
    @property
    def revision(self) -> int:
        """The position: decisions played so far (only a move changes it; stable across restarts)."""
        return len(self.state.history)

    @property
    def num_players(self) -> int:
        return int(self.game.num_players)

    @property
    def has_humans(self) -> bool:
        return any(s["kind"] == HUMAN for s in self.seats)

    @property
    def has_bots(self) -> bool:
        return any(s["kind"] != HUMAN for s in self.seats)

    @property
    def in_play(self) -> bool:
        return self.status == "playing" and not self.state.is_terminal()

    def labels(self) -> list[str]:
        """What every page calls each seat: a person's display name, a bot's label."""
        return [
            (s["name"] or f"(seat {p} free)") if s["kind"] == HUMAN else s["label"] for p, s in enumerate(self.seats)
        ]

    def stored_labels(self) -> list[str]:
        """Seat names in the games table: ``human:NAME`` for a person, the bot's label otherwise."""
        names = [f"human:{s['name'] or 'anonymous'}" if s["kind"] == HUMAN else s["label"] for s in self.seats]
        return unique_names(names)

    def view_for(self, seat: int, log_from: int = 0) -> dict[str, Any]:
        """Seat ``seat``'s view (its log from entry ``log_from`` on: see ``views.seat_view``)."""
        log_from = min(log_from, len(self.log))
        return self._decorate(seat_view(self.state, seat, self.labels(), self.log, log_from=log_from))

    def full(self, log_from: int = 0) -> dict[str, Any]:
        log_from = min(log_from, len(self.log))
        return self._decorate(full_view(self.state, self.labels(), self.log, log_from=log_from))

    def _decorate(self, view: dict[str, Any]) -> dict[str, Any]:
        view["table_id"] = self.id
        view["revision"] = self.revision
        view["version"] = self.version
        if self.status != "playing":  # ended (closed, or a bot failed): nothing more is asked
            view["decision"] = None
        view["table_status"] = self.status
        view["note"] = self.note
        view["game_id"] = self.game_id
        view["asked_at"] = self.asked_at
        view["server_time"] = time.time()
        for p, player in enumerate(view["players"]):
            player["kind"] = self.seats[p]["kind"]
            player["joined"] = self.seats[p]["kind"] != HUMAN or bool(self.seats[p]["name"])
        return view

    def summary(self) -> dict[str, Any]:
        """What the lobby lists: no tokens, no cards."""
        return {
            "id": self.id,
            "env_id": self.env_id,
            "seed": str(self.seed),  # a string: JavaScript's numbers round integers past 2**53
            "num_players": self.num_players,
            "status": self.status,
            "note": self.note,
            "decisions": len(self.state.history),
            "game_id": self.game_id,
            "seats": [
                {
                    "seat": p,
                    "kind": s["kind"],
                    "label": label,
                    "joined": s["kind"] != HUMAN or bool(s["name"]),
                }
                for p, (s, label) in enumerate(zip(self.seats, self.labels()))
            ],
            "watchable": not self.has_humans,
        }

    # ----- waiting for a change -------------------------------------------------------------------
    def changed(self) -> None:
        self.version += 1
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    def wake(self) -> None:
        """Answer every open long poll now, and every later one at once (the server is stopping)."""
        self.closing = True
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def wait(self, version: int, timeout: float) -> None:
        """Return once the table's version differs from ``version``, or after ``timeout`` s."""
        if self.version != version or timeout <= 0 or self.closing:
            return
        if self._changed is None:
            self._changed = asyncio.Event()
        event = self._changed
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)


FIELDS = ("env_id", "seats", "seed", "config", "bot_delay")


def _table_request(request: object) -> tuple[str, list[str], dict[str, Any], int, float]:
    """A table request, checked: (env id, seat specs, game options, seed, bot delay)."""
    from smuggle_envs import ENV_IDS
    from smuggle_envs.core.game import new_seed

    if not isinstance(request, dict):
        raise TableError(400, "the request body must be a JSON object")
    unknown = sorted(set(request) - set(FIELDS))
    if unknown:
        raise TableError(422, f"unknown field {shown(unknown[0])}; fields are {', '.join(FIELDS)}")
    env_id = request.get("env_id")
    if env_id not in ENV_IDS:
        raise TableError(422, f"unknown game {shown(env_id)}; choose one of {', '.join(ENV_IDS)}")
    seats = request.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
        raise TableError(422, "'seats' must be a list with 'human' or an agent spec for each seat")
    config = request.get("config", {})
    if not isinstance(config, dict) or "num_players" in config:
        raise TableError(422, "'config' must be an object of game options (the player count is len(seats))")
    seed = request.get("seed")
    seed = new_seed() if seed is None else _check_seed(seed)
    delay = request.get("bot_delay", 0.6)
    if type(delay) not in (int, float) or not 0 <= delay <= MAX_BOT_DELAY:
        raise TableError(422, f"'bot_delay' must be a number of seconds from 0 to {MAX_BOT_DELAY:g}")
    return env_id, seats, config, seed, float(delay)


def _check_name(name: object) -> str:
    if not isinstance(name, str):
        raise TableError(422, "'name' must be a string: the display name others see")
    name = " ".join(name.split())
    if not 1 <= len(name) <= NAME_LIMIT or not name.isprintable():
        raise TableError(422, f"a display name has 1 to {NAME_LIMIT} printable characters")
    return name


def _check_seed(value: object) -> int:
    """A seed: a decimal string (as pages send it: JavaScript's numbers round past 2**53) or an
    int, from 0 to ``MAX_SEED``."""
    if isinstance(value, str):
        if not (value.isascii() and value.isdigit() and len(value) <= 19):
            raise TableError(422, f"'seed' must be a decimal string of digits (or an integer), got {shown(value)}")
        value = int(value)
    if type(value) is not int or not 0 <= value <= MAX_SEED:
        raise TableError(422, "'seed' must be an integer from 0 to 2**63 - 1 (a decimal string or a number)")
    return value


def client_hash(client: str) -> str:
    """What is stored of a table's creator: a SHA-256 of its client key (an address), enough to
    count its tables, kept only while the table is in play."""
    return hashlib.sha256(f"smuggle-client:{client}".encode()).hexdigest()[:32] if client else ""


def _check_int(value: object, what: str) -> int:
    if type(value) is not int:
        raise TableError(422, f"{what} must be an integer, got {shown(value)}")
    return value


class Registry:
    """Every table of one server, backed by its ``Store``, under the operator's ``limits``.
    ``agent_factory(spec, game, seed) -> (agent, label)`` builds a bot (default: the specs a
    client may choose, ``limits.build``); it raises ``TableError`` for a spec it refuses."""

    def __init__(self, store: Store, limits: ServeLimits | None = None, agent_factory: AgentFactory | None = None):
        self.store = store
        self.limits = limits or ServeLimits()
        self.agent_factory = agent_factory or (lambda spec, game, seed: build(spec, game, seed, self.limits))
        self.tables: dict[str, Table] = {}

    # ----- making tables -------------------------------------------------------------------------
    def create(self, request: object, creator: str = "") -> tuple[Table, dict[int, str], str]:
        """A new table from the lobby's request; returns it, each human seat's token and the
        owner's token (which closes it).

        ``request``: ``env_id``; ``seats``, a list with ``"human"`` or an agent spec per seat (its
        length is the player count); optional ``seed`` (an int >= 0), ``config`` (game options)
        and ``bot_delay`` (seconds a bot waits before moving, 0 to 10). Everything is checked,
        and every bot built, before anything is stored. ``creator`` (the client's address) may
        have at most ``limits.max_bot_tables`` tables with bots in play."""
        env_id, specs, config, seed, delay = _table_request(request)
        game = self._game(env_id, len(specs), config)
        creator = client_hash(creator)
        self._check_room(creator, any(spec != HUMAN for spec in specs))
        tokens: dict[int, str] = {}
        seat_rows: list[dict[str, Any]] = []
        agents: dict[int, Any] = {}
        for p, spec in enumerate(specs):
            row: dict[str, Any] = {"kind": HUMAN, "spec": spec, "label": HUMAN, "name": None, "session": None}
            if spec == HUMAN:
                tokens[p] = secrets.token_urlsafe(24)
                row["token_hash"] = token_hash(tokens[p])
            else:
                agents[p], row["label"] = self.agent_factory(spec, game, seed * 1000 + p)
                row.update(kind="agent", token_hash=None)
            seat_rows.append(row)
        owner = secrets.token_urlsafe(24)
        table = Table(
            secrets.token_urlsafe(9),
            env_id,
            game.config.to_dict(),
            seed,
            game,
            game.new_initial_state(seed),
            seat_rows,
            delay,
            agents,
            owner_hash=token_hash(owner),
            creator=creator,
        )
        row = {"id": table.id, "env_id": env_id, "config": table.config, "seed": seed, "seats": seat_rows}
        self.store.save_table({**row, "bot_delay": delay, "owner_hash": table.owner_hash, "creator": creator})
        self.tables[table.id] = table
        self.kick(table)
        return table, tokens, owner

    @staticmethod
    def _game(env_id: str, players: int, config: dict[str, Any]) -> Any:
        try:
            web_game(env_id)  # a game the app cannot draw is refused here, not when first drawn
        except LookupError:
            raise TableError(422, f"{env_id} has no browser pages on this server") from None
        try:
            return GameSpec(env_id, config).with_players(players).make_game()
        except (ConfigError, TypeError, ValueError) as exc:
            raise TableError(422, f"{env_id}: {exc}") from None

    def _check_room(self, creator: str, with_bots: bool) -> None:
        self.expire_idle()  # an abandoned table does not hold a place
        playing = [t for t in self.tables.values() if t.in_play]
        if len(playing) >= self.limits.max_tables:
            raise TableError(429, f"this server has {len(playing)} tables in play, its limit; try again later")
        mine = sum(1 for t in playing if t.has_bots and t.creator == creator)
        if with_bots and mine >= self.limits.max_bot_tables:
            raise TableError(
                429, f"you have {mine} tables with bots in play, this server's limit; finish or close one first"
            )

    # ----- finding tables and seats --------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            table = self._load(table_id)
        if table is None:
            raise TableError(404, f"no table {shown(table_id, 16)} on this server")
        return table

    def _load(self, table_id: str) -> Table | None:
        """A finished or ended table, read back from the database on first request."""
        row = self.store.table(table_id)
        if row is None:
            return None
        table = self._rebuild(row, with_agents=False)
        self.tables[table_id] = table
        return table

    def seat(self, table: Table, seat: object, token: str | None) -> int:
        """Check ``seat`` and its token; returns the seat number."""
        if type(seat) is not int or not 0 <= seat < table.num_players:
            raise TableError(404, f"no seat {shown(seat)} at this {table.num_players}-player table")
        row = table.seats[seat]
        if row["kind"] != HUMAN:
            raise TableError(403, f"seat {seat} is played by an agent ({row['label']})")
        if not token:
            raise TableError(401, "this seat needs its token: open the link you were given for it")
        if not hmac.compare_digest(token_hash(token), row["token_hash"]):
            raise TableError(403, f"wrong token for seat {seat}")
        return seat

    # ----- seat actions -------------------------------------------------------------------------------
    def join(self, table: Table, seat: int, name: object) -> dict[str, Any]:
        """Take a seat under a display name (a reconnect keeps the name chosen first); returns a
        new random session id."""
        row = table.seats[seat]
        chosen = _check_name(name)
        if row["name"] is None:
            row["name"] = chosen
        row["session"] = secrets.token_hex(8)
        self._persist(table)
        table.changed()
        return {"name": row["name"], "session": row["session"], "seat": seat}

    def act(self, table: Table, seat: int, body: object) -> bool:
        """Apply the action of a person at ``seat``: ``{"action": id, "revision": r}``, where ``r``
        is the revision of the view the person answers. Returns False when it was applied, True
        when it repeats an act already applied (the same seat, revision and action: nothing is
        done again). Anything else raises ``TableError`` and changes nothing."""
        action, revision = _act_request(body)
        if 0 <= revision < table.revision:
            entry = table.log[revision]
            if entry["seat"] == seat and table.state.history[revision] == action:
                return True  # a double click or a retried request: answered, not played again
        if not table.in_play:
            raise TableError(409, f"the game is over ({table.note or table.status}); nothing was changed")
        if revision != table.revision:
            raise TableError(409, f"the table has changed since your view (revision {table.revision}); reload it")
        row = table.seats[seat]
        if row["name"] is None:
            raise TableError(409, "choose a display name (join the seat) before playing")
        mover = table.state.current_player()
        if mover != seat:
            raise TableError(409, f"it is not your turn: seat {mover} ({table.labels()[mover]}) is to move")
        try:
            action = table.state.check_action(action)  # type, range, legality; changes nothing
        except (MalformedActionError, IllegalActionError, GameOverError) as exc:
            raise TableError(422, str(exc)) from None
        self._move(table, action, self._decision_record(table, seat, action))
        return False

    def close(self, table: Table, owner_token: str | None) -> None:
        """End a table in play at its creator's request (the owner token of ``create``)."""
        if not owner_token or not table.owner_hash:
            raise TableError(401, "closing a table needs the owner token its creator was given")
        if not hmac.compare_digest(token_hash(owner_token), table.owner_hash):
            raise TableError(403, "wrong owner token for this table")
        if not table.in_play:
            raise TableError(409, f"the table is not in play ({table.note or table.status})")
        self.end(table, "closed by its creator")

    def _decision_record(self, table: Table, seat: int, action: int) -> dict[str, Any]:
        state = table.state
        decided = time.time()
        row = table.seats[seat]
        return {
            "table_id": table.id,
            "env_id": table.env_id,
            "config": table.config,
            "seed": table.seed,
            "decision": len(state.history),
            "seat": seat,
            "name": row["name"],
            "session": row["session"] or "",
            "history": list(state.history),
            "state_text": state.render(),
            "observation": [float(x) for x in state.observation(seat)],
            "legal_actions": list(state.legal_actions()),
            "action": action,
            "action_text": state.action_to_string(action),
            "asked_at": _iso(table.asked_at),
            "decided_at": _iso(decided),
            "seconds": round(max(0.0, decided - table.asked_at), 3),
        }

    # ----- moves ---------------------------------------------------------------------------------------
    def _move(self, table: Table, action: int, decision: dict[str, Any] | None = None) -> None:
        """Play a checked ``action``: on a copy first, saved (with ``decision`` and, at the end,
        the finished game, in one transaction), and only then shown. If saving fails, nothing
        changed: the table is as it was and the request is refused."""
        state = table.state.clone()
        entries: list[LogEntry] = []
        apply_logged(state, action, entries)
        status, note, game = table.status, table.note, None
        if state.is_terminal():
            status = "finished"
            note = "game over" if not state.is_truncated() else "stopped by the game's turn limit: no winner"
            game = self._game_record(table, state)
        saved = {"actions": list(state.history), "seats": table.seats, "status": status, "note": note}
        try:
            game_id = self.store.commit_move(table.id, saved, decision, game)
        except Exception as exc:  # a full disk, a locked database: the move did not happen
            log.exception("a move could not be saved")
            raise TableError(503, "the move could not be saved, so it was not played; try again") from exc
        table.state = state
        table.log.extend(entries)
        table.asked_at = table.moved_at = time.time()
        table.status, table.note = status, note
        if game_id is not None:
            table.game_id = game_id
            table.stopped.set()
        table.changed()
        self.kick(table)

    def _game_record(self, table: Table, state: Any) -> dict[str, Any]:
        from smuggle_envs.core.outcomes import ranks

        scores = [float(s) for s in state.scores()]
        terminal = not state.is_truncated()
        return {
            "env_id": table.env_id,
            "config": table.config,
            "seed": table.seed,
            "labels": table.stored_labels(),
            "specs": [s["spec"] for s in table.seats],
            "scores": scores,
            "ranks": ranks(scores) if terminal else ranks([0.0] * len(scores)),
            "actions": list(state.history),
            "terminal": terminal,
            "duration": time.monotonic() - table.started,
        }

    def expire_idle(self, clock: float | None = None) -> list[str]:
        """Close every table in play without a move for ``limits.table_idle_minutes`` (never when
        0), as a close does: it is stored as ended, with the reason, and no longer counts toward
        ``max_tables`` or its creator's tables. Returns their ids."""
        minutes = self.limits.table_idle_minutes
        if not minutes:
            return []
        cutoff = (time.time() if clock is None else clock) - minutes * 60
        idle = [t for t in self.tables.values() if t.in_play and t.moved_at < cutoff]
        for table in idle:
            self.end(table, f"closed after {minutes:g} minutes without a move")
        return [t.id for t in idle]

    def _persist(self, table: Table) -> None:
        self.store.update_table(table.id, list(table.state.history), table.seats, table.status, table.note)

    def end(self, table: Table, reason: str) -> None:
        """End a table that cannot go on, saying why (its pages show the reason); a bot still
        thinking there stops."""
        table.status = "ended"
        table.note = reason
        table.stopped.set()
        self._persist(table)
        table.changed()

    # ----- bots ---------------------------------------------------------------------------------------
    def kick(self, table: Table) -> None:
        """Start the table's bot loop if a bot is to move and none is running."""
        if table._bot_task is not None and not table._bot_task.done():
            return
        if not table.in_play or table.state.current_player() not in table.agents:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet (a table made outside the server): started on restore
            return
        table._bot_task = loop.create_task(self._bots(table))

    async def _bots(self, table: Table) -> None:
        while table.in_play:
            seat = table.state.current_player()
            agent = table.agents.get(seat)
            if agent is None:
                return
            # Yield to the loop before every bot move (a bot that decides inline would otherwise
            # play a whole all-bot game without letting any other request in).
            await asyncio.sleep(table.bot_delay)
            revision = table.revision
            try:
                action = await self._think(table, agent, seat)
            except Exception as exc:
                log.exception("agent failed")
                self.end(table, f"the agent in seat {seat} ({table.seats[seat]['label']}) failed: {exc}")
                return
            if table.revision != revision or not table.in_play:
                continue  # the table moved or ended meanwhile (never by the bot's own seat)
            try:
                action = table.state.check_action(action)
                self._move(table, action)
            except (MalformedActionError, IllegalActionError, GameOverError) as exc:
                self.end(table, f"the agent in seat {seat} ({table.seats[seat]['label']}) chose a bad action: {exc}")
                return
            except TableError:
                await asyncio.sleep(1.0)  # not saved: the database is busy or full; try again

    async def _think(self, table: Table, agent: Any, seat: int) -> int:
        """The bot's move, in a worker thread on a clone (pages read the table meanwhile). A
        search stops at the time budget or when the table ends (``agent.stop``)."""
        from agents.base import decide

        if table.seats[seat]["spec"].partition(":")[0] in INLINE_KINDS:
            # A rule bot, a random agent or a numpy policy decides in well under a millisecond:
            # a worker thread and a copy of the state would cost more than the decision.
            return decide(agent, table.state, seat)
        deadline = time.monotonic() + self.limits.bot_seconds
        if hasattr(agent, "stop"):
            agent.stop = lambda: table.stopped.is_set() or time.monotonic() > deadline
        return await asyncio.to_thread(decide, agent, table.state.clone(), seat)

    # ----- restarts --------------------------------------------------------------------------------------
    def restore(self) -> list[str]:
        """Bring back every unfinished table after a restart (their bots start with the loop);
        returns their ids. A table that cannot be rebuilt is ended with the reason."""
        restored = []
        for row in self.store.tables(status="playing"):
            try:
                table = self._rebuild(row, with_agents=True)
            except Exception as exc:
                text = exc.message if isinstance(exc, TableError) else str(exc)
                reason = f"could not be restored after a server restart: {text}"
                self.store.update_table(row["id"], row["actions"], row["seats"], "ended", reason)
                continue
            if table.state.is_terminal():  # over but not stored: a database of an earlier version
                self._store_finished(table)
            self.tables[table.id] = table
            restored.append(table.id)
        return restored

    def _store_finished(self, table: Table) -> None:
        saved = {"actions": list(table.state.history), "seats": table.seats, "status": "finished", "note": "game over"}
        table.game_id = self.store.commit_move(table.id, saved, None, self._game_record(table, table.state))
        table.status, table.note = "finished", "game over"

    def start_bots(self) -> None:
        for table in self.tables.values():
            self.kick(table)

    def wake_all(self) -> None:
        for table in self.tables.values():
            table.wake()

    async def stop_bots(self) -> None:
        """Stop the bot loops (server shutdown): a search mid-thought stops between iterations
        and its move is dropped; the table resumes on the next start."""
        tasks = [t._bot_task for t in self.tables.values() if t._bot_task is not None and not t._bot_task.done()]
        for table in self.tables.values():
            table.stopped.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _rebuild(self, row: dict[str, Any], with_agents: bool) -> Table:
        config = dict(row["config"])
        players = config.pop("num_players", len(row["seats"]))
        game = self._game(row["env_id"], players, config)
        seed = row["seed"]
        agents: dict[int, Any] = {}
        seats = row["seats"]
        for p, seat in enumerate(seats):
            if seat["kind"] != HUMAN and with_agents:
                agents[p], _ = self.agent_factory(seat["spec"], game, seed * 1000 + p)
        table = Table(
            row["id"],
            row["env_id"],
            dict(row["config"]),
            seed,
            game,
            game.new_initial_state(seed),
            seats,
            row["bot_delay"],
            agents,
            owner_hash=row.get("owner_hash", ""),
            creator=row.get("creator", ""),
            moved_at=_stamp(row.get("updated")),
        )
        for action in row["actions"]:
            apply_logged(table.state, action, table.log)
        table.status = row["status"]
        table.note = row["note"]
        table.game_id = row["game_id"]
        return table


def _act_request(body: object) -> tuple[int, int]:
    """``(action, revision)`` of an act's body, checked for form (legality comes later)."""
    if not isinstance(body, dict):
        raise TableError(400, 'the request body must be a JSON object like {"action": 12, "revision": 7}')
    if "action" not in body:
        raise TableError(422, "missing 'action': the id of one of your legal actions")
    if "revision" not in body:
        raise TableError(422, "missing 'revision': the revision of the view you answer (it makes a move count once)")
    action = body["action"]
    if type(action) is not int:
        raise TableError(422, f"'action' must be an int (an action id), got {shown(action)}")
    return action, _check_int(body["revision"], "'revision'")


def _stamp(iso: object) -> float:
    """A stored ISO time as a wall-clock stamp (now, for a row that has none)."""
    try:
        return _dt.datetime.fromisoformat(str(iso)).timestamp()
    except ValueError:
        return time.time()


def _iso(stamp: float) -> str:
    return _dt.datetime.fromtimestamp(stamp, _dt.timezone.utc).isoformat(timespec="milliseconds")


__all__ = ["HUMAN", "Registry", "Table", "TableError", "default_agent_factory", "now", "token_hash"]
