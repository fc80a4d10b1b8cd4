"""The parser of ``smuggle bench`` (its code: ``cli.py``). Only argparse is imported here."""

from __future__ import annotations

import argparse
from typing import Any

from ..options import add_players

EPILOG = """\
examples:
  smuggle bench rule --env smuggle_v0 --quick
  smuggle bench "py:my_pkg.agents:MyAgent;depth=2" --env illegal_v0 --players 4 --workers 2
  smuggle bench --compare runs/bench/a.json runs/bench/b.json

Protocol v1 (docs/benchmark.md): the agent meets 3 fields of one kind of opponent (random,
rule, zoo) and a mixed field (rule bots and random agents, rated by Plackett-Luce); fixed seeded
deals, each played once per seat rotation. Full: 100 deals a field; --quick: 10 (labelled as
quick in the table, the JSON and the picture). Same spec, protocol and budget: the same numbers
on any backend, on any day (only the decision times differ).
"""


def add_bench(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "bench",
        help="an agent's scorecard on the benchmark protocol",
        description="Give an agent a scorecard on the versioned benchmark protocol: win rate and mean\n"
        "score with intervals in each field, its rating and place in the mixed field, decision\n"
        "time, errors and fallbacks, the deception metrics; printed, written as JSON (a versioned\n"
        "schema, checked) and drawn as one picture.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("spec", nargs="?", metavar="SPEC", help="the agent: any spec (rule, zoo, ismcts:..., py:..., ...)")
    p.add_argument("--env", dest="env_id", metavar="ENV_ID", help="the game, e.g. smuggle_v0 (see 'smuggle list')")
    add_players(p, "seats per game (default: the game's default)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--quick", action="store_true", help="the quick budget: 10 deals a field, not 100")
    how.add_argument("--deals", type=int, metavar="D", help="D deals a field (a 'custom' budget, for tests)")
    p.add_argument("--workers", type=int, default=1, metavar="W", help="local processes or Ray tasks (default: 1)")
    p.add_argument("--backend", choices=("local", "ray"), default="local", help="where games run (default: local)")
    p.add_argument("--exploit", type=int, metavar="STEPS", help="also train a best response for STEPS steps")
    p.add_argument("--out", metavar="FILE", help="the JSON (default: runs/bench/ENV_ID[-Np]/SPEC-BUDGET.json)")
    p.add_argument("--no-plot", action="store_true", help="write no picture (else FILE with .png)")
    p.add_argument(
        "--compare", nargs=2, metavar=("A", "B"), help="compare two scorecards: which differences are separated"
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p
