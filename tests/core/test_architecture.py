"""The architecture, enforced: layers (import-linter contracts in pyproject.toml) and a circle-free
import graph (every cycle, found with grimp, the graph library import-linter is built on), the
imports made from strings counted too: ``importlib.import_module("...")`` and the
``"module:function"`` rows of tables such as the command line's ``COMMANDS``."""

import ast
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("smuggle_envs", "agents", "training")
# A "module:attribute" string naming a module of the packages (a lazily loaded command or class).
TARGET = re.compile(r"^((?:" + "|".join(PACKAGES) + r")(?:\.\w+)*):\w+$")

_spec = importlib.util.spec_from_file_location("package_map", ROOT / "scripts" / "package_map.py")
assert _spec and _spec.loader
package_map = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(package_map)


def _graph():
    # no cache: a stale .grimp_cache from an earlier run must not hide (or invent) a cycle
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)


def _string_imports(path: Path) -> set[str]:
    """The modules ``path`` imports by name at run time: ``importlib.import_module("...")``
    (``package_map.imported``, which reads them with the import statements) and every
    ``"module:attribute"`` string constant."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    found = {m.group(1) for name in names if (m := TARGET.match(name))}
    return found | package_map.imported(path)


def _add_string_imports(graph) -> int:
    """Add to ``graph`` the edges its modules make from strings; returns how many were new."""
    added = 0
    for module in sorted(graph.modules):
        base = ROOT.joinpath(*module.split("."))
        path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if not path.is_file():  # a folder without __init__.py (a namespace package): no code
            continue
        for target in _string_imports(path) & graph.modules - {module}:
            if not graph.direct_import_exists(importer=module, imported=target):
                graph.add_import(importer=module, imported=target)
                added += 1
    return added


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


def _design_cycles(graph) -> list[list[str]]:
    """The cycles of ``graph``, less a package's ``__init__`` importing its own submodules (a
    re-export is not a cycle of design)."""
    for importer in list(graph.modules):
        for imported in list(graph.find_modules_directly_imported_by(importer)):
            if _is_package_init_edge(graph, importer, imported):
                graph.remove_import(importer=importer, imported=imported)
    return _cycles(graph)


def test_the_import_graph_has_no_cycles():
    cycles = _design_cycles(_graph())
    assert cycles == [], "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_no_cycles_with_the_imports_made_from_strings():
    """The command table's rows name every command's parser and code: a command that imported the
    command line back (``training.cli``) closed a cycle no ``import`` statement shows."""
    graph = _graph()
    assert not graph.direct_import_exists(importer="training.cli", imported="training.tournament.cli")
    assert _add_string_imports(graph) > 0
    assert graph.direct_import_exists(importer="training.cli", imported="training.tournament.cli")
    assert graph.direct_import_exists(importer="smuggle_envs.registry", imported="smuggle_envs.pyspiel_game")
    cycles = _design_cycles(graph)
    assert cycles == [], "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_no_command_imports_the_command_line():
    """What commands share (``training/errors.py``, ``paths.py``, ``options.py``) sits below them:
    only ``training.cli`` itself imports its modules; it names the commands, they never name it."""
    graph = _graph()
    inside = {"training.cli", *graph.find_descendants("training.cli")}
    importers = {m for target in inside for m in graph.find_modules_that_directly_import(target)} - inside
    assert importers == set()


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for m in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(m)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.z")
    graph.add_import(importer="a.z", imported="a.x")
    assert _cycles(graph) == [["a.x", "a.y", "a.z"]]


def test_string_imports_are_edges():
    """A module that loads another by name imports it, as far as cycles go: the command table's
    ``"module:function"`` rows and the registry's ``ON_DEMAND`` are edges; prose is not."""
    assert {"training.cli.parser", "training.tournament.cli", "training.zoo"} <= _string_imports(
        ROOT / "training" / "cli" / "__init__.py"
    )
    assert "smuggle_envs.pyspiel_game" in _string_imports(ROOT / "smuggle_envs" / "registry.py")
    assert [bool(TARGET.match(s)) for s in ("agents.random:RandomAgent", "see: training.match", "numpy:ndarray")] == [
        True,
        False,
        False,
    ]


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


def test_what_two_packages_share_is_one_thing_below_both():
    """The tournaments and the browser app name agents alike and write in transactions alike:
    one function and one class, in ``training/db.py``, below both (not a copy each)."""
    from training import db
    from training.tournament import runner
    from training.web import store, tables

    assert runner.unique_names is tables.unique_names is db.unique_names
    assert store.Transaction is db.Transaction
    assert not {"unique_labels", "_Tx"} & set(vars(store))
