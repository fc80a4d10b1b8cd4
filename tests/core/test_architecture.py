"""The architecture, enforced: layers (import-linter contracts in pyproject.toml) and a circle-free
import graph (every cycle, found with grimp, the graph library import-linter is built on)."""

import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("smuggle_envs", "agents", "training")


def _graph():
    # no cache: a stale .grimp_cache from an earlier run must not hide (or invent) a cycle
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)


def _cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    modules = sorted(graph.modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & graph.modules) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            recurse = False
            for j in range(i, len(edges[node])):
                nxt = edges[node][j]
                if nxt not in index:
                    work.append((node, j + 1))
                    work.append((nxt, 0))
                    recurse = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if recurse:
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return found


def _is_package_init_edge(graph, importer: str, imported: str) -> bool:
    """``pkg/__init__.py`` re-exporting its own submodule is not a cycle of design."""
    return imported.startswith(importer + ".")


def test_the_import_graph_has_no_cycles():
    graph = _graph()
    # A package's __init__ importing its own submodules (re-exports) is allowed: drop those edges.
    for importer in list(graph.modules):
        for imported in list(graph.find_modules_directly_imported_by(importer)):
            if _is_package_init_edge(graph, importer, imported):
                graph.remove_import(importer=importer, imported=imported)
    cycles = _cycles(graph)
    assert cycles == [], "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for m in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(m)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.z")
    graph.add_import(importer="a.z", imported="a.x")
    assert _cycles(graph) == [["a.x", "a.y", "a.z"]]


def test_the_layer_contracts_hold():
    """core -> games -> envs -> agents -> training, and inside training web -> tournament |
    selfplay -> analytics (pyproject.toml [tool.importlinter]): every contract kept."""
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert exe, "import-linter is a [dev] dependency: pip install -e '.[dev]'"
    done = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    contracts = (ROOT / "pyproject.toml").read_text().count("[[tool.importlinter.contracts]]")
    assert f"{contracts} kept, 0 broken" in done.stdout


@pytest.mark.parametrize("package", PACKAGES)
def test_the_graph_sees_every_package(package):
    assert any(m == package or m.startswith(package + ".") for m in _graph().modules)
