"""The ASGI app of ``smuggle serve``: pages, the JSON API, the replay viewer.

Pages (plain HTML and a little JavaScript from ``static/``; no build step):

``/``                         the lobby: make a table, the tables of this server, stored games
``/play/{table}/{seat}#token=T`` one seat of a table (the token rides in the URL's fragment, which
                              browsers never send to the server; the page sends it as a header)
``/watch/{table}``            an all-bot table, every card shown, live
``/replay/{game}``            a stored game, step by step, from any seat or in full

API (JSON; a refused request is ``{"error": "one line"}`` with a 4xx status and changes nothing):

``GET  /api/envs``                                    the games, player ranges, agent kinds
``GET  /api/rules/{env_id}``                          the side panel: rules summary and card tables
``POST /api/tables``                                  make a table (see ``Registry.create``); returns
                                                      each human seat's link and the owner's token
``GET  /api/tables``                                  the tables of this server (no tokens, no cards)
``POST /api/tables/{id}/close``                       end a table in play, with ``X-Owner-Token``
``POST /api/tables/{id}/seats/{seat}/join``          ``{"name": ...}``, with the seat's token
``GET  /api/tables/{id}/seats/{seat}/view``          the seat's view; ``?after=VERSION&wait=S`` waits
                                                      for a change (long polling, at most 25 s)
``POST /api/tables/{id}/seats/{seat}/act``           ``{"action": id, "revision": r}``: ``r`` is the
                                                      view's revision (required; a repeat is answered
                                                      with ``"repeated": true``, never played twice)
``GET  /api/tables/{id}/watch``                       the full view of a table without human seats
``GET  /api/games``                                   stored games (the app's and tournaments')
``GET  /api/games/{id}?step=K&view=full|S``          a stored game after K decisions, as seat S saw
                                                      it or in full

A seat's token goes in the ``X-Seat-Token`` header (or ``Authorization: Bearer``). Every request
passes ``guard.Guard`` first (Host, Origin, JSON bodies, size, security headers); what a client
may seat is ``limits.py``'s; any unknown route or method answers the same JSON error shape.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .errors import TableError, clip, shown
from .games import game_name
from .guard import LOCAL_NAMES, MAX_BODY, Guard
from .limits import ServeLimits
from .store import Store
from .tables import MAX_SEED, AgentFactory, Registry
from .views import LogEntry, full_view, replay_states, seat_view, stored_seats

STATIC = Path(__file__).resolve().parent / "static"
MAX_WAIT = 25.0  # seconds a long poll may hold a request
REPLAY_CACHE = 8  # stored games whose replay log is kept in memory
MAX_DEPTH = 16  # nesting of a JSON body (a real one nests 2 deep)
ID_LIMIT = 64  # characters of a table id looked up (real ones have 12)

Handler = Callable[[Request], Awaitable[Response]]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _api(handler: Callable[[Any, Request], Awaitable[Response]]) -> Callable[[Any, Request], Awaitable[Response]]:
    """Turn a ``TableError`` into its status and one-line message (a method of ``Api``)."""

    async def wrapped(self: Any, request: Request) -> Response:
        try:
            return await handler(self, request)
        except TableError as exc:
            return _error(exc.status, exc.message)

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped


async def _body(request: Request) -> Any:
    """The JSON body, read up to ``MAX_BODY`` bytes and checked to nest at most ``MAX_DEPTH``."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TableError(413, f"a request body has at most {MAX_BODY} bytes")
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks) or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise TableError(400, "the request body is not valid JSON") from None
    if _depth(body) > MAX_DEPTH:
        raise TableError(400, f"the request body nests deeper than {MAX_DEPTH} levels")
    return body


