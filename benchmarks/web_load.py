"""Load: many tables of people and bots at once on ``smuggle serve``, played by scripted clients.

Starts ``smuggle serve`` on a fresh database on loopback (``127.0.0.1``, a free port) in a process
of its own, so that the server's CPU and the clients' are separate processes as in a real study,
and stops it at the end, also on an error or Ctrl-C. Then makes ``--tables`` tables (by default
Smuggle with two people and two rule bots, ``human,rule,human,rule``, bots at ``--bot-delay 0``),
joins every human seat and plays all of them at once. Each human seat is one asyncio client
doing what the page does: long-poll its view (``?after=VERSION&wait=20``), and on its turn pick a
legal action at random (seeded: ``--seed``) and act on the position it saw (``{"action",
"revision"}``); the act's answer is the next view.

People answer at once (``--think S``: each waits a random 0 to 2S seconds first). With bots at 0
delay too, the run is a closed loop: each table moves again as soon as its last move is answered,
so the server is saturated and a request's latency is mostly its wait behind the other tables'
requests (about tables x the server's time per decision). The clients speak HTTP/1.1 through
``RawHTTP`` below (keep-alive, one request per connection at a time, as a browser's), which costs
their process a fraction of the CPU that ``httpx2`` (``--client httpx2``, the web extra's client)
does: the clients share the machine's cores with the server, and should take as little of them
as a study's browsers, which run elsewhere, do.

Reported (and written to ``--out FILE.json``; ``--markdown`` prints the table for the docs):

* latency, p50 / p99 / max, measured by the clients: ``act`` (request to answer), ``view``
  (views answered at once: the first after joining, and after a refused act) and ``long poll``:
  for each long poll woken by a move, the time from the move (the view's ``asked_at``, the
  server's clock, which on loopback is the clients' clock) or from the request, whichever is
  later, to the client holding the new view: how long a person waits to see a bot's move;
* decisions per second (all seats, from the first request to the last table finished), the
  server's and the clients' CPU seconds, every HTTP status (5xx counted apart) and connection
  error;
* what was lost. With the server stopped, the database is read back: every table must be
  finished and its game stored; the stored game's length must equal what the API reports
  (``GET /api/games/{id}``, ``steps``) and the last view the clients saw; replaying the stored
  actions, the human seats' moves must be exactly the acts the clients got a 200 for (decision
  number, seat, action); and ``human_decisions`` (what ``smuggle export-human`` writes) must hold
  each of those acts exactly once. Anything else is counted as lost, extra or duplicated.

The run is bounded: ``--seconds`` (wall time) and ``--max-requests``; when either is spent (or on
Ctrl-C) the clients stop, open long polls are dropped, acts in flight finish, and a partial
result is reported (the unfinished tables are counted, never as lost). The goal (issue 24): p99
act latency under 200 ms with bots at 0 delay, nothing lost, no 5xx. The exit status is 1 when
anything was lost, extra or duplicated, or a 5xx was answered (0 otherwise, goal met or not).

    python benchmarks/web_load.py [--tables 50] [--env smuggle_v0] [--seats human,rule,human,rule]
        [--bot-delay 0] [--think 0] [--seconds 600] [--max-requests 200000] [--seed 0]
        [--client raw|httpx2] [--out load.json] [--markdown] [--quiet]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as _dt
import json
import math
import os
import platform
import random
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WAIT = 20  # seconds a long poll may wait, as the page's
GOAL_P99_ACT_MS = 200.0
LATENCY_ROWS = (
    ("create", "create table"),
    ("join", "join"),
    ("view", "view (answered at once)"),
    ("poll", "long poll: move to client"),
    ("act", "act"),
)
PER_CLIENT_OPTION = r"--max-bot-tables[-a-z]*"  # smuggle serve's limit of bot tables per client address


class Stop(Exception):
    """The run's budget (time, requests or Ctrl-C) is spent: the client stops."""


