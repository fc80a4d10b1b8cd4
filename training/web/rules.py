"""The side panel's rules: derived from the rules pages and the games' card data, never retyped.

* The rules summary is the "Rule (rulebook)" column of the **Every rule** table of
  ``docs/rules/<game>.md`` (the page that maps every rule to its code and test).
* The card tables come from each game's validated data (``game.data``): Smuggle's duty and fine
  per item, CIQ's ranks, Illegal's cards (with "what it does" from the page's **The cards**
  table), Humble smuggle's white and black cards, and Import / Export's 128 cards and powers.

The rules pages live in the source checkout (``docs/`` is not installed with the package); without
them the panel still has every card table and says where the rules are.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"

Table = dict[str, Any]


def _plain(cell: str) -> str:
    """Markdown cell -> plain text: no code ticks, emphasis or link targets."""
    cell = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", cell)
    return cell.replace("`", "").replace("**", "").replace("\\|", "|").strip()


def _cells(line: str) -> list[str]:
    # split on pipes that are not escaped (rulebook text may contain "\|")
    return [_plain(c) for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def md_tables(text: str, section: str) -> list[tuple[list[str], list[list[str]]]]:
    """The tables of section ``## section`` (up to the next ``## ``): (header, rows) each."""
    tables: list[tuple[list[str], list[list[str]]]] = []
    inside = False
    current: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("## "):
            inside = line[3:].strip().lower().startswith(section.lower())
        is_row = inside and line.lstrip().startswith("|")
        if is_row:
            current.append(line)
        elif current:
            header, body = _cells(current[0]), current[2:]  # current[1] is the |---| line
            tables.append((header, [_cells(row) for row in body]))
            current = []
    return tables


def _column(header: list[str], *prefixes: str) -> int | None:
    for i, name in enumerate(header):
        if any(name.lower().startswith(p) for p in prefixes):
            return i
    return None


@cache
def _page(env_id: str) -> str | None:
    path = DOCS / f"{env_id.removesuffix('_v0')}.md"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def rules_summary(env_id: str) -> list[dict[str, str]]:
    """Every rule's rulebook text, numbered as the rules page numbers it."""
    text = _page(env_id)
    if text is None:
        return []
    rules = []
    for header, rows in md_tables(text, "Every rule"):
        col = _column(header, "rule")
        if col is None:
            continue
        num = _column(header, "#")
        for i, row in enumerate(rows):
            n = row[num] if num is not None and num < len(row) else str(i + 1)
            # rows numbered "—" are the engine's own promises (determinism, the API), not rules
            if col < len(row) and row[col] not in ("", "—", "-") and n not in ("—", "-"):
                rules.append({"n": n, "text": row[col]})
    return rules


def illegal_card_texts() -> dict[str, str]:
    """Illegal card name (lower case) -> "what it does", from the page's The cards table."""
    text = _page("illegal_v0")
    texts: dict[str, str] = {}
    for header, rows in md_tables(text or "", "The cards"):
        name, what = _column(header, "card"), _column(header, "what it does")
        if name is None or what is None:
            continue
        for row in rows:
            if max(name, what) < len(row):
                texts[row[name].lower()] = row[what]
    return texts


# ----- card tables from the games' data ---------------------------------------------------------------
def _smuggle_tables(game: Any) -> list[Table]:
    d = game.data
    rows = [
        [name, count, f"£{duty}", f"£{fine}"]
        for name, count, duty, fine in zip(d.item_names, d.item_counts, d.duties, d.fines)
    ]
    rows.append(["diplomatic bag", d.bag_count, "-", f"false claim: £{d.false_bag_fine} + all fines"])
    rows.append(["luggage", d.luggage_count, "-", "-"])
    payments = [
        ["defamation (a truthful hand searched)", f"£{d.defamation}"],
        ["informer's reward (a liar exposed)", f"£{d.informer_reward}"],
        ["starting money per player", f"£{d.money_per_player}"],
    ]
    return [
        {"title": "Duty and fine per item", "columns": ["card", "cards", "duty", "fine"], "rows": rows},
        {"title": "Payments", "columns": ["what", "amount"], "rows": payments},
    ]


def _ciq_tables(game: Any) -> list[Table]:
    d = game.data
    rows = [[rank, value, effect] for rank, value, effect in zip(d.rank_names, d.values, d.effects)]
    rows.append(["Joker", "-", "wild"])
    return [{"title": "Ranks", "columns": ["rank", "value", "effect"], "rows": rows}]


def _illegal_tables(game: Any) -> list[Table]:
    d = game.data
    texts = illegal_card_texts()
    rows = [
        [name, count, f"{(value or penalty):,}" if (value or penalty) else "", texts.get(name.lower(), "")]
        for name, count, value, penalty in zip(d.names, d.counts, d.values, d.penalties)
    ]
    return [{"title": "The cards", "columns": ["card", "count", "value / cost", "what it does"], "rows": rows}]


def _humble_tables(game: Any) -> list[Table]:
    d = game.data
    white = [[c.value, c.points, c.rule.replace("_", " "), c.symbol or "", c.draws] for c in d.white]
    black = [[name, count] for name, count in zip(game.black_names, game.black_kind_counts)]
    return [
        {"title": "White cards", "columns": ["card", "points", "round rule", "symbol", "black draws"], "rows": white},
        {"title": "Black cards", "columns": ["card", "copies"], "rows": black},
        {"title": "Set points", "columns": ["set size", "points"], "rows": [[k, v] for k, v in d.set_points.items()]},
    ]


def _import_export_tables(game: Any) -> list[Table]:
    from smuggle_envs.games.import_export.data import ACTIONS, GOOD_TYPES

    rows = [
        [
            c.id,
            c.name.title(),
            GOOD_TYPES[c.type],
            ACTIONS[c.action],
            c.tier,
            ", ".join(GOOD_TYPES[t] for t in c.load),
            c.timing,
            c.module,
            c.power,
        ]
        for c in game.data.cards
    ]
    columns = ["id", "card", "type", "action", "tier", "load", "timing", "module", "power"]
    return [{"title": f"Every card ({len(rows)}) and its power", "columns": columns, "rows": rows}]


_TABLES = {
    "smuggle_v0": _smuggle_tables,
    "ciq_v0": _ciq_tables,
    "illegal_v0": _illegal_tables,
    "humble_smuggle_v0": _humble_tables,
    "import_export_v0": _import_export_tables,
}


@cache
def rules_panel(env_id: str) -> dict[str, Any]:
    """What the side panel shows for ``env_id``: the rules summary and the card tables."""
    from smuggle_envs import make_game

    game = make_game(env_id)
    tables = _TABLES.get(env_id, lambda g: [])(game)
    page = f"docs/rules/{env_id.removesuffix('_v0')}.md"
    rules = rules_summary(env_id)
    return {
        "env_id": env_id,
        "rules": rules,
        "tables": tables,
        "source": page if rules else f"{page} (in the source checkout; not installed with the package)",
    }
