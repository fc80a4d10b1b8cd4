"""Generate the rules briefs of the prompts from the rules pages, so the rules are written once.

    python scripts/make_briefs.py           # write smuggle_envs/text/briefs/<game>.md
    python scripts/make_briefs.py --check   # change nothing; exit 1 naming every stale brief

A brief is the "Rule (rulebook)" column of the tables under ``## Every rule`` in
``docs/rules/<game>.md``, as a numbered list: Markdown marks and the resolution references
(``(R1.11)``) removed, rows without a rulebook rule (numbered "—": invariants the tests check)
left out, and so are cells that are only a note in parentheses. A table whose column is "Rule (rulebook, SCORING)" prefixes its rules with "Scoring:".
``smuggle_envs.text.rules_brief`` reads the briefs and appends the card glossary at run time.
The test suite runs ``--check`` (tests/text/test_briefs.py).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
BRIEFS = ROOT / "smuggle_envs" / "text" / "briefs"
SECTION = "## Every rule"


def package_games() -> list[str]:
    """The games of the package, by file stem (``smuggle``), in registry order: not a game
    registered from outside the package (a test fixture's), which has no rules page here."""
    sys.path.insert(0, str(ROOT))
    from smuggle_envs import registry
    from smuggle_envs.text.brief import game_stem

    ours = [e for e in registry.ENV_IDS if registry.game_class(e).__module__.startswith("smuggle_envs.")]
    return [game_stem(env_id) for env_id in ours]


def section(markdown: str, heading: str = SECTION) -> list[str]:
    """The lines of the section under ``heading``, up to the next heading of the same level."""
    lines = markdown.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == heading)
    except StopIteration:
        raise ValueError(f"no {heading!r} section") from None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start + 1 : end]


def cells(row: str) -> list[str]:
    """The cells of a Markdown table row (``\\|`` is a pipe inside a cell)."""
    parts = re.split(r"(?<!\\)\|", row.strip().strip("|"))
    return [part.strip().replace("\\|", "|") for part in parts]


def clean(text: str) -> str:
    """A cell as plain text: code marks, emphasis, links and resolution references removed."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = text.replace("`", "").replace("**", "")
    text = re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"\1", text)
    text = re.sub(r"\s*\(R\d+(?:\.\d+)*\)", "", text)
    return " ".join(text.split())


def rules(markdown: str) -> list[str]:
    """The rulebook rules of a rules page, in order, from every table of its "Every rule"
    section with a "Rule (rulebook...)" column."""
    found: list[str] = []
    column, number, prefix = None, None, ""
    for line in section(markdown):
        if not line.startswith("|"):
            column = None  # a table ends at its first line that is not a row
            continue
        row = cells(line)
        if column is None:
            heads = [h.lower() for h in row]
            column = next((i for i, h in enumerate(heads) if h.startswith("rule (rulebook")), None)
            number = heads.index("#") if "#" in heads else None
            qualifier = re.match(r"rule \(rulebook, (.+)\)", heads[column]) if column is not None else None
            prefix = qualifier.group(1).capitalize() + ": " if qualifier else ""
            continue
        if set(line.replace("|", "").strip()) <= set("-: "):
            continue  # the row under the header
        text = clean(row[column]) if column < len(row) else ""
        if text in ("", "—") or (number is not None and row[number] in ("—", "-")) or _is_note(text):
            continue
        found.append(prefix + text)
    if not found:
        raise ValueError("no rulebook rule found under the 'Every rule' section")
    return found


def _is_note(text: str) -> bool:
    """A cell that is a note in parentheses ("(public information only)"), not a rule."""
    return text.startswith("(") and text.endswith(")") and text.count("(") == 1


def brief(game: str, markdown: str) -> str:
    """The brief file of ``game``: a generator comment, then the numbered rules."""
    lines = [
        f"<!-- Generated from docs/rules/{game}.md (the rulebook column of its 'Every rule' tables) by "
        "scripts/make_briefs.py: edit the rules page and run it, not this file. -->",
        "",
    ]
    lines += [f"{i}. {rule}" for i, rule in enumerate(rules(markdown), 1)]
    return "\n".join(lines) + "\n"


def stale(games: list[str], write: bool) -> list[str]:
    """The briefs that differ from what the rules pages give (written when ``write``), and any
    brief file of a game that is not in ``games``."""
    found = []
    for game in games:
        want = brief(game, (RULES / f"{game}.md").read_text(encoding="utf-8"))
        path = BRIEFS / f"{game}.md"
        if not path.is_file() or path.read_text(encoding="utf-8") != want:
            found.append(str(path.relative_to(ROOT)))
            if write:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(want, encoding="utf-8")
    extra = sorted(p for p in BRIEFS.glob("*.md") if p.stem not in games) if BRIEFS.is_dir() else []
    return found + [f"{p.relative_to(ROOT)} (no such game)" for p in extra]


def main(argv: list[str] | None = None) -> int:
    """Write the stale briefs, or with ``--check`` only name them (exit 1 if any)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a brief is stale")
    args = parser.parse_args(argv)
    found = stale(package_games(), write=not args.check)
    if args.check and found:
        print("stale rules briefs (run python scripts/make_briefs.py):", *found, sep="\n  ", file=sys.stderr)
        return 1
    for path in found:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
