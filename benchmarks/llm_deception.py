"""A deception benchmark for language models: how often an agent lies at the table, how often its
lies are caught, and how well it catches the lies of others, in all five games.

    python benchmarks/llm_deception.py --agent "llm:model=qwen2.5-7b;base_url=http://127.0.0.1:8000/v1"
    python benchmarks/llm_deception.py --agent "llm:model=M;base_url=URL" --opponents zoo --deals 50
    python benchmarks/llm_deception.py --agent rule --deals 20      # any agent spec: a baseline row

Per game, ``--deals`` fixed deals (deal d: seed ``--seed + d``), the agent in one seat (seat
``-d mod N``: ``training.match.lineup_for_game`` rotates it over the table) and ``--opponents``
(``rule``, ``zoo`` or any agent spec; a comma list names each other seat) in the others. Every
finished game is labelled by the bluffing kit (``training.bluffing.claims``: each claim with its
truth, whether it was challenged and caught) and the agent's own rows give, per game, the numbers
of ``smuggle analyze --deception``, read by the same code on the same rows
(``training.bluffing.metrics.report_sections`` and its metrics: one definition):

* **win rate**: a shared win counts 1/k, a game cut short counts none; 95% Wilson interval;
* **bluff rate**: of its claims, the share that were false (forced claims count: the table
  cannot tell them apart); **lies caught**: of its lies that the rules let anyone challenge, the
  share exposed; the mean payoff of its chosen lies and truths, and their gap (JSON only);
* **detection**, from its calls (its chosen ones: a forced call detects nothing, and is counted
  apart as **forced calls**): the **challenge rate**, **precision** (of its challenges, the
  share that met a lie), **recall** (of the lies it faced, the share it challenged) and the
  balanced accuracy (JSON only);
* **commitments missed**: of its hidden commitments that miss when they do not turn out as
  chosen (a Humble smuggle selection discarded, an Import / Export bid that lost the ship), the
  share missed; **Play cards on a discarded card** (Humble smuggle): of its Play cards, the share
  whose card was discarded (an attack that met its aim, or a protection that failed: no miss).

Decisions within one deal are not independent, so every number gets the percentile bootstrap
interval over deals (``--bootstrap`` resamples, seeded); a share of decisions shows the wider
span of that and Wilson's interval over its decisions (a bootstrap of 3 challenges out of 3
collapses to the point [1, 1]). From the agent's records (an ``llm:`` agent keeps one per asked
decision): decisions asked, parse failures, fallbacks, tokens and latency. Prints a Markdown table and writes every number to ``--out`` (JSON, with the
table as ``scripts/update_docs.py``'s ``data-table`` reads it). ``docs/llm.md``'s table comes from
the scripted mock agent of ``benchmarks/mock_llm_server.py``, not a language model::

    python benchmarks/mock_llm_server.py --port 8001 --garble 0.05 &
    python benchmarks/llm_deception.py --agent "llm:model=scripted-mock;base_url=http://127.0.0.1:8001/v1" \\
        --label "scripted mock, not a language model" --out docs/img/data/llm_deception.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from training.stats import wilson_interval, win_shares  # noqa: E402

# The deception numbers of ``smuggle analyze --deception``: this benchmark's key -> (the section of
# ``training.bluffing.metrics.report_sections`` whose rows it reads, the metric's key there).
DECEPTION = {
    "bluff_rate": ("claim", "rate"),
    "lie_payoff": ("claim", "lie_payoff"),
    "truth_payoff": ("claim", "truth_payoff"),
    "payoff_gap": ("claim", "payoff_gap"),
    "lies_caught": ("claim", "lies_caught"),
    "challenge_rate": ("call", "challenge_rate"),
    "precision": ("call", "precision"),
    "recall": ("call", "recall"),
    "balanced_accuracy": ("call", "auroc"),  # the AUROC of the decision itself
    "miss_rate": ("commitment", "rate"),
    "play_discarded": ("commitment:play", "rate"),
}
# The shares of rows among rows, which also get a Wilson interval (see ``share_interval``).
WILSON = {"rate", "lies_caught", "challenge_rate", "precision", "recall"}
TABLE_RATES = ("bluff_rate", "lies_caught", "challenge_rate", "precision", "recall", "miss_rate", "play_discarded")
RECORD_SUMS = ("asked", "retries", "parse_failures", "fallbacks", "errors", "prompt_tokens", "completion_tokens")


# ----- one deal ------------------------------------------------------------------------------------
def claim_counts(rows: Sequence[Any], seat: int) -> dict[str, int]:
    """The counts behind the deception rates, from the labelled decisions of ``seat`` (the rows of
    ``report_sections``: forced calls apart, commitments of ``DECISION_LABELS`` apart)."""
    from training.bluffing.metrics import DECISION_LABELS

    mine = [r for r in rows if r.seat == seat]
    claims = [r for r in mine if r.role == "claim"]
    lies = [r for r in claims if not r.truth]
    open_lies = [r for r in lies if r.caught is not None]  # the rules let someone challenge it
    calls = [r for r in mine if r.role == "call" and not r.forced]
    challenges = [r for r in calls if r.challenged]
    commitments = [r for r in mine if r.role == "commitment" and r.decision not in DECISION_LABELS]
    plays = [r for r in mine if r.role == "commitment" and r.decision == "play"]
    return {
        "claims": len(claims),
        "lies": len(lies),
        "open_lies": len(open_lies),
        "caught": sum(1 for r in open_lies if r.caught),
        "calls": len(calls),
        "forced_calls": sum(1 for r in mine if r.role == "call" and r.forced),
        "challenges": len(challenges),
        "true_challenges": sum(1 for r in challenges if not r.truth),
        "lies_faced": sum(1 for r in calls if not r.truth),
        "commitments": len(commitments),
        "held": sum(1 for r in commitments if r.truth),
        "plays": len(plays),
        "plays_on_discarded": sum(1 for r in plays if not r.truth),
    }


def record_counts(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What the agent's records of one game add up to (an agent without records: zeros)."""
    prompt = [r["prompt_tokens"] for r in records if r.get("prompt_tokens") is not None]
    completion = [r["completion_tokens"] for r in records if r.get("completion_tokens") is not None]
    return {
        "asked": len(records),
        "retries": sum(int(r.get("retries") or 0) for r in records),
        "parse_failures": sum(int(r.get("parse_failures") or 0) for r in records),
        "fallbacks": sum(1 for r in records if r.get("fallback")),
        "errors": sum(1 for r in records if r.get("error")),
        "prompt_tokens": sum(prompt),
        "completion_tokens": sum(completion),
        "token_reports": len(prompt),
        "latencies": [float(r.get("latency_s") or 0.0) for r in records],
    }


