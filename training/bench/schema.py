"""The scorecard's JSON: a versioned schema (JSON Schema, draft 2020-12), checked on write and
on read.

``SCHEMA_VERSION`` counts changes of the file's shape; ``protocol`` (``protocol.PROTOCOL``) names
the games that made the numbers. A reader refuses a file of another schema version, and a
comparison refuses scorecards of different protocols. The check uses ``jsonschema`` where it is
installed, else :func:`check`, a small validator of the keywords this schema uses (type,
required, properties, additionalProperties, items, enum, const, minimum), so the result is the
same either way. The fields are documented in docs/benchmark.md.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
KIND = "smuggle-bench-scorecard"

_NUM = {"type": ["number", "null"]}
_INTERVAL = {
    "type": ["object", "null"],
    "required": ["value", "low", "high", "count"],
    "properties": {"value": _NUM, "low": _NUM, "high": _NUM, "count": {"type": "integer", "minimum": 0}},
    "additionalProperties": False,
}
_FIELD = {
    "type": "object",
    "required": ["opponents", "games", "deals", "subject_games", "chance", "win_rate", "mean_score"],
    "properties": {
        "opponents": {"type": "array", "items": {"type": "string"}},
        "games": {"type": "integer", "minimum": 1},
        "deals": {"type": "integer", "minimum": 1},
        "subject_games": {"type": "integer", "minimum": 0},
        "chance": {"type": "number"},
        "win_rate": _INTERVAL,
        "mean_score": _INTERVAL,
    },
    "additionalProperties": False,
}
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "smuggle bench scorecard",
    "type": "object",
    "required": [
        "kind",
        "schema_version",
        "protocol",
        "budget",
        "deals",
        "agent",
        "env_id",
        "num_players",
        "fields",
        "skipped",
        "mixed",
        "decisions",
        "deception",
        "exploit",
        "level",
        "bootstrap",
        "versions",
    ],
    "properties": {
        "kind": {"const": KIND},
        "schema_version": {"const": SCHEMA_VERSION},
        "protocol": {"type": "string"},
        "budget": {"enum": ["full", "quick", "custom"]},
        "deals": {"type": "integer", "minimum": 1},
        "agent": {"type": "string"},
        "label": {"type": "string"},
        "env_id": {"type": "string"},
        "num_players": {"type": "integer", "minimum": 2},
        "fields": {"type": "object", "additionalProperties": _FIELD},
        "skipped": {"type": "object", "additionalProperties": {"type": "string"}},
        "mixed": {
            "type": ["object", "null"],
            "required": ["rating", "place", "of", "standings"],
            "properties": {
                "rating": _INTERVAL,
                "place": {"type": "integer", "minimum": 1},
                "of": {"type": "integer", "minimum": 1},
                "standings": {"type": "array", "items": {"type": "object"}},
            },
        },
        "decisions": {
            "type": "object",
            "required": ["count", "mean_ms", "p95_ms", "errors", "error_examples", "fallbacks"],
            "properties": {
                "count": {"type": "integer", "minimum": 0},
                "mean_ms": _NUM,
                "p95_ms": _NUM,
                "errors": {"type": "integer", "minimum": 0},
                "error_examples": {"type": "array", "items": {"type": "string"}},
                "fallbacks": {"type": "integer", "minimum": 0},
            },
        },
        "deception": {"type": "object", "additionalProperties": _INTERVAL},
        "exploit": {"type": ["object", "null"]},
        "level": {"type": "number"},
        "bootstrap": {"type": "integer", "minimum": 1},
        "versions": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "additionalProperties": False,
}

_TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "null": type(None),
}


def _is(value: Any, name: str) -> bool:
    if name in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[name])


def check(value: Any, schema: dict[str, Any], where: str = "scorecard") -> None:
    """Raise ValueError (one line, naming the place) where ``value`` breaks ``schema``."""
    types = schema.get("type")
    if types is not None and not any(_is(value, t) for t in ([types] if isinstance(types, str) else types)):
        raise ValueError(f"{where}: expected {types}, got {type(value).__name__}")
    if "const" in schema and value != schema["const"]:
        raise ValueError(f"{where}: expected {schema['const']!r}, got {value!r}")
    if "enum" in schema and value not in schema["enum"]:
        raise ValueError(f"{where}: expected one of {schema['enum']}, got {value!r}")
    if "minimum" in schema and isinstance(value, (int, float)) and value < schema["minimum"]:
        raise ValueError(f"{where}: {value!r} is below {schema['minimum']}")
    if isinstance(value, dict):
        missing = [k for k in schema.get("required", []) if k not in value]
        if missing:
            raise ValueError(f"{where}: lacks {', '.join(missing)}")
        props, extra = schema.get("properties", {}), schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                check(item, props[key], f"{where}.{key}")
            elif extra is False:
                raise ValueError(f"{where}: unknown key {key!r}")
            elif isinstance(extra, dict):
                check(item, extra, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            check(item, schema["items"], f"{where}[{i}]")


def validate(card: dict[str, Any]) -> dict[str, Any]:
    """``card`` if it is a scorecard of this schema version, else a one-line ValueError."""
    if isinstance(card, dict) and card.get("schema_version") not in (None, SCHEMA_VERSION):
        raise ValueError(
            f"scorecard schema version {card.get('schema_version')!r} is not {SCHEMA_VERSION} (this smuggle_envs)"
        )
    try:
        import jsonschema
    except ImportError:
        check(card, SCHEMA)
        return card
    try:
        jsonschema.validate(card, SCHEMA)
    except jsonschema.ValidationError as exc:
        place = ".".join(str(p) for p in exc.absolute_path) or "scorecard"
        raise ValueError(f"{place}: {' '.join(exc.message.split())[:200]}") from None
    return card


RUN_DEPENDENT = ("mean_ms", "p95_ms")
"""The decision times: the only numbers that differ between runs of the same spec and protocol."""


def reproducible(card: dict[str, Any]) -> dict[str, Any]:
    """``card`` less what differs between runs (the decision times, the versions, the agent's
    label): two runs of the same agent, protocol and budget give equal results, on any backend."""
    same = {k: v for k, v in card.items() if k not in ("versions", "agent", "label")}
    same["decisions"] = {k: v for k, v in card["decisions"].items() if k not in RUN_DEPENDENT}
    return same


def clean(value: Any) -> Any:
    """NaN and infinities as None (JSON has none), recursively."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


def write(card: dict[str, Any], path: str | Path) -> None:
    """Check ``card`` and write it as JSON (keys sorted, one item a line)."""
    card = validate(clean(card))
    Path(path).write_text(json.dumps(card, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def read(path: str | Path) -> dict[str, Any]:
    """The checked scorecard of a file; a one-line ValueError naming the file for one that cannot
    be read, is not JSON or is not a scorecard."""
    try:
        card = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    try:
        return validate(card)
    except ValueError as exc:
        raise ValueError(f"{path}: not a bench scorecard: {exc}") from None