# ----- the server, in a process of its own ------------------------------------------------------------
def _die_with_parent() -> None:
    """In the server's process (Linux): be sent SIGTERM if the benchmark dies without stopping it."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Server:
    """``smuggle serve --host 127.0.0.1 --port 0 --db DB`` as a child process; a context manager
    that gives its URL and stops it on exit (SIGINT: long polls answered, then a clean stop; a
    kill after 30 s). Once stopped, ``cpu_seconds`` is its user + system CPU time and
    ``returncode`` its exit status (130: ``smuggle serve``'s status after Ctrl-C, a clean stop)."""

    def __init__(self, db: Path, log: Path):
        self.db, self.log = db, log
        self.url = ""
        self.cpu_seconds = 0.0
        self.returncode: int | None = None
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        base = [sys.executable, "-m", "training.cli", "serve"]
        argv = [*base, "--host", "127.0.0.1", "--port", "0", "--db", str(self.db)]
        help_text = subprocess.run([*base, "--help"], capture_output=True, text=True, env=_env(), cwd=ROOT).stdout
        option = re.search(PER_CLIENT_OPTION, help_text)
        if option:  # every table comes from one address: lift the per-client limit
            argv += [option.group(0), "1000000"]
        return argv

    def __enter__(self) -> Server:
        argv = self.command()
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                argv, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=_env(),
                start_new_session=True, preexec_fn=_die_with_parent,
            )  # fmt: skip
        deadline = time.monotonic() + 60
        while not self.url:
            for line in self.log.read_text(errors="replace").splitlines():
                if line.startswith("smuggle serve: http"):
                    self.url = line.split()[2].rstrip("/")
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"smuggle serve did not start: {self.log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.returncode = self.proc.returncode
        self.cpu_seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _env() -> dict[str, str]:
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": str(ROOT) + (os.pathsep + path if path else "")}


# ----- the clients ---------------------------------------------------------------------------------------
@dataclass
class Stats:
    """What the clients measured: latencies (ms) by kind, statuses, errors, the request count."""

    max_requests: int
    stop: asyncio.Event
    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    status: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    errors: Counter[str] = field(default_factory=Counter)
    requests: int = 0
    poll_timeouts: int = 0

    def server_errors(self) -> int:
        return sum(n for counts in self.status.values() for code, n in counts.items() if code >= 500)

    def refusals(self) -> int:
        """4xx answers (a 409 is a stale act: none is expected, each seat acts on its own turn)."""
        return sum(n for counts in self.status.values() for code, n in counts.items() if 400 <= code < 500)


@dataclass
class TableRun:
    """One table as the clients saw it: its tokens, the acts answered 200, the last view seen."""

    id: str
    seed: int
    tokens: dict[int, str]
    acks: list[tuple[int, int, int]] = field(default_factory=list)  # (decision, seat, action)
    revision: int = 0  # decisions played, as last seen
    status: str = "playing"
    game_id: int | None = None
    acting: set[int] = field(default_factory=set)  # seats with an act in flight (never cancelled)

    def observe(self, view: dict[str, Any]) -> None:
        if view["revision"] >= self.revision:
            self.revision, self.status = view["revision"], view["table_status"]
            self.game_id = view.get("game_id") or self.game_id


def version(view: dict[str, Any]) -> Any:
    """The view's change counter, which long polls wait on."""
    return view["version"]


class Response:
    """An HTTP response: its status and body."""

    def __init__(self, status_code: int, content: bytes):
        self.status_code, self.content = status_code, content

    def json(self) -> Any:
        return json.loads(self.content)