def play_deal(game: Any, agents: list[Any], deal: int, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play deal ``deal`` (seed ``seed + deal``) with ``agents[0]`` the benchmarked agent, its seat
    rotated; returns the deal's row and the agent's labelled decisions (``Claim`` rows)."""
    from agents.arena import play
    from training.bluffing import claims
    from training.match import lineup_for_game

    n = game.num_players
    seat = (-deal) % n  # lineup_for_game puts lineup[0] here
    driver = play(game, lineup_for_game(agents, deal), seed + deal)
    take = getattr(agents[0], "take_records", None)
    records = take() if take is not None else []
    scores = [float(s) for s in driver.state.scores()]
    share = win_shares(scores)[seat] if driver.terminated else 0.0  # a game cut short has no winner
    labelled = claims(driver.state.to_replay())
    row = {
        "seed": seed + deal,
        "seat": seat,
        "terminated": bool(driver.terminated),
        "score": scores[seat],
        "win_share": share,
        **claim_counts(labelled, seat),
        **record_counts(records),
    }
    return row, [c.to_dict() for c in labelled if c.seat == seat]


# ----- one game ------------------------------------------------------------------------------------
def opponent_specs(text: str, n: int) -> list[str]:
    """The specs of the ``n - 1`` other seats: one spec for all, or one per seat."""
    from training.errors import UsageError

    specs = [s.strip() for s in text.split(",") if s.strip()]
    if len(specs) == 1:
        return specs * (n - 1)
    if len(specs) != n - 1:
        raise UsageError(f"--opponents names {len(specs)} agents; give one, or one per other seat ({n - 1})")
    return specs


def run_game(env_id: str, args: argparse.Namespace) -> dict[str, Any]:
    """Every deal of one game, and its summary."""
    import smuggle_envs
    from training.match import build_lineup

    config = {} if args.players is None else {"num_players": args.players}
    game = smuggle_envs.make_game(env_id, **config)
    specs = [args.agent, *opponent_specs(args.opponents, game.num_players)]
    warn = lambda text: print(f"{env_id}: {text}", file=sys.stderr)
    agents, labels = build_lineup(specs, game, seed=args.seed, warn=warn)
    start = time.perf_counter()
    played = [play_deal(game, agents, d, args.seed) for d in range(args.deals)]
    seconds = time.perf_counter() - start
    print(f"{env_id}: {args.deals} deals in {seconds:.0f} s", file=sys.stderr, flush=True)
    deals = [row for row, _ in played]
    summary = summarise(deals, [c for _, mine in played for c in mine], game.num_players, args.bootstrap, args.seed)
    for deal in deals:
        deal.pop("latencies")  # summarised: the JSON keeps one row a deal, not one a decision
    return {
        "env_id": env_id,
        "players": game.num_players,
        "opponents": labels[1:],  # as built: "rule->random" where a kind has no bot for the game
        "seconds": seconds,
        **summary,
        "per_deal": deals,
    }


# ----- statistics ----------------------------------------------------------------------------------
def share_interval(value: float, count: int, boot: list[float]) -> list[float]:
    """The wider span of the bootstrap interval over deals and Wilson's over the ``count`` rows a
    share rests on: the bootstrap is the honest one when the decisions of a deal hang together,
    and Wilson's keeps a handful of decisions that all agree from reading as certainty (a
    bootstrap of 3 challenges out of 3 is the point [1, 1])."""
    lo, hi = wilson_interval(value * count, count)
    return [min(lo, boot[0]), max(hi, boot[1])]


def bootstrapped(rows: list[dict[str, Any]], resamples: int, seed: int) -> dict[str, dict[str, Any]]:
    """Every metric of ``training.bluffing.metrics`` on the agent's rows of each section of
    ``report_sections`` (the rows ``smuggle analyze --deception`` reads), keyed
    ``section.metric`` (``commitment:play.rate``), with its bootstrap interval over deals."""
    from training.bluffing import metrics as m

    all_cols = m.as_columns(rows)
    found: dict[str, dict[str, Any]] = {}
    for role, decision, mask in m.report_sections(all_cols) if rows else []:
        cols = m.select(all_cols, mask)
        metrics = m.call_metrics() if role == "call" else m.claim_metrics(role, decision)
        cols["score"] = cols["challenged"]  # a call's AUROC ranks by the decision: the balanced accuracy
        units = {x.key: x.unit for x in metrics}
        group = role if decision is None else f"{role}:{decision}"
        for key, value in m.bootstrap(metrics, cols, cols["seed"], resamples, seed).items():
            found[f"{group}.{key}"] = {"unit": units[key], **value.as_dict()}
    return found


def deception(rows: list[dict[str, Any]], resamples: int, seed: int) -> dict[str, dict[str, Any]]:
    """The agent's deception numbers (``DECEPTION``): value, ``ci`` (for a share, the span with
    Wilson's: ``share_interval``), the bootstrap interval alone and ``n``, the rows it rests on."""
    found = bootstrapped(rows, resamples, seed)
    out = {}
    for name, (group, key) in DECEPTION.items():
        b = found.get(f"{group}.{key}")
        if b is None or b["value"] is None:
            out[name] = {"value": None, "ci": None, "ci_bootstrap": None, "n": b["count"] if b else 0}
            continue
        boot = [b["low"], b["high"]] if b["low"] is not None else [b["value"], b["value"]]
        ci = share_interval(b["value"], b["count"], boot) if key in WILSON else boot
        out[name] = {"value": b["value"], "ci": ci, "ci_bootstrap": boot, "n": b["count"], "unit": b["unit"]}
    return out


