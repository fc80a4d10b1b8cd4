"""The rules briefs of the prompts: generated from ``docs/rules/<game>.md`` and up to date, one
for every game of the package, a short fallback for a game registered from outside it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import smuggle_envs
from smuggle_envs import registry
from smuggle_envs.text import brief as brief_module
from smuggle_envs.text import card_table, rules_brief
from smuggle_envs.text.brief import brief_text, game_stem

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("make_briefs", ROOT / "scripts" / "make_briefs.py")
make_briefs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_briefs)

PAGE = """\
# A game

## Every rule

| # | Rule (rulebook) | Implementation |
|---|---|---|
| 1 | Deal `seven` cards (R1.2). | `deal` |
| 2 | A **real** Bag pays [£200](x.md). | `bag` |
| — | Cards are conserved. | tests |

Between the tables.

| Rule (rulebook, SCORING) | Code |
|---|---|
| Most *money* wins | `scores` |
| (public information only) | `scores` |
| — | invariants |

## Config

| # | Rule (rulebook) |
|---|---|
| 9 | Not a rule of this section. |
"""


def test_a_brief_is_the_numbered_rulebook_column_of_the_every_rule_tables():
    assert make_briefs.rules(PAGE) == [
        "Deal seven cards.",
        "A real Bag pays £200.",
        "Scoring: Most money wins",
    ]
    text = make_briefs.brief("a_game", PAGE)
    assert text.splitlines()[0].startswith("<!-- Generated from docs/rules/a_game.md")
    assert text.splitlines()[2:] == ["1. Deal seven cards.", "2. A real Bag pays £200.", "3. Scoring: Most money wins"]
    with pytest.raises(ValueError, match="no '## Every rule' section"):
        make_briefs.rules("# nothing\n")


def test_every_brief_is_up_to_date_with_its_rules_page():
    done = subprocess.run(
        [sys.executable, "scripts/make_briefs.py", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def test_a_stale_brief_fails_the_check(tmp_path, monkeypatch, capsys):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "a_game.md").write_text(PAGE, encoding="utf-8")
    monkeypatch.setattr(make_briefs, "ROOT", tmp_path)
    monkeypatch.setattr(make_briefs, "RULES", tmp_path / "rules")
    monkeypatch.setattr(make_briefs, "BRIEFS", tmp_path / "briefs")
    monkeypatch.setattr(make_briefs, "package_games", lambda: ["a_game"])
    assert make_briefs.main(["--check"]) == 1
    assert "briefs/a_game.md" in capsys.readouterr().err
    assert make_briefs.main([]) == 0 and make_briefs.main(["--check"]) == 0
    (tmp_path / "briefs" / "a_game.md").write_text("edited by hand\n", encoding="utf-8")
    (tmp_path / "briefs" / "gone.md").write_text("a game that left\n", encoding="utf-8")
    assert make_briefs.main(["--check"]) == 1
    assert "gone.md (no such game)" in capsys.readouterr().err


def _game_of_the_package(env_id: str) -> bool:
    return registry.game_class(env_id).__module__.startswith("smuggle_envs.")


def test_every_game_of_the_package_has_a_brief_and_every_registered_game_a_rules_text():
    for env_id in smuggle_envs.ENV_IDS:
        if _game_of_the_package(env_id):
            rules = brief_text(env_id)
            assert rules, f"no smuggle_envs/text/briefs/{game_stem(env_id)}.md: run python scripts/make_briefs.py"
            assert rules.startswith("1. ") and "<!--" not in rules
        assert rules_brief(env_id).startswith("Rules of ")  # a game from outside: the fallback, no error


@pytest.mark.parametrize("env_id", [e for e in registry.ENV_IDS if _game_of_the_package(e)])
def test_rules_brief_puts_the_rules_then_the_cards_of_the_configured_game(env_id):
    text = rules_brief(env_id)
    game = smuggle_envs.make_game(env_id)
    title = {row["env_id"]: row["game"] for row in registry.describe()}[env_id]
    assert text.startswith(f"Rules of {title} ({env_id}), in brief:\n\n1. ")
    assert brief_text(env_id) in text
    assert text.endswith(card_table(game) + "\n")


def test_the_glossary_of_a_brief_follows_the_config():
    base = rules_brief("import_export_v0")
    modules = rules_brief("import_export_v0", modules=("jutaku", "kickstarter", "captain"))
    game = smuggle_envs.make_game("import_export_v0", modules=("jutaku", "kickstarter", "captain"))
    assert modules.endswith(card_table(game) + "\n")
    assert len(modules) >= len(base)


def test_a_game_without_a_brief_gets_its_glossary_and_a_note(monkeypatch):
    if str(ROOT) not in sys.path:  # the fixture is imported as tests.fixtures.liars_deal
        sys.path.insert(0, str(ROOT))
    from tests.fixtures.liars_deal.rules import LiarsDealGame

    row = (LiarsDealGame.__module__, "LiarsDealGame", "Liar's deal (a test fixture)", "2-4")
    monkeypatch.setitem(registry._GAMES, "liars_deal_v0", row)
    monkeypatch.setattr(brief_module, "_beside_game", lambda env_id: None)  # as if it shipped no brief.md
    text = rules_brief("liars_deal_v0")
    assert text.startswith(
        "Rules of Liar's deal (a test fixture) (liars_deal_v0): no rules brief is packaged for this game"
    )
    assert text.endswith(card_table(smuggle_envs.make_game("liars_deal_v0")) + "\n")
