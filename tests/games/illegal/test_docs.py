"""docs/rules/illegal.md stays in step with the code and the tests."""

import dataclasses
import re
from pathlib import Path

from smuggle_envs.games.illegal import IllegalConfig, IllegalGame
from smuggle_envs.games.illegal.actions import KIND_NAMES

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "illegal.md"
TESTS = Path(__file__).resolve().parent
CONTRACT_TESTS = ROOT / "tests" / "core" / "test_all_games_contract.py"  # checks every game
BOT_TESTS = ROOT / "tests" / "agents" / "rule" / "test_illegal.py"


def test_observation_table_in_docs_matches_the_code():
    table = IllegalGame(num_players=4).observation_layout.table()
    assert table in DOC.read_text()


def test_every_test_named_in_the_docs_exists_and_every_rule_test_is_named():
    text = DOC.read_text()
    named = set(re.findall(r"\b(test_\w+)\b(?!\.py)", text))
    defined = set()
    for path in list(TESTS.glob("test_*.py")) + [BOT_TESTS, CONTRACT_TESTS]:
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
    missing = named - defined
    assert not missing, f"docs name tests that do not exist: {sorted(missing)}"
    rule_tests = {t for t in defined if t.startswith("test_rule")}
    assert rule_tests <= named, f"rule tests not in the docs: {sorted(rule_tests - named)}"


def test_every_card_every_option_and_every_resolution_is_documented():
    text = DOC.read_text()
    lowered = text.lower()
    for name in KIND_NAMES:
        assert name.replace("and ash", "& ash") in lowered, name
    for field in dataclasses.fields(IllegalConfig):
        assert f"| `{field.name}` |" in text, field.name
    for n in range(1, 12):
        assert f"R4.{n}" in text, f"resolution R4.{n} is not discussed"
