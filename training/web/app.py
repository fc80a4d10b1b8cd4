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
``POST /api/tables``                                  make a table (see ``Registry.create``)
``GET  /api/tables``                                  the tables of this server (no tokens, no cards)
``POST /api/tables/{id}/seats/{seat}/join``          ``{"name": ...}``, with the seat's token
``GET  /api/tables/{id}/seats/{seat}/view``          the seat's view; ``?after=REV&wait=S`` waits for
                                                      a change (long polling, at most 25 s)
``POST /api/tables/{id}/seats/{seat}/act``           ``{"action": id, "revision": r}``
``GET  /api/tables/{id}/watch``                       the full view of a table without human seats
``GET  /api/games``                                   stored games (the app's and tournaments')
``GET  /api/games/{id}?step=K&view=full|S``          a stored game after K decisions, as seat S saw
                                                      it or in full

A seat's token goes in the ``X-Seat-Token`` header (or ``Authorization: Bearer``).
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
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .store import Store
from .tables import AgentFactory, Registry, TableError, default_agent_factory
from .views import LogEntry, full_view, replay_states, seat_view

STATIC = Path(__file__).resolve().parent / "static"
MAX_WAIT = 25.0  # seconds a long poll may hold a request
REPLAY_CACHE = 8  # stored games whose replay log is kept in memory

