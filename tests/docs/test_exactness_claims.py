"""Every claim of exactness in the README, the docs and the scripts says where it holds.

A training run repeats bit for bit on one machine, not across CPU kinds or torch / numpy builds
(a fresh clone on an AMD Zen 5 CPU diverged from the zoo's Smuggle weights). So a sentence that
claims "bit for bit", "bit-identical", "bit-exact", "byte for byte" or "byte-identical" must name
its scope (one machine, the machine that made the model, the CPU kind, the manifest's
``"machine"``), unless it is one of the few claims exact by construction listed below: a copy
compared element by element, or integer game logic replayed from a seed and actions.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLAIM = re.compile(r"\b(bit|byte)[- ](for[- ](bit|byte)|identical|exact)\b", re.I)
SCOPED = re.compile(
    r"one machine|same machine|the machine that made|CPU kind|same CPU|one CPU|\"machine\"|`\"machine\"`", re.I
)
# Exact whatever the machine: (a phrase of the claim, why).
BY_CONSTRUCTION = {
    "policy arrays stay bit-identical": "the zoo's arrays copied into a new file, compared element by element",
    "rebuilds it, bit for bit": "a replay is integer game logic run again from its seed and actions",
    "replays a game bit for bit": "the same: the state's own seeded RNG and integer game logic",
    "byte-identical to the old encoder": "the encoders compared on the same states in one test process",
    "stay byte for byte the same": "one seat's API responses compared within one test process",
    "must stay byte-identical": "one seat's API responses compared within one test process",
}


def _documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "scripts").glob("*.sh"))]


def _blocks(path: Path) -> list[str]:
    """The file's prose in blocks: Markdown paragraphs and table rows, or a script's comment
    blocks, each on one line."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".sh":
        comments = [line.lstrip("#").strip() if line.startswith("#") else "" for line in text.splitlines()]
        text = "\n".join("" if line.startswith("!") else line for line in comments)
    blocks: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        lines = block.splitlines()
        if lines and all(line.startswith("|") for line in lines):
            blocks += lines
        else:
            blocks.append(" ".join(line.strip() for line in lines if line.strip()))
    return blocks


def sentences(path: Path) -> list[str]:
    """The file's sentences (a table row is one)."""
    return [s for block in _blocks(path) for s in re.split(r"(?<=[.!?])\s+(?=[A-Z*`\[(])", block) if s]


def unscoped_claims(path: Path) -> list[str]:
    """The sentences of ``path`` that claim exactness without saying where it holds."""
    return [
        s
        for s in sentences(path)
        if CLAIM.search(s) and not SCOPED.search(s) and not any(phrase in s for phrase in BY_CONSTRUCTION)
    ]


@pytest.mark.parametrize("path", _documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_exactness_claim_says_where_it_holds(path):
    assert unscoped_claims(path) == []


def test_the_check_finds_an_unscoped_claim_and_accepts_a_scoped_one(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "Intro. The main job gives the zoo's weights\nbit for bit. Then it plays.\n\n"
        "| row | the same weights, bit for bit, on the machine that made the model |\n\n"
        "A repeat is bit-identical on one machine.\n",
        encoding="utf-8",
    )
    assert unscoped_claims(page) == ["The main job gives the zoo's weights bit for bit."]
    script = tmp_path / "job.sh"
    script.write_text("#!/usr/bin/env bash\n# It makes the model\n# byte for byte.\necho bit for bit\n")
    assert unscoped_claims(script) == ["It makes the model byte for byte."]


def test_each_exemption_is_still_in_the_docs():
    """An exemption whose sentence is gone would silently allow a new unscoped claim."""
    text = " ".join(" ".join(_blocks(path)) for path in _documents())
    assert [phrase for phrase in BY_CONSTRUCTION if phrase not in text] == []
