"""The side panel's rules: derived from the rules pages and the games' card data, never retyped.

* The rules summary is the "Rule (rulebook)" column of the **Every rule** table of
  ``docs/rules/<game>.md`` (the page that maps every rule to its code and test), or of the page
  the game's plugin names (``WebGame.rules_page``, for a game that lives elsewhere).
* The card tables come from each game's validated data (``game.data``), made by its plugin
  (``WebGame.tables`` in ``training/web/games/<game>.py``): Smuggle's duty and fine per item,
  CIQ's ranks, Illegal's cards (with "what it does" from the page's **The cards** table), Humble
  smuggle's white and black cards, and Import / Export's 128 cards and powers.

The rules pages live in the source checkout (``docs/`` is not installed with the package); without
them the panel still has every card table and says where the rules are.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from .games import web_game

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rules"

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


def column(header: list[str], *prefixes: str) -> int | None:
    """The index of the first column whose name starts with one of ``prefixes`` (any case)."""
    for i, name in enumerate(header):
        if any(name.lower().startswith(p) for p in prefixes):
            return i
    return None


def page_path(env_id: str) -> Path:
    """The rules page of ``env_id``: its plugin's ``rules_page``, else ``docs/rules/<game>.md``."""
    return web_game(env_id).rules_page or DOCS / f"{env_id.removesuffix('_v0')}.md"


@cache
def page(env_id: str) -> str | None:
    """The text of ``env_id``'s rules page, or None where it is not there (an installed package)."""
    try:
        return page_path(env_id).read_text(encoding="utf-8")
    except OSError:
        return None


def rules_summary(env_id: str) -> list[dict[str, str]]:
    """Every rule's rulebook text, numbered as the rules page numbers it."""
    text = page(env_id)
    if text is None:
        return []
    rules = []
    for header, rows in md_tables(text, "Every rule"):
        col = column(header, "rule")
        if col is None:
            continue
        num = column(header, "#")
        for i, row in enumerate(rows):
            n = row[num] if num is not None and num < len(row) else str(i + 1)
            # rows numbered "—" are the engine's own promises (determinism, the API), not rules
            if col < len(row) and row[col] not in ("", "—", "-") and n not in ("—", "-"):
                rules.append({"n": n, "text": row[col]})
    return rules


def _shown_path(path: Path) -> str:
    """``path`` relative to the source checkout where it is inside it (``docs/rules/smuggle.md``)."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


@cache
def rules_panel(env_id: str) -> dict[str, Any]:
    """What the side panel shows for ``env_id``: the rules summary and the card tables."""
    from smuggle_envs import make_game

    tables = web_game(env_id).tables(make_game(env_id))
    shown = _shown_path(page_path(env_id))
    rules = rules_summary(env_id)
    return {
        "env_id": env_id,
        "rules": rules,
        "tables": tables,
        "source": shown if rules else f"{shown} (in the source checkout; not installed with the package)",
    }
