"""The report and export of the agents' stored records (the ``agent_calls`` table of a results
database: the ``llm:`` agent's model calls, or any agent with ``take_records()``).

``calls_report(records)`` is the table ``smuggle analyze`` prints after a tournament's analysis
when it has such records: per agent its decisions asked, the answers it could not read (parse
failures), the retries, the moves played by the fallback, the requests that ended in an error,
the tokens reported and the latency of a decision (mean and 95th percentile).
``write_calls_jsonl(records, path)`` writes the records one JSON object a line (``smuggle
analyze DB --calls-out FILE``): each with its game's id, seed and env id, so a decision can be
replayed from the stored game.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from training.stats import format_table


@dataclass
class CallStats:
    """One agent's records, summed."""

    name: str
    decisions: int = 0
    parse_failures: int = 0
    retries: int = 0
    fallbacks: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latencies: list[float] = field(default_factory=list)

    def add(self, record: dict[str, Any]) -> None:
        self.decisions += 1
        self.parse_failures += int(record.get("parse_failures") or 0)
        self.retries += int(record.get("retries") or 0)
        self.fallbacks += record.get("fallback") is not None
        self.errors += record.get("error") is not None
        self.prompt_tokens += int(record.get("prompt_tokens") or 0)
        self.completion_tokens += int(record.get("completion_tokens") or 0)
        self.latencies.append(float(record.get("latency_s") or 0.0))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0 to 1) of ``values``, by the nearest rank (NaN when empty)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def call_stats(records: Iterable[dict[str, Any]]) -> list[CallStats]:
    """The records summed per agent, in the order the agents first appear."""
    stats: dict[str, CallStats] = {}
    for record in records:
        name = str(record.get("agent", "?"))
        stats.setdefault(name, CallStats(name)).add(record)
    return list(stats.values())


def calls_report(records: Iterable[dict[str, Any]]) -> str:
    """The per-agent table of the records ("" when there are none)."""
    rows = []
    for s in call_stats(records):
        mean = sum(s.latencies) / len(s.latencies)
        rows.append(
            [
                s.name,
                s.decisions,
                s.parse_failures,
                s.retries,
                s.fallbacks,
                s.errors,
                s.prompt_tokens,
                s.completion_tokens,
                f"{mean:.3f}",
                f"{percentile(s.latencies, 0.95):.3f}",
            ]
        )
    if not rows:
        return ""
    headers = ["agent", "decisions", "parse failures", "retries", "fallbacks", "errors"]
    headers += ["prompt tokens", "completion tokens", "mean latency s", "p95 latency s"]
    return "agent calls (models asked for their moves):\n\n" + format_table(headers, rows)


def write_calls_jsonl(records: Iterable[dict[str, Any]], path: str | os.PathLike[str]) -> int:
    """Write ``records`` to ``path`` one JSON object a line; returns how many."""
    count = 0
    with open(path, "w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
            count += 1
    return count


__all__ = ["CallStats", "call_stats", "calls_report", "percentile", "write_calls_jsonl"]
