"""Every tutorial notebook runs top to bottom in a real Jupyter kernel (nbclient), so none can rot."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


def test_there_is_a_notebook_for_each_user_task():
    names = {p.stem.split("_", 1)[1] for p in NOTEBOOKS}
    assert {"quickstart", "training", "tournament", "analytics", "exploitability"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path, tmp_path):
    book = nbformat.read(path, as_version=4)
    # An error in any cell raises CellExecutionError with the cell and its traceback.
    NotebookClient(book, timeout=240, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in book.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert outputs  # it printed or drew something