def _depth(value: Any) -> int:
    """How deep ``value`` nests (iteratively: no recursion on a hostile body)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            break
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _token(request: Request) -> str | None:
    token = request.headers.get("x-seat-token")
    if token:
        return token
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


def _number(request: Request, name: str, default: float, low: float, high: float) -> float:
    text = request.query_params.get(name)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise TableError(422, f"'{name}' must be a number, got {shown(text)}") from None
    if not low <= value <= high:
        raise TableError(422, f"'{name}' must be from {low:g} to {high:g}, got {shown(text)}")
    return value


def _log_from(request: Request) -> int:
    """``?log_from=N``: the log from entry N on (a page sends how many entries it has)."""
    return int(_number(request, "log_from", 0, 0, 1e9))


def _path_int(request: Request, name: str, missing: str) -> int:
    """A path segment that names a number (a seat, a game id): digits only, at most 18 of them
    (within SQLite's integers; Starlette's own ``:int`` would overflow on thousands of digits)."""
    text = request.path_params[name]
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise TableError(404, missing)
    return int(text)


class ReplayCache:
    """Stored games replayed once (their logs kept), then shown at any step."""

    def __init__(self, store: Store, size: int = REPLAY_CACHE):
        self.store = store
        self.size = size
        self.items: OrderedDict[int, dict[str, Any]] = OrderedDict()

    def get(self, game_id: int) -> dict[str, Any]:
        if not 0 <= game_id <= MAX_SEED:  # SQLite's integers: a larger id names no game
            raise TableError(404, f"no stored game {shown(game_id)} in this database")
        if game_id in self.items:
            self.items.move_to_end(game_id)
            return self.items[game_id]
        record = self.store.game(game_id)
        if record is None:
            raise TableError(404, f"no stored game {game_id} in this database")
        from smuggle_envs import GameSpec

        game = GameSpec(record["env_id"], record["config"]).make_game()
        try:
            _, log = replay_states(game, record["seed"], record["actions"])
        except (ValueError, TypeError) as exc:
            raise TableError(
                409, f"stored game {game_id} cannot be replayed by this engine: {clip(str(exc), 80)}"
            ) from None
        item = {**record, "game": game, "log": log}
        self.items[game_id] = item
        if len(self.items) > self.size:
            self.items.popitem(last=False)
        return item

    def view(self, game_id: int, step: int | None, viewer: str) -> dict[str, Any]:
        item = self.get(game_id)
        log: list[LogEntry] = item["log"]
        steps = len(log)
        step = steps if step is None else step
        if not 0 <= step <= steps:
            raise TableError(422, f"'step' must be from 0 to {steps}, got {step}")
        game = item["game"]
        state = game.new_initial_state(item["seed"])
        for action in item["actions"][:step]:
            state.apply_action(action)
        labels, kinds = (list(x) for x in zip(*stored_seats(item["seating"])))  # as the live table names them
        if viewer == "full":
            view = full_view(state, labels, log[:step], kinds)
        else:
            try:
                seat = int(viewer)
            except ValueError:
                seat = -1
            if not 0 <= seat < game.num_players:
                raise TableError(
                    422, f"'view' must be 'full' or a seat from 0 to {game.num_players - 1}, got {shown(viewer)}"
                )
            view = seat_view(state, seat, labels, log[:step], kinds)
            view["decision"] = None  # a replay shows, it does not ask
        view.update({"game_id": game_id, "step": step, "steps": steps, "stored_scores": item["scores"]})
        return view


class Api:
    """The JSON API's handlers over one store and registry (routes in ``create_app``)."""

    def __init__(self, store: Store, registry: Registry):
        self.store = store
        self.registry = registry
        self.replays = ReplayCache(store)

    @_api
    async def envs(self, request: Request) -> Response:
        from agents import AGENT_KINDS
        from smuggle_envs import ENV_IDS, GameSpec, game_class

        games = []
        for env_id in ENV_IDS:
            cls = game_class(env_id)
            games.append(
                {
                    "env_id": env_id,
                    "name": game_name(env_id),
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "default_players": GameSpec(env_id).num_players,
                }
            )
        limits = self.registry.limits
        return JSONResponse(
            {
                "envs": games,
                "agent_kinds": sorted(AGENT_KINDS),
                "agent_specs": limits.specs(),
                "limits": limits.public(),
            }
        )

    @_api
    async def rules(self, request: Request) -> Response:
        from smuggle_envs import ENV_IDS

        from .rules import rules_panel

        env_id = request.path_params["env_id"]
        if env_id not in ENV_IDS:
            raise TableError(404, f"unknown game {shown(env_id)}")
        return JSONResponse(rules_panel(env_id))

    @_api
    async def create_table(self, request: Request) -> Response:
        creator = request.client.host if request.client else ""
        table, tokens, owner = self.registry.create(await _body(request), creator=creator)
        seats = []
        for entry in table.summary()["seats"]:
            p = entry["seat"]
            if p in tokens:
                entry["link"] = f"/play/{table.id}/{p}#token={tokens[p]}"
                entry["token"] = tokens[p]
            seats.append(entry)
        body = {"id": table.id, "env_id": table.env_id, "seed": table.seed, "seats": seats, "owner_token": owner}
        return JSONResponse(body, 201)

    @_api
    async def list_tables(self, request: Request) -> Response:
        tables = sorted(self.registry.tables.values(), key=lambda t: -t.started)
        return JSONResponse({"tables": [t.summary() for t in tables]})

    def _table(self, request: Request) -> Any:
        table_id = request.path_params["table_id"]
        if len(table_id) > ID_LIMIT:
            raise TableError(404, f"no table {shown(table_id, 16)} on this server")
        return self.registry.get(table_id)

    @_api
    async def table_info(self, request: Request) -> Response:
        return JSONResponse(self._table(request).summary())

    @_api
    async def close(self, request: Request) -> Response:
        table = self._table(request)
        await _body(request)  # read (and bounded) like any other; the token is in a header
        self.registry.close(table, request.headers.get("x-owner-token"))
        return JSONResponse(table.summary())

    def _seat(self, request: Request) -> tuple[Any, int]:
        table = self._table(request)
        seat = _path_int(request, "seat", f"no such seat at this {table.num_players}-player table")
        return table, self.registry.seat(table, seat, _token(request))

    @_api
    async def join(self, request: Request) -> Response:
        table, seat = self._seat(request)
        body = await _body(request)
        if not isinstance(body, dict):
            raise TableError(400, 'the request body must be a JSON object like {"name": "Ann"}')
        return JSONResponse(self.registry.join(table, seat, body.get("name")))

    @_api
    async def view(self, request: Request) -> Response:
        table, seat = self._seat(request)
        after = _number(request, "after", -1, -1, 1e12)
        await table.wait(int(after), _number(request, "wait", 0, 0, MAX_WAIT))
        return JSONResponse(table.view_for(seat, _log_from(request)))

    @_api
    async def act(self, request: Request) -> Response:
        table, seat = self._seat(request)
        repeated = self.registry.act(table, seat, await _body(request))
        view = table.view_for(seat, _log_from(request))
        view["repeated"] = repeated
        return JSONResponse(view)

    @_api
    async def watch(self, request: Request) -> Response:
        table = self._table(request)
        if table.has_humans:
            raise TableError(403, "this table has human seats: its full view opens as a replay once the game is stored")
        after = _number(request, "after", -1, -1, 1e12)
        await table.wait(int(after), _number(request, "wait", 0, 0, MAX_WAIT))
        return JSONResponse(table.full(_log_from(request)))

    @_api
    async def games(self, request: Request) -> Response:
        return JSONResponse({"games": self.store.games()})

    @_api
    async def replay(self, request: Request) -> Response:
        text = request.query_params.get("step")
        try:
            step = None if text is None else int(text)
        except ValueError:
            raise TableError(422, f"'step' must be an integer, got {shown(text)}") from None
        viewer = request.query_params.get("view", "full")
        game_id = _path_int(request, "game_id", "no stored game by that id in this database")
        return JSONResponse(self.replays.view(game_id, step, viewer))


