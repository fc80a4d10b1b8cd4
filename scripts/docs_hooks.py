"""mkdocs hooks for the documentation site (mkdocs.yml: ``hooks``).

* The tutorial notebooks live in ``notebooks/``, outside ``docs/``: each becomes the page
  ``notebooks/NAME.ipynb`` of the site, which mkdocs-jupyter executes and renders.
* Pages link to them as GitHub sees the repository (``../notebooks/NAME.ipynb`` from
  ``docs/``); those links are rewritten to the site's pages.
* ``docs/adding_a_game.md`` joins the nav, after Architecture, once the file exists.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LATER_PAGES = {"adding_a_game.md": ("Adding a game", "Architecture")}  # page: (title, after)
LINK = re.compile(r"(\]\()([^)\s#]+\.ipynb)([#)])")


def on_config(config):
    nav = config.nav or []
    for page, (title, after) in LATER_PAGES.items():
        listed = any(page in entry.values() for entry in nav if isinstance(entry, dict))
        if (Path(config.docs_dir) / page).exists() and not listed:
            at = next((i + 1 for i, entry in enumerate(nav) if isinstance(entry, dict) and after in entry), len(nav))
            nav.insert(at, {title: page})
    return config


@event_priority(100)  # before mkdocs-jupyter wraps the notebook files as pages
def on_files(files, config):
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        # a real File with the repository as its source folder: mkdocs-jupyter reads abs_src_path
        files.append(File(f"notebooks/{path.name}", str(ROOT), config.site_dir, config.use_directory_urls))
    return files


def on_page_markdown(markdown, page, config, files):
    """``../notebooks/X.ipynb`` (a link that works on GitHub) -> the site's ``notebooks/X.ipynb``."""
    source = Path(page.file.abs_src_path).parent
    here = Path(page.file.src_uri).parent

    def rewrite(m: re.Match) -> str:
        target = (source / m.group(2)).resolve()
        if target.parent != NOTEBOOKS:
            return m.group(0)
        return m.group(1) + os.path.relpath(f"notebooks/{target.name}", here or ".").replace(os.sep, "/") + m.group(3)

    return LINK.sub(rewrite, markdown)
