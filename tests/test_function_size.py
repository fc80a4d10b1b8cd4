"""Style, enforced: no function or method of the project's code is longer than 60 lines (the
packages, ``benchmarks/``, ``scripts/`` and ``examples/``), so that each one reads in one sitting.
A long function is split into named steps, not exempted."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("smuggle_envs", "agents", "training", "benchmarks", "scripts", "examples")
LIMIT = 60


def long_functions(path: Path, limit: int = LIMIT, root: Path = ROOT) -> list[str]:
    """``path:line name (N lines)`` for every function of ``path`` over ``limit`` lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > limit:
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_function_is_over_60_lines():
    paths = [p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*.py"))]
    assert len(paths) > 100  # the walk found the code
    found = [line for path in paths for line in long_functions(path)]
    assert found == [], "functions over 60 lines:\n" + "\n".join(found)


def test_the_check_sees_a_long_function(tmp_path):
    body = "\n".join(f"        x{i} = {i}" for i in range(LIMIT))
    long, short = tmp_path / "long.py", tmp_path / "short.py"
    long.write_text(f"class C:\n    def f(self):\n{body}\n", encoding="utf-8")
    short.write_text("def f():\n    return 1\n", encoding="utf-8")
    assert long_functions(long, root=tmp_path) == [f"long.py:2 f ({LIMIT + 1} lines)"]
    assert long_functions(short, root=tmp_path) == []
