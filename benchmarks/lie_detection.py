"""Lie detection: how well is a claim told true from false by the seat that must call it?

    python benchmarks/lie_detection.py                  # the default: 200 games a game (about 20 minutes on one core)
    python benchmarks/lie_detection.py --games 400      # to scale: intervals shrink as the deals grow
    python benchmarks/lie_detection.py --games 1 --envs smuggle_v0 --data /tmp/ld.json --plot /tmp/ld.png

For each game it plays a tournament of fixed agents (``--agents``, default the rule bot, the
zoo's model, ISMCTS at 20 iterations a decision and the random agent, at 4 players), turns it into
the bluffing dataset with observations, split by seed (``smuggle dataset --observations --splits
train=0.5,test=0.5``: no deal in both), and scores every chosen call of the test deals (the
Officer's search or let-pass, the Informer's inform or accept, a CIQ Fire decision) as a forecast
that the claim it answers is a lie. Which calls are chosen is the kit's one definition
(``metrics.report_sections``): a forced call, the only legal action, detects nothing; it is in
no score and no fit, and each row counts the ones it left out (``forced calls``). By:

* **uniform posterior**: 1 - ``beliefs.uniform_posterior`` at the call (``--samples`` worlds the
  caller's information allows, drawn uniformly);
* **policy-aware posterior**: 1 - ``beliefs.posterior_since`` from the claim to the call, the
  worlds weighted by the known policies of the other seats (rule bots exactly, networks by their
  softmax or argmax, the random agent uniformly): scored only on the calls whose claimant's policy
  is known (not ISMCTS); where no sampled world is consistent (a deterministic claimant), the
  uniform posterior stands in, and the note counts those calls;
* **logistic regression**: on the caller's observation at the call (numpy, L2-regularised,
  standardised features), fitted on the train deals' calls;
* **each agent's own calls**: its probability of challenging where its policy can be read,
  else its decision (0 / 1: its AUROC is then the balanced accuracy, its Brier score its error
  rate).

Each score gets its AUROC, Brier score, log-loss and ECE (``training/bluffing/metrics.py``) with a
95% percentile bootstrap interval over the test deals. The AUROC ranks lies against true claims:
where every chosen call answers a lie (or every one a true claim) it is undefined, printed
``n/a`` with the reason. Illegal, Humble smuggle and Import / Export
have no call decisions (no seat ever calls another's claim): their rows say so, and their
claim-side metrics (bluff or miss rate, payoffs) are printed and stored. In CIQ the caller is the
target, who knows its own hand: every posterior there is certain, a check of the pipeline more
than a contest.

Writes ``docs/img/data/lie_detection.json`` (the exact command, every number, each game's test
calls with their scores, forced ones included, one a line: ``CALL_COLUMNS``; the docs table),
draws ``docs/img/lie_detection.png`` and prints the Markdown table; ``python
scripts/update_docs.py`` puts the table into docs/bluffing.md (``<!-- data-table: lie_detection
-->``). ``tests/training/bluffing/test_metrics.py`` runs it at a tiny budget.

``--report`` measures nothing: it reads ``--data`` (a stored JSON, e.g. one whose games were
measured by separate runs and merged), scores each game's stored calls again (so a change in
which calls count reaches the table without a new run), rewrites its ``table`` and redraws
``--plot``::

    python benchmarks/lie_detection.py --report
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import shlex
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from training.bluffing import facing  # noqa: E402
from training.bluffing.beliefs import posterior_since, uniform_posterior  # noqa: E402
from training.bluffing.deception import Policies, add_challenge_probs, calls_possible, positions  # noqa: E402
from training.bluffing.metrics import (  # noqa: E402
    Metric,
    Settings,
    as_columns,
    auroc,
    bootstrap,
    calibration_metrics,
    deception_report,
    fmt_interval,
    forced_calls,
    format_report,
    report_sections,
)
from training.bluffing.stored import StoredGame, open_db, stored_games  # noqa: E402

DATA = ROOT / "docs" / "img" / "data" / "lie_detection.json"
PLOT = ROOT / "docs" / "img" / "lie_detection.png"
GAMES = ("smuggle_v0", "ciq_v0", "illegal_v0", "humble_smuggle_v0", "import_export_v0")
AGENTS = "rule,zoo,ismcts:sims=20,random"
SPLITS = "train=0.5,test=0.5"
L2, STEPS, RATE = 1e-2, 400, 0.05  # the logistic regression: penalty, Adam steps, step size


# ----- the data: a tournament, its dataset --------------------------------------------------------
def _cli(argv: list[str]) -> None:
    """Run a ``smuggle`` command in this process, its report sent to stderr."""
    from training.cli import main

    with contextlib.redirect_stdout(sys.stderr):
        code = main(argv)
    if code != 0:
        raise SystemExit(f"lie_detection: smuggle {' '.join(argv)} exited with {code}")


def commands(env_id: str, args: argparse.Namespace, folder: Path) -> dict[str, list[str]]:
    """The tournament and dataset commands of one game (also stored, as run, in the JSON)."""
    db, out = folder / f"{env_id}.sqlite", folder / env_id
    tournament = ["tournament", env_id, "--players", str(args.players), "--agents", args.agents]
    tournament += ["--games", str(args.games), "--seed", str(args.seed), "--workers", "1", "--db", str(db)]
    tournament += ["--quiet", "--no-plots", "--out", str(folder)]
    dataset = ["dataset", str(db), "--out", str(out), "--observations", "--splits", SPLITS]
    return {"tournament": tournament, "dataset": dataset}


def read_split(folder: Path, split: str) -> list[dict[str, Any]]:
    """One split's rows from its Parquet file."""
    import pyarrow.parquet as pq

    return pq.read_table(str(folder / f"{split}.parquet")).to_pylist()