def _page(name: str) -> Handler:
    async def handler(request: Request) -> Response:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})

    return handler


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a method a route does not take) in the API's
    JSON shape."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    messages = {404: "no such page or API route", 405: "that method is not allowed here"}
    return _error(status, messages.get(status, clip(str(getattr(exc, "detail", "")) or "refused", 80)))


def create_app(
    db: str | os.PathLike[str],
    agent_factory: AgentFactory | None = None,
    limits: ServeLimits | None = None,
    allowed_hosts: tuple[str, ...] = LOCAL_NAMES,
) -> Starlette:
    """The app over the database ``db`` (created if missing); unfinished tables are restored.
    ``limits``: what clients may seat and ask for; ``allowed_hosts``: the ``Host`` names it
    answers to (``guard.Guard``); ``agent_factory`` replaces ``limits.build`` (tests)."""
    store = Store(db)
    registry = Registry(store, limits, agent_factory)
    restored = registry.restore()
    api = Api(store, registry)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        registry.start_bots()  # the restored tables' bots, now that the loop runs
        yield
        await registry.stop_bots()
        store.close()

    table = "/api/tables/{table_id}"
    seat = table + "/seats/{seat}"
    routes = [
        Route("/", _page("index.html")),
        Route("/play/{table_id}/{seat}", _page("play.html")),
        Route("/watch/{table_id}", _page("play.html")),
        Route("/replay/{game_id}", _page("replay.html")),
        Route("/api/envs", api.envs),
        Route("/api/rules/{env_id}", api.rules),
        Route("/api/tables", api.create_table, methods=["POST"]),
        Route("/api/tables", api.list_tables, methods=["GET"]),
        Route(table, api.table_info),
        Route(table + "/close", api.close, methods=["POST"]),
        Route(seat + "/join", api.join, methods=["POST"]),
        Route(seat + "/view", api.view),
        Route(seat + "/act", api.act, methods=["POST"]),
        Route(table + "/watch", api.watch),
        Route("/api/games", api.games),
        Route("/api/games/{game_id}", api.replay),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(Guard, allowed_hosts=allowed_hosts)]
    handlers = {HTTPException: _http_error, Exception: _http_error}
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware, exception_handlers=handlers)
    app.state.registry = registry
    app.state.store = store
    app.state.restored = restored
    return app
