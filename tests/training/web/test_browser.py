"""The app in a real browser, used as a person uses it: Debian's chromium, headless, via selenium.

Every test starts where a person starts: the lobby (``/``). It picks the game and the seats in
the form, presses *Create table*, follows the seat links the lobby shows, joins with a name and
plays a whole game through the page's own controls, then goes back to the lobby and opens the
replay from its list of stored games. Each of the five games is played to its end this way.
Every page load, and every wait, fails on any browser console error (``Browser.check``: an
uncaught exception, a script that does not parse, a refused request, a CSP violation).

The server runs in a thread (uvicorn on a free localhost port); each person is a separate browser
with a fresh profile. Tables are small (the fewest players the game allows, rule bots, no bot
delay) so the whole file runs in a few minutes on two cores. ``bash scripts/browser.sh``
installs chromium and chromium-driver (``scripts/test.sh`` runs it).
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from training.web.browser import Browser, ThreadServer, largest_position, seat_call

STATIC = Path(__file__).resolve().parents[3] / "training" / "web" / "static"
GAME_LIMIT = 240  # seconds one whole game may take (about 10 to 40 s on an idle machine)


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[ThreadServer]:
    with ThreadServer(tmp_path_factory.mktemp("web") / "games.sqlite") as running:
        yield running


@pytest.fixture
def person(server) -> Iterator[Callable[..., Browser]]:
    """Open a browser per person; at the end each one's console must still be clean."""
    opened: list[Browser] = []

    def open_browser(width: int = 1400, height: int = 1000) -> Browser:
        browser = Browser(server.url, width, height)
        opened.append(browser)
        return browser

    yield open_browser
    problems = []
    for browser in opened:
        try:
            browser.check("at the end of the test")
        except AssertionError as exc:
            problems.append(str(exc))
        finally:
            browser.driver.quit()
    assert not problems, "\n".join(problems)


# ----- the lobby ------------------------------------------------------------------------------------------
LOBBY_READY = "document.body.dataset.ready === '1'"


def type_into(browser: Browser, element_id: str, text: str) -> None:
    field = browser.driver.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(text)


def create_table(
    browser: Browser, env_id: str, seats: list[str], seed: int, delay: float = 0.0, options: str = ""
) -> tuple[str, dict[int, str]]:
    """Make a table in the lobby's form as a person does; returns its id and the seat links shown."""
    browser.open("/", LOBBY_READY)
    Select(browser.driver.find_element(By.ID, "env")).select_by_value(env_id)
    type_into(browser, "players", str(len(seats)))
    browser.wait_js(f"document.querySelectorAll('.seat-spec').length === {len(seats)}", "a row per seat")
    for p, spec in enumerate(seats):
        type_into(browser, f"seat-{p}", spec)
    type_into(browser, "seed", str(seed))
    type_into(browser, "delay", str(delay))
    if options:
        browser.driver.find_element(By.CSS_SELECTOR, "#options-box summary").click()
        type_into(browser, "config", options)
    browser.driver.find_element(By.ID, "create-go").click()
    table_id = browser.wait_js(
        "document.getElementById('created-title') && document.getElementById('created-title').dataset.table",
        "the new table",
    )
    links = browser.js(
        "return [...document.querySelectorAll('a.seat-link')].map(a => [Number(a.dataset.seat), a.href]);"
    )
    browser.check("after Create table")
    return table_id, dict(links)


def join(browser: Browser, link: str, name: str) -> None:
    """Follow a seat link and take the seat under ``name``."""
    browser.open(
        link, "document.getElementById('name') && !document.getElementById('join').classList.contains('hidden')"
    )
    type_into(browser, "name", name)
    browser.driver.find_element(By.CSS_SELECTOR, "#join-form button").click()
    browser.wait_js("document.body.dataset.revision !== undefined", "the table after joining")
    browser.check("after joining")


# ----- playing -------------------------------------------------------------------------------------------------
STATE_JS = """
const d = document.querySelector('#decision[data-kind][data-ready]');
return [Number(document.body.dataset.revision), d ? d.dataset.kind : null, !!document.getElementById('result')];
"""

DOUBLE_CLICK_JS = """
const [button, gap] = arguments;
button.click();
setTimeout(() => button.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window})), gap);
"""


