"""The ASGI app of ``smuggle serve``: pages, the JSON API, the replay viewer.

Pages (plain HTML and a little JavaScript from ``static/``; no build step):

``/``                         the lobby: make a table, the tables of this server, stored games
``/play/{table}/{seat}#token=T`` one seat of a table (the token rides in the URL's fragment, which
                              browsers never send to the server; the page sends it as a header)
``/watch/{table}``            an all-bot table, every card shown, live
``/replay/{game}``            a stored game, step by step, from any seat or in full

API (JSON; a refused request is ``{"error": "one line"}`` (``errors.refusal``) with a 4xx status
and changes nothing: every handler reads and checks its whole request, path, query and body,
before it changes anything; a query parameter a route does not take is refused too):

``GET  /api/envs``                                    the games, player ranges, agent kinds, limits,
                                                      ``operator_required``, ``table_idle_minutes``
``GET  /api/rules/{env_id}``                          the side panel: rules summary and card tables
``POST /api/tables``                                  make a table (see ``Registry.create``); returns
                                                      each human seat's link and the owner's token
                                                      (operator)
``GET  /api/tables``                                  the tables of this server (no tokens, no cards)
                                                      (operator)
``POST /api/tables/{id}/close``                       end a table in play, with ``X-Owner-Token``
                                                      (operator)
``POST /api/tables/{id}/seats/{seat}/join``          ``{"name": ...}``, with the seat's token
``GET  /api/tables/{id}/seats/{seat}/view``          the seat's view; ``?after=VERSION&wait=S`` waits
                                                      for a change (long polling, at most 25 s)
``POST /api/tables/{id}/seats/{seat}/act``           ``{"action": id, "revision": r}``: ``r`` is the
                                                      view's revision (required; a repeat is answered
                                                      with ``"repeated": true``, never played twice)
``GET  /api/tables/{id}/watch``                       the full view of a table without human seats
``GET  /api/games``                                   stored games (the app's and tournaments')
                                                      (operator)
``GET  /api/games/{id}?step=K&view=full|S``          a stored game after K decisions, as seat S saw
                                                      it or in full

A seat's token goes in the ``X-Seat-Token`` header (or ``Authorization: Bearer``). Routes marked
*(operator)* need ``X-Operator-Token`` when the server has one (``smuggle serve
--operator-token``); seat links, watching and replays by id never do. Every request passes
``guard.Guard`` first (Host, Origin, JSON bodies, size, security headers); a body must arrive
within ``BODY_SECONDS`` (408); what a client may seat is ``limits.py``'s, counted per client
address (``request.client``: the peer, or what a proxy the operator named says); seeds go out as
decimal strings (JavaScript's numbers would round them); any unknown route or method answers the
same JSON error shape.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import os
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .errors import TableError, clip, refusal, sent_texts, shown
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
BODY_SECONDS = 10.0  # a request body must arrive whole within this (a stalled one holds a slot)
SWEEP_SECONDS = 30.0  # how often idle tables are looked for (see Registry.expire_idle)

Handler = Callable[[Request], Awaitable[Response]]
log = logging.getLogger("smuggle.web")


def _error(status: int, message: str, request: Request | None = None) -> JSONResponse:
    """A refusal (``errors.refusal``), quoting at most ``errors.SHOWN`` characters of ``request``."""
    return JSONResponse(refusal(message, "" if request is None else _sent(request)), status_code=status)


def _sent(request: Request) -> str:
    """Everything the client sent that a message might quote: path, query, body."""
    state = request.state
    parts = [request.url.path, request.url.query, str(request.query_params), getattr(state, "raw_body", "")]
    return sent_texts(parts, getattr(state, "body", None))


class _Gone(Exception):
    """The client went away before its request body arrived: there is nobody to answer."""


class _NoAnswer(Response):
    """What a request whose client has gone gets: nothing sent."""

    def __init__(self) -> None:
        super().__init__()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        return None


def _api(handler: Callable[[Any, Request], Awaitable[Response]]) -> Callable[[Any, Request], Awaitable[Response]]:
    """Turn a ``TableError`` into its status and one-line message (a method of ``Api``)."""

    async def wrapped(self: Any, request: Request) -> Response:
        try:
            return await handler(self, request)
        except TableError as exc:
            return _error(exc.status, exc.message, request)
        except _Gone:
            log.info("a client went away before its request body arrived (%s %s)", request.method, request.url.path)
            return _NoAnswer()

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped


async def _body(request: Request) -> Any:
    """The JSON body, read up to ``MAX_BODY`` bytes within ``BODY_SECONDS`` and checked to nest
    at most ``MAX_DEPTH``; kept on ``request.state`` (an error quotes it only through ``_sent``)."""
    try:
        raw = await asyncio.wait_for(_read(request), BODY_SECONDS)
    except asyncio.TimeoutError:
        raise TableError(408, f"the request body did not arrive within {BODY_SECONDS:g} s") from None
    except ClientDisconnect:
        raise _Gone from None
    request.state.raw_body = raw.decode("utf-8", "replace")
    try:
        body = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise TableError(400, "the request body is not valid JSON") from None
    if _depth(body) > MAX_DEPTH:
        raise TableError(400, f"the request body nests deeper than {MAX_DEPTH} levels")
    request.state.body = body
    return body


async def _read(request: Request) -> bytes:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TableError(413, f"a request body has at most {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


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


Parser = Callable[[str, str], Any]


def _number(low: float, high: float, whole: bool = False) -> Parser:
    """A query parameter's parser: a number from ``low`` to ``high`` (an int when ``whole``)."""

    def parse(name: str, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise TableError(422, f"'{name}' must be a number, got {shown(text)}") from None
        if not low <= value <= high:
            raise TableError(422, f"'{name}' must be from {low:g} to {high:g}, got {shown(text)}")
        return int(value) if whole else value

    return parse


def _integer(name: str, text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise TableError(422, f"'{name}' must be an integer, got {shown(text)}")
    return int(text)


def _text(name: str, text: str) -> str:
    return text  # checked where it is used


# ``after``: the version a long poll waits to change; ``wait``: for how long; ``log_from``: the log
# from entry N on (a page sends how many entries it has).
LIVE_QUERY: dict[str, Parser] = {
    "after": _number(-1, 1e12, whole=True),
    "wait": _number(0, MAX_WAIT),
    "log_from": _number(0, 1e9, whole=True),
}
LIVE_DEFAULTS = {"after": -1, "wait": 0.0, "log_from": 0}


def _query(request: Request, allowed: dict[str, Parser], defaults: dict[str, Any] | None = None) -> dict[str, Any]:
    """The query's parameters, each read by its parser (over ``defaults``): a name the route does
    not take, or one given twice, is refused like a bad value, before anything is done."""
    values, seen = dict(defaults or {}), set()
    for name, text in request.query_params.multi_items():
        if name not in allowed:
            takes = ", ".join(sorted(allowed)) or "none"
            raise TableError(422, f"unknown query parameter {shown(name)}; this route takes {takes}")
        if name in seen:
            raise TableError(422, f"the query parameter {shown(name)} is given twice")
        seen.add(name)
        values[name] = allowed[name](name, text)
    return values


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

    def __init__(self, store: Store, registry: Registry, operator_token: str | None = None):
        self.store = store
        self.registry = registry
        self.replays = ReplayCache(store)
        self.operator_token = operator_token or None

    def _operator(self, request: Request) -> None:
        """Refuse a request without the operator's token, when the server has one."""
        if self.operator_token is None:
            return
        token = request.headers.get("x-operator-token", "")
        if not token:
            raise TableError(401, "making, closing and listing tables needs the operator token (X-Operator-Token)")
        if not hmac.compare_digest(token.encode(), self.operator_token.encode()):
            raise TableError(403, "wrong operator token")

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
        _query(request, {})
        limits = self.registry.limits
        return JSONResponse(
            {
                "envs": games,
                "agent_kinds": sorted(AGENT_KINDS),
                "agent_specs": limits.specs(),
                "limits": limits.public(),
                "operator_required": self.operator_token is not None,
                "table_idle_minutes": limits.table_idle_minutes,
            }
        )

    @_api
    async def rules(self, request: Request) -> Response:
        from smuggle_envs import ENV_IDS

        from .rules import rules_panel

        _query(request, {})
        env_id = request.path_params["env_id"]
        if env_id not in ENV_IDS:
            raise TableError(404, f"unknown game {shown(env_id)}")
        return JSONResponse(rules_panel(env_id))

    @_api
    async def create_table(self, request: Request) -> Response:
        _query(request, {})
        self._operator(request)
        body = await _body(request)
        table, tokens, owner = self.registry.create(body, creator=client_key(request))
        seats = []
        for entry in table.summary()["seats"]:
            p = entry["seat"]
            if p in tokens:
                entry["link"] = f"/play/{table.id}/{p}#token={tokens[p]}"
                entry["token"] = tokens[p]
            seats.append(entry)
        answer = {"id": table.id, "env_id": table.env_id, "seed": str(table.seed), "seats": seats, "owner_token": owner}
        return JSONResponse(answer, 201)

    @_api
    async def list_tables(self, request: Request) -> Response:
        _query(request, {})
        self._operator(request)
        self.registry.expire_idle()
        tables = sorted(self.registry.tables.values(), key=lambda t: -t.started)
        return JSONResponse({"tables": [t.summary() for t in tables]})

    def _table(self, request: Request) -> Any:
        table_id = request.path_params["table_id"]
        if len(table_id) > ID_LIMIT:
            raise TableError(404, f"no table {shown(table_id, 16)} on this server")
        return self.registry.get(table_id)

    @_api
    async def table_info(self, request: Request) -> Response:
        _query(request, {})
        return JSONResponse(self._table(request).summary())

    @_api
    async def close(self, request: Request) -> Response:
        _query(request, {})
        self._operator(request)
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
        _query(request, {})
        table, seat = self._seat(request)
        body = await _body(request)
        if not isinstance(body, dict):
            raise TableError(400, 'the request body must be a JSON object like {"name": "Ann"}')
        return JSONResponse(self.registry.join(table, seat, body.get("name")))

    @_api
    async def view(self, request: Request) -> Response:
        query = _query(request, LIVE_QUERY, LIVE_DEFAULTS)
        table, seat = self._seat(request)
        await table.wait(query["after"], query["wait"])
        return JSONResponse(table.view_for(seat, query["log_from"]))

    @_api
    async def act(self, request: Request) -> Response:
        query = _query(request, {"log_from": LIVE_QUERY["log_from"]}, LIVE_DEFAULTS)
        table, seat = self._seat(request)
        repeated = self.registry.act(table, seat, await _body(request))  # all checked: now it may change
        view = table.view_for(seat, query["log_from"])
        view["repeated"] = repeated
        return JSONResponse(view)

    @_api
    async def watch(self, request: Request) -> Response:
        query = _query(request, LIVE_QUERY, LIVE_DEFAULTS)
        table = self._table(request)
        if table.has_humans:
            raise TableError(403, "this table has human seats: its full view opens as a replay once the game is stored")
        await table.wait(query["after"], query["wait"])
        return JSONResponse(table.full(query["log_from"]))

    @_api
    async def games(self, request: Request) -> Response:
        _query(request, {})
        self._operator(request)
        return JSONResponse({"games": self.store.games()})

    @_api
    async def replay(self, request: Request) -> Response:
        query = _query(request, {"step": _integer, "view": _text}, {"step": None, "view": "full"})
        game_id = _path_int(request, "game_id", "no stored game by that id in this database")
        return JSONResponse(self.replays.view(game_id, query["step"], query["view"]))


def client_key(request: Request) -> str:
    """Who a request counts as for the per-client limits: its peer's address, or the one a proxy
    named with ``smuggle serve --proxy-from`` reported (uvicorn reads forwarded headers only
    from those; by default from nobody)."""
    return request.client.host if request.client else ""


async def _sweep(registry: Registry) -> None:
    """End idle tables every ``SWEEP_SECONDS`` (making or listing tables also looks first)."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        try:
            registry.expire_idle()
        except Exception:  # a busy database: the next sweep tries again
            log.warning("idle tables could not be ended now", exc_info=True)


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
    operator_token: str | None = None,
) -> Starlette:
    """The app over the database ``db`` (created if missing); unfinished tables are restored.
    ``limits``: what clients may seat and ask for; ``allowed_hosts``: the ``Host`` names it
    answers to (``guard.Guard``); ``operator_token``: if given, making, closing and listing
    tables need it (``X-Operator-Token``); ``agent_factory`` replaces ``limits.build`` (tests)."""
    store = Store(db)
    registry = Registry(store, limits, agent_factory)
    restored = registry.restore()
    api = Api(store, registry, operator_token)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        registry.start_bots()  # the restored tables' bots, now that the loop runs
        sweeper = asyncio.get_running_loop().create_task(_sweep(registry))
        yield
        sweeper.cancel()
        await asyncio.gather(sweeper, return_exceptions=True)
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
