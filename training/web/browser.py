"""Drive the app in a real browser: the server in a thread, Debian's chromium headless.

Used by the browser tests (``tests/training/web/test_browser*.py``) and the screenshot script
(``scripts/web_screenshots.py``). Needs selenium (the ``web`` extra) and ``/usr/bin/chromium``
with ``/usr/bin/chromedriver`` (``bash scripts/browser.sh`` installs them): selenium is pointed
at both, so nothing is downloaded.

``Browser`` is one person's browser. Every page it opens, and its console whenever it is checked,
must be free of errors: an uncaught exception, a script that does not parse, a refused request,
a Content-Security-Policy violation all reach the console as SEVERE entries, and ``check``
fails on the first of them, saying what and where.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import threading
import time
import urllib.request
from typing import Any

from .app import create_app
from .server import bind, make_server, url_of

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


class ThreadServer:
    """The app over ``db`` served by uvicorn in a thread on a free localhost port; a context
    manager. ``post``/``get`` call its API."""

    def __init__(self, db: str | os.PathLike[str]):
        self.app = create_app(db)
        self.sock = bind("127.0.0.1", 0)
        self.url = url_of(self.sock, "127.0.0.1").rstrip("/")
        self.server = make_server(self.app)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    def post(self, path: str, body: Any) -> Any:
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    def get(self, path: str, token: str | None = None) -> Any:
        request = urllib.request.Request(self.url + path, headers={"X-Seat-Token": token} if token else {})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    def table(self, seats: list[str], env_id: str, seed: int, bot_delay: float = 0.0) -> dict[str, Any]:
        return self.post("/api/tables", {"env_id": env_id, "seats": seats, "seed": seed, "bot_delay": bot_delay})

    def wait_finished(self, table_id: str, timeout: float = 120.0) -> Any:
        """The live table, once its game is over (an all-bot table plays by itself)."""
        table = self.app.state.registry.get(table_id)
        deadline = time.monotonic() + timeout
        while table.status == "playing":
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {table_id} did not finish in {timeout} s")
            time.sleep(0.05)
        return table


def chromium(width: int = 1400, height: int = 1000) -> Any:
    """A headless chromium with a fresh profile (a separate person: no shared storage) whose
    console can be read (``console_errors``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='smuggle-chromium-')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))


def console_errors(driver: Any) -> list[str]:
    """The console's SEVERE entries since the last call (reading the log empties it)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


class Browser:
    """One person's headless chromium (see the module docstring); a context manager that checks
    the console one last time and quits."""

    def __init__(self, base_url: str, width: int = 1400, height: int = 1000, timeout: float = 20.0):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.driver = chromium(width, height)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        try:
            if kind is None:  # a failing test already says why; don't hide it behind this
                self.check("at the end")
        finally:
            self.driver.quit()

    def check(self, where: str = "") -> None:
        """Fail if the console has reported an error since the last check."""
        errors = console_errors(self.driver)
        if errors:
            page = self.driver.current_url
            raise AssertionError(f"browser console errors {where} on {page}:\n" + "\n".join(errors))

    def open(self, path: str, ready: str | None = None) -> None:
        """Load ``path`` (relative to the server, or a full URL), wait until it has loaded and
        the JavaScript expression ``ready`` is true, then check the console."""
        url = path if path.startswith(("http://", "https://", "about:")) else self.base_url + path
        self.driver.get(url)
        self.wait_js("document.readyState === 'complete'")
        if ready is not None:
            self.wait_js(ready, f"{path} to be ready ({ready})")
        self.check(f"loading {path}")

    def js(self, script: str, *args: Any) -> Any:
        """Run ``script`` (a function body: ``return`` its value) in the page."""
        return self.driver.execute_script(script, *args)

    def wait_js(self, expression: str, what: str = "", timeout: float | None = None) -> Any:
        """Wait until the JavaScript ``expression`` is truthy; returns its value. Checks the
        console while waiting, so a page that broke fails at once instead of timing out."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            value = self.js(f"return ({expression});")
            if value:
                return value
            self.check(f"waiting for {what or expression}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out waiting for {what or expression} on {self.driver.current_url}")
            time.sleep(0.03)


def largest_position(env_id: str, seed: int, players: int = 4) -> tuple[list[int], int]:
    """A seeded random game's actions, and the step whose seat to move has the most to show."""
    from smuggle_envs import make_game

    from .cards import seat_zones

    game = make_game(env_id, num_players=players)
    state, rng = game.new_initial_state(seed), random.Random(seed)
    actions: list[int] = []
    best, at = -1, 0
    while not state.is_terminal():
        seat = state.current_player()
        shown = sum(c["count"] for z in seat_zones(game, state.observation(seat), seat) for c in z["cards"])
        legal = state.legal_actions()
        if shown + len(legal) > best:
            best, at = shown + len(legal), len(actions)
        actions.append(rng.choice(legal))
        state.apply_action(actions[-1])
    return actions, at


def seat_call(server: ThreadServer, path: str, token: str, body: Any) -> Any:
    """POST ``body`` as a seat (its token) to the running ``server``; the JSON answer."""
    request = urllib.request.Request(
        server.url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Seat-Token": token},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)
