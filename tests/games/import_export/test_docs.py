"""docs/rules/import_export.md stays in step with the code, the data and the tests."""

import dataclasses
import re
from collections import Counter
from pathlib import Path

from smuggle_envs.games.import_export import ImportExportConfig, ImportExportGame
from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.data import ACTIONS, COLOURS, GOOD_TYPES, load
from smuggle_envs.games.import_export.vocab import PHASE_NAMES

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "import_export.md"
TESTS = Path(__file__).resolve().parent
BOT_TESTS = ROOT / "tests" / "agents" / "rule" / "test_import_export.py"
CONTRACT_TESTS = ROOT / "tests" / "core" / "test_all_games_contract.py"  # checks every game
MODULES = {"jutaku": "Jutaku", "kickstarter": "Kickstarter", "captain": "Captain"}
TIMINGS = {"immediate": "immediate", "passive": "passive", "end_game": "game end", "hand": "from hand"}


def _defined() -> dict[str, set[str]]:
    """Test names per test file (the game's tests, the bot's and the contract every game meets)."""
    defined = {
        path.name: set(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
        for path in [*TESTS.glob("test_*.py"), BOT_TESTS, CONTRACT_TESTS]
    }
    return defined


def _section(text: str, title: str) -> str:
    return text.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


def _card_rows(text: str) -> list[list[str]]:
    rows = [line for line in _section(text, "Every card").splitlines() if re.match(r"\| \d+ \|", line)]
    return [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows]


def test_observation_table_in_docs_matches_the_code():
    table = ImportExportGame(num_players=4).observation_layout.table()
    assert table in DOC.read_text()


def test_every_test_named_in_the_docs_exists_and_every_rule_and_power_test_is_named():
    text = DOC.read_text()
    named = set(re.findall(r"\b(test_\w+)\b(?!\.py)", text))
    defined = _defined()
    every = set().union(*defined.values())
    missing = named - every
    assert not missing, f"docs name tests that do not exist: {sorted(missing)}"
    for name in (
        "test_rules.py",
        "test_scoring.py",
        "test_power_interplay.py",
        "test_powers_immediate.py",
        "test_powers_events.py",
        "test_powers_rules.py",
        "test_powers_end_game.py",
    ):
        left_out = defined[name] - named
        assert not left_out, f"{name}: tests not in the docs: {sorted(left_out)}"


def test_tests_named_with_their_file_are_in_that_file():
    # ``file.py::test_a`` names a file; a following ``::test_b`` in the same table cell or paragraph
    # is in that file too.
    text = DOC.read_text()
    defined = _defined()
    current, wrong = None, []
    for m in re.finditer(r"(\|)|(\n\s*\n)|(test_\w+\.py)::(test_\w+)|::(test_\w+)", text):
        if m.group(1) or m.group(2):
            current = None
        elif m.group(3):
            current = m.group(3)
            if m.group(4) not in defined.get(current, ()):
                wrong.append(f"{current}::{m.group(4)}")
        elif current is None or m.group(5) not in defined[current]:
            wrong.append(f"{current}::{m.group(5)}")
    assert not wrong, f"tests not in the file the docs name: {wrong}"


def test_every_card_has_one_row_in_data_order_with_its_data_and_a_test():
    data = load()
    rows = _card_rows(DOC.read_text())
    defined = set().union(*_defined().values())
    assert [int(row[0]) for row in rows] == [card.id for card in data.cards]
    for row, card in zip(rows, data.cards):
        module = f" *({MODULES[card.module]})*" if card.module in MODULES else ""
        assert row[1] == card.name + module
        loads = Counter(card.load)
        colours = " + ".join(f"{loads[t]} {COLOURS[t]}" for t in dict.fromkeys(card.load))
        assert row[2] == (
            f"{GOOD_TYPES[card.type]}, {ACTIONS[card.action].capitalize()}, {card.tier}, {colours}; "
            f"{TIMINGS[card.timing]}"
        ), card.name
        tests = re.findall(r"\b(test_\w+)\b(?!\.py)", row[6])
        assert tests and set(tests) <= defined, card.name
    # No card is described twice elsewhere in the card table.
    assert len(rows) == len(data.cards) == 128


def test_card_rows_name_tests_in_the_file_of_their_code():
    # Bare names in the card table are in the test file of the row's first code module.
    files = {
        "immediates": "test_powers_immediate.py",
        "events": "test_powers_events.py",
        "modifiers": "test_powers_rules.py",
        "state": "test_powers_rules.py",
        "steps": "test_powers_rules.py",
        "end_games": "test_powers_end_game.py",
        "scoring": "test_powers_end_game.py",
    }
    defined = _defined()
    for row in _card_rows(DOC.read_text()):
        module = re.match(r"`(\w+)\.", row[5]).group(1)
        for name in (t.strip().strip("`") for t in row[6].split(",")):
            if "::" not in name:
                assert name in defined[files[module]], (row[1], name)


def test_every_option_phase_action_and_resolution_is_documented():
    text = DOC.read_text()
    for field in dataclasses.fields(ImportExportConfig):
        assert f"| `{field.name}` |" in text, field.name
    decisions = _section(text, "Decisions and actions")
    for name in PHASE_NAMES:
        assert f"| {name.replace('``', '`')} |" in decisions, name
    assert f"{A.NUM_ACTIONS} actions" in decisions
    for n in range(1, 15):
        assert f"R5.{n}" in text, f"resolution R5.{n} is not discussed"


def test_module_docstring_states_the_observation_shape_and_the_actions():
    import smuggle_envs.games.import_export as package

    doc = package.__doc__
    match = re.search(r"Observation shape\s*\|\s*\((\d+) \+ (\d+) \* n,\)", doc)
    assert match, "the package docstring documents the observation shape as (a + b * n,)"
    base, per_seat = int(match.group(1)), int(match.group(2))
    for n in range(2, 7):
        assert ImportExportGame(num_players=n).observation_layout.size == base + per_seat * n
    assert f"({base + 4 * per_seat} for 4 players)" in doc
    assert f"Discrete({A.NUM_ACTIONS})" in doc
