"""The lobby in a real browser (Debian's chromium, headless, as ``test_browser.py`` drives it):
seeds keep every digit, and a server with an operator token asks for it once.

Each test starts where a person starts, the lobby (``/``), and fails on any browser console
error (``Browser.check``), a refused request included.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from training.web.app import create_app
from training.web.server import bind, make_server, url_of

from .test_browser import LOBBY_READY, create_table, person, type_into

__all__ = ["person"]  # the fixture, imported for its name

BIG_SEED = 2**63 - 1  # 9223372036854775807: Number() would make it 9223372036854775808
TOKEN = "lobby-operator-token-0123456789"


@dataclass
class Running:
    url: str
    app: Any


def running(db: Any, operator_token: str | None = None) -> Iterator[Running]:
    """The app on a free loopback port in a thread, until the generator is closed."""
    app = create_app(db, operator_token=operator_token)
    sock = bind("127.0.0.1", 0)
    server = make_server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield Running(url_of(sock, "127.0.0.1").rstrip("/"), app)
    finally:
        server.should_exit = True
        thread.join(30)


@pytest.fixture(params=[None, TOKEN], ids=["open", "operator"])
def server(request, tmp_path) -> Iterator[Running]:
    yield from running(tmp_path / "games.sqlite", request.param)


def listed_seed(browser: Any, table_id: str) -> str:
    row = f"#tables tr[data-table='{table_id}'] td.seed"
    browser.wait_js(f'document.querySelector("{row}")', "the new table in the lobby's list")
    return browser.driver.find_element(By.CSS_SELECTOR, row).text


def test_a_63_bit_seed_keeps_every_digit(server, person):
    """Typed in the form, sent, stored, shown in the new table's title and in the list: the same
    digits (and, on a server with an operator token, the token is asked for once)."""
    browser = person()
    browser.open("/", LOBBY_READY)
    if browser.js("return lobby.operator;"):
        assert browser.driver.find_element(By.ID, "operator-box").is_displayed()
        type_into(browser, "operator-token", TOKEN)
        browser.driver.find_element(By.ID, "operator-go").click()
        browser.wait_js("document.body.dataset.refreshed", "the lists, with the token")
    table_id, links = create_table(browser, "ciq_v0", ["human", "rule"], seed=BIG_SEED)
    assert links and server.app.state.registry.get(table_id).seed == BIG_SEED
    assert f"seed {BIG_SEED})" in browser.driver.find_element(By.ID, "created-title").text
    assert listed_seed(browser, table_id) == str(BIG_SEED)
    browser.open("/", LOBBY_READY)  # a reload: the token is still this tab's, not asked again
    assert not browser.driver.find_element(By.ID, "operator-box").is_displayed()
    assert listed_seed(browser, table_id) == str(BIG_SEED)
