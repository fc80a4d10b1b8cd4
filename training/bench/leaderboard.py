"""The leaderboard (docs/leaderboard.md): the shipped agents' scorecards at 4 players, stored in
the repository, and the tables the docs show, made from them.

    python -m training.bench.leaderboard --run random,rule --envs smuggle_v0   # measure, store
    python -m training.bench.leaderboard                                      # only the tables
    python -m training.bench.leaderboard --check                              # exit 1 if stale

A scorecard is stored as ``docs/img/data/bench/ENV_ID/KEY.json`` (``ROWS`` names the keys and
specs); ``docs/img/data/leaderboard.json`` holds one table a game, made from the stored cards
alone, which ``scripts/update_docs.py`` writes into the page's ``data-table`` blocks. A row
without a stored card says so and names the command that makes it. The tiny cards
(``bench/tiny/``, one deal a field) are the suite's check that the numbers reproduce.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .report import _pct
from .schema import read, write

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "docs" / "img" / "data"
CARDS = DATA / "bench"
TABLES = DATA / "leaderboard.json"
ENVS = ("smuggle_v0", "illegal_v0", "ciq_v0", "humble_smuggle_v0", "import_export_v0")
PLAYERS = 4
MOCK_SPEC = "llm:model=scripted-mock;base_url={url}"  # the port is chosen when the mock starts
ROWS = {  # key -> (spec, what the leaderboard calls it)
    "random": ("random", "random"),
    "rule": ("rule", "rule"),
    "zoo": ("zoo", "zoo"),
    "ismcts-rule": ("ismcts:sims=10;prior=rule", "ismcts, rule prior"),
    "ismcts-zoo": ("ismcts:sims=10;prior=zoo;value=zoo", "ismcts, zoo prior and value"),
    "pimc": ("pimc:worlds=2;sims=2", "pimc"),
    "mock-llm": (MOCK_SPEC, "MOCK: scripted LLM (random menu numbers, not a model)"),
}
TINY = {"rule": ("smuggle_v0", "illegal_v0"), "random": ("ciq_v0",), "mock-llm": ("humble_smuggle_v0",)}


def card_path(env_id: str, key: str, tiny: bool = False) -> Path:
    return CARDS / "tiny" / f"{env_id}-{key}.json" if tiny else CARDS / env_id / f"{key}.json"


def command(env_id: str, key: str, budget: str = "quick") -> str:
    """The command that measures a row (the mock LLM's needs the mock server: this module)."""
    if key == "mock-llm":
        return f"python -m training.bench.leaderboard --run mock-llm --envs {env_id} --budget {budget}"
    flag = "--quick" if budget == "quick" else "" if budget == "full" else f"--deals {budget}"
    return f'smuggle bench "{ROWS[key][0]}" --env {env_id} --players {PLAYERS} {flag}'.rstrip()


def table(env_id: str) -> dict[str, Any]:
    """The leaderboard table of ``env_id`` from its stored scorecards, best mixed-field rating first."""
    measured, missing = [], []
    for key, (_, name) in ROWS.items():
        path = card_path(env_id, key)
        if not path.exists():
            missing.append([name, "not measured yet", "", "", "", "", "", f"`{command(env_id, key)}`"])
            continue
        c = read(path)
        f = c["fields"]
        rating = c["mixed"]["rating"] if c["mixed"] else None
        dec = c["deception"]
        measured.append(
            (
                -(rating["value"] if rating else 0.0),
                [
                    name, f"{c['budget']} ({c['deals']} deals)", *(_pct(f[x]["win_rate"]) if x in f else "n/a"
                    for x in ("random", "rule", "zoo")),
                    f"{rating['value']:.0f} [{rating['low']:.0f}, {rating['high']:.0f}] ({c['mixed']['place']}/{c['mixed']['of']})"
                    if rating else "n/a",
                    _pct(dec["bluff_rate"]), f"{c['decisions']['mean_ms']:.2f} / {c['decisions']['errors']}",
                ],
            )
        )  # fmt: skip
    headers = ["agent", "budget", "vs random", "vs rule", "vs zoo", "mixed rating (place)", "bluff rate", "ms / errors"]
    rows = [row for _, row in sorted(measured, key=lambda m: m[0])] + missing
    return {"headers": headers, "align": "llrrrrrl", "rows": rows}


def tables() -> dict[str, Any]:
    """``leaderboard.json``'s contents: one table a game, from the stored cards alone."""
    return {"tables": {env: table(env) for env in ENVS}, "players": PLAYERS}


@contextmanager
def spec_for(key: str) -> Iterator[str]:
    """The row's spec; for the mock LLM, with the mock server running on a free loopback port."""
    spec = ROWS[key][0]
    if key != "mock-llm":
        yield spec
        return
    import importlib.util

    path = ROOT / "benchmarks" / "mock_llm_server.py"
    loaded = importlib.util.spec_from_file_location("_bench_mock_llm_server", path)
    assert loaded is not None and loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    with module.MockServer(0, seed=0) as server:
        yield spec.format(url=server.base_url)


def score_row(key: str, env_id: str, budget: str | int) -> dict[str, Any]:
    """The row ``key``'s scorecard in ``env_id`` at ``budget``, measured now (not stored)."""
    from .api import run_bench

    with spec_for(key) as spec:
        card = run_bench(spec, env_id, PLAYERS, budget)
    card["agent"] = ROWS[key][0].format(url="MOCK")  # a port of this run is no part of the agent
    card["label"] = ROWS[key][1]
    return card


def measure(key: str, env_id: str, budget: str | int, tiny: bool = False) -> dict[str, Any]:
    """Run the row ``key`` in ``env_id`` and store its card; returns it."""
    card = score_row(key, env_id, budget)
    path = card_path(env_id, key, tiny)
    path.parent.mkdir(parents=True, exist_ok=True)
    write(card, path)
    return card


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Measure and store the leaderboard's scorecards; write its tables.")
    p.add_argument("--run", default="", help=f"comma-separated rows to measure: {', '.join(ROWS)}")
    p.add_argument("--envs", default=",".join(ENVS), help="comma-separated env ids (default: every game)")
    p.add_argument("--budget", default="quick", help="quick, full or a number of deals (default: quick)")
    p.add_argument("--tiny", action="store_true", help="store the suite's tiny cards (1 deal a field)")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if the tables are stale")
    args = p.parse_args(argv)
    if args.check:
        stale = json.loads(TABLES.read_text()) != json.loads(json.dumps(tables()))
        print(f"{TABLES} is {'stale' if stale else 'up to date'}")
        return int(stale)
    budget: str | int = int(args.budget) if args.budget.isdigit() else args.budget
    for env in args.envs.split(","):
        for key in filter(None, args.run.split(",")):
            measure(key, env, budget)
            print(f"stored {card_path(env, key)}", file=sys.stderr)
    if args.tiny:
        for key, envs in TINY.items():
            for env in envs:
                measure(key, env, 1, tiny=True)
    TABLES.write_text(json.dumps(tables(), indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