class RawHTTP:
    """A minimal HTTP/1.1 client over asyncio streams, for a server on loopback: keep-alive
    connections (``TCP_NODELAY``, as asyncio sets it), one request per connection at a time, each
    request written in one piece, a ``Content-Length`` or chunked answer. It costs the clients'
    process a small fraction of what ``httpx2`` does per request, which matters when clients and
    server share two cores. ``request`` takes ``httpx2.AsyncClient.request``'s arguments."""

    def __init__(self, url: str):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port, self.netloc = parts.hostname or "127.0.0.1", parts.port or 80, parts.netloc
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, json: Any = None, params: Any = None
    ) -> Response:
        if params:
            path += "?" + urllib.parse.urlencode(params)
        body = b"" if json is None else _dumps(json)
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.netloc}", "Accept: application/json"]
        if json is not None or method != "GET":
            head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        head += [f"{name}: {value}" for name, value in (headers or {}).items()]
        data = ("\r\n".join(head) + "\r\n\r\n").encode() + body
        while True:
            reused = bool(self.idle)
            reader, writer = self.idle.pop() if reused else await asyncio.open_connection(self.host, self.port)
            try:
                writer.write(data)
                status, fields = _head(await reader.readuntil(b"\r\n\r\n"))
            except (asyncio.IncompleteReadError, ConnectionError):
                writer.close()
                if reused:  # the server closed an idle connection: once more on a new one
                    continue
                raise
            except BaseException:
                writer.close()
                raise
            break
        try:
            content = await _content(reader, fields)
        except BaseException:
            writer.close()
            raise
        if fields.get("connection", "").lower() == "close":
            writer.close()
        else:
            self.idle.append((reader, writer))
        return Response(status, content)

    async def aclose(self) -> None:
        for _, writer in self.idle:
            writer.close()
        self.idle.clear()


def _dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def _head(raw: bytes) -> tuple[int, dict[str, str]]:
    lines = raw.decode("latin-1").split("\r\n")
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            fields[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), fields


async def _content(reader: asyncio.StreamReader, fields: dict[str, str]) -> bytes:
    if fields.get("transfer-encoding", "").lower() != "chunked":
        return await reader.readexactly(int(fields.get("content-length", "0")))
    chunks = []
    while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
        chunks.append(await reader.readexactly(size))
        await reader.readexactly(2)
    await reader.readuntil(b"\r\n")  # no trailers are sent: the empty line
    return b"".join(chunks)


class Client:
    """The API over one HTTP client (``RawHTTP`` or ``httpx2``); every request is counted, timed
    and budgeted."""

    def __init__(self, http: Any, stats: Stats, think: float = 0.0):
        self.http, self.stats, self.think = http, stats, think

    async def call(
        self, kind: str, method: str, path: str, token: str | None = None, body: Any = None, **params: Any
    ) -> tuple[int, Any]:
        """(status, JSON answer), or (0, None) on a connection error; raises ``Stop`` once the
        budget is spent. The latency is recorded under ``kind``."""
        stats = self.stats
        if stats.stop.is_set():
            raise Stop
        if stats.requests >= stats.max_requests:
            stats.stop.set()
            raise Stop
        stats.requests += 1
        headers = {"X-Seat-Token": token} if token else None
        start = time.perf_counter()
        try:
            request = self.http.request(method, path, headers=headers, json=body, params=params or None)
            response = await asyncio.wait_for(request, WAIT + 30)
        except Exception as exc:  # a refused or dropped connection, a timeout
            stats.errors[type(exc).__name__] += 1
            return 0, None
        elapsed = (time.perf_counter() - start) * 1000
        stats.status[kind][response.status_code] += 1
        if kind != "poll":
            stats.latency[kind].append(elapsed)
        try:
            return response.status_code, response.json()
        except ValueError:
            return response.status_code, None

    async def fetch_view(self, run: TableRun, seat: int) -> dict[str, Any]:
        """The seat's view now (retried like the page: a failed request waits and tries again)."""
        while True:
            status, view = await self.call("view", "GET", _seat_path(run, seat, "view"), run.tokens[seat])
            if status == 200:
                return dict(view)
            await asyncio.sleep(1.0)


def _seat_path(run: TableRun, seat: int, what: str) -> str:
    return f"/api/tables/{run.id}/seats/{seat}/{what}"


