"""Make the README's screenshots of ``smuggle serve``: the table and the replay viewer.

    python scripts/web_screenshots.py            # writes docs/img/web_table.png, docs/img/web_replay.png
    python scripts/web_screenshots.py --out DIR

Runs the app in a thread on a fresh database and drives Debian's headless chromium (``bash
scripts/browser.sh`` installs it): a person in seat 0 of a 4-player Smuggle game against three rule
bots, shown at a declaration after some rounds; then a stored all-bot game in the replay viewer's
full view, just after a search.
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
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from training.web.browser import ThreadServer, chromium  # noqa: E402

WAIT = 30


def page_state(driver) -> tuple[int, str | None]:
    return tuple(
        driver.execute_script(
            "const d = document.querySelector('#decision[data-kind]');"
            "return [Number(document.body.dataset.revision), d ? d.dataset.kind : null];"
        )
    )


def table_shot(server: ThreadServer, path: Path, seed: int = 17, after: int = 25) -> None:
    """Seat 0 at a declaration once ``after`` decisions have been played."""
    table = server.table(["human", "rule", "rule", "rule"], "smuggle_v0", seed=seed)
    link = next(s["link"] for s in table["seats"] if "link" in s)
    live = server.app.state.registry.get(table["id"])
    driver = chromium(1400, 1000)
    rng = random.Random(seed)
    try:
        driver.get(server.url + link)
        WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "name").is_displayed())
        driver.find_element(By.ID, "name").send_keys("Ann")
        driver.find_element(By.CSS_SELECTOR, "#join-form button").click()
        deadline = time.monotonic() + 120
        while True:
            if time.monotonic() > deadline or live.status != "playing":
                raise RuntimeError("no declaration came to seat 0 in time")
            revision, kind = page_state(driver)
            if kind is None or revision != live.revision:
                time.sleep(0.05)
                continue
            if kind == "declare" and revision >= after:
                break
            if kind == "declare":
                driver.find_element(By.ID, "declare-go").click()
            elif kind == "yesno":
                driver.find_element(By.CSS_SELECTOR, rng.choice(["#decision .yes", "#decision .no"])).click()
            else:
                rng.choice(driver.find_elements(By.CSS_SELECTOR, "#decision button[data-action]")).click()
            WebDriverWait(driver, WAIT).until(lambda d, r=revision: page_state(d)[0] != r)
        plus = driver.find_elements(By.CSS_SELECTOR, ".counter .plus")
        plus[1].click()  # a declaration being made: one cigars
        time.sleep(0.3)
        driver.save_screenshot(str(path))
    finally:
        driver.quit()


def replay_shot(server: ThreadServer, path: Path, seed: int = 4) -> None:
    """A stored all-bot game in the full view, just after a search that caught a liar."""
    table = server.table(["rule", "rule", "rule", "rule"], "smuggle_v0", seed=seed)
    game_id = server.wait_finished(table["id"]).game_id
    log = server.get(f"/api/games/{game_id}")["log"]
    caught = [e["n"] for e in log if e["mark"] == "caught"]
    step = (caught[min(2, len(caught) - 1)] + 1) if caught else len(log) // 3
    driver = chromium(1400, 1200)  # taller: the log with its marks shows under the table
    try:
        driver.get(f"{server.url}/replay/{game_id}?step={step}")
        WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "step").text.startswith(f"step {step} "))
        time.sleep(0.5)  # the rules panel
        driver.save_screenshot(str(path))
    finally:
        driver.quit()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "img"), help="folder for the PNG files")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, ThreadServer(Path(tmp) / "games.sqlite") as server:
        table_shot(server, out / "web_table.png")
        replay_shot(server, out / "web_replay.png")
    print(f"wrote {out / 'web_table.png'} and {out / 'web_replay.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
