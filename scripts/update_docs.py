"""Regenerate the observation tables in docs/rules/*.md from the code.

A table sits between ``<!-- layout: ENV_ID num_players=N -->`` and ``<!-- /layout -->``.
"""

import re
from pathlib import Path

import smuggle_envs

PATTERN = re.compile(r"(<!-- layout: (\w+) num_players=(\d+) -->\n)(.*?)(\n<!-- /layout -->)", re.S)


def update(text: str) -> str:
    def table(m):
        layout = smuggle_envs.make_game(m.group(2), num_players=int(m.group(3))).observation_layout
        return m.group(1) + layout.table() + m.group(5)

    return PATTERN.sub(table, text)


if __name__ == "__main__":
    for path in sorted(Path(__file__).resolve().parents[1].glob("docs/rules/*.md")):
        text = path.read_text()
        new = update(text)
        if new != text:
            path.write_text(new)
            print(f"updated {path}")
