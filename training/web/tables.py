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

**Restarts.** Every action is written to ``web_tables`` as it is applied and every finished game
to ``games``, so a restart loses no finished game; unfinished tables are replayed from their
actions and continue (bots are rebuilt from their specs), and one that cannot be rebuilt (a model
file gone) is marked ended with the reason, which its pages show.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from smuggle_envs.core.errors import GameOverError, IllegalActionError, MalformedActionError

from .store import Store, now, unique_labels
from .views import LogEntry, apply_logged, full_view, seat_view

log = logging.getLogger("smuggle.web")

HUMAN = "human"
NAME_LIMIT = 32
MAX_BOT_DELAY = 10.0

AgentFactory = Callable[[str, Any, int], tuple[Any, str]]


class TableError(Exception):
    """A request the server refuses: an HTTP status and a one-line reason. Nothing was changed."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def default_agent_factory(spec: str, game: Any, seed: int) -> tuple[Any, str]:
    """Build a bot from an agent spec (``rule``, ``random``, ``ppo:PATH``, ``ismcts:sims=50``,
    ``zoo:ENV``) with the tools' own builder; a bad spec is a 422 naming what is wrong."""
    from training.match import UsageError, build_agent

    try:
        agent, label = build_agent(spec, game, seed=seed, warn=lambda message: log.warning(message))
    except (UsageError, ValueError) as exc:
        raise TableError(422, f"seat agent {spec!r}: {exc}") from None
    reset = getattr(agent, "reset", None)
    if reset is not None:
        reset(seed)
    return agent, label


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
    revision: int = 0
    asked_at: float = field(default_factory=time.time)  # when the decision now open was posed
    started: float = field(default_factory=time.monotonic)
    closing: bool = False  # the server is stopping: long polls return at once
    _changed: asyncio.Event | None = None
    _bot_task: asyncio.Task[None] | None = None

    # ----- reading ----------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return int(self.game.num_players)

    @property
    def has_humans(self) -> bool:
        return any(s["kind"] == HUMAN for s in self.seats)

    def labels(self) -> list[str]:
        """What every page calls each seat: a person's display name, a bot's label."""
        return [
            (s["name"] or f"(seat {p} free)") if s["kind"] == HUMAN else s["label"] for p, s in enumerate(self.seats)
        ]

    def stored_labels(self) -> list[str]:
        """Seat names in the games table: ``human:NAME`` for a person, the bot's label otherwise."""
        names = [f"human:{s['name'] or 'anonymous'}" if s["kind"] == HUMAN else s["label"] for s in self.seats]
        return unique_labels(names)

    def view_for(self, seat: int) -> dict[str, Any]:
        view = seat_view(self.state, seat, self.labels(), self.log)
        return self._decorate(view)

    def full(self) -> dict[str, Any]:
        return self._decorate(full_view(self.state, self.labels(), self.log))

    def _decorate(self, view: dict[str, Any]) -> dict[str, Any]:
        view["table_id"] = self.id
        view["revision"] = self.revision
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
        self.revision += 1
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    def wake(self) -> None:
        """Answer every open long poll now, and every later one at once (the server is stopping)."""
        self.closing = True
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def wait(self, revision: int, timeout: float) -> None:
        """Return once the table's revision differs from ``revision``, or after ``timeout`` s."""
        if self.revision != revision or timeout <= 0 or self.closing:
            return
        if self._changed is None:
            self._changed = asyncio.Event()
        event = self._changed
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)


def _table_request(request: object) -> tuple[str, list[str], dict[str, Any], int, float]:
    """A table request, checked: (env id, seat specs, game options, seed, bot delay)."""
    from smuggle_envs import ENV_IDS
    from smuggle_envs.core.game import new_seed

    if not isinstance(request, dict):
        raise TableError(400, "the request body must be a JSON object")
    unknown = set(request) - {"env_id", "seats", "seed", "config", "bot_delay"}
    if unknown:
        raise TableError(422, f"unknown field(s) {sorted(unknown)}; fields are env_id, seats, seed, config, bot_delay")
    env_id = request.get("env_id")
    if env_id not in ENV_IDS:
        raise TableError(422, f"unknown game {env_id!r}; choose one of {', '.join(ENV_IDS)}")
    seats = request.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) and s.strip() for s in seats):
        raise TableError(422, "'seats' must be a list with 'human' or an agent spec for each seat")
    config = request.get("config", {})
    if not isinstance(config, dict) or "num_players" in config:
        raise TableError(422, "'config' must be an object of game options (the player count is len(seats))")
    seed = request.get("seed")
    seed = new_seed() if seed is None else _check_int(seed, "'seed'")
    if seed < 0:
        raise TableError(422, f"'seed' must be 0 or more, got {seed}")
    delay = request.get("bot_delay", 0.6)
    if type(delay) not in (int, float) or not 0 <= delay <= MAX_BOT_DELAY:
        raise TableError(422, f"'bot_delay' must be a number of seconds from 0 to {MAX_BOT_DELAY:g}")
    return env_id, [s.strip() for s in seats], config, seed, float(delay)


