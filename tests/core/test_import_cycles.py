"""No import circles, type-only ones included.

``test_architecture.py`` checks the layers and the run-time graph; this test builds the graph
with the imports under ``if TYPE_CHECKING:`` too (grimp's ``exclude_type_checking_imports=False``),
so a module that only annotates with a type from a module above it still makes a circle. Such
circles are how a design's layers leak: a game's encoder typed against its ``rules.py``, which
imports the encoder. Type against the lower module instead (the game's ``state.py`` and
``game.py`` hold the types the other modules read; see any game package's ``__init__``).
"""

from __future__ import annotations

import textwrap

import grimp
import pytest

PACKAGES = ("smuggle_envs", "agents", "training")

# Circles known and not yet removed, each a sorted list of modules. The test fails if one of them
# is gone too, so that this list never hides a circle that comes back.
KNOWN: list[list[str]] = []  # circles accepted for now (none): a new one fails, a listed one gone fails too


def import_graph(*packages: str) -> grimp.ImportGraph:
    """The import graph of ``packages``, ``if TYPE_CHECKING:`` imports included, without the
    edges from a package's ``__init__`` to its own submodules (re-exports, not design)."""
    # no cache: a stale .grimp_cache must not hide (or invent) a circle
    graph = grimp.build_graph(*packages, exclude_type_checking_imports=False, cache_dir=None)
    for importer in list(graph.modules):
        for imported in graph.find_modules_directly_imported_by(importer):
            if imported.startswith(importer + "."):
                graph.remove_import(importer=importer, imported=imported)
    return graph


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every strongly connected component of more than one module (or a module importing
    itself), each sorted, in sorted order (Kosaraju's two passes, iterative)."""
    modules = sorted(graph.modules)
    out = {m: sorted(graph.find_modules_directly_imported_by(m) & graph.modules) for m in modules}
    back: dict[str, list[str]] = {m: [] for m in modules}
    for m in modules:
        for n in out[m]:
            back[n].append(m)
    order: list[str] = []
    seen: set[str] = set()
    for root in modules:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(out[root]))]
        while stack:
            node, children = stack[-1]
            child = next((c for c in children if c not in seen), None)
            if child is None:
                order.append(node)
                stack.pop()
            else:
                seen.add(child)
                stack.append((child, iter(out[child])))
    found: list[list[str]] = []
    assigned: set[str] = set()
    for root in reversed(order):
        if root in assigned:
            continue
        component, todo = [], [root]
        assigned.add(root)
        while todo:
            node = todo.pop()
            component.append(node)
            for m in back[node]:
                if m not in assigned:
                    assigned.add(m)
                    todo.append(m)
        if len(component) > 1 or root in out[root]:
            found.append(sorted(component))
    return sorted(found)


def test_the_import_graph_has_no_circle_even_for_types():
    found = circles(import_graph(*PACKAGES))
    new = [c for c in found if c not in KNOWN]
    assert not new, "import circles (type-only imports count):\n" + "\n".join(" <-> ".join(c) for c in new)
    gone = [c for c in KNOWN if c not in found]
    assert not gone, f"these circles are gone: take them off KNOWN: {gone}"


def test_the_graph_holds_the_type_only_imports():
    """A module whose only import of another is for annotations still depends on it here."""
    graph = import_graph(*PACKAGES)
    # agents/search.py imports core.game only under ``if TYPE_CHECKING:`` (for Game and State)
    assert "smuggle_envs.core.game" in graph.find_modules_directly_imported_by("agents.search")


@pytest.mark.parametrize("package", PACKAGES)
def test_the_graph_sees_every_package(package):
    assert any(m == package or m.startswith(package + ".") for m in import_graph(*PACKAGES).modules)


def _plant(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_a_planted_type_only_circle_is_found(tmp_path, monkeypatch):
    _plant(
        tmp_path,
        {
            "planted_pkg/__init__.py": "from .rules import Game\n",  # a re-export: not a circle
            "planted_pkg/rules.py": "from .encoder import encode\n\nclass Game: ...\n",
            "planted_pkg/encoder.py": """\
                from __future__ import annotations
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from .rules import Game

                def encode(game: Game) -> None: ...
                """,
            "planted_pkg/vocab.py": "OVER = 4\n",
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert circles(import_graph("planted_pkg")) == [["planted_pkg.encoder", "planted_pkg.rules"]]
    # the run-time graph alone does not see it: why this test builds the graph with types
    runtime = grimp.build_graph("planted_pkg", exclude_type_checking_imports=True, cache_dir=None)
    assert "planted_pkg.rules" not in runtime.find_modules_directly_imported_by("planted_pkg.encoder")


def test_the_circle_finder_finds_every_component_and_self_imports():
    graph = grimp.ImportGraph()
    for m in ("p", "p.a", "p.b", "p.c", "p.d", "p.e", "p.f"):
        graph.add_module(m)
    for a, b in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d"), ("p.e", "p.f"), ("p.f", "p.e")]:
        graph.add_import(importer=a, imported=b)
    graph.add_import(importer="p.d", imported="p.d")
    assert circles(graph) == [["p.a", "p.b", "p.c"], ["p.d"], ["p.e", "p.f"]]
    acyclic = grimp.ImportGraph()
    for m in ("q.a", "q.b", "q.c"):
        acyclic.add_module(m)
    acyclic.add_import(importer="q.a", imported="q.b")
    acyclic.add_import(importer="q.a", imported="q.c")
    acyclic.add_import(importer="q.b", imported="q.c")
    assert circles(acyclic) == []
