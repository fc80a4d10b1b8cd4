"""``observe``, ``TextObservation`` and ``SeatLog``: the prompt's layout, word for word on a toy
game (``_toy.py``), and its parts on a real one; what a log records and how it follows a game."""

from __future__ import annotations

import random

import pytest

import smuggle_envs
from smuggle_envs.text import SeatLog, TextObservation, card_table, observe, situation

from ._toy import SwapGame

EXPECTED = """\
swap_v0, 3 players. You are Blue (P1).

What has happened so far:
  Red (P0): swap with the deck

The table:
deck: 4 cards
Red (P0): ?
Blue (P1): silver
Green (P2): ?

Your cards:
  - silver: worth 2

Scores: Red (P0) 0 pts, Blue (P1) (you) 0 pts, Green (P2) 0 pts

Your legal actions:
  1. keep my card
  2. swap with the deck

Answer with the number of your action (1 to 2) or its text.
"""


def _swap(actions=(1,), seed=4, n=3):
    state = SwapGame(num_players=n).new_initial_state(seed)
    for a in actions:
        state.apply_action(a)
    return state


def test_the_prompt_layout_word_for_word():
    obs = observe(_swap(), 1)
    assert obs == TextObservation("swap_v0", 1, EXPECTED, (0, 1), ("keep my card", "swap with the deck"))
    assert obs.menu() == "  1. keep my card\n  2. swap with the deck"
    assert observe(_swap(), 1) == obs  # deterministic


def test_history_shows_the_last_lines_and_says_how_many_there_are():
    state = _swap((1, 1))
    log = SeatLog(state.game, 2)
    assert "What has happened so far:\n  Red (P0): swap with the deck\n  Blue (P1): swap with the deck\n" in (
        observe(state, 2, log).prompt
    )
    prompt = observe(state, 2, log, history=1).prompt
    assert "What has happened so far (the last 1 of 2 lines):\n  Blue (P1): swap with the deck\n\nThe table:" in prompt
    assert "What has happened" not in observe(state, 2, history=0).prompt
    first = observe(_swap(()), 0).prompt
    assert "What has happened so far: nothing yet." in first


def test_history_zero_is_the_situation_under_the_header():
    state = _swap((1, 0))
    prompt = observe(state, 2, history=0).prompt
    assert prompt == "swap_v0, 3 players. You are Green (P2).\n\n" + situation(state, 2) + "\n"


def test_observe_refuses_a_seat_that_does_not_decide_and_a_finished_game():
    with pytest.raises(ValueError, match=r"Red \(P0\) has no decision to make now: Blue \(P1\) decides"):
        observe(_swap(), 0)
    with pytest.raises(ValueError, match="nobody"):
        observe(_swap((0, 0, 0)), 0)
    with pytest.raises(ValueError, match="history"):
        observe(_swap(), 1, history=-1)
    with pytest.raises(ValueError, match="seat 0's, not seat 1's"):
        observe(_swap(), 1, SeatLog(_swap().game, 0))


def test_record_adds_the_actor_line_then_the_notes_as_the_seat_may_know_them():
    game = SwapGame(num_players=2)
    before = game.new_initial_state(4)
    after = before.clone()
    after.apply_action(1)
    mine, theirs = SeatLog(game, 0), SeatLog(game, 1)
    drawn = after.hands[0]
    assert mine.record(before, 1, after) == ["Red (P0): swap with the deck", f"you draw {drawn}"]
    assert theirs.record(before, 1, after) == ["Red (P0): swap with the deck"]
    last = after.clone()
    last.apply_action(0)
    added = theirs.record(after, 0, last)
    assert added == ["Blue (P1): keep my card", f"shown: Red (P0) {drawn}, Blue (P1) {last.hands[1]}"]
    assert theirs.lines == ["Red (P0): swap with the deck", *added]


def test_follow_replays_only_what_is_new_and_starts_over_on_another_game():
    state = _swap(())
    log = SeatLog(state.game, 0)
    assert log.follow(state) == []
    state.apply_action(1)
    assert log.follow(state) == ["Red (P0): swap with the deck", f"you draw {state.hands[0]}"]
    assert log.follow(state) == []
    state.apply_action(0)
    assert log.follow(state) == ["Blue (P1): keep my card"]
    other = _swap((0,))  # another line of play from the same deal: the log starts over
    assert log.follow(other) == ["Red (P0): keep my card"] and log.lines == ["Red (P0): keep my card"]
    log.record(other, 0, other)  # lines the log did not write itself: the next follow starts over
    assert log.follow(other) == ["Red (P0): keep my card"] and len(log.lines) == 1


def test_follow_refuses_a_resampled_state_and_another_game():
    state = _swap()
    log = SeatLog(state.game, 1)
    with pytest.raises(ValueError, match="SeatLog.follow replays the true game.*resampled"):
        log.follow(state.resample(1, random.Random(0)))
    with pytest.raises(ValueError, match="resampled"):
        observe(state.resample(1, random.Random(0)), 1)
    assert observe(state.resample(1, random.Random(0)), 1, history=0).texts  # no log read: fine
    with pytest.raises(ValueError, match="this log is of swap_v0"):
        log.follow(_swap(n=2))


def test_a_log_of_a_real_game_followed_in_steps_equals_one_followed_at_once():
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    state, rng = game.new_initial_state(11), random.Random(3)
    stepwise = SeatLog(game, 2)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
        stepwise.follow(state)
    at_once = SeatLog(game, 2)
    at_once.follow(state)
    assert stepwise.lines == at_once.lines and len(at_once.lines) >= 60


def test_a_real_prompt_holds_the_seats_table_cards_scores_and_full_menu():
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    state, rng = game.new_initial_state(3), random.Random(0)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    obs = observe(state, seat)
    prompt = obs.prompt
    assert prompt.startswith(f"Smuggle (MB Games 1981) (smuggle_v0), 4 players. You are {game.seat_name(seat)}.\n\n")
    assert state.render(seat).rstrip("\n") in prompt
    assert obs.texts == tuple(game.action_to_string(a) for a in state.legal_actions())
    assert obs.legal == state.legal_actions()
    assert prompt.index("What has happened") < prompt.index("The table:") < prompt.index("Your cards")
    assert prompt.index("Your cards") < prompt.index("Scores: ") < prompt.index("Your legal actions:\n" + obs.menu())
    assert prompt.endswith(f"Answer with the number of your action (1 to {len(obs.legal)}) or its text.\n")
    for name in state.private_cards(seat):
        assert f"  - {name}" in prompt


def test_card_table_lists_the_glossary_or_says_there_is_none():
    assert card_table(SwapGame()) == (
        "card    what it is or does\n------  ------------------\ngold    worth 3\nsilver  worth 2\nlead    worth 1"
    )

    class Plain(SwapGame):
        def card_glossary(self):
            return []

    assert card_table(Plain()) == "swap_v0 names no cards in its texts."
