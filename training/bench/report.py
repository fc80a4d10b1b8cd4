"""The scorecard as a table, two scorecards compared, and the scorecard as one picture."""

from __future__ import annotations

from typing import Any

from training.stats import format_table

from .protocol import FIELDS

DECEPTION_LABELS = {
    "bluff_rate": "bluff rate",
    "lies_caught": "lies caught",
    "challenge_precision": "challenge precision",
    "challenge_recall": "challenge recall",
}


def _pct(b: dict[str, Any] | None) -> str:
    if not b or b["value"] is None:
        return "n/a"
    low, high = (f"{100 * b[k]:.1f}" if b[k] is not None else "?" for k in ("low", "high"))
    return f"{100 * b['value']:.1f}% [{low}, {high}]"


def _num(b: dict[str, Any] | None, digits: int = 1) -> str:
    if not b or b["value"] is None:
        return "n/a"
    return f"{b['value']:.{digits}f} [{b['low']:.{digits}f}, {b['high']:.{digits}f}]"


def headline(card: dict[str, Any]) -> str:
    """The first line: agent, game, protocol and budget (a quick run said loudly)."""
    quick = "" if card["budget"] == "full" else f" -- {card['budget'].upper()} RUN, not the full protocol"
    return (
        f"smuggle bench: {card['agent']} in {card['env_id']}, {card['num_players']} players; protocol "
        f"{card['protocol']}, budget {card['budget']} ({card['deals']} deals a field, every seat rotation){quick}"
    )


def format_card(card: dict[str, Any]) -> str:
    """The scorecard as text: the fields, the mixed field's rating, decisions and deception."""
    rows = [
        [name, "+".join(f["opponents"]), f["subject_games"], _pct(f["win_rate"]), f"{100 * f['chance']:.0f}%",
         _num(f["mean_score"])]
        for name, f in _in_order(card["fields"], FIELDS)
    ]  # fmt: skip
    lines = [headline(card), ""]
    lines.append(format_table(["field", "opponents", "games", "win rate [95%]", "chance", "mean score [95%]"], rows))
    lines += [f"field {k} not played: {why}" for k, why in card["skipped"].items()]
    mixed = card["mixed"]
    if mixed:
        lines.append(
            f"\nmixed field: Plackett-Luce rating {_num(mixed['rating'], 0)}, place {mixed['place']} of {mixed['of']}"
        )
    d = card["decisions"]
    if d["count"]:
        lines.append(
            f"decisions: {d['count']}, mean {d['mean_ms']:.2f} ms, p95 {d['p95_ms']:.2f} ms; "
            f"errors {d['errors']}, fallbacks {d['fallbacks']}"
        )
    for example in d["error_examples"]:
        lines.append(f"  error: {example}")
    dec = card["deception"]
    rows = [[DECEPTION_LABELS[k], _pct(v), v["count"] if v else 0] for k, v in _in_order(dec, DECEPTION_LABELS)]
    lines += ["", format_table(["deception (bluffing kit)", "value [95%]", "rows"], rows)]
    if card["exploit"]:
        e = card["exploit"]
        lines.append(
            f"\nbest response ({e['steps']} steps, {e['games']} games): wins {_pct(e['win_rate'])} against "
            f"{card['num_players'] - 1} x the agent (chance {100 * e['chance']:.0f}%): a lower bound on its exploitability"
        )
    lines.append(
        f"\nintervals: {100 * card['level']:.0f}% percentile bootstrap over deals ({card['bootstrap']} replicates)"
    )
    return "\n".join(lines)


def _in_order(found: dict[str, Any], order: Any) -> list[tuple[str, Any]]:
    """``found``'s items in the protocol's order (a stored card's keys are sorted)."""
    return [(k, found[k]) for k in order if k in found]


def _numbers(card: dict[str, Any]) -> dict[str, tuple[dict[str, Any] | None, str]]:
    """Every compared number: name -> (interval dict, unit)."""
    found: dict[str, tuple[dict[str, Any] | None, str]] = {}
    for name, f in _in_order(card["fields"], FIELDS):
        found[f"{name}: win rate"] = (f["win_rate"], "share")
        found[f"{name}: mean score"] = (f["mean_score"], "score")
    if card["mixed"]:
        found["mixed: rating"] = (card["mixed"]["rating"], "rating")
    for key, value in _in_order(card["deception"], DECEPTION_LABELS):
        found[DECEPTION_LABELS[key]] = (value, "share")
    return found


def _fmt(b: dict[str, Any] | None, unit: str) -> str:
    return _pct(b) if unit == "share" else _num(b, 0 if unit == "rating" else 1)


def compare(a: dict[str, Any], b: dict[str, Any], names: tuple[str, str] = ("A", "B")) -> tuple[str, int]:
    """The two scorecards side by side, each number marked ``separated`` where the two 95%
    intervals do not overlap; returns ``(text, separated count)``. Scorecards of different
    protocols, games or player counts are not comparable: a one-line ValueError."""
    for key in ("protocol", "env_id", "num_players"):
        if a[key] != b[key]:
            raise ValueError(f"the scorecards differ in {key} ({a[key]!r} vs {b[key]!r}): they are not comparable")
    left, right = _numbers(a), _numbers(b)
    rows, separated = [], 0
    for key in [k for k in left if k in right]:
        (x, unit), (y, _) = left[key], right[key]
        apart = bool(x and y and None not in (x["low"], x["high"], y["low"], y["high"]))
        apart = apart and (x["high"] < y["low"] or y["high"] < x["low"])  # type: ignore[index]
        separated += apart
        rows.append([key, _fmt(x, unit), _fmt(y, unit), "separated" if apart else "-"])
    head = [f"{names[0]}: {headline(a)}", f"{names[1]}: {headline(b)}"]
    if a["budget"] != b["budget"]:
        head.append(f"note: budgets differ ({a['budget']} vs {b['budget']})")
    table = format_table(["number", names[0], names[1], "95% intervals"], rows)
    tail = f"{separated} of {len(rows)} numbers separated (their 95% intervals do not overlap); the rest are not."
    return "\n".join([*head, "", table, "", tail]), separated
