"""The app in a real browser: Debian's chromium, headless, driven by selenium through chromedriver.

The server runs in a thread (uvicorn on a free localhost port); each person is a separate
browser with a fresh profile. One whole Smuggle game with two people and two bots (each page
showing only its own seat's cards), a few decisions of every other game, and a replay.
``bash scripts/browser.sh`` installs chromium and chromium-driver (``scripts/test.sh`` runs it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from training.web.browser import ThreadServer as Server
from training.web.browser import chromium

WAIT = 20  # seconds any one page update may take


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("web") / "games.sqlite") as running:
        yield running


@pytest.fixture
def browsers() -> Iterator[list[webdriver.Chrome]]:
    opened: list[webdriver.Chrome] = []
    yield opened
    for driver in opened:
        driver.quit()


def open_seat(browsers: list, server: Server, link: str, name: str) -> webdriver.Chrome:
    driver = chromium()
    browsers.append(driver)
    driver.get(server.url + link)
    field = WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "name"))
    WebDriverWait(driver, WAIT).until(lambda d: field.is_displayed())
    field.send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "#join-form button").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return document.body.dataset.revision") is not None)
    return driver


def page_state(driver: webdriver.Chrome) -> tuple[int, str | None, bool]:
    """(revision shown, the open decision's form or None, game over shown)."""
    revision, kind, over = driver.execute_script(
        "const d = document.querySelector('#decision[data-kind]');"
        "return [Number(document.body.dataset.revision), d ? d.dataset.kind : null, !!document.getElementById('result')];"
    )
    return revision, kind, over


def hand_on_page(driver: webdriver.Chrome) -> list[tuple[str, int]]:
    return [tuple(card) for card in _hand_script(driver)]


def _hand_script(driver: webdriver.Chrome) -> list[list[Any]]:
    return driver.execute_script(
        "return [...document.querySelectorAll('[data-zone=\"Your hand\"] .card')].map("
        "c => [c.dataset.name, Number((c.querySelector('.count') || {textContent: '×1'}).textContent.slice(1))]);"
    )


def hand_in_view(view: dict[str, Any]) -> list[tuple[str, int]]:
    zone = next(z for z in view["zones"] if z["title"] == "Your hand")
    return [(c["name"], c["count"]) for c in zone["cards"]]


def decide(driver: webdriver.Chrome, kind: str, rng: random.Random) -> None:
    """Take one decision through the page's own controls."""
    if kind == "declare":
        counters = driver.find_elements(By.CSS_SELECTOR, ".counter .plus")
        for _ in range(rng.randrange(3)):  # a multiset of goods, truthful or not
            rng.choice(counters).click()
        driver.find_element(By.ID, "declare-go").click()
    elif kind == "yesno":
        driver.find_element(By.CSS_SELECTOR, rng.choice(["#decision .yes", "#decision .no"])).click()
    elif kind == "bid":
        driver.find_element(By.ID, "bid-go").click()
    else:
        buttons = driver.find_elements(By.CSS_SELECTOR, "#decision button[data-action]")
        rng.choice(buttons).click()


def test_a_whole_smuggle_game_with_two_people_and_two_bots(server, browsers):
    table = server.table(["human", "rule", "human", "random"], "smuggle_v0", seed=31)
    links = {s["seat"]: s for s in table["seats"] if "link" in s}
    pages = {
        0: open_seat(browsers, server, links[0]["link"], "Ann"),
        2: open_seat(browsers, server, links[2]["link"], "Bob"),
    }
    registry = server.app.state.registry
    live = registry.get(table["id"])
    rng = random.Random(5)
    deadline = time.monotonic() + 300  # about 30 s on an idle machine; CI may be busy
    decisions = checked = 0
    while live.status == "playing":
        assert time.monotonic() < deadline, "the game did not finish in time"
        moved = False
        for seat, driver in pages.items():
            revision, kind, _ = page_state(driver)
            if kind is None or revision != live.revision:
                continue
            if decisions % 10 == 0:  # each page shows its own seat's view, and only that
                view = server.get(f"/api/tables/{table['id']}/seats/{seat}/view", links[seat]["token"])
                assert hand_on_page(driver) == hand_in_view(view)
                shown = driver.find_element(By.ID, "table-text").text
                assert shown == view["table_text"].strip() and shown != live.state.render().strip()
                checked += 1
            decide(driver, kind, rng)
            WebDriverWait(driver, WAIT).until(lambda d, r=revision: page_state(d)[0] != r)
            decisions += 1
            moved = True
            if decisions == 6:  # a closed tab: the seat's page without its link's token resumes the seat
                driver.get(f"{server.url}/play/{table['id']}/{seat}")
                WebDriverWait(driver, WAIT).until(lambda d: page_state(d)[0] is not None)
                assert not driver.find_element(By.ID, "join").is_displayed()
                assert f"you are P{seat} {'Ann' if seat == 0 else 'Bob'}" in driver.find_element(By.ID, "who").text
        if not moved:
            time.sleep(0.05)
    assert live.status == "finished" and decisions > 20 and checked >= 2
    for driver in pages.values():
        WebDriverWait(driver, WAIT).until(lambda d: page_state(d)[2])
        assert "Game over" in driver.find_element(By.ID, "result").text
    assert [s["name"] for s in live.seats if s["kind"] == "human"] == ["Ann", "Bob"]


@pytest.mark.parametrize("env_id", ["ciq_v0", "illegal_v0", "humble_smuggle_v0", "import_export_v0"])
def test_a_few_decisions_of_every_other_game(server, browsers, env_id):
    table = server.table(["human", "rule", "rule"], env_id, seed=3)
    seat = next(s for s in table["seats"] if "link" in s)
    driver = open_seat(browsers, server, seat["link"], "Ann")
    live = server.app.state.registry.get(table["id"])
    rng = random.Random(env_id)
    taken = 0
    deadline = time.monotonic() + 90
    while taken < 3 and live.status == "playing":
        assert time.monotonic() < deadline, "no decision came to the person"
        revision, kind, _ = page_state(driver)
        if kind is None or revision != live.revision:
            time.sleep(0.05)
            continue
        view = server.get(f"/api/tables/{table['id']}/seats/0/view", seat["token"])
        assert hand_on_page(driver) == hand_in_view(view)  # drawn as cards, its own only
        decide(driver, kind, rng)
        WebDriverWait(driver, WAIT).until(lambda d, r=revision: page_state(d)[0] != r)
        taken += 1
    assert taken == 3
    assert driver.find_elements(By.CSS_SELECTOR, ".card")  # cards are drawn
    rules = driver.find_element(By.ID, "side").text
    assert "rules and cards" in rules


def test_the_replay_viewer_steps_through_a_stored_game(server, browsers):
    games = server.get("/api/games")["games"]
    if not games:  # this test run alone: store one bot game first
        server.wait_finished(server.table(["rule", "random", "random"], "smuggle_v0", seed=8)["id"])
        games = server.get("/api/games")["games"]
    game = games[0]
    driver = chromium()
    browsers.append(driver)
    driver.get(f"{server.url}/replay/{game['id']}")
    step = lambda: driver.find_element(By.ID, "step").text
    WebDriverWait(driver, WAIT).until(lambda d: step().startswith("step 0 of"))
    for expected in (1, 2, 3):
        driver.find_element(By.ID, "forward").click()
        WebDriverWait(driver, WAIT).until(lambda d, n=expected: step().startswith(f"step {n} of"))
    driver.find_element(By.ID, "back").click()
    WebDriverWait(driver, WAIT).until(lambda d: step().startswith("step 2 of"))
    driver.find_element(By.ID, "last").click()
    WebDriverWait(driver, WAIT).until(lambda d: step() == f"step {game['decisions']} of {game['decisions']}")
    marks = {m.text for m in driver.find_elements(By.CSS_SELECTOR, "#log .mark")}
    assert marks & {"true", "false"}  # declarations marked true or false in the full view
    select = driver.find_element(By.ID, "viewer")
    select.find_element(By.CSS_SELECTOR, "option[value='0']").click()
    WebDriverWait(driver, WAIT).until(lambda d: "as P0" in d.find_element(By.ID, "status").text)
    assert not driver.find_elements(By.CSS_SELECTOR, "#log .mark")  # a seat's view: no marks of the truth