def _check_name(name: object) -> str:
    if not isinstance(name, str):
        raise TableError(422, "'name' must be a string: the display name others see")
    name = " ".join(name.split())
    if not 1 <= len(name) <= NAME_LIMIT or not name.isprintable():
        raise TableError(422, f"a display name has 1 to {NAME_LIMIT} printable characters")
    return name


def _check_int(value: object, what: str) -> int:
    if type(value) is not int:
        raise TableError(422, f"{what} must be an integer, got {type(value).__name__} {value!r}")
    return value


class Registry:
    """Every table of one server, backed by its ``Store``."""

    def __init__(self, store: Store, agent_factory: AgentFactory = default_agent_factory):
        self.store = store
        self.agent_factory = agent_factory
        self.tables: dict[str, Table] = {}

    # ----- making tables -------------------------------------------------------------------------
    def create(self, request: object) -> tuple[Table, dict[int, str]]:
        """A new table from the lobby's request; returns it and each human seat's token.

        ``request``: ``env_id``; ``seats``, a list with ``"human"`` or an agent spec per seat (its
        length is the player count); optional ``seed`` (an int >= 0), ``config`` (game options)
        and ``bot_delay`` (seconds a bot waits before moving, 0 to 10). Everything is checked,
        and every bot built, before anything is stored."""
        from smuggle_envs import make_game
        from smuggle_envs.core.errors import ConfigError

        env_id, specs, config, seed, delay = _table_request(request)
        try:
            game = make_game(env_id, num_players=len(specs), **config)
        except (ConfigError, TypeError, ValueError) as exc:
            raise TableError(422, f"{env_id}: {exc}") from None
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
        state = game.new_initial_state(seed)
        table = Table(
            secrets.token_urlsafe(9), env_id, game.config.to_dict(), seed, game, state, seat_rows, delay, agents
        )
        self.store.save_table(
            {
                "id": table.id,
                "env_id": env_id,
                "config": table.config,
                "seed": seed,
                "seats": seat_rows,
                "bot_delay": delay,
            }
        )
        self.tables[table.id] = table
        self.kick(table)
        return table, tokens

    # ----- finding tables and seats --------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            table = self._load(table_id)
        if table is None:
            raise TableError(404, f"no table {table_id!r} on this server")
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
            raise TableError(404, f"no seat {seat!r} at this {table.num_players}-player table")
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

    def act(self, table: Table, seat: int, body: object) -> None:
        """Apply the action of a person at ``seat``: ``{"action": id, "revision": r}`` (revision
        optional: when given, the table must not have changed since that view)."""
        if not isinstance(body, dict):
            raise TableError(400, 'the request body must be a JSON object like {"action": 12}')
        if "action" not in body:
            raise TableError(422, "missing 'action': the id of one of your legal actions")
        if table.status != "playing" or table.state.is_terminal():
            raise TableError(409, f"the game is over ({table.note or table.status}); nothing was changed")
        revision = body.get("revision")
        if revision is not None and _check_int(revision, "'revision'") != table.revision:
            raise TableError(409, f"the table has changed since your view (revision {table.revision}); reload it")
        row = table.seats[seat]
        if row["name"] is None:
            raise TableError(409, "choose a display name (join the seat) before playing")
        mover = table.state.current_player()
        if mover != seat:
            raise TableError(409, f"it is not your turn: seat {mover} ({table.labels()[mover]}) is to move")
        action = body["action"]
        try:
            action = table.state.check_action(action)  # type, range, legality; changes nothing
        except (MalformedActionError, IllegalActionError, GameOverError) as exc:
            raise TableError(422, str(exc)) from None
        record = self._decision_record(table, seat, action)
        self._apply(table, action)
        self.store.record_decision(record)
        self._after_move(table)

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

    def _apply(self, table: Table, action: int) -> None:
        apply_logged(table.state, action, table.log)
        table.asked_at = time.time()

    def _after_move(self, table: Table) -> None:
        """Persist, store a finished game, wake the pages, let the bots move."""
        if table.state.is_terminal():
            self._finish(table)
        else:
            self._persist(table)
        table.changed()
        self.kick(table)

    def _persist(self, table: Table) -> None:
        self.store.update_table(table.id, list(table.state.history), table.seats, table.status, table.note)

    def _finish(self, table: Table) -> None:
        from smuggle_envs.core.outcomes import ranks

        state = table.state
        scores = [float(s) for s in state.scores()]
        terminal = not state.is_truncated()
        table.status = "finished"
        table.note = "game over" if terminal else "stopped by the game's turn limit: no winner"
        table.game_id = self.store.store_game(
            table.id,
            {
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
            },
            table.seats,
        )
        self._persist(table)  # the note too

    def end(self, table: Table, reason: str) -> None:
        """End a table that cannot go on, saying why (its pages show the reason)."""
        table.status = "ended"
        table.note = reason
        self._persist(table)
        table.changed()

    # ----- bots ---------------------------------------------------------------------------------------
    def kick(self, table: Table) -> None:
        """Start the table's bot loop if a bot is to move and none is running."""
        if table._bot_task is not None and not table._bot_task.done():
            return
        if table.status != "playing" or table.state.is_terminal():
            return
        if table.state.current_player() not in table.agents:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet (a table made outside the server): started on restore
            return
        table._bot_task = loop.create_task(self._bots(table))

    async def _bots(self, table: Table) -> None:
        from agents.base import decide

        while table.status == "playing" and not table.state.is_terminal():
            seat = table.state.current_player()
            agent = table.agents.get(seat)
            if agent is None:
                return
            if table.bot_delay:
                await asyncio.sleep(table.bot_delay)
            revision = table.revision
            try:
                # a clone: the bot reads its own copy in its thread while pages read the table
                action = await asyncio.to_thread(decide, agent, table.state.clone(), seat)
            except Exception as exc:
                log.exception("agent failed")
                self.end(table, f"the agent in seat {seat} ({table.seats[seat]['label']}) failed: {exc}")
                return
            if table.revision != revision or table.status != "playing":
                continue  # the table changed meanwhile (never by the bot's own seat): think again
            try:
                action = table.state.check_action(action)
            except (MalformedActionError, IllegalActionError, GameOverError) as exc:
                self.end(table, f"the agent in seat {seat} ({table.seats[seat]['label']}) chose a bad action: {exc}")
                return
            self._apply(table, action)
            self._after_move(table)

    # ----- restarts --------------------------------------------------------------------------------------
    def restore(self) -> list[str]:
        """Bring back every unfinished table after a restart (their bots start with the loop);
        returns their ids. A table that cannot be rebuilt is ended with the reason."""
        restored = []
        for row in self.store.tables(status="playing"):
            try:
                table = self._rebuild(row, with_agents=True)
            except Exception as exc:
                reason = f"could not be restored after a server restart: {exc}"
                self.store.update_table(row["id"], row["actions"], row["seats"], "ended", reason)
                continue
            if table.state.is_terminal():  # finished just as the server stopped
                self._finish(table)
            self.tables[table.id] = table
            restored.append(table.id)
        return restored

    def start_bots(self) -> None:
        for table in self.tables.values():
            self.kick(table)

    def wake_all(self) -> None:
        for table in self.tables.values():
            table.wake()

    async def stop_bots(self) -> None:
        """Cancel the bot loops (server shutdown); a bot mid-thought finishes in its thread and
        its move is dropped, and the table resumes on the next start."""
        tasks = [t._bot_task for t in self.tables.values() if t._bot_task is not None and not t._bot_task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _rebuild(self, row: dict[str, Any], with_agents: bool) -> Table:
        from smuggle_envs import make_game

        config = dict(row["config"])
        game = make_game(row["env_id"], **config)
        seed = row["seed"]
        agents: dict[int, Any] = {}
        seats = row["seats"]
        for p, seat in enumerate(seats):
            if seat["kind"] != HUMAN and with_agents:
                agents[p], _ = self.agent_factory(seat["spec"], game, seed * 1000 + p)
        table = Table(
            row["id"], row["env_id"], config, seed, game, game.new_initial_state(seed), seats, row["bot_delay"], agents
        )
        for action in row["actions"]:
            apply_logged(table.state, action, table.log)
        table.status = row["status"]
        table.note = row["note"]
        table.game_id = row["game_id"]
        return table


def _iso(stamp: float) -> str:
    return _dt.datetime.fromtimestamp(stamp, _dt.timezone.utc).isoformat(timespec="milliseconds")


__all__ = ["HUMAN", "Registry", "Table", "TableError", "default_agent_factory", "now", "token_hash"]
