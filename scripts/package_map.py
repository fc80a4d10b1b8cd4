"""The map of the code in docs/architecture.md: each part's size and the parts it imports.

Parts are folders (a layer, or a sub-package of one); an arrow ``A -> B`` means some module of A
imports some module of B, found from the source with ``ast`` (``import``, ``from ... import``,
relative imports, and ``importlib.import_module("...")`` strings). Imports under ``if
TYPE_CHECKING:`` are annotations and are left out, as the layer contracts leave them out. Sizes
are lines of Python rounded to the hundred, so the block changes when a part grows, not at every
edit. ``scripts/update_docs.py`` writes the block; its ``--check`` (run by the test suite) fails
when the map is stale.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (part, module prefix, what it is), lower layers first; a module is in the part of its longest prefix.
PARTS = (
    ("core", "smuggle_envs.core", "the engine contract, driver, AEC env, layouts, byte fields, replay"),
    ("games", "smuggle_envs.games", "one folder per game: the rules engines"),
    ("envs", "smuggle_envs", "registry, the `<game>_v0` envs, the OpenSpiel adapter"),
    ("text", "smuggle_envs.text", "text observations and prompts, TextArena"),
    ("agents", "agents", "the Agent protocol, rule bots, search, trained networks, the zoo"),
    ("self-play", "training.selfplay", "PPO self-play with a league, expert iteration, workers"),
    ("claims", "training.claims", "what each game's claims are, for labels and marks"),
    ("bluffing", "training.bluffing", "deception metrics, datasets, belief probes"),
    ("analytics", "training.analytics", "smuggle analyze: per-game reports of stored games"),
    ("tournament", "training.tournament", "tournaments, ratings, stored games"),
    ("web", "training.web", "smuggle serve: the browser app"),
    ("cli", "training.cli", "the smuggle command line"),
    ("training", "training", "shared by the above: match, exploit, zoo, stats, storage"),
)


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(module: str) -> str | None:
    """The part a module belongs to (None: outside the packages)."""
    matches = [(len(prefix), name) for name, prefix, _ in PARTS if module == prefix or module.startswith(prefix + ".")]
    return max(matches)[1] if matches else None


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported(path: Path) -> set[str]:
    """The modules ``path`` imports at run time (absolute names)."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    skip: set[int] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)] if node.level else []
            found.add(".".join([*base, *([node.module] if node.module else [])]))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(arg.value)
    return found


def _sources() -> list[Path]:
    return sorted(p for top in ("smuggle_envs", "agents", "training") for p in (ROOT / top).rglob("*.py"))


def package_map() -> str:
    """The Markdown table: part, folder, lines, what it imports."""
    lines = {name: 0 for name, _, _ in PARTS}
    arrows: dict[str, set[str]] = {name: set() for name, _, _ in PARTS}
    for path in _sources():
        here = part_of(_module(path))
        if here is None:
            continue
        lines[here] += len(path.read_text(encoding="utf-8").splitlines())
        for target in imported(path):
            there = part_of(target)
            if there is not None and there != here:
                arrows[here].add(there)
    order = [name for name, _, _ in PARTS]
    rows = ["| part | folder | what | lines | imports |", "|---|---|---|---:|---|"]
    for name, prefix, what in reversed(PARTS):
        folder = prefix.replace(".", "/") + "/"
        size = f"{round(lines[name], -2):,}"
        uses = ", ".join(sorted(arrows[name], key=order.index)) or "-"
        rows.append(f"| {name} | `{folder}` | {what} | {size} | {uses} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(package_map())
