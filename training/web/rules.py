"""The side panel's rules: the player-facing brief and the cards, derived, never retyped.

* The rules are the game's **rules brief**, the numbered list ``scripts/make_briefs.py`` writes
  from the rules page and the package ships (``smuggle_envs/text/briefs/<game>.md``, read by
  ``smuggle_envs.text.brief_text``: what the terminal's ``rules`` command prints), with the
  rulebook's section marks ("§2", "(§5, §8)") left out: a player reads rules, not references.
  The rules page's own engine notes ("Config validation") never appear.
* The card tables come from each game's validated data (``game.data``), made by its plugin
  (``WebGame.tables`` in ``training/web/games/<game>.py``): Smuggle's duty and fine per item,
  CIQ's ranks, Illegal's cards (with "what it does" from the page's **The cards** table), Humble
  smuggle's white and black cards, and Import / Export's 128 cards and powers; then the game's
  **card glossary** (``game.card_glossary()``, the terminal's ``cards`` command).

``md_tables``, ``column`` and ``page`` read a rules page's tables (Illegal's "what it does"); the
rules pages live in the source checkout only.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from .games import web_game

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rules"  # the rules pages (a source checkout's)

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


_SECTION_MARKS = re.compile(r"\s*\((?:§[\d.]+(?:,\s*)?)+\)|§[\d.]+(?: Figure \d+)?:?\s*")


# the brief's lines that are the engine's promises, not rules a player follows
_ENGINE_NOTES = re.compile(r"^(config validation|cards and credits are conserved)\.?$", re.IGNORECASE)


def rules_summary(env_id: str) -> list[dict[str, str]]:
    """Every rule of the packaged brief, numbered from 1, without the rulebook's section marks
    and the engine's own notes ("Config validation")."""
    from smuggle_envs.text.brief import brief_text

    rules: list[dict[str, str]] = []
    for line in (brief_text(env_id) or "").splitlines():
        found = re.match(r"^\d+\. (.*)$", line.strip())
        text = _SECTION_MARKS.sub("", found.group(1)).strip() if found else ""
        if text and not _ENGINE_NOTES.match(text):
            rules.append({"n": str(len(rules) + 1), "text": text[:1].upper() + text[1:]})
    return rules


@cache
def rules_panel(env_id: str) -> dict[str, Any]:
    """What the side panel shows for ``env_id``: the rules brief, the card tables and the card
    glossary."""
    from smuggle_envs import make_game
    from smuggle_envs.text.brief import game_stem

    game = make_game(env_id)
    tables = web_game(env_id).tables(game)
    glossary = game.card_glossary()
    if glossary:
        tables = [*tables, {"title": "Card glossary", "columns": ["card", "what it is or does"], "rows": glossary}]
    rules = rules_summary(env_id)
    source = "the game's rules in brief" if rules else "no rules brief is packaged for this game"
    return {"env_id": env_id, "rules": rules, "tables": tables, "source": source, "brief": f"{game_stem(env_id)}.md"}
