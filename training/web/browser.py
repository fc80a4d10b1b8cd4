"""Drive the app in a real browser: the server in a thread, Debian's chromium headless.

Used by the browser tests (``tests/training/web/test_browser.py``) and the screenshot script
(``scripts/web_screenshots.py``). Needs selenium (the ``web`` extra) and ``/usr/bin/chromium``
with ``/usr/bin/chromedriver`` (``bash scripts/browser.sh`` installs them): selenium is pointed
at both, so nothing is downloaded.
"""

from __future__ import annotations

import json
import os
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
    """A headless chromium with a fresh profile (a separate person: no shared storage)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='smuggle-chromium-')}")
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
