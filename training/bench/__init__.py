"""``smuggle bench``: one command gives any agent a scorecard on a versioned protocol.

``protocol`` (the fields, seeds and game counts of protocol v1), ``play`` (the games on any
backend, the subject's moves timed and checked), ``score`` (the numbers, with bootstrap
intervals over deals), ``schema`` (the JSON's versioned schema, checked on write and read),
``report`` (the table, the comparison of two scorecards, the picture), ``api`` (``run_bench``,
for notebooks: it takes an agent object too) and ``cli`` (the command). docs/benchmark.md
defines every number.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PROTOCOL", "run_bench"]


def __getattr__(name: str) -> Any:
    # imported on first use: the command line imports ``training.bench.parser`` to build its
    # parser, and that must not load numpy and the games
    if name == "run_bench":
        from .api import run_bench

        return run_bench
    if name == "PROTOCOL":
        from .protocol import PROTOCOL

        return PROTOCOL
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
