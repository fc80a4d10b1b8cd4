"""The parser of ``smuggle dataset`` (its code: ``dataset.py``).

``add_dataset(subparsers)`` adds the subcommand and returns its parser; ``training.cli.COMMANDS``
names it. Only argparse, the options several commands share (``training/options.py``: argparse
only) and the package's schema (standard library only) are imported here, so
``smuggle --help`` builds it without loading the games, numpy or pyarrow; the help lists the
columns from the ``Claim`` dataclass itself, so it cannot drift from the data.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..options import RAW, add_db_file
from . import schema_text

DEFAULT_SPLITS = "train=0.8,val=0.1,test=0.1"


def add_dataset(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "dataset",
        help="every claim of stored games with its truth, as Parquet files",
        formatter_class=RAW,
        description="Replay every game stored in DB (a tournament database, or the browser\n"
        "app's database of 'smuggle serve --db': human games included, with each person's\n"
        "time per decision) and write one row per labelled decision: every declaration,\n"
        "bluff, call, search and hidden commitment, with its truth, whether it was\n"
        "challenged and caught, and the payoff it led to. A row's role is claim (a statement\n"
        "that may be a lie), call (a decision to challenge or believe another seat's claim)\n"
        "or commitment (a hidden choice nobody can challenge). One Parquet file per split\n"
        "(DIR/<split>.parquet) and DIR/schema.json. Splits are by seed: every game of a\n"
        "deal (each seating) lands in the split a hash of its seed picks, so no deal is in\n"
        "two splits.",
        epilog="columns (type; ? = may be null):\n" + schema_text() + "\n\nexamples:\n"
        "  smuggle dataset results.sqlite --out data/\n"
        "  smuggle dataset web.sqlite --out data/ --splits train=0.9,test=0.1 --observations",
    )
    add_db_file(p, "the SQLite database (smuggle tournament --db, smuggle serve --db)")
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write (created if missing)")
    p.add_argument(
        "--splits",
        default=DEFAULT_SPLITS,
        metavar="NAME=FRACTION,...",
        help=f"the splits and their shares of the seeds, summing to 1 (default: {DEFAULT_SPLITS})",
    )
    p.add_argument(
        "--observations",
        action="store_true",
        help="add the column observation: the seat's float32 observation at the decision",
    )
    return p
