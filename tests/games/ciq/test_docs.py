"""docs/rules/ciq.md stays in step with the code."""

import re
from pathlib import Path

import smuggle_envs
from smuggle_envs.games.ciq import CIQConfig

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "ciq.md"
TESTS = Path(__file__).resolve().parent
CONTRACT_TESTS = ROOT / "tests" / "core" / "test_all_games_contract.py"  # checks every game


def test_observation_table_in_docs_matches_the_code():
    table = smuggle_envs.make_game("ciq_v0", num_players=4).observation_layout.table()
    assert table in DOC.read_text()


def test_every_test_named_in_the_docs_exists_and_every_rule_test_is_named():
    text = DOC.read_text()
    named = set(re.findall(r"\b(test_\w+)\b(?!\.py)", text))
    defined = set()
    for path in list(TESTS.glob("test_*.py")) + [CONTRACT_TESTS]:
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
    missing = named - defined
    assert not missing, f"docs name tests that do not exist: {sorted(missing)}"
    rule_tests = {t for t in defined if t.startswith("test_rule")}
    assert rule_tests <= named, f"rule tests not in the docs: {sorted(rule_tests - named)}"


def test_every_config_option_is_documented():
    text = DOC.read_text()
    for name in CIQConfig.__dataclass_fields__:
        assert f"| `{name}` |" in text, name


def test_the_alternative_rules_are_explained():
    text = DOC.read_text()
    assert "Alternative Rules" in text and "cannot be played turn by turn" in text
