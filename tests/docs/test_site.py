"""The documentation site builds with ``mkdocs build --strict``: no broken link or anchor, no page
left out of the nav, no API reference to a missing object, no notebook cell that raises. The
notebooks are executed by the build, so their pages show real outputs. One test, so that the
site is built once however pytest-xdist spreads the tests (about a minute on 2 cores)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("mkdocs", reason="the docs extra: pip install -e '.[docs]'")

PAGES = [
    "index.html",
    "getting_started/index.html",
    "env_api/index.html",
    "agents/index.html",
    "training/index.html",
    "zoo/index.html",
    "search/index.html",
    "exploitability/index.html",
    "tournaments/index.html",
    "web/index.html",
    "llm/index.html",
    "interop/index.html",
    "benchmarks/index.html",
    "architecture/index.html",
    "docs/index.html",
    *(f"rules/{p.stem}/index.html" for p in (ROOT / "docs" / "rules").glob("*.md")),
]


def test_the_site_builds_strictly_with_every_section_the_notebooks_run_and_the_api_reference(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "MPLBACKEND": "Agg", "DOCS_EXECUTE_NOTEBOOKS": "true"},
    )
    problems = [line for line in done.stderr.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert done.returncode == 0, "\n".join(problems) or done.stderr[-5000:]

    for page in PAGES:
        assert (site / page).is_file(), page

    notebooks = sorted(p.parent.name for p in (site / "notebooks").glob("*/index.html"))
    assert notebooks == sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    quickstart = (site / "notebooks" / "01_quickstart" / "index.html").read_text(encoding="utf-8")
    assert "jp-OutputArea-output" in quickstart and "rule bot won" in quickstart  # printed by its last cell
    training = (site / "notebooks" / "02_training" / "index.html").read_text(encoding="utf-8")
    assert "data:image/png;base64" in training  # the learning curve, drawn when the site was built

    core = (site / "api" / "core" / "index.html").read_text(encoding="utf-8")
    for name in ("game", "driver", "layout", "errors", "env"):
        assert f'id="smuggle_envs.core.{name}"' in core, name
    assert ":class:`" not in core  # reST roles rendered (scripts/griffe_rst.py)
    agents = (site / "api" / "agents" / "index.html").read_text(encoding="utf-8")
    assert 'id="agents.make_agent"' in agents


def test_the_page_on_adding_a_game_joins_the_nav_once_it_exists(tmp_path):
    """docs/adding_a_game.md is written later; scripts/docs_hooks.py lists it after Architecture
    as soon as the file exists (a page outside the nav would fail the strict build)."""
    import importlib.util
    from types import SimpleNamespace

    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts" / "docs_hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    nav = [{"Home": "index.md"}, {"Architecture": "architecture.md"}, {"API reference": []}]
    config = SimpleNamespace(nav=[dict(e) for e in nav], docs_dir=str(tmp_path))
    assert hooks.on_config(config).nav == nav
    (tmp_path / "adding_a_game.md").write_text("# Adding a game\n", encoding="utf-8")
    assert hooks.on_config(config).nav[2] == {"Adding a game": "adding_a_game.md"}
    assert hooks.on_config(config).nav.count({"Adding a game": "adding_a_game.md"}) == 1


def test_the_readme_links_resolve_on_github():
    """The README is not a page of the site; its relative links (to docs/*.md, images, folders)
    must point at files of the repository, as GitHub resolves them."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    assert targets
    missing = [t for t in targets if "://" not in t and not (ROOT / t.split("#")[0]).exists()]
    assert not missing, missing
