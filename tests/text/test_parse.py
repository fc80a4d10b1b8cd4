"""``parse_action``: a number, a text, the start of a text, a chatty reply; a reason otherwise;
never an exception on any string."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smuggle_envs.text import Parsed, parse_action

LEGAL = (495, 496, 7, 12)
TEXTS = ("search", "let pass", "declare wine x2", "declare wine, cigars")


def action(answer: str):
    return parse_action(answer, LEGAL, TEXTS).action


@pytest.mark.parametrize(
    "answer, expected",
    [
        ("1", 495),
        (" 2 ", 496),
        ("#3", 7),
        ("4.", 12),
        ("**2**", 496),
        ("[1]", 495),
        ("2. let pass", 496),
        ("2) let", 496),
        ("search", 495),
        ("  LET   Pass ", 496),
        ("[let pass]", 496),  # TextArena's ActionFormattingWrapper
        ("`search`", 495),
        ("search.", 495),
        ("declare wine x2", 7),
        ("s", 495),  # a unique start
        ("let", 496),
        ("declare wine,", 12),
    ],
)
def test_a_number_a_text_or_the_start_of_one_text_names_an_action(answer, expected):
    parsed = parse_action(answer, LEGAL, TEXTS)
    assert parsed.action == expected, parsed.reason


@pytest.mark.parametrize(
    "answer, reason",
    [
        ("0", "0 is out of range: give a number from 1 to 4"),
        ("5", "5 is out of range"),
        ("99999999999999999999999", "is out of range"),
        ("declare", "matches several actions: 'declare wine x2', 'declare wine, cigars'; give its number"),
        ("declare wine", "matches several actions"),
        ("fold", "'fold' matches none of the 4 actions; give a number from 1 to 4"),
        ("2. search", "2 is 'let pass', not 'search'"),
        ("", "the answer is empty"),
        ("  **  ", "the answer is empty"),
    ],
)
def test_an_answer_that_names_no_single_action_gets_a_reason(answer, reason):
    parsed = parse_action(answer, LEGAL, TEXTS)
    assert parsed.action is None
    assert reason in parsed.reason
    assert "\n" not in parsed.reason


def test_several_matches_name_three_of_them_and_count_the_rest():
    texts = [f"bid {i}" for i in range(10)]
    parsed = parse_action("bid", list(range(10)), texts)
    assert parsed == Parsed(
        None, "'bid' matches several actions: 'bid 0', 'bid 1', 'bid 2' and 7 more; give its number"
    )


def test_an_exact_text_wins_over_a_longer_text_it_starts():
    assert parse_action("bid 1", [0, 1], ["bid 1", "bid 10"]).action == 0
    assert parse_action("bid 1", [0, 1], ["bid 10", "bid 11"]).action is None


def test_a_bare_number_is_a_menu_number_even_when_a_text_starts_with_it():
    assert parse_action("2", [10, 20], ["2 cards", "3 cards"]).action == 20
    assert parse_action("2 cards", [10, 20], ["2 cards", "3 cards"]).action == 10
    assert parse_action("3", [10, 20], ["2 cards", "3 cards"]).action is None


@pytest.mark.parametrize(
    "answer, expected",
    [
        ("I weigh the risk. The officer rarely searches.\n\nAnswer: 2", 496),
        ("Thinking about it...\nFinal answer: let pass", 496),
        ("My choice is 3 because wine is cheap", None),  # no line names an action by itself
        ("Let me think. Option 1 is risky.\n**2**", 496),
        ("After some thought, I will go with **search** this time.", 495),
        ("Reasoning: the declaration looks false.\nAction: [search]", 495),
        ("The answer is 4", 12),
        ("Considering everything\n\n3", 7),
        ("Answer: 9\n1", 495),  # the marked line is out of range, the last line reads
    ],
)
def test_a_chatty_reply_is_read_from_its_final_answer(answer, expected):
    assert action(answer) == expected


def test_a_chatty_reply_that_names_nothing_gets_the_reason_of_the_whole_reply():
    parsed = parse_action("I am not sure what to do here.\nMaybe wait?", LEGAL, TEXTS)
    assert parsed.action is None and "matches none of the 4 actions" in parsed.reason


def test_no_legal_action_and_bad_arguments():
    assert parse_action("1", [], []) == Parsed(None, "there is no action to choose")
    assert parse_action(3, LEGAL, TEXTS).action is None  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="parallel"):
        parse_action("1", LEGAL, TEXTS[:2])


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_string_gives_a_parsed_answer_never_an_exception(answer):
    parsed = parse_action(answer, LEGAL, TEXTS)
    assert parsed.action is None or parsed.action in LEGAL
    assert isinstance(parsed.reason, str) and parsed.reason


def test_huge_and_odd_answers_are_read_quickly():
    for answer in ["1" * 100_000, "*" * 50_000, "answer:" * 10_000, "\n" * 100_000 + "2", "٣", "\x00\x01"]:
        parsed = parse_action(answer, LEGAL, TEXTS)
        assert parsed.action is None or parsed.action in LEGAL
    assert action("\n" * 100_000 + "2") == 496
    assert action("٣") == 7  # an Arabic-Indic digit three
