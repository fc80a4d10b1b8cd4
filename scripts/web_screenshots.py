"""Make the docs' screenshots of ``smuggle serve``: the lobby, a table, an Import / Export sealed
bid, the replay viewer, and each game's play page at a laptop's window.

    python scripts/web_screenshots.py            # writes docs/img/web_{lobby,table,bid,replay}.png
                                                 # and docs/img/web_play_<game>.png
    python scripts/web_screenshots.py --out DIR

Runs the app in a thread on a fresh database and drives Debian's headless chromium (``bash
scripts/browser.sh`` installs it), as a person would: a stored all-bot Smuggle game shown in the
replay viewer's full view just after a search that caught a liar; the lobby with a table just
made from its form (its seat link shown) and the stored game listed; a person in seat 0 of that
4-player Smuggle table against three rule bots, at a declaration after a search; a person at a
3-player Import / Export table at a sealed bid; and in every game, a 4-player table of people
played through the API to the seeded game's largest position (the most cards and options for the
seat to move), that seat's page at 1366x768: its hand and its decision in view together. Any
browser console error stops the script.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from training.web.browser import Browser, ThreadServer, largest_position, seat_call  # noqa: E402

STATE_JS = """
const d = document.querySelector('#decision[data-kind][data-ready]');
const latest = document.getElementById('latest');
return [Number(document.body.dataset.revision), d ? d.dataset.kind : null, latest ? latest.textContent : ''];
"""


def fill(browser: Browser, element_id: str, text: str) -> None:
    field = browser.driver.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(text)


def lobby_table(browser: Browser, env_id: str, seats: list[str], seed: int, delay: float) -> str:
    """Make a table in the lobby's form; returns seat 0's link."""
    browser.open("/", "document.body.dataset.ready === '1'")
    Select(browser.driver.find_element(By.ID, "env")).select_by_value(env_id)
    fill(browser, "players", str(len(seats)))
    browser.wait_js(f"document.querySelectorAll('.seat-spec').length === {len(seats)}")
    for p, spec in enumerate(seats):
        fill(browser, f"seat-{p}", spec)
    fill(browser, "seed", str(seed))
    fill(browser, "delay", str(delay))
    browser.driver.find_element(By.ID, "create-go").click()
    browser.wait_js("document.querySelector('a.seat-link')")
    browser.check("making a table")
    return browser.js("return document.querySelector('a.seat-link').href;")


def take_seat(browser: Browser, link: str, name: str) -> None:
    browser.open(link, "!document.getElementById('join').classList.contains('hidden')")
    fill(browser, "name", name)
    browser.driver.find_element(By.CSS_SELECTOR, "#join-form button").click()
    browser.wait_js("document.body.dataset.revision !== undefined")


def play_until(browser: Browser, done, rng: random.Random, prefer: tuple[str, ...] = (), limit: float = 180) -> None:
    """Take seat 0's decisions (at random, liking actions whose text has a ``prefer`` word)
    until ``done(revision, kind, latest)`` holds at an open decision."""
    deadline = time.monotonic() + limit
    while True:
        if time.monotonic() > deadline:
            raise RuntimeError("the wanted position did not come in time")
        revision, kind, latest = browser.js(STATE_JS)
        if kind is None:
            time.sleep(0.05)
            continue
        if done(revision, kind, latest):
            return
        if kind == "declare":
            button = browser.driver.find_element(By.ID, "declare-go")
        elif kind == "bid":
            button = browser.driver.find_element(By.ID, "bid-go")
        elif kind == "yesno":
            button = browser.driver.find_element(By.CSS_SELECTOR, rng.choice(["#decision .yes", "#decision .no"]))
        else:
            buttons = browser.driver.find_elements(By.CSS_SELECTOR, "#decision button[data-action]")
            liked = [b for b in buttons if any(word in b.text for word in prefer)]
            button = rng.choice(liked or buttons)
        button.click()
        browser.wait_js(f"Number(document.body.dataset.revision) !== {revision}")
        browser.check("playing")


def replay_shot(server: ThreadServer, path: Path, seed: int = 4) -> None:
    """A stored all-bot game in the full view, just after a search that caught a liar."""
    table = server.table(["rule", "rule", "rule", "rule"], "smuggle_v0", seed=seed)
    game_id = server.wait_finished(table["id"]).game_id
    log = server.get(f"/api/games/{game_id}")["log"]
    caught = [e["n"] for e in log if e["mark"] == "caught"]
    step = (caught[min(2, len(caught) - 1)] + 1) if caught else len(log) // 3
    with Browser(server.url, 1400, 1250) as browser:  # taller: the log with its marks shows under the table
        browser.open(f"/replay/{game_id}?step={step}", f"document.body.dataset.step === '{step}'")
        time.sleep(0.5)  # the rules panel
        browser.check("the replay")
        browser.driver.save_screenshot(str(path))


def lobby_and_table_shots(server: ThreadServer, lobby: Path, table: Path, seed: int = 17) -> None:
    """The lobby just after making a Smuggle table; then seat 0 of it at a declaration after a
    search, with a declaration being made."""
    with Browser(server.url, 1400, 1100) as browser:
        link = lobby_table(browser, "smuggle_v0", ["human", "rule", "rule", "rule"], seed, 0.0)
        browser.wait_js("document.querySelector('a.replay-link')")
        time.sleep(0.3)
        browser.driver.save_screenshot(str(lobby))
        take_seat(browser, link, "Ann")
        play_until(
            browser,
            lambda revision, kind, latest: kind == "declare" and revision >= 20 and "searched" in latest,
            random.Random(seed),
        )
        browser.driver.find_elements(By.CSS_SELECTOR, ".counter .plus")[1].click()  # a declaration being made
        browser.js("window.scrollTo(0, 0);")
        time.sleep(0.3)
        browser.check("the table")
        browser.driver.save_screenshot(str(table))


def bid_shot(server: ThreadServer, path: Path, seed: int = 2) -> None:
    """Seat 0 of a 3-player Import / Export table at a sealed bid, the card list open beside it."""
    with Browser(server.url, 1400, 1100) as browser:
        link = lobby_table(browser, "import_export_v0", ["human", "rule", "rule"], seed, 0.0)
        take_seat(browser, link, "Ann")
        play_until(browser, lambda revision, kind, latest: kind == "bid", random.Random(seed), prefer=("import",))
        # the side panel's 128 cards, each with its power, fitting the panel
        browser.driver.find_element(By.XPATH, "//aside//button[starts-with(., 'Every card')]").click()
        time.sleep(0.3)
        browser.check("the bid")
        browser.driver.save_screenshot(str(path))


PLAY_SHOTS = {"smuggle_v0": 3, "ciq_v0": 1, "illegal_v0": 2, "humble_smuggle_v0": 1, "import_export_v0": 1}
"""env id -> the seed of the game shown (the browser test's, ``test_browser.py``)."""


def play_shot(server: ThreadServer, env_id: str, seed: int, path: Path) -> None:
    """Four people at ``env_id``'s table, played through the API to the largest position; the
    page of the seat to move there at 1366x768."""
    actions, at = largest_position(env_id, seed)
    table = server.table(["human"] * 4, env_id, seed)
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    for seat, name in zip(range(4), ("Ann", "Bob", "Cy", "Di")):
        seat_call(server, f"/api/tables/{table['id']}/seats/{seat}/join", tokens[seat], {"name": name})
    live = server.app.state.registry.get(table["id"])
    while live.revision < at:
        seat, revision = live.state.current_player(), live.revision
        body = {"action": actions[revision], "revision": revision}
        seat_call(server, f"/api/tables/{table['id']}/seats/{seat}/act?log_from={revision}", tokens[seat], body)
    seat = live.state.current_player()
    with Browser(server.url, 1366, 768) as browser:
        browser.open(
            f"/play/{table['id']}/{seat}#token={tokens[seat]}", "document.querySelector('#decision[data-ready]')"
        )
        time.sleep(0.5)  # the rules panel
        browser.check("the play page")
        browser.driver.save_screenshot(str(path))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "img"), help="folder for the PNG files")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    shots = {name: out / f"web_{name}.png" for name in ("lobby", "table", "bid", "replay")}
    plays = {env_id: out / f"web_play_{env_id.removesuffix('_v0')}.png" for env_id in PLAY_SHOTS}
    with tempfile.TemporaryDirectory() as tmp, ThreadServer(Path(tmp) / "games.sqlite") as server:
        replay_shot(server, shots["replay"])
        lobby_and_table_shots(server, shots["lobby"], shots["table"])
        bid_shot(server, shots["bid"])
        for env_id, seed in PLAY_SHOTS.items():
            play_shot(server, env_id, seed, plays[env_id])
    print("wrote " + ", ".join(str(p) for p in [*shots.values(), *plays.values()]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
