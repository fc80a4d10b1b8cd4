"""The facts that the docs state about the code are generated from it (scripts/update_docs.py),
and the generated blocks are up to date."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import smuggle_envs

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


update_docs = _script("update_docs")


def test_every_generated_block_in_the_readme_and_the_docs_is_up_to_date():
    done = subprocess.run(
        [sys.executable, "scripts/update_docs.py", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr


def test_the_size_formulas_hold_at_every_player_count():
    assert update_docs.size_formula("import_export_v0") == "1178 + 322 × players"
    assert update_docs.size_formula("humble_smuggle_v0") == "386 + 108 × players + players²"
    for env_id in smuggle_envs.ENV_IDS:
        a, b, c = update_docs.size_coefficients(env_id)
        game = smuggle_envs.make_game(env_id)
        for n in range(game.min_players, game.max_players + 1):
            size = smuggle_envs.make_game(env_id, num_players=n).observation_layout.size
            assert a + b * n + c * n * n == size, (env_id, n)


def test_the_env_table_agrees_with_smuggle_list(capsys):
    from training.cli import main

    assert main(["list"]) == 0
    listed = capsys.readouterr().out
    table = update_docs.env_table("docs/rules/")
    for env_id in smuggle_envs.ENV_IDS:
        game = smuggle_envs.make_game(env_id)
        row = next(line for line in table.splitlines() if f"`{env_id}`" in line)
        assert f"{game.observation_layout.size:,} at {game.num_players}" in row
        listed_row = next(line for line in listed.splitlines() if line.startswith(env_id + " "))
        assert listed_row.split()[-2:] == [str(game.observation_layout.size), str(game.num_actions)]


def test_a_stale_block_is_rewritten_and_the_check_fails_on_it(tmp_path, monkeypatch):
    stale = (
        "The size is <!-- obs-size: import_export_v0 -->1306 + 194 × players<!-- /obs-size -->, "
        "<!-- obs-size: import_export_v0 num_players=4 -->2,000<!-- /obs-size --> at 4 players, over "
        "<!-- actions: smuggle_v0 -->9<!-- /actions --> actions.\n\n"
        "<!-- env-table: docs/rules/ -->\n| old |\n<!-- /env-table -->\n"
    )
    fresh = update_docs.update(stale)
    assert "1178 + 322 × players<!--" in fresh and "-->2,466<!--" in fresh and "-->510<!--" in fresh
    assert "| old |" not in fresh and "[Import / Export (Dark Flight Games)](docs/rules/import_export.md)" in fresh
    assert update_docs.update(fresh) == fresh
    page = tmp_path / "README.md"
    page.write_text(stale, encoding="utf-8")
    monkeypatch.setattr(update_docs, "documents", lambda: [page])
    assert update_docs.main(["--check"]) == 1
    assert page.read_text(encoding="utf-8") == stale  # --check changes nothing
    assert update_docs.main([]) == 0
    assert update_docs.main(["--check"]) == 0