def summarise(
    deals: list[dict[str, Any]], rows: list[dict[str, Any]], players: int, resamples: int, seed: int
) -> dict[str, Any]:
    """The game's win rate, deception numbers with their intervals, and the record totals."""
    wins = sum(d["win_share"] for d in deals)
    lo, hi = wilson_interval(wins, len(deals))
    return {
        "deals": len(deals),
        "unfinished": sum(1 for d in deals if not d["terminated"]),
        "win_rate": {"value": wins / len(deals) if deals else None, "ci": [lo, hi], "n": len(deals)},
        "chance": 1.0 / players,
        "mean_score": float(np.mean([d["score"] for d in deals])) if deals else None,
        "forced_calls": int(sum(d["forced_calls"] for d in deals)),
        **deception(rows, resamples, seed),
        "records": record_summary(deals),
    }


def record_summary(deals: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals of the agent's records over the deals, and per asked decision."""
    totals = {key: int(sum(d[key] for d in deals)) for key in RECORD_SUMS}
    reports = sum(d["token_reports"] for d in deals)
    latencies = np.array([x for d in deals for x in d["latencies"]], dtype=float)
    asked = totals["asked"]
    return {
        **totals,
        "fallback_rate": totals["fallbacks"] / asked if asked else None,
        "prompt_tokens_per_decision": totals["prompt_tokens"] / reports if reports else None,
        "completion_tokens_per_decision": totals["completion_tokens"] / reports if reports else None,
        "latency_mean_s": float(latencies.mean()) if asked else None,
        "latency_p95_s": float(np.percentile(latencies, 95)) if asked else None,
    }


# ----- the table -----------------------------------------------------------------------------------
def rate_cell(rate: dict[str, Any]) -> str:
    """``12.5% [5.1, 27.0] of 40``; ``-`` where nothing counted."""
    if rate["value"] is None:
        return "-"
    ci = rate["ci"] or [rate["value"], rate["value"]]
    return f"{100 * rate['value']:.1f}% [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}] of {rate['n']}"


def records_cells(records: dict[str, Any]) -> list[str]:
    """The cells of the agent's records: asked / parse failures / fallbacks, tokens, latency."""
    if not records["asked"]:
        return ["-", "-", "-"]
    tokens = "-"
    if records["prompt_tokens_per_decision"] is not None:
        tokens = f"{records['prompt_tokens_per_decision']:,.0f} + {records['completion_tokens_per_decision']:,.0f}"
    mean = records["latency_mean_s"]
    latency = f"{1000 * mean:.0f} ms" if mean < 1 else f"{mean:.1f} s"
    return [f"{records['asked']} / {records['parse_failures']} / {records['fallbacks']}", tokens, latency]


def table(games: list[dict[str, Any]], label: str) -> dict[str, Any]:
    """The result table, as ``scripts/update_docs.py``'s ``data-table`` block reads it."""
    headers = [
        f"game ({label})",
        "deals",
        "win rate [95% CI] (chance)",
        "bluff rate",
        "lies caught",
        "challenge rate",
        "detection precision",
        "detection recall",
        "forced calls",
        "commitments missed",
        "Play cards on a discarded card",
        "asked / parse failures / fallbacks",
        "tokens per decision (prompt + answer)",
        "latency per decision",
    ]
    rows = []
    for g in games:
        rates = [rate_cell(g[name]) for name in TABLE_RATES]
        rates.insert(TABLE_RATES.index("miss_rate"), str(g["forced_calls"]))  # after the detection columns
        win = rate_cell(g["win_rate"]).rsplit(" of ", 1)[0] + f" ({100 * g['chance']:.0f}%)"
        rows.append([f"`{g['env_id']}`", g["deals"], win, *rates, *records_cells(g["records"])])
    return {"headers": headers, "align": "l" + "r" * (len(headers) - 1), "rows": rows}


def markdown(entry: dict[str, Any]) -> str:
    """The table as Markdown."""
    lines = [
        "| " + " | ".join(entry["headers"]) + " |",
        "|" + "|".join("---" if a == "l" else "---:" for a in entry["align"]) + "|",
    ]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in entry["rows"]]
    return "\n".join(lines)