Handler = Callable[[Request], Awaitable[Response]]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _api(handler: Handler) -> Handler:
    """Turn a ``TableError`` into its status and one-line message."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except TableError as exc:
            return _error(exc.status, exc.message)

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped


async def _body(request: Request) -> Any:
    raw = await request.body()
    try:
        return json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError):
        raise TableError(400, "the request body is not valid JSON") from None


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
        raise TableError(422, f"'{name}' must be a number, got {text!r}") from None
    if not low <= value <= high:
        raise TableError(422, f"'{name}' must be from {low:g} to {high:g}, got {text}")
    return value


class ReplayCache:
    """Stored games replayed once (their logs kept), then shown at any step."""

    def __init__(self, store: Store, size: int = REPLAY_CACHE):
        self.store = store
        self.size = size
        self.items: OrderedDict[int, dict[str, Any]] = OrderedDict()

    def get(self, game_id: int) -> dict[str, Any]:
        if game_id in self.items:
            self.items.move_to_end(game_id)
            return self.items[game_id]
        record = self.store.game(game_id)
        if record is None:
            raise TableError(404, f"no stored game {game_id} in this database")
        from smuggle_envs import make_game

        game = make_game(record["env_id"], **record["config"])
        try:
            _, log = replay_states(game, record["seed"], record["actions"])
        except (ValueError, TypeError) as exc:
            raise TableError(409, f"stored game {game_id} cannot be replayed by this engine: {exc}") from None
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
        labels = list(item["seating"])
        if viewer == "full":
            view = full_view(state, labels, log[:step])
        else:
            try:
                seat = int(viewer)
            except ValueError:
                seat = -1
            if not 0 <= seat < game.num_players:
                raise TableError(
                    422, f"'view' must be 'full' or a seat from 0 to {game.num_players - 1}, got {viewer!r}"
                )
            view = seat_view(state, seat, labels, log[:step])
            view["decision"] = None  # a replay shows, it does not ask
        view.update({"game_id": game_id, "step": step, "steps": steps, "stored_scores": item["scores"]})
        return view


def create_app(db: str | os.PathLike[str], agent_factory: AgentFactory | None = None) -> Starlette:
    """The app over the database ``db`` (created if missing); unfinished tables are restored."""
    store = Store(db)
    registry = Registry(store, agent_factory or default_agent_factory)
    restored = registry.restore()
    replays = ReplayCache(store)

    # ----- pages ------------------------------------------------------------------------------------
    def page(name: str) -> Handler:
        async def handler(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})

        return handler

    # ----- API ----------------------------------------------------------------------------------------
    @_api
    async def envs(request: Request) -> Response:
        from agents import AGENT_KINDS
        from smuggle_envs import ENV_IDS, game_class

        games = []
        for env_id in ENV_IDS:
            cls = game_class(env_id)
            defaults = cls.config_class()
            games.append(
                {
                    "env_id": env_id,
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "default_players": defaults.num_players,
                }
            )
        return JSONResponse({"envs": games, "agent_kinds": sorted(AGENT_KINDS)})

    @_api
    async def rules(request: Request) -> Response:
        from smuggle_envs import ENV_IDS

        from .rules import rules_panel

        env_id = request.path_params["env_id"]
        if env_id not in ENV_IDS:
            raise TableError(404, f"unknown game {env_id!r}")
        return JSONResponse(rules_panel(env_id))

    @_api
    async def create_table(request: Request) -> Response:
        table, tokens = registry.create(await _body(request))
        seats = []
        for entry in table.summary()["seats"]:
            p = entry["seat"]
            if p in tokens:
                entry["link"] = f"/play/{table.id}/{p}#token={tokens[p]}"
                entry["token"] = tokens[p]
            seats.append(entry)
        return JSONResponse({"id": table.id, "env_id": table.env_id, "seed": table.seed, "seats": seats}, 201)

    @_api
    async def list_tables(request: Request) -> Response:
        tables = sorted(registry.tables.values(), key=lambda t: -t.started)
        return JSONResponse({"tables": [t.summary() for t in tables]})

    @_api
    async def table_info(request: Request) -> Response:
        return JSONResponse(registry.get(request.path_params["table_id"]).summary())

    def _seat(request: Request) -> tuple[Any, int]:
        table = registry.get(request.path_params["table_id"])
        return table, registry.seat(table, request.path_params["seat"], _token(request))

    @_api
    async def join(request: Request) -> Response:
        table, seat = _seat(request)
        body = await _body(request)
        if not isinstance(body, dict):
            raise TableError(400, 'the request body must be a JSON object like {"name": "Ann"}')
        return JSONResponse(registry.join(table, seat, body.get("name")))

    @_api
    async def view(request: Request) -> Response:
        table, seat = _seat(request)
        after = _number(request, "after", -1, -1, 1e12)
        await table.wait(int(after), _number(request, "wait", 0, 0, MAX_WAIT))
        return JSONResponse(table.view_for(seat))

    @_api
    async def act(request: Request) -> Response:
        table, seat = _seat(request)
        registry.act(table, seat, await _body(request))
        return JSONResponse(table.view_for(seat))

    @_api
    async def watch(request: Request) -> Response:
        table = registry.get(request.path_params["table_id"])
        if table.has_humans:
            raise TableError(403, "this table has human seats: its full view opens as a replay once the game is stored")
        after = _number(request, "after", -1, -1, 1e12)
        await table.wait(int(after), _number(request, "wait", 0, 0, MAX_WAIT))
        return JSONResponse(table.full())

    @_api
    async def games(request: Request) -> Response:
        return JSONResponse({"games": store.games()})

    @_api
    async def replay(request: Request) -> Response:
        text = request.query_params.get("step")
        try:
            step = None if text is None else int(text)
        except ValueError:
            raise TableError(422, f"'step' must be an integer, got {text!r}") from None
        viewer = request.query_params.get("view", "full")
        return JSONResponse(replays.view(request.path_params["game_id"], step, viewer))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        registry.start_bots()  # the restored tables' bots, now that the loop runs
        yield
        await registry.stop_bots()
        store.close()

    routes = [
        Route("/", page("index.html")),
        Route("/play/{table_id}/{seat:int}", page("play.html")),
        Route("/watch/{table_id}", page("play.html")),
        Route("/replay/{game_id:int}", page("replay.html")),
        Route("/api/envs", envs),
        Route("/api/rules/{env_id}", rules),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/seats/{seat:int}/join", join, methods=["POST"]),
        Route("/api/tables/{table_id}/seats/{seat:int}/view", view),
        Route("/api/tables/{table_id}/seats/{seat:int}/act", act, methods=["POST"]),
        Route("/api/tables/{table_id}/watch", watch),
        Route("/api/games", games),
        Route("/api/games/{game_id:int}", replay),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.registry = registry
    app.state.store = store
    app.state.restored = restored
    return app