def load(
    env_id: str, args: argparse.Namespace, folder: Path
) -> tuple[dict[str, list[dict[str, Any]]], dict[int, StoredGame]]:
    """Play the game's tournament and build its dataset; the rows by split (the calls with their
    ``challenge_prob``) and the stored games by id."""
    run = commands(env_id, args, folder)
    _cli(run["tournament"])
    _cli(run["dataset"])
    db = open_db(run["tournament"][run["tournament"].index("--db") + 1])
    try:
        games = {g.record.id: g for g in stored_games(db)}
    finally:
        db.close()
    splits = {s: read_split(folder / env_id, s) for s in ("train", "test")}
    policies = Policies()
    for rows in splits.values():
        for game_id, found in _by_game(rows).items():
            add_challenge_probs(games[game_id], found, policies)
    return splits, games


def _by_game(rows: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    found: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        found.setdefault(int(r["game_id"]), []).append(r)
    return found


# ----- the scorers ------------------------------------------------------------------------------------
def _rng(args: argparse.Namespace, row: dict[str, Any]) -> int:
    """A seed a call, so that every posterior is reproduced exactly (crc32: stable across runs)."""
    return zlib.crc32(f"{args.seed}:{row['game_id']}:{row['step']}".encode())


def posteriors(calls: list[dict[str, Any]], games: dict[int, StoredGame], args: argparse.Namespace) -> None:
    """Give each call ``p_uniform`` and ``p_policy`` (P(lie); ``p_policy`` None where the claimant's
    policy is unknown, ``policy_fallback`` True where no world was consistent)."""
    policies = Policies()
    for game_id, rows in _by_game(calls).items():
        record = games[game_id].record
        replay = record.replay()
        table = replay.game()
        known = {s: policies.get(table, record.config, spec) for s, spec in enumerate(record.agents)}
        states = positions(replay, [s for r in rows for s in (r["step"], r["called_step"])])
        for r in rows:
            _score_call(r, states, replay.actions, known, args)


def _score_call(
    r: dict[str, Any], states: dict[int, Any], actions: list[int], known: dict[int, Any], args: argparse.Namespace
) -> None:
    """One call's posteriors (see ``posteriors``)."""
    state, seat = states[r["step"]], r["seat"]
    faced = facing(state, seat)
    if faced is None:  # never for a labelled call; kept out rather than guessed
        r["p_uniform"] = r["p_policy"] = None
        return
    uniform = uniform_posterior(state, seat, faced.truth, args.samples, _rng(args, r))
    r["p_uniform"], r["p_policy"], r["policy_fallback"] = 1.0 - uniform.p, None, False
    if known.get(r["claimant"]) is None:
        return
    others = {s: p for s, p in known.items() if p is not None and s != seat}
    root = states[r["called_step"]]
    aware = posterior_since(
        root, actions[r["called_step"] : r["step"]], seat, faced.truth, others, args.samples, _rng(args, r) + 1
    )
    r["policy_fallback"] = bool(np.isnan(aware.p))
    r["p_policy"] = r["p_uniform"] if r["policy_fallback"] else 1.0 - aware.p


def fit_logistic(x: np.ndarray, y: np.ndarray) -> Any:
    """A logistic regression of ``y`` on ``x`` (full batch Adam on the mean log-loss plus
    ``L2`` / 2 |w|^2, features standardised on ``x``, constant ones dropped); returns a function of
    new rows giving P(y = 1). One class only (or no rows): its share, a constant."""
    base = float(y.mean()) if len(y) else 0.5
    if len(y) == 0 or base in (0.0, 1.0):
        return lambda rows: np.full(len(rows), base)
    mean, std = x.mean(axis=0), x.std(axis=0)
    keep = std > 1e-8
    z = (x[:, keep] - mean[keep]) / std[keep]
    w, b = np.zeros(z.shape[1]), float(np.log(base / (1 - base)))
    m, v = np.zeros(z.shape[1] + 1), np.zeros(z.shape[1] + 1)
    for t in range(1, STEPS + 1):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        grad = np.r_[z.T @ (p - y) / len(y) + L2 * w, float((p - y).mean())]
        m, v = 0.9 * m + 0.1 * grad, 0.999 * v + 0.001 * grad**2
        step = RATE * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
        w, b = w - step[:-1], b - float(step[-1])
    return lambda rows: 1.0 / (1.0 + np.exp(-(((rows[:, keep] - mean[keep]) / std[keep]) @ w + b)))


def logistic(train: list[dict[str, Any]], test: list[dict[str, Any]]) -> None:
    """Give each test call ``p_logistic``: P(lie) of a regression on the train calls' observations."""
    if not test:
        return
    x = np.array([r["observation"] for r in train], dtype=float).reshape(len(train), -1)
    y = np.array([0.0 if r["truth"] else 1.0 for r in train])
    predict = fit_logistic(x, y)
    for r, p in zip(test, predict(np.array([r["observation"] for r in test], dtype=float))):
        r["p_logistic"] = float(p)


# ----- the calls scored: the kit's one definition, and what the JSON keeps -------------------------------
CALL_COLUMNS = (
    "seed",
    "agent",
    "truth",
    "forced",
    "challenged",
    "challenge_prob",
    "p_uniform",
    "p_policy",
    "policy_fallback",
    "p_logistic",
)
"""The columns of a stored test call (``games.<env>.test_calls``: one list a call; booleans as
0 / 1, the probabilities to 4 decimals, None where a call has no such score: a forced call has
none, a call of a claimant whose policy is unknown no ``p_policy``)."""


def chosen_calls(calls: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The chosen calls and the forced ones, by the kit's one definition
    (``metrics.report_sections``, ``metrics.forced_calls``): a forced call, the only legal action,
    detects nothing and is in no score, only counted."""
    if not calls:
        return [], []
    cols = as_columns(calls)
    chosen = next((mask for role, _, mask in report_sections(cols) if role == "call"), np.zeros(len(calls), bool))
    skipped = forced_calls(cols)
    return [r for r, c in zip(calls, chosen) if c], [r for r, f in zip(calls, skipped) if f]


def _stored(value: Any) -> Any:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    return None if np.isnan(value) else round(float(value), 4)


def store_calls(calls: list[dict[str, Any]]) -> dict[str, Any]:
    """The calls as the JSON keeps them (``CALL_COLUMNS``), what ``--report`` scores again."""
    rows = [[_stored(r.get(k if k != "agent" else "agent_name")) for k in CALL_COLUMNS] for r in calls]
    return {"columns": list(CALL_COLUMNS), "rows": rows}


def read_calls(stored: dict[str, Any]) -> list[dict[str, Any]]:
    """The stored calls as rows (``role`` call, ``agent_name``), ready for ``scorers``."""
    rows = []
    for values in stored["rows"]:
        r: dict[str, Any] = {"role": "call", **dict(zip(stored["columns"], values))}
        r["agent_name"] = r.pop("agent")
        for k in ("truth", "forced", "challenged", "policy_fallback"):
            r[k] = None if r[k] is None else bool(r[k])
        rows.append(r)
    return rows


def dumps(data: dict[str, Any]) -> str:
    """``data`` as JSON, indented, each list of plain values on one line (a stored call a line)."""
    text = json.dumps(data, indent=1)
    # a bracket followed or preceded by a line break is never inside a string (JSON escapes them)
    flat = re.sub(r"\[\n\s*([^\[\]{}]*?)\n\s*\]", lambda m: "[" + re.sub(r",\n\s*", ", ", m.group(1)) + "]", text)
    return flat + "\n"


# ----- scoring ------------------------------------------------------------------------------------------
def score_metrics() -> list[Metric]:
    """AUROC, Brier, log-loss and ECE of column ``p_lie`` as a forecast of a lie."""
    lie = lambda c: 1.0 - c["truth"]
    rows = lambda c: len(c["truth"])
    return [Metric("auroc", "AUROC", "share", lambda c, w: auroc(c["p_lie"], lie(c), w), rows)] + calibration_metrics(
        "p_lie"
    )


def scored(
    name: str, rows: list[dict[str, Any]], column: str, settings: Settings, note: str = "", n_forced: int = 0
) -> dict[str, Any]:
    """One scorer's row: its metrics with intervals over the test deals, the lies among its calls
    and the forced calls left out of it (``n_forced``)."""
    cols = {
        "p_lie": np.array([float(r[column]) for r in rows]),
        "truth": np.array([1.0 if r["truth"] else 0.0 for r in rows]),
    }
    seeds = np.array([r["seed"] for r in rows])
    with np.errstate(all="ignore"):
        values = bootstrap(score_metrics(), cols, seeds, settings.n_boot, settings.seed, settings.level)
    out: dict[str, Any] = {
        "scorer": name,
        "rows": len(rows),
        "forced": n_forced,
        "lies": int(len(rows) - cols["truth"].sum()),
    }
    out.update({"deals": len(set(seeds.tolist())), "note": note})
    out.update({k: b.as_dict() for k, b in values.items()})
    return out


def scorers(calls: list[dict[str, Any]], settings: Settings) -> list[dict[str, Any]]:
    """Every scorer's row for one game's test calls (stored ones, ``read_calls``): the chosen calls
    scored, the forced ones counted (``chosen_calls``)."""
    test, skipped = chosen_calls(calls)
    aware = [r for r in test if r.get("p_policy") is not None]
    fallback = sum(bool(r.get("policy_fallback")) for r in aware)
    found = [
        scored("uniform posterior", test, "p_uniform", settings, n_forced=len(skipped)),
        scored(
            "policy-aware posterior",
            aware,
            "p_policy",
            settings,
            f"claimant's policy known on {len(aware)} of {len(test)} calls; uniform where no world fit: {fallback}",
            len(skipped),
        ),
        scored("logistic regression", test, "p_logistic", settings, "fitted on the train deals' calls", len(skipped)),
    ]
    for agent in sorted({r["agent_name"] for r in calls}):  # an agent whose every call was forced too
        mine = [r for r in test if r["agent_name"] == agent]
        policy = bool(mine) and all(r["challenge_prob"] is not None and not np.isnan(r["challenge_prob"]) for r in mine)
        for r in mine:
            r["p_agent"] = r["challenge_prob"] if policy else float(r["challenged"])
        kind = "P(challenge)" if policy else "decision"
        n_forced = sum(r["agent_name"] == agent for r in skipped)
        found.append(scored(f"{agent}'s calls ({kind})", mine, "p_agent", settings, n_forced=n_forced))
    return found


# ----- one game, every game ---------------------------------------------------------------------------
def run_game(env_id: str, args: argparse.Namespace, settings: Settings, folder: Path) -> dict[str, Any]:
    """One game: its data, its claim-side report, and (where seats call) its scorers."""
    start = time.perf_counter()
    splits, games = load(env_id, args, folder)
    rows = splits["train"] + splits["test"]
    report = deception_report(rows, settings, {env_id: bool(calls_possible(env_id))})
    print("\n\n".join(format_report(r, settings) for r in report), file=sys.stderr)
    train, _ = chosen_calls([r for r in splits["train"] if r["role"] == "call"])
    test, skipped = chosen_calls([r for r in splits["test"] if r["role"] == "call"])
    found: dict[str, Any] = {
        "commands": {k: "smuggle " + shlex.join(v) for k, v in commands(env_id, args, Path("TMP")).items()},
        "games": len(games),
        "deals": len({g.record.seed for g in games.values()}),
        "calls": {"train": len(train), "test": len(test), "forced_test": len(skipped)},
        "claim_side": _claim_side(report),
        "scorers": [],
    }
    if calls_possible(env_id):
        posteriors(test, games, args)
        test = [r for r in test if r["p_uniform"] is not None]  # a call facing nothing: none so far
        logistic(train, test)
        found["test_calls"] = store_calls(test + skipped)
        found["scorers"] = scorers(read_calls(found["test_calls"]), settings)  # as --report scores them
    else:
        found["note"] = "no call decisions (no seat calls another's claim): claim-side metrics only"
    found["seconds"] = round(time.perf_counter() - start, 1)
    return found


def _claim_side(report: list[Any]) -> dict[str, Any]:
    """The per-agent claim-side metrics of a game's report, JSON-ready."""
    return {
        role: {s.agent: {k: b.as_dict() for k, b in s.values.items()} for s in sections}
        for r in report
        for role, sections in r.sections.items()
        if role != "call"
    }


def _cell(value: dict[str, Any] | None, unit: str = "share") -> str:
    from training.bluffing.metrics import Bootstrapped

    if not value or value["value"] is None:
        return "-"
    nan = float("nan")
    b = Bootstrapped(
        value["value"],
        nan if value["low"] is None else value["low"],
        nan if value["high"] is None else value["high"],
        value["count"],
    )
    return fmt_interval(b, unit)


def undefined_auroc(s: dict[str, Any]) -> str:
    """Why a scorer's AUROC is undefined ("" where it is not): it ranks lies against true claims,
    so it needs calls that answer each."""
    if s.get("auroc") and s["auroc"]["value"] is not None:
        return ""
    if s["rows"] == 0:
        return "AUROC n/a: no chosen call"
    which = "a lie" if s["lies"] == s["rows"] else "a true claim"
    return f"AUROC n/a: every chosen call answers {which}, none to rank it against"


def table(games: dict[str, Any]) -> dict[str, Any]:
    """The docs table (``<!-- data-table: lie_detection -->``): a row per game and scorer."""
    rows = []
    for env, g in games.items():
        if not g["scorers"]:
            rows.append([env, "-", "-", "-", "-", "-", "-", "-", g.get("note", "")])
            continue
        for s in g["scorers"]:
            why = undefined_auroc(s)
            note = "; ".join(n for n in (s["note"], why) if n)
            value = "n/a" if why else _cell(s.get("auroc"))
            cells = [s["rows"], s["forced"], s["deals"], value, _cell(s.get("brier")), _cell(s.get("ece"))]
            rows.append([env, s["scorer"], *cells, note])
    headers = ["game", "scorer", "chosen calls", "forced calls", "deals", "AUROC", "Brier", "ECE", "note"]
    return {"headers": headers, "align": "llrrrrrrl", "rows": rows}


def render_table(t: dict[str, Any]) -> str:
    """A Markdown table of ``{"headers", "align", "rows"}`` (as ``scripts/update_docs.py`` writes it)."""
    align = {"l": "---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(t["headers"]) + " |", "|" + "|".join(align[a] for a in t["align"]) + "|"]
    return "\n".join(lines + ["| " + " | ".join(str(c) for c in row) + " |" for row in t["rows"]])


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--envs", default=",".join(GAMES), help="comma-separated env ids (default: the five games)")
    p.add_argument("--games", type=int, default=200, help="games a game's tournament plays (whole deals; default: 200)")
    p.add_argument("--players", type=int, default=4, help="seats (default: 4; the zoo's models are 4-player)")
    p.add_argument("--agents", default=AGENTS, help=f"the tournament's agents (default: {AGENTS})")
    p.add_argument("--seed", type=int, default=0, help="the tournaments' base seed (default: 0)")
    p.add_argument("--samples", type=int, default=100, help="worlds a posterior draws (default: 100)")
    p.add_argument("--boot", type=int, default=1000, help="bootstrap resamples of the deals (default: 1000)")
    p.add_argument("--data", default=str(DATA), help="the JSON to write (default: docs/img/data/lie_detection.json)")
    p.add_argument("--plot", default=str(PLOT), help="the PNG to draw (default: docs/img/lie_detection.png)")
    p.add_argument(
        "--report",
        action="store_true",
        help="measure nothing: score --data's stored calls again, rebuild its table and redraw --plot",
    )
    return p.parse_args(argv)


def report(data_path: str, plot: str) -> int:
    """Score a stored JSON's calls again (its command and settings kept), rewrite its table,
    redraw the figure and print the table."""
    data = json.loads(Path(data_path).read_text(encoding="utf-8"))
    kept = data["settings"]
    settings = Settings(n_boot=kept["boot"], seed=0, level=kept["level"])
    for env, game in data["games"].items():
        if game["scorers"] and "test_calls" not in game:
            raise SystemExit(f"lie_detection: {data_path}: {env} keeps no test_calls to score; measure it again")
        if "test_calls" in game:
            game["scorers"] = scorers(read_calls(game["test_calls"]), settings)
    data["table"] = table(data["games"])
    Path(data_path).write_text(dumps(data), encoding="utf-8")
    from training.bluffing.plots import plot_lie_detection

    plot_lie_detection(data, plot)
    print(render_table(data["table"]))
    print(f"\nrewritten from its calls: {data_path}, {plot}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Every game's data and scores; the JSON, the picture and the table."""
    args = parse(argv)
    if args.report:
        return report(args.data, args.plot)
    settings = Settings(n_boot=args.boot, seed=0)
    shown = sys.argv[1:] if argv is None else argv
    games: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="lie-detection-") as tmp:
        for env_id in [e.strip() for e in args.envs.split(",") if e.strip()]:
            print(f"lie_detection: {env_id} ...", file=sys.stderr, flush=True)
            games[env_id] = run_game(env_id, args, settings, Path(tmp))
    keep = ("games", "players", "agents", "seed", "samples", "boot")
    data: dict[str, Any] = {
        "command": shlex.join(["python", "benchmarks/lie_detection.py", *shown]),
        "settings": {
            **{k: getattr(args, k) for k in keep},
            "splits": SPLITS,
            "level": settings.level,
            "scored_split": "test",
        },
        "games": games,
        "table": table(games),
    }
    Path(args.data).parent.mkdir(parents=True, exist_ok=True)
    Path(args.data).write_text(dumps(data), encoding="utf-8")
    from training.bluffing.plots import plot_lie_detection

    plot_lie_detection(data, args.plot)
    print(render_table(data["table"]))
    print(f"\nwritten: {args.data}, {args.plot} ({data['command']})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