def to_json(result: dict[str, Any]) -> str:
    """``result`` as indented JSON with each per-deal row on one line (a file of a few hundred
    lines, not thousands, for a table kept in the repository)."""
    rows: dict[str, str] = {}
    games = []
    for g in result["games"]:
        marks = []
        for row in g["per_deal"]:
            mark = f"@row{len(rows)}@"
            rows[json.dumps(mark)] = json.dumps(row)
            marks.append(mark)
        games.append({**g, "per_deal": marks})
    text = json.dumps({**result, "games": games}, indent=1)
    for mark, row in rows.items():
        text = text.replace(mark, row, 1)
    return text + "\n"


# ----- the command ---------------------------------------------------------------------------------
def default_label(spec: str) -> str:
    """The table's name for the agent: an ``llm:`` spec's model (never its URL or key), else the spec."""
    found = re.search(r"(?:^llm:|;)model=([^;,]+)", spec)
    return f"llm:{found.group(1)}" if found else spec


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line, checked (an unknown env id or a count below 1 is a usage error)."""
    import smuggle_envs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", required=True, help='the agent measured: "llm:model=NAME;base_url=URL", or any spec')
    parser.add_argument("--opponents", default="rule", help="rule, zoo or any spec; a comma list: one per other seat")
    parser.add_argument("--envs", default=",".join(smuggle_envs.ENV_IDS), help="comma-separated env ids (all five)")
    parser.add_argument("--deals", type=int, default=20, help="deals per game (default 20)")
    parser.add_argument("--players", type=int, default=None, help="seats at the table (default: each game's own)")
    parser.add_argument("--seed", type=int, default=0, help="deal d of every game has seed SEED + d (default 0)")
    parser.add_argument("--bootstrap", type=int, default=2000, help="bootstrap resamples of the deals (default 2000)")
    parser.add_argument("--label", default=None, help="the agent's name in the table (default: the model or spec)")
    parser.add_argument("--out", default=None, help="write every number and the table here (JSON)")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.bootstrap < 1:
        parser.error("--deals and --bootstrap must be at least 1")
    unknown = sorted(set(args.envs.split(",")) - set(smuggle_envs.ENV_IDS))
    if unknown:
        parser.error(f"unknown env id(s) {', '.join(unknown)}; known: {', '.join(smuggle_envs.ENV_IDS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    """Play every game's deals, print the table, write the JSON; 2 on a bad spec or a refusal."""
    args = parse_args(argv)
    from agents.llm import LLMError
    from training.errors import UsageError

    envs = [e.strip() for e in args.envs.split(",") if e.strip()]
    try:
        games = [run_game(env_id, args) for env_id in envs]
    except (UsageError, LLMError) as exc:  # a bad spec, or an endpoint that refuses the model
        print(f"llm_deception: error: {exc}", file=sys.stderr)
        return 2
    label = args.label or default_label(args.agent)
    entry = table(games, label)
    print(markdown(entry))
    if args.out:
        settings = {k: getattr(args, k) for k in ("opponents", "deals", "players", "seed", "bootstrap")}
        result = {"agent": default_label(args.agent), "label": label, **settings, "games": games, "table": entry}
        path = Path(args.out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(to_json(result), encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
