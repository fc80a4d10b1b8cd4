"""The list of a game's files per layer in docs/adding_a_game.md, from the registries themselves.

Each per-game registry (``agents.plugins.registries()``: every ``PluginRegistry`` of the
``smuggle_envs``, ``agents`` and ``training`` packages) is one row: the module a game of the
package adds, what it declares, the kind of entry it must be, and the one line that registers a
game living outside the package (as ``tests/fixtures/liars_deal/register.py`` does). A new layer
appears here, and in the sixth-game test's demands (``tests/test_sixth_game.py``), by being made.
``scripts/update_docs.py`` writes the ``<!-- plugin-layers -->`` block; its ``--check`` (run by
the test suite) fails when the list is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _variable(found: object, package: str) -> str:
    """The name the registry goes by in its package (``RULE_AGENTS``)."""
    names = [name for name, value in vars(sys.modules[package]).items() if value is found]
    if len(names) != 1:
        raise SystemExit(f"the registry of {package} must have exactly one name there, not {names}")
    return names[0]


def plugin_layers() -> str:
    """The Markdown table: one row a registry, by package name."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from agents.plugins import registries

    rows = [
        "| layer (registry) | a game's module | declares | one line for a game outside the package |",
        "|---|---|---|---|",
    ]
    for found in registries():
        name = _variable(found, found.package)
        kind = f" (a `{found.kind.__name__}`)" if found.kind is not None else ""
        rows.append(
            f"| `{found.package}.{name}` | `{found.package.replace('.', '/')}/<game>.py` "
            f"| `ENV_ID`, `{found.attribute}`{kind} | `{name}.register(module)` |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    print(plugin_layers())
