"""docs/rules/humble_smuggle.md stays in step with the code and the tests."""

import re
from pathlib import Path

import smuggle_envs
from smuggle_envs.games.humble_smuggle import HumbleSmuggleConfig

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "humble_smuggle.md"
TESTS = Path(__file__).resolve().parent


def test_observation_table_in_docs_matches_the_code():
    table = smuggle_envs.make_game("humble_smuggle_v0", num_players=4).observation_layout.table()
    assert table in DOC.read_text()


def test_every_test_named_in_the_docs_exists_and_every_rule_test_is_named():
    text = DOC.read_text()
    named = set(re.findall(r"\b(test_\w+)\b(?!\.py)", text))
    defined = set()
    for path in TESTS.glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
    missing = named - defined
    assert not missing, f"docs name tests that do not exist: {sorted(missing)}"
    rule_tests = {t for t in defined if t.startswith(("test_rule", "test_scoring", "test_faq"))}
    assert rule_tests <= named, f"rule tests not in the docs: {sorted(rule_tests - named)}"


def test_every_config_option_is_documented():
    text = DOC.read_text()
    for option in HumbleSmuggleConfig.__dataclass_fields__:
        assert f"| `{option}` |" in text, option