def page_state(browser: Browser) -> tuple[int, str | None, bool]:
    """(the revision shown, the open decision's form if it takes clicks, game over shown)."""
    revision, kind, over = browser.js(STATE_JS)
    return revision, kind, over


def choose(browser: Browser, kind: str, rng: random.Random, prefer: tuple[str, ...] = ()) -> Any:
    """Fill in the decision's form and return the button that sends it (not clicked yet)."""
    find = browser.driver.find_element
    if kind == "declare":
        counters = browser.driver.find_elements(By.CSS_SELECTOR, ".counter .plus")
        for _ in range(rng.randrange(3)):  # a multiset of goods, truthful or not
            rng.choice(counters).click()
        return find(By.ID, "declare-go")
    if kind == "yesno":
        return find(By.CSS_SELECTOR, rng.choice(["#decision .yes", "#decision .no"]))
    if kind == "bid":
        low, high, step = (
            int(x) for x in browser.js("const b = document.getElementById('bid'); return [b.min, b.max, b.step];")
        )
        type_into(browser, "bid", str(rng.randrange(low, high + 1, step)))
        return find(By.ID, "bid-go")
    buttons = browser.driver.find_elements(By.CSS_SELECTOR, "#decision button[data-action]")
    liked = [b for b in buttons if any(word in b.text for word in prefer)]
    return rng.choice(liked if liked and rng.random() < 0.7 else buttons)


class Game:
    """A game played through the pages of its people (``pages``: seat -> browser): ``play`` takes
    every decision that comes to one of them, through the page's form, until the game is over,
    and checks that each one made exactly one move."""

    def __init__(self, server: ThreadServer, table_id: str, pages: dict[int, Browser]):
        self.table = server.app.state.registry.get(table_id)
        self.pages = pages
        self.decisions = 0
        self.doubles = 0

    def human_moves(self) -> int:
        return sum(1 for entry in self.table.log if entry["seat"] in self.pages)

    def play(
        self,
        rng: random.Random,
        double_every: int = 0,
        prefer: tuple[str, ...] = (),
        before: Callable[[Browser, str], None] | None = None,
        seen: Callable[[Browser, str], None] | None = None,
    ) -> None:
        """``before`` looks at each decision before it is taken, ``seen`` at the page after."""
        deadline = time.monotonic() + GAME_LIMIT
        while True:
            assert time.monotonic() < deadline, f"the game did not finish in {GAME_LIMIT} s"
            moved = over = False
            for browser in self.pages.values():
                revision, kind, over = page_state(browser)
                if over or kind is None:
                    continue
                if before is not None:
                    before(browser, kind)
                moves = self.human_moves()
                button = choose(browser, kind, rng, prefer)
                double = bool(double_every) and self.decisions % double_every == 0
                if double:  # two clicks 15-50 ms apart, or a real double click: exactly one move
                    if self.doubles % 3 == 2:
                        ActionChains(browser.driver).double_click(button).perform()
                    else:
                        browser.js(DOUBLE_CLICK_JS, button, rng.randrange(15, 51))
                    time.sleep(0.06)  # both clicks are in before the page is read again
                    self.doubles += 1
                else:
                    button.click()
                browser.wait_js(f"Number(document.body.dataset.revision) !== {revision}", "the move to show")
                assert self.human_moves() == moves + 1, "one decision on the page must be exactly one move"
                error = browser.driver.find_element(By.ID, "error")
                assert not error.is_displayed(), error.text  # not even for its own second click
                self.decisions += 1
                moved = True
                if seen is not None:
                    seen(browser, kind)
                if self.decisions % 10 == 1:
                    check_text(browser)
            if over and all(page_state(b)[2] for b in self.pages.values()):
                time.sleep(0.1)  # a stray second click would have landed by now
                assert self.human_moves() == self.decisions
                return
            if not moved:
                time.sleep(0.03)


def check_text(browser: Browser) -> None:
    """No value the page failed to fill in shows as a word ("null", "undefined", "NaN")."""
    text = browser.js("return document.body.innerText;")
    assert not re.search(r"\b(null|undefined|NaN)\b", text), re.search(r".{0,60}\b(null|undefined|NaN)\b.{0,60}", text)


def check_game_over(browser: Browser) -> None:
    """The result is shown on the felt, readable: dark ink on a light box."""
    result = browser.wait_js("document.getElementById('result')", "the result")
    assert re.match(r"(Game over\. Winners?: |Stopped by the game's turn limit)", result.text), result.text
    colours = browser.js("const s = getComputedStyle(arguments[0]); return [s.color, s.backgroundColor];", result)
    assert contrast(*colours) >= 4.5, colours


