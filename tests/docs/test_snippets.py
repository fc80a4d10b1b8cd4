"""Every Python block of the README and of the docs pages that show programs runs as shown,
unless its first line is a comment starting with ``# illustrative`` (a shape or a sketch)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


# the pages whose Python blocks are programs (the rules pages show none; web.md none;
# adding_a_game.md shows the lines a new game adds to its own files, which its test runs)
PAGES = [
    "README.md",
    "docs/getting_started.md",
    "docs/env_api.md",
    "docs/agents.md",
    "docs/interop.md",
    "docs/architecture.md",
    "docs/llm.md",
    "docs/bluffing.md",
]


def _blocks():
    for page in (ROOT / p for p in PAGES):
        text = page.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            code = m.group(1)
            if not code.lstrip().startswith("# illustrative"):
                line = text.count("\n", 0, m.start()) + 1
                yield pytest.param(code, id=f"{page.relative_to(ROOT).as_posix()}:{line}")


@pytest.mark.parametrize("code", list(_blocks()))
def test_the_python_block_runs(code, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "<docs>", "exec"), {"__name__": "__docs__"})
