"""``smuggle dataset DB --out DIR``: every claim of the stored games as a columnar dataset.

Each stored game (``stored.py``: tournaments and the browser app's games) is replayed through
its game's labeller (``claims``), and each labelled decision becomes one row: the
:class:`~training.bluffing.Claim` fields, then what the store knows of the game and seat
(``STORE_COLUMNS``: game id, source, agent, a person's seconds for the decision), then, with
``--observations``, the seat's float32 observation at the decision.

**Why Parquet (through pyarrow)**: one file per split, each with a typed schema (booleans that
may be null stay booleans, the observation a list of float32, the columns' descriptions in the
file's metadata), compressed, and read as it is by pandas (``read_parquet``), polars, DuckDB
(``SELECT * FROM 'train.parquet'``) and Spark, with no server and no import step. A DuckDB file
would tie readers to one engine's format version; CSV loses the types and the lists. Rows are
written in batches, so a large database is never held in memory whole.

**Splits by seed**: a split is chosen for each seed by a hash of the seed (the first 8 bytes of
its SHA-256 as a fraction of 2**64, against the splits' cumulative shares), so every game of a
deal (each seating of a duplicate tournament, each database, each run) lands in the same split
and no deal is in two. The files are ``DIR/<split>.parquet`` (every split, even an empty one)
and ``DIR/schema.json`` (the columns, the splits with their rows, games and seeds, the source).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import string
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from smuggle_envs.core.errors import SmuggleEnvsError
from training.db import DatabaseError
from training.errors import UsageError
from training.paths import writable_dir

from . import CLAIM_COLUMNS, OBSERVATION_COLUMN, STORE_COLUMNS, Column
from .games import label_replay
from .stored import StoredGame, open_db, stored_games

BATCH_ROWS = 20_000  # rows a split buffers before writing them as one row group

_NAME = re.compile(r"[A-Za-z0-9_-]+")


def parse_splits(text: str) -> dict[str, float]:
    """``"train=0.8,val=0.1,test=0.1"`` -> ``{"train": 0.8, ...}``; a ``UsageError`` on one line
    for a bad item, a repeated name, a share outside (0, 1] or shares not summing to 1."""
    splits: dict[str, float] = {}
    for item in text.split(","):
        name, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not _NAME.fullmatch(name):
            raise UsageError(f"--splits: {item.strip()!r} is not NAME=FRACTION (e.g. {'train=0.8,test=0.2'})")
        try:
            share = float(value)
        except ValueError:
            raise UsageError(f"--splits: {value!r} is not a number (in {item.strip()!r})") from None
        if not 0 < share <= 1:
            raise UsageError(f"--splits: the share of {name!r} must be in (0, 1], got {value}")
        if name in splits:
            raise UsageError(f"--splits: {name!r} is named twice")
        splits[name] = share
    total = sum(splits.values())
    if abs(total - 1) > 1e-6:
        raise UsageError(f"--splits: the shares must sum to 1, they sum to {total:g}")
    return splits


def split_of(seed: int, splits: dict[str, float]) -> str:
    """The split of every game dealt from ``seed`` (see the module docstring)."""
    digest = hashlib.sha256(str(int(seed)).encode()).digest()
    point = int.from_bytes(digest[:8], "big") / 2**64
    edge = 0.0
    for name, share in splits.items():
        edge += share
        if point < edge:
            return name
    return next(reversed(splits))  # the last edge may fall short of 1 by rounding


def _shared_token(token: str) -> str:
    """A path in a spec by its file name only (a URL, a number, a word: as it is)."""
    if "://" in token:
        return token
    drive = len(token) > 2 and token[0] in string.ascii_letters and token[1] == ":" and token[2] in "/\\"
    if token.startswith(("/", "~", ".")) or "/" in token or "\\" in token or drive:
        return re.split(r"[/\\]", token.rstrip("/\\"))[-1] or token
    return token


def shared_spec(spec: str) -> str:
    """``spec`` as a shared dataset shows it: every path in it (``ppo:/home/me/run/model.pt``, an
    option's value) by its file name only (``ppo:model.pt``), so no path of the machine that
    made the dataset leaves it; the model itself is named by its checksum (``agent_sha256``)."""
    kind, colon, arg = spec.partition(":")
    if not colon:
        return _shared_token(spec)
    parts = re.split(r"([;,])", arg)  # the separators kept, to join back

    def item(text: str) -> str:
        key, eq, value = text.partition("=")
        return f"{key}={_shared_token(value)}" if eq and "/" not in key else _shared_token(text)

    return kind + colon + "".join(p if p in ";," else item(p) for p in parts)


def _agent_columns(game: StoredGame, seat: int) -> dict[str, Any]:
    """The seat's ``agent`` (the spec the user gave, else the stored one), ``agent_sha256`` and
    ``agent_name``, with no path of this machine (``shared_spec``)."""
    record = game.record
    name = record.seating[seat]
    entry = game.entries.get(name)
    spec = entry.spec if entry is not None else record.agents[seat]
    fingerprint = entry.fingerprint if entry is not None else ""
    return {"agent": shared_spec(spec), "agent_sha256": fingerprint or None, "agent_name": shared_spec(name)}


def game_rows(game: StoredGame, observe: bool = False) -> list[dict[str, Any]]:
    """The dataset's rows of one stored game: its claims with the store's columns."""
    record = game.record
    try:
        labelled = label_replay(record.replay(), observe)
    except (SmuggleEnvsError, ValueError) as exc:
        raise UsageError(f"game {record.id} (tournament {record.tournament_id}) cannot be replayed: {exc}", 1) from None
    rows = []
    for claim, observation in labelled:
        row = claim.to_dict()
        row.update(
            num_players=len(record.seating),
            game_id=record.id,
            source=game.source,
            **_agent_columns(game, claim.seat),
            seconds=game.seconds.get(claim.step),
        )
        if observe:
            row["observation"] = None if observation is None else observation.tolist()
        rows.append(row)
    return rows


def columns(observe: bool) -> tuple[Column, ...]:
    """The dataset's columns, in order."""
    return CLAIM_COLUMNS + STORE_COLUMNS + ((OBSERVATION_COLUMN,) if observe else ())


def arrow_schema(observe: bool) -> Any:
    """The Parquet files' schema: each column's type, nullability and description."""
    import pyarrow as pa

    kinds = {
        "string": pa.string(),
        "int64": pa.int64(),
        "bool": pa.bool_(),
        "float64": pa.float64(),
        "list<float32>": pa.list_(pa.float32()),
    }
    return pa.schema(
        [pa.field(c.name, kinds[c.type], c.nullable, metadata={"doc": c.doc}) for c in columns(observe)],
        metadata={"source": "smuggle dataset (training/bluffing/dataset.py)"},
    )


class SplitWriter:
    """One split's Parquet file, written in row groups of ``BATCH_ROWS``."""

    def __init__(self, path: Path, schema: Any):
        import pyarrow.parquet as pq

        self.path, self.schema = path, schema
        self.writer = pq.ParquetWriter(str(path), schema)
        self.buffer: list[dict[str, Any]] = []
        self.rows = 0
        self.games: set[int] = set()
        self.seeds: set[int] = set()

    def add(self, game: StoredGame, rows: list[dict[str, Any]]) -> None:
        self.games.add(game.record.id)
        self.seeds.add(game.record.seed)
        self.buffer += rows
        self.rows += len(rows)
        if len(self.buffer) >= BATCH_ROWS:
            self.flush()

    def flush(self) -> None:
        import pyarrow as pa

        if self.buffer:
            self.writer.write_table(pa.Table.from_pylist(self.buffer, schema=self.schema))
            self.buffer = []

    def close(self) -> None:
        self.flush()
        self.writer.close()  # an empty split still gets a file with the schema


def _write(games: Iterable[StoredGame], out: Path, splits: dict[str, float], observe: bool) -> dict[str, SplitWriter]:
    """Every game's rows into its split's file; the writers, closed."""
    schema = arrow_schema(observe)
    writers = {name: SplitWriter(out / f"{name}.parquet", schema) for name in splits}
    try:
        for game in games:
            writers[split_of(game.record.seed, splits)].add(game, game_rows(game, observe))
    finally:
        for w in writers.values():
            w.close()
    return writers


def schema_document(
    db: str, splits: dict[str, float], writers: dict[str, SplitWriter], observe: bool
) -> dict[str, Any]:
    """What ``schema.json`` holds: the columns, the split rule, each split's counts, the source
    (the database's file name: no path of the machine that made the dataset)."""
    return {
        "source": Path(db).name,
        "format": "parquet",
        "columns": [c._asdict() for c in columns(observe)],
        "split_rule": "split of a seed: sha256(str(seed)) first 8 bytes / 2**64 against the cumulative shares",
        "splits": {
            name: {
                "share": share,
                "file": writers[name].path.name,
                "rows": writers[name].rows,
                "games": len(writers[name].games),
                "seeds": len(writers[name].seeds),
            }
            for name, share in splits.items()
        },
    }


def _games(path: str) -> tuple[Any, Iterator[StoredGame]]:
    """The open database and its stored games; a one-line ``UsageError`` for a file that is no
    database or one with no games."""
    try:
        db = open_db(path)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    if db.count_games() == 0:
        db.close()
        raise UsageError(f"{path!r} holds no stored games: play some first (smuggle tournament, smuggle serve)")
    return db, stored_games(db)


def cmd_dataset(args: argparse.Namespace) -> int:
    """``smuggle dataset``: write the splits and ``schema.json``; print what was written."""
    splits = parse_splits(args.splits)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise UsageError(
            "smuggle dataset writes Parquet through pyarrow: pip install 'smuggle_envs[dataset]'"
        ) from None
    db, games = _games(args.db)
    out = writable_dir(args.out, "the output folder", "choose another --out")
    try:
        writers = _write(games, out, splits, args.observations)
    finally:
        db.close()
    document = schema_document(str(args.db), splits, writers, args.observations)
    (out / "schema.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    for w in writers.values():
        print(f"{w.path}: {w.rows} rows ({len(w.games)} games, {len(w.seeds)} seeds)")
    print(f"{out / 'schema.json'}: the columns and the splits")
    return 0