def contrast(foreground: str, background: str) -> float:
    """WCAG contrast ratio of two CSS rgb()/rgba() colours (an opaque background)."""

    def luminance(css: str) -> float:
        r, g, b = (int(x) / 255 for x in re.findall(r"[\d.]+", css)[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def open_replay_from_lobby(browser: Browser, game_id: int) -> None:
    """Back to the lobby, and the game from its stored-games list."""
    browser.open("/", LOBBY_READY)
    link = browser.driver.find_element(By.CSS_SELECTOR, f"a.replay-link[data-game='{game_id}']")
    link.click()
    browser.wait_js("document.body.dataset.step !== undefined", "the replay")
    browser.check("opening the replay")


def replay_seats(browser: Browser) -> list[str]:
    return browser.js("return [...document.querySelectorAll('.player')].map(p => p.innerText.replace(/\\s+/g, ' '));")


def check_replay(browser: Browser, game_id: int, names: dict[int, str], bots: dict[int, str]) -> None:
    """The replay names each person by name as a person, each bot by its label as a bot, and
    steps forward and back."""
    open_replay_from_lobby(browser, game_id)
    seats = replay_seats(browser)
    for seat, name in names.items():
        assert seats[seat].startswith(f"P{seat} {name} ") and " person" in seats[seat], seats[seat]
    for seat, label in bots.items():
        assert seats[seat].startswith(f"P{seat} {label} ") and " bot" in seats[seat], seats[seat]
        assert "#" not in seats[seat]
    titles = browser.js("return [...document.querySelectorAll('.zone h3')].map(h => h.textContent);")
    assert not [t for t in titles if "#" in t or "human:" in t], titles
    check_text(browser)
    step = lambda: browser.driver.find_element(By.ID, "step").text
    assert step().startswith("step 0 of")
    for expected in (1, 2):
        browser.driver.find_element(By.ID, "forward").click()
        browser.wait_js(f"document.body.dataset.step === '{expected}'")
    browser.driver.find_element(By.ID, "back").click()
    browser.wait_js("document.body.dataset.step === '1'")
    browser.driver.find_element(By.ID, "last").click()
    browser.wait_js("document.getElementById('result')", "the last step")
    browser.check("stepping through the replay")


def check_card_info(browser: Browser) -> None:
    """A card's power shows on a click (no hover needed), and goes away on a second."""
    card = browser.driver.find_elements(By.CSS_SELECTOR, "#table .card")[0]
    card.click()
    box = browser.wait_js(
        "!document.getElementById('card-info').classList.contains('hidden') && document.getElementById('card-info')"
    )
    assert card.get_attribute("data-name") in box.text and len(box.text) > len(card.get_attribute("data-name"))
    card.click()
    browser.wait_js("document.getElementById('card-info').classList.contains('hidden')")


def one_person(
    server: ThreadServer, person: Callable[..., Browser], env_id: str, seats: list[str], seed: int
) -> tuple[Browser, Game]:
    """Ann makes the table in the lobby and takes seat 0 from its link."""
    browser = person()
    table_id, links = create_table(browser, env_id, seats, seed)
    assert list(links) == [p for p, spec in enumerate(seats) if spec == "human"]
    join(browser, links[0], "Ann")
    return browser, Game(server, table_id, {0: browser})


# ----- the tests -----------------------------------------------------------------------------------------------
def test_every_script_parses_in_the_browser(person):
    """Each ``static/*.js`` file parses as JavaScript in chromium itself (with node too, where
    CI has it); a broken one is reported, so the check can fail."""
    browser = person()
    browser.open("about:blank")
    scripts = sorted(STATIC.glob("*.js"))
    assert {s.name for s in scripts} >= {"common.js", "lobby.js", "play.js", "replay.js"}
    parse = "try { new Function(arguments[0]); return null; } catch (e) { return String(e); }"
    for script in scripts:
        assert browser.js(parse, script.read_text(encoding="utf-8")) is None, script.name
    assert "SyntaxError" in browser.js(parse, "const x = f(1));")  # the lobby's bug, caught
    if shutil.which("node"):
        for script in scripts:
            subprocess.run(["node", "--check", str(script)], check=True, capture_output=True)


def test_an_all_bot_table_is_watched_from_the_lobby_and_a_broken_page_is_caught(server, person):
    """The lobby's watch link for a table without people, live to its end, then its replay; and
    the console check has teeth: an uncaught exception fails it."""
    browser = person()
    _, links = create_table(browser, "ciq_v0", ["rule", "random"], seed=5)
    assert links == {}
    browser.driver.find_element(By.ID, "watch-link").click()
    browser.wait_js("document.body.dataset.revision !== undefined", "the watched table")
    assert "watching" in browser.driver.find_element(By.ID, "who").text
    browser.wait_js("document.getElementById('replay-link')", "the end of the bot game", timeout=60)
    check_game_over(browser)
    browser.driver.find_element(By.ID, "replay-link").click()
    browser.wait_js("document.body.dataset.step !== undefined", "the replay")
    check_text(browser)
    browser.js("setTimeout(() => { throw new Error('boom'); }, 0);")
    time.sleep(0.1)
    with pytest.raises(AssertionError, match="boom"):
        browser.check()
    browser.js("document.body.insertAdjacentHTML('beforeend', '<b style=\"color: red\">inline</b>');")
    time.sleep(0.1)
    with pytest.raises(AssertionError, match="Content Security Policy"):  # the server's CSP holds
        browser.check()


def test_smuggle_two_people_and_a_bot_play_a_whole_game(server, person):
    ann = person()
    table_id, links = create_table(ann, "smuggle_v0", ["human", "rule", "human"], seed=31)
    assert sorted(links) == [0, 2]
    bob = person()
    join(ann, links[0], "Ann")
    join(bob, links[2], "Bob")
    game = Game(server, table_id, {0: ann, 2: bob})
    seen: dict[str, set[str]] = {"badges": set(), "outcomes": set(), "latest": set()}
    faces: dict[str, str] = {}

    def look(browser: Browser, kind: str) -> None:
        if game.decisions % 5:
            return
        info = browser.js(
            """return {
              badges: [...document.querySelectorAll('.player .badge')].map(b => b.textContent),
              outcomes: [...document.querySelectorAll('#log .outcome')].map(o => o.textContent),
              latest: document.getElementById('latest') ? document.getElementById('latest').textContent : '',
              faces: [...document.querySelectorAll('.card')].map(c => [c.dataset.name, c.querySelector('.big').textContent]),
            };"""
        )
        if not info["badges"]:
            return  # the game is over: no roles
        assert info["badges"].count("Officer") == 1 and info["badges"].count("bag holder") <= 1, info["badges"]
        seen["badges"].update(info["badges"])
        seen["outcomes"].update(info["outcomes"])
        if info["latest"]:
            seen["latest"].add(info["latest"])
        faces.update(dict(info["faces"]))

    tokens = {seat: link.split("#token=")[1] for seat, link in links.items()}
    shown_own = 0

    def own_seat_only(browser: Browser, kind: str) -> None:
        """At an open decision, the page shows its own seat's view: its hand and table text."""
        nonlocal shown_own
        if game.decisions % 8:
            return
        seat = next(p for p, page in game.pages.items() if page is browser)
        view = server.get(f"/api/tables/{table_id}/seats/{seat}/view", tokens[seat])
        hand = next(z for z in view["zones"] if z["title"] == "Your hand")
        on_page = browser.js(
            "return [...document.querySelectorAll('[data-zone=\"Your hand\"] .card')].map(c => c.dataset.name);"
        )
        assert on_page == [c["name"] for c in hand["cards"]]
        text = browser.driver.find_element(By.ID, "table-text").text
        assert text == view["table_text"].strip() and text != game.table.state.render().strip()
        shown_own += 1

    game.play(random.Random(5), double_every=7, before=own_seat_only, seen=look)
    assert game.table.status == "finished" and game.decisions > 40 and game.doubles > 4 and shown_own >= 4
    for browser in (ann, bob):
        check_game_over(browser)
    # a search: whose bag, the verdict and the money, in the log and on the felt
    searches = [o for o in seen["outcomes"] if "bag searched by" in o]
    assert searches and all(
        re.search(r"P\d's bag searched by the (Officer|Informer): .* → (caught lying|truthful|real Bag)", o)
        for o in searches
    )
    assert any("money: P" in o and "£" in o for o in seen["outcomes"])
    assert any("bag searched by" in text for text in seen["latest"])
    assert {"Officer", "bag holder"} <= seen["badges"]
    # colliding initials told apart on the face: one big mark per card name
    assert len(set(faces.values())) == len(faces), faces
    assert faces.get("wine") != faces.get("watch") or "wine" not in faces
    check_card_info(ann)
    game_id = game.table.game_id
    check_replay(ann, game_id, {0: "Ann", 2: "Bob"}, {1: "rule"})
    marks = {m.text for m in ann.driver.find_elements(By.CSS_SELECTOR, "#log .mark")}
    assert marks & {"true", "false"}  # declarations marked true or false in the full view
    Select(ann.driver.find_element(By.ID, "viewer")).select_by_value("0")
    ann.wait_js("document.getElementById('status').textContent.includes('as P0')")
    assert not ann.driver.find_elements(By.CSS_SELECTOR, "#log .mark")  # a seat's view: no marks of the truth


@pytest.mark.parametrize(("env_id", "seed"), [("illegal_v0", 4), ("humble_smuggle_v0", 3)])
def test_a_person_plays_a_whole_game_against_a_bot(server, person, env_id, seed):
    browser, game = one_person(server, person, env_id, ["human", "rule"], seed)
    game.play(random.Random(env_id))
    assert game.table.status == "finished" and game.decisions >= 3
    check_game_over(browser)
    check_card_info(browser)
    assert "rules and cards" in browser.driver.find_element(By.ID, "side").text
    check_replay(browser, game.table.game_id, {0: "Ann"}, {1: "rule"})


def test_ciq_a_whole_game_with_every_click_doubled(server, person):
    """Two clicks on the same button 15-50 ms apart, at every decision of a whole game: each
    time exactly one move, and no error on the page."""
    browser, game = one_person(server, person, "ciq_v0", ["human", "rule"], seed=6)
    game.play(random.Random(2), double_every=1)
    assert game.table.status == "finished" and game.doubles == game.decisions >= 3
    check_game_over(browser)
    check_replay(browser, game.table.game_id, {0: "Ann"}, {1: "rule"})


def test_import_export_a_whole_game_with_prompts_and_a_sealed_bid(server, person):
    browser, game = one_person(server, person, "import_export_v0", ["human", "rule", "rule"], seed=2)
    prompts: set[str] = set()
    auctions: list[tuple[str, str]] = []

    def look(page: Browser, kind: str) -> None:
        prompts.add(page.js("const p = document.getElementById('prompt'); return p ? p.textContent : '';"))
        if kind == "bid":
            auctions.append(
                tuple(page.js("return ['auction', 'legal-bids'].map(id => document.getElementById(id).textContent);"))
            )

    game.play(random.Random(3), prefer=("import",), before=look)
    assert game.table.status == "finished"
    assert prompts and all(p.startswith("The game asks: P0 to decide: ") for p in prompts), prompts
    assert auctions, "no sealed bid came to the person"
    for what, legal in auctions:
        assert re.search(r"Up for auction: (ship \d+ \(P\d .*\)|the supply island)", what), what
        assert re.match(r"Legal bids: 0 to \d+ in steps of 2", legal), legal
    check_game_over(browser)
    # the 128-card table fits the side panel: no sideways scrolling
    browser.driver.find_element(By.XPATH, "//aside//button[starts-with(., 'Every card')]").click()
    browser.wait_js("document.querySelectorAll('#side .row-block').length === 128")
    width, room = browser.js("const s = document.getElementById('side'); return [s.scrollWidth, s.clientWidth];")
    assert width <= room, (width, room)
    check_card_info(browser)
    check_replay(browser, game.table.game_id, {0: "Ann"}, {1: "rule", 2: "rule"})


def test_a_table_made_in_this_browser_is_closed_from_the_lobby(server, person):
    """Its *close* button ends it; its seat page then says so and asks nothing."""
    browser = person()
    table_id, links = create_table(browser, "smuggle_v0", ["human", "rule", "rule"], seed=8)
    row = f"tr[data-table='{table_id}']"
    browser.wait_js(f'document.querySelector("{row} button.close-table")', "the close button").click()
    browser.wait_js(
        f"document.querySelector(\"{row}\").textContent.includes('closed by its creator')", "the table closed"
    )
    assert server.app.state.registry.get(table_id).status == "ended"
    assert not browser.driver.find_elements(By.CSS_SELECTOR, f"{row} button.close-table")
    browser.open(
        links[0], "document.getElementById('join') && !document.getElementById('join').classList.contains('hidden')"
    )
    # the join page names the game, the seat and the players, and shows the table and its rules
    assert browser.driver.title.startswith(f"Smuggle: seat P0 of 3, table {table_id}"), browser.driver.title
    assert browser.driver.find_element(By.ID, "title").text == f"Smuggle · table {table_id}"
    assert "P1 rule (bot), P2 rule (bot)" in browser.driver.find_element(By.ID, "who").text
    assert "you take seat P0 of 3" in browser.driver.find_element(By.ID, "join-seat").text
    assert len(browser.driver.find_elements(By.CSS_SELECTOR, "#table .player")) == 3
    browser.wait_js("document.querySelector('#side ol.rules')", "the rules beside the join form")
    type_into(browser, "name", "Ann")
    browser.driver.find_element(By.CSS_SELECTOR, "#join-form button").click()
    banner = browser.wait_js("document.querySelector('.banner.bad')", "the ended banner")
    assert "This table has ended: closed by its creator" in banner.text
    assert not browser.driver.find_elements(By.CSS_SELECTOR, "#decision[data-kind]")
    # a closed table asks nobody: no seat is shown to move
    assert not browser.driver.find_elements(By.CSS_SELECTOR, ".player.to-move")
    assert "to move" not in browser.driver.find_element(By.CSS_SELECTOR, ".players").text


# ----- the play page at a laptop's window -----------------------------------------------------------------
LAPTOP = (1366, 768)
IN_VIEW_JS = """
const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
return {hand: box(document.querySelector('[data-zone="Your hand"]')), decision: box(document.getElementById('decision')),
        result: box(document.getElementById('result')), height: window.innerHeight, width: window.innerWidth,
        docked: !!document.querySelector('#dock #result')};
"""


def four_people_play(
    server: ThreadServer, env_id: str, seed: int
) -> tuple[str, dict[int, str], Callable[[int, int], None]]:
    """A table of four people, each joined through the API; returns its id, the seat tokens
    and ``play(actions, upto)``: the given actions, one each, through the API."""
    table = server.table(["human"] * 4, env_id, seed)
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    for seat, name in zip(range(4), ("Ann", "Bob", "Cy", "Di")):
        seat_call(server, f"/api/tables/{table['id']}/seats/{seat}/join", tokens[seat], {"name": name})
    live = server.app.state.registry.get(table["id"])

    def play(actions: list[int], upto: int) -> None:
        while live.revision < upto:
            seat, revision = live.state.current_player(), live.revision
            path = f"/api/tables/{table['id']}/seats/{seat}/act?log_from={revision}"
            seat_call(server, path, tokens[seat], {"action": actions[revision], "revision": revision})

    return table["id"], tokens, play


@pytest.mark.parametrize(
    ("env_id", "seed"),
    [("smuggle_v0", 3), ("ciq_v0", 1), ("illegal_v0", 2), ("humble_smuggle_v0", 1), ("import_export_v0", 1)],
)
def test_at_a_laptops_window_the_hand_and_the_decision_are_in_view_together(server, person, env_id, seed):
    """At 1366x768, at the largest position of a seeded 4-player game, the seat's hand and its
    decision both lie inside the window as the page opens; at the end the result is where the
    decision was (in the dock), inside the window too."""
    actions, at = largest_position(env_id, seed)
    table_id, tokens, play = four_people_play(server, env_id, seed)
    play(actions, at)
    seat = server.app.state.registry.get(table_id).state.current_player()
    browser = person(*LAPTOP)
    browser.open(f"/play/{table_id}/{seat}#token={tokens[seat]}", "document.querySelector('#decision[data-ready]')")
    shown = browser.js(IN_VIEW_JS)
    for part in ("hand", "decision"):
        top, bottom, left, right = shown[part]
        assert 0 <= top < bottom <= shown["height"] and 0 <= left < right <= shown["width"], (part, shown)
    play(actions, len(actions))
    browser.wait_js("document.getElementById('result')", "the result", timeout=60)
    shown = browser.js(IN_VIEW_JS)
    top, bottom, left, right = shown["result"]
    assert shown["docked"] and 0 <= top < bottom <= shown["height"] and 0 <= left < right <= shown["width"], shown
    check_text(browser)
