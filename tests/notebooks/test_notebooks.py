"""Every tutorial notebook runs top to bottom (its code cells, in order, in one namespace)."""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path, capsys):
    cells = json.loads(path.read_text())["cells"]
    namespace = {"__name__": "__notebook__"}
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            exec(compile(source, f"{path.name}[cell {i}]", "exec"), namespace)
    assert capsys.readouterr().out