async def play_seat(client: Client, run: TableRun, seat: int, rng: random.Random) -> None:
    """One person: long-poll the view, act on their turn, until the game is over."""
    view = await client.fetch_view(run, seat)
    while True:
        run.observe(view)
        if view["table_status"] != "playing":
            return
        if view["to_move"] == seat and view.get("decision"):
            view = await act(client, run, seat, view, rng)
        else:
            view = await long_poll(client, run, seat, view)


def legal_ids(decision: dict[str, Any]) -> list[int]:
    """The ids of a decision's legal actions (``legal``)."""
    return list(decision["legal"])


async def act(client: Client, run: TableRun, seat: int, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    action = rng.choice(legal_ids(view["decision"]))
    if client.think:
        await asyncio.sleep(rng.uniform(0, 2 * client.think))
    body = {"action": action, "revision": view["revision"]}
    run.acting.add(seat)
    try:
        path = _seat_path(run, seat, "act")
        status, answer = await client.call("act", "POST", path, run.tokens[seat], body, log_from=log_length(view))
    finally:
        run.acting.discard(seat)
    if status == 200:
        run.acks.append((view["revision"], seat, action))
        return dict(answer)
    return await client.fetch_view(run, seat)  # refused (409: stale) or failed: look again


def log_length(view: dict[str, Any]) -> int:
    """How many log entries the client holds after ``view``: as the page, it asks only for the
    entries after those (``?log_from=N``)."""
    return int(view.get("log_from", 0)) + len(view.get("log", ()))


async def long_poll(client: Client, run: TableRun, seat: int, view: dict[str, Any]) -> dict[str, Any]:
    sent = time.time()
    path = _seat_path(run, seat, "view")
    status, answer = await client.call(
        "poll", "GET", path, run.tokens[seat], after=version(view), wait=WAIT, log_from=log_length(view)
    )
    received = time.time()
    if status != 200:
        await asyncio.sleep(1.0)
        return await client.fetch_view(run, seat)
    if version(answer) == version(view):
        client.stats.poll_timeouts += 1
    elif answer["revision"] != view["revision"] and "asked_at" in answer:  # woken by a move
        client.stats.latency["poll"].append((received - max(sent, float(answer["asked_at"]))) * 1000)
    return dict(answer)


async def make_tables(client: Client, args: argparse.Namespace, runs: list[TableRun]) -> None:
    """Create the tables (into ``runs``) and join every human seat (``P<table>.<seat>``)."""
    for i in range(args.tables):
        body = {"env_id": args.env, "seats": args.seats, "seed": args.seed + i, "bot_delay": args.bot_delay}
        status, answer = await client.call("create", "POST", "/api/tables", body=body)
        if status != 201:
            raise RuntimeError(f"POST /api/tables answered {status}: {answer}")
        tokens = {s["seat"]: s["token"] for s in answer["seats"] if "token" in s}
        runs.append(TableRun(answer["id"], args.seed + i, tokens))
    for i, run in enumerate(runs):
        for seat, token in run.tokens.items():
            status, answer = await client.call(
                "join", "POST", _seat_path(run, seat, "join"), token, {"name": f"P{i}.{seat}"}
            )
            if status != 200:
                raise RuntimeError(f"join answered {status}: {answer}")


async def play_all(client: Client, runs: list[TableRun], seed: int, quiet: bool, every: float = 5.0) -> float:
    """Play every human seat of every table at once until all are over or the budget is spent;
    returns the seconds it took. Progress on stderr every ``every`` s."""
    stop = client.stats.stop
    tasks: dict[asyncio.Future[Any], tuple[TableRun, int]] = {
        asyncio.ensure_future(play_seat(client, run, seat, random.Random(f"{seed}:{run.seed}:{seat}"))): (run, seat)
        for run in runs
        for seat in sorted(run.tokens)
    }
    stopped: asyncio.Future[Any] = asyncio.ensure_future(stop.wait())
    start = time.perf_counter()
    pending: set[asyncio.Future[Any]] = set(tasks)
    report = every
    while pending and not stop.is_set():
        timeout = max(0.0, report - (time.perf_counter() - start))
        _, pending = await asyncio.wait(pending | {stopped}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        pending.discard(stopped)
        if time.perf_counter() - start >= report:
            report += every
            if not quiet:
                progress(client.stats, runs, time.perf_counter() - start)
    for task in pending:  # the budget is spent: drop the long polls, let the acts in flight finish
        run, seat = tasks[task]
        if seat not in run.acting:
            task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stopped.cancel()
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, (Stop, asyncio.CancelledError)):
            raise result
    return time.perf_counter() - start


def progress(stats: Stats, runs: list[TableRun], elapsed: float) -> None:
    done = sum(r.status != "playing" for r in runs)
    decisions = sum(r.revision for r in runs)
    print(
        f"  {elapsed:6.1f} s: {done}/{len(runs)} tables over, {decisions:,} decisions, "
        f"{stats.requests:,} requests, {stats.server_errors()} 5xx",
        file=sys.stderr,
        flush=True,
    )


async def api_counts(http: Any, runs: list[TableRun]) -> dict[str, dict[str, Any]]:
    """Each table's status and decision count as the API reports them once play stopped, and its
    stored game's ``steps`` (not timed, not budgeted)."""
    counts: dict[str, dict[str, Any]] = {}
    for run in runs:
        table = (await http.request("GET", f"/api/tables/{run.id}")).json()
        steps = None
        if table.get("game_id") is not None:
            steps = (await http.request("GET", f"/api/games/{table['game_id']}")).json().get("steps")
        counts[run.id] = {"status": table.get("status"), "decisions": table.get("decisions"), "steps": steps}
    return counts


def _on_signals(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """Ctrl-C (or SIGTERM) stops the clients cleanly and reports what was done; a second one
    interrupts at once."""

    def handler(sig: signal.Signals) -> None:
        print(f"\n{sig.name}: stopping the clients (again to interrupt)", file=sys.stderr, flush=True)
        stop.set()
        loop.remove_signal_handler(sig)

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows
            loop.add_signal_handler(sig, handler, sig)


@dataclass
class Played:
    """What a run's clients did and saw."""

    stats: Stats
    runs: list[TableRun]
    seconds: float
    api: dict[str, dict[str, Any]]
    client_cpu: float
    complete: bool


async def run_clients(args: argparse.Namespace, url: str) -> Played:
    """Make the tables, join and play them within the budget, then read the API's counts."""
    loop = asyncio.get_running_loop()
    stats = Stats(args.max_requests, asyncio.Event())
    deadline = loop.call_later(args.seconds, stats.stop.set)
    _on_signals(loop, stats.stop)
    cpu = time.process_time()
    runs: list[TableRun] = []
    seconds = 0.0
    async with http_client(args.client, url) as http:
        client = Client(http, stats, args.think)
        with contextlib.suppress(Stop):
            await make_tables(client, args, runs)
            if not args.quiet:
                print(f"  {len(runs)} tables made, {stats.requests} requests; playing", file=sys.stderr, flush=True)
            seconds = await play_all(client, runs, args.seed, args.quiet)
        deadline.cancel()
        api = await api_counts(http, runs)
    complete = not stats.stop.is_set() and len(runs) == args.tables
    return Played(stats, runs, seconds, api, time.process_time() - cpu, complete)


@contextlib.asynccontextmanager
async def http_client(kind: str, url: str) -> AsyncIterator[Any]:
    """The clients' HTTP: ``raw`` (``RawHTTP``) or ``httpx2`` (the web extra's client, the same
    load through a full-featured client, which costs the clients' process more CPU)."""
    if kind == "raw":
        raw = RawHTTP(url)
        try:
            yield raw
        finally:
            await raw.aclose()
        return
    import httpx2

    limits = httpx2.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx2.AsyncClient(base_url=url, limits=limits, timeout=WAIT + 30, trust_env=False) as http:
        yield http


# ----- what was stored -------------------------------------------------------------------------------
def read_db(db: Path) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """The stopped server's database: its tables, their stored games (by table id) and their
    human decisions as ``smuggle export-human`` reads them."""
    from training.web.store import human_decisions

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        columns = ("id", "env_id", "config", "seed", "actions", "status", "game_id")
        tables = {}
        for row in conn.execute(f"SELECT {', '.join(columns)} FROM web_tables"):
            item = dict(zip(columns, row))
            item["config"], item["actions"] = json.loads(item["config"]), json.loads(item["actions"])
            tables[item["id"]] = item
        games = {
            key: {"id": gid, "decisions": decisions, "actions": json.loads(actions)}
            for gid, key, decisions, actions in conn.execute("SELECT id, game_key, decisions, actions FROM games")
        }
    finally:
        conn.close()
    decisions: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in human_decisions(db):
        decisions[item["table_id"]].append(item)
    return tables, games, decisions


def human_moves(row: dict[str, Any], actions: list[int], humans: set[int]) -> dict[int, tuple[int, int]]:
    """Replay a table's actions: ``{decision: (seat, action)}`` for the moves of human seats."""
    from smuggle_envs import make_game

    state = make_game(row["env_id"], **row["config"]).new_initial_state(row["seed"])
    moves = {}
    for i, action in enumerate(actions):
        seat = state.current_player()
        if seat in humans:
            moves[i] = (seat, action)
        state.apply_action(action)
    return moves


def check_table(
    run: TableRun,
    api: dict[str, Any],
    row: dict[str, Any] | None,
    game: dict[str, Any] | None,
    rows: list[dict[str, Any]],
) -> Counter[str]:
    """One table's problems: ``unfinished`` (not finished and stored), ``length`` (the stored
    game, the API and the clients disagree on its length), and the acts the clients got a 200 for
    against the stored moves and ``human_decisions``: ``lost`` (an act missing or different),
    ``extra`` (a stored human move nobody was told of), ``duplicated`` (twice)."""
    found: Counter[str] = Counter()
    if row is None:
        found["lost"] += len(run.acks) or 1
        return found
    finished = row["status"] == "finished" and game is not None and row["game_id"] == game["id"]
    found["unfinished"] += not finished
    actions = game["actions"] if finished and game else row["actions"]
    if finished and game:
        counts = {game["decisions"], api.get("steps"), api.get("decisions"), run.revision, len(row["actions"])}
        found["length"] += counts != {len(actions)}
    moves = human_moves(row, actions, set(run.tokens))
    acked: dict[int, tuple[int, int]] = {}
    for decision, seat, action in run.acks:
        found["duplicated"] += decision in acked
        acked[decision] = (seat, action)
    stored = Counter(r["decision"] for r in rows)
    found["duplicated"] += sum(n - 1 for n in stored.values())
    recorded = {r["decision"]: (r["seat"], r["action"]) for r in rows}
    found["lost"] += sum(moves.get(d) != move or recorded.get(d) != move for d, move in acked.items())
    found["extra"] += len(set(moves) - set(acked)) + len(set(recorded) - set(acked))
    return found


def check_all(played: Played, db: Path) -> tuple[Counter[str], int]:
    """Every table's problems added up, and the number of decisions stored."""
    tables, games, decisions = read_db(db)
    found: Counter[str] = Counter({"unfinished": 0, "length": 0, "lost": 0, "extra": 0, "duplicated": 0})
    total = 0
    for run in played.runs:
        row, game = tables.get(run.id), games.get(run.id)
        found.update(check_table(run, played.api.get(run.id, {}), row, game, decisions.get(run.id, [])))
        total += len(game["actions"]) if game else len(row["actions"]) if row else 0
    return found, total


# ----- the report --------------------------------------------------------------------------------------
def percentiles(values: list[float]) -> dict[str, float | int | None]:
    """Count, p50, p99 and max (nearest rank), in ms to 0.1."""
    ordered = sorted(values)
    if not ordered:
        return {"n": 0, "p50": None, "p99": None, "max": None}

    def rank(q: float) -> float:
        return round(ordered[min(len(ordered), max(1, math.ceil(q * len(ordered) - 1e-9))) - 1], 1)

    return {"n": len(ordered), "p50": rank(0.50), "p99": rank(0.99), "max": round(ordered[-1], 1)}


def summarise(
    args: argparse.Namespace, played: Played, found: Counter[str], decisions: int, server: Server
) -> dict[str, Any]:
    stats = played.stats
    latency = {kind: percentiles(stats.latency.get(kind, [])) for kind, _ in LATENCY_ROWS}
    p99_act = latency["act"]["p99"]
    integrity = sum(found[k] for k in ("length", "lost", "extra", "duplicated"))
    return {
        "benchmark": "web_load",
        "date": _dt.date.today().isoformat(),
        "command": " ".join(["python", "benchmarks/web_load.py", *sys.argv[1:]]),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "env_id": args.env,
        "seats": args.seats,
        "tables": args.tables,
        "bot_delay": args.bot_delay,
        "think": args.think,
        "seed": args.seed,
        "client": args.client,
        "complete": played.complete,
        "seconds": round(played.seconds, 2),
        "tables_made": len(played.runs),
        "tables_finished": len(played.runs) - found["unfinished"],
        "decisions": decisions,
        "human_decisions": sum(len(r.acks) for r in played.runs),
        "decisions_per_s": round(decisions / played.seconds, 1) if played.seconds else None,
        "requests": stats.requests,
        "status": {kind: {str(code): n for code, n in sorted(c.items())} for kind, c in sorted(stats.status.items())},
        "server_errors": stats.server_errors(),
        "refusals": stats.refusals(),
        "connection_errors": dict(stats.errors),
        "poll_timeouts": stats.poll_timeouts,
        "latency_ms": latency,
        "server": {"pid": server.proc.pid if server.proc else None, "exit": server.returncode},
        "cpu_seconds": {"server": round(server.cpu_seconds, 1), "clients": round(played.client_cpu, 1)},
        "checks": dict(found),
        "goal": {
            "p99_act_ms": GOAL_P99_ACT_MS,
            "met": played.complete
            and p99_act is not None
            and p99_act < GOAL_P99_ACT_MS
            and integrity == 0
            and found["unfinished"] == 0
            and stats.server_errors() == 0,
        },
    }


def render(result: dict[str, Any], markdown: bool) -> str:
    """The latency table and a summary line, as text or as markdown."""
    head = ("requests", "count", "p50 ms", "p99 ms", "max ms")
    rows = []
    for kind, label in LATENCY_ROWS:
        item = result["latency_ms"][kind]
        rows.append(
            (label, f"{item['n']:,}", *(("-" if item[q] is None else f"{item[q]:.1f}") for q in ("p50", "p99", "max")))
        )
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|---|---:|---:|---:|---:|"]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
    else:
        widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
        fmt = lambda row: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
        lines = [fmt(head), *(fmt(r) for r in rows)]
    checks, bold = result["checks"], (lambda s: f"**{s}**") if markdown else (lambda s: s)
    goal = "met" if result["goal"]["met"] else "NOT met"
    lines += [
        "",
        f"{result['tables_finished']}/{result['tables']} tables finished and stored"
        f"{'' if result['complete'] else ' (stopped early: partial result)'}; {result['decisions']:,} decisions "
        f"({result['human_decisions']:,} by the scripted people) in {result['seconds']:.1f} s: "
        f"{bold(str(result['decisions_per_s']) + ' decisions/s')}; {result['requests']:,} requests, "
        f"{result['server_errors']} 5xx, {result['refusals']} 4xx, {sum(result['connection_errors'].values())} "
        "connection errors; "
        f"lost {checks['lost']}, extra {checks['extra']}, duplicated {checks['duplicated']}, "
        f"length mismatches {checks['length']}; CPU: server {result['cpu_seconds']['server']} s, "
        f"clients {result['cpu_seconds']['clients']} s. Goal (p99 act < {GOAL_P99_ACT_MS:.0f} ms, nothing lost, "
        f"no 5xx): {bold(goal)}.",
    ]
    return "\n".join(lines)


# ----- main --------------------------------------------------------------------------------------------
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=50, help="tables played at once (default 50)")
    parser.add_argument("--env", default="smuggle_v0", help="the game (default smuggle_v0)")
    parser.add_argument(
        "--seats", default="human,rule,human,rule", help="seat specs, comma-separated (default human,rule,human,rule)"
    )
    parser.add_argument("--bot-delay", type=float, default=0.0, help="seconds a bot waits before moving (default 0)")
    parser.add_argument(
        "--think", type=float, default=0.0, help="a person's mean seconds before acting (uniform 0 to 2x; default 0)"
    )
    parser.add_argument("--seconds", type=float, default=600.0, help="wall-time budget of the clients (default 600)")
    parser.add_argument("--max-requests", type=int, default=200_000, help="request budget (default 200000)")
    parser.add_argument(
        "--seed", type=int, default=0, help="table i is dealt with seed + i; the people's choices follow it"
    )
    parser.add_argument(
        "--client", choices=("raw", "httpx2"), default="raw", help="the clients' HTTP (default raw: see RawHTTP)"
    )
    parser.add_argument("--out", metavar="FILE.json", help="write the result as JSON")
    parser.add_argument("--markdown", action="store_true", help="print the table as markdown (for the docs)")
    parser.add_argument(
        "--docs", metavar="PAGE", help="also write the markdown table into PAGE's load block (docs/web.md)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    args.seats = [s.strip() for s in args.seats.split(",")]
    if args.tables < 1 or args.seconds <= 0 or args.max_requests < 1 or args.think < 0 or "human" not in args.seats:
        parser.error(
            "--tables, --seconds and --max-requests must be positive, --think not negative, --seats needs a human"
        )
    return args


DOCS_BLOCK = re.compile(r"(<!-- load: begin -->\n).*?(\n<!-- load: end -->)", re.S)


def write_docs(page: Path, table: str) -> None:
    """Put ``table`` between the page's ``<!-- load: begin -->`` / ``<!-- load: end -->`` lines
    (docs/web.md): the recorded figures are this script's output, never typed."""
    text = page.read_text(encoding="utf-8")
    if not DOCS_BLOCK.search(text):
        raise SystemExit(f"{page} has no <!-- load: begin --> ... <!-- load: end --> block")
    page.write_text(DOCS_BLOCK.sub(lambda m: m.group(1) + table.strip() + m.group(2), text), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="smuggle-load-") as tmp:
        db, log = Path(tmp) / "load.sqlite", Path(tmp) / "server.log"
        with Server(db, log) as server:
            if not args.quiet:
                print(
                    f"smuggle serve at {server.url}: {args.tables} tables of {args.env} {','.join(args.seats)}",
                    file=sys.stderr,
                )
            played = asyncio.run(run_clients(args, server.url))
        found, decisions = check_all(played, db)
        result = summarise(args, played, found, decisions, server)
        server_log = log.read_text(errors="replace")
    if "Traceback" in server_log or result["server_errors"]:
        print("the server's log ends with:\n" + server_log[-3000:], file=sys.stderr)
    print(render(result, args.markdown))
    if args.docs:
        write_docs(Path(args.docs), render(result, markdown=True))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    integrity = sum(found[k] for k in ("length", "lost", "extra", "duplicated")) + result["server_errors"]
    return 1 if integrity else 0


if __name__ == "__main__":
    sys.exit(main())
