"""The text interface tells a seat nothing it may not know, for every registered game
(``smuggle_envs.text``: the prompt of ``observe`` and the lines of ``SeatLog``).

At the fewest and the most players of each game, along random games:

* **the prompt**: at a position where seat s decides, everything of s's prompt but its history
  (header, table, private cards, scores, the menu and its texts) reads the same in any world
  ``state.resample(s)`` draws;
* **the step lines**: for every step and every viewer v, the actor line (the action as v may see
  it) reads the same when the step is replayed from ``before.resample(v)``, and so do the game's
  notes, whenever the step showed v the same thing in both worlds (v's observation and table
  after it are alike). A note may report what the step revealed (a search's verdict, the cards
  just drawn), since those differ between the worlds only when the step showed them; it may not
  report anything else v cannot see;
* **the log**: ``SeatLog.follow`` kept up step by step gives the lines a fresh log gives.

The checks can fail: a game made to leak a hidden card through a note or its private cards is
caught (``test_a_leaking_*``).
"""

from __future__ import annotations

import random

import pytest

import smuggle_envs
from smuggle_envs.text import SeatLog, observe

from ._games import CASES, IDS, facts
from ._visibility import positions

# Decisions between two samples, and games, per case: enough positions for every decision type
# of a random game, kept to a few seconds in all.
EVERY = {"smuggle_v0": 5, "ciq_v0": 4, "illegal_v0": 4, "humble_smuggle_v0": 4, "import_export_v0": 9}
GAMES = 3


def _every(env_id: str) -> int:
    return EVERY.get(env_id, 3)  # a fixture game: short, sampled often


def check_prompts(game, seeds: range, every: int) -> int:
    """Compare each sampled seat's prompt (no history) with a resampled world's; returns how
    many positions were compared."""
    f = facts(game.env_id)
    compared = 0
    for state, rng in positions(game, seeds, every, f.policy, f.always_sample, max_steps=600):
        seat = state.current_player()
        mine = observe(state, seat, history=0)
        theirs = observe(state.resample(seat, rng), seat, history=0)
        assert (theirs.prompt, theirs.legal, theirs.texts) == (mine.prompt, mine.legal, mine.texts), (
            f"seat {seat}'s prompt changes when what it cannot see is redrawn:\n{mine.prompt}\n---\n{theirs.prompt}"
        )
        compared += 1
    return compared


def _lines(game, viewer: int, before, action: int, after) -> list[str]:
    return SeatLog(game, viewer).record(before, action, after)


def check_step_lines(game, seeds: range, every: int) -> tuple[int, int]:
    """Replay sampled steps from each viewer's resampled worlds and compare the lines; returns
    (actor lines compared, note lists compared)."""
    f = facts(game.env_id)
    actors = notes = 0
    for before, rng in positions(game, seeds, every, f.policy, f.always_sample, max_steps=600):
        before = before.clone()
        action = f.policy(before, rng)
        after = before.clone()
        after.apply_action(action)
        for viewer in range(game.num_players):
            world = before.resample(viewer, rng)
            if action not in world.legal_actions():
                continue
            world_after = world.clone()
            world_after.apply_action(action)
            mine = _lines(game, viewer, before, action, after)
            theirs = _lines(game, viewer, world, action, world_after)
            assert mine[0] == theirs[0], (viewer, mine[0], theirs[0])
            actors += 1
            alike = after.observation(viewer).tobytes() == world_after.observation(viewer).tobytes()
            if alike and after.render(viewer) == world_after.render(viewer):
                assert mine[1:] == theirs[1:], (
                    f"seat {viewer} is told something it did not see after "
                    f"{game.action_to_string(action)!r}:\n{mine[1:]}\nin another world:\n{theirs[1:]}"
                )
                notes += 1
    return actors, notes


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_a_prompt_reads_the_same_in_every_world_the_seat_cannot_tell_apart(env_id, n):
    game = smuggle_envs.make_game(env_id, num_players=n)
    assert check_prompts(game, range(GAMES), _every(env_id)) >= 20


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_the_lines_of_a_step_tell_each_seat_only_what_it_saw(env_id, n):
    game = smuggle_envs.make_game(env_id, num_players=n)
    actors, notes = check_step_lines(game, range(GAMES), _every(env_id))
    assert actors >= 20 and notes >= 10, (actors, notes)


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_a_log_kept_up_step_by_step_is_the_log_of_the_whole_game(env_id, n):
    f = facts(env_id)
    game = smuggle_envs.make_game(env_id, num_players=n)
    rng = random.Random(7)
    state = game.new_initial_state(5)
    logs = [SeatLog(game, p) for p in range(n)]
    for step in range(200):
        if state.is_terminal():
            break
        if step % 7 == 0:
            for log in logs:
                log.follow(state)
        state.apply_action(f.policy(state, rng))
    for p, log in enumerate(logs):
        log.follow(state)
        fresh = SeatLog(game, p)
        fresh.follow(state)
        assert log.lines == fresh.lines
        assert len(log.lines) >= len(state.history)


def _leaky_game(monkeypatch, hook: str):
    """Smuggle, made to write the whole table (every hidden hand included) into ``hook``."""
    game = smuggle_envs.make_game("smuggle_v0", num_players=3)
    cls = type(game.new_initial_state(0))
    if hook == "_step_notes":
        monkeypatch.setattr(cls, hook, lambda self, before, action, viewer: [self.render(None)])
    else:
        monkeypatch.setattr(cls, hook, lambda self, viewer: [self.render(None)])
    return game


def test_a_leaking_note_is_caught(monkeypatch):
    game = _leaky_game(monkeypatch, "_step_notes")
    with pytest.raises(AssertionError, match="is told something it did not see"):
        check_step_lines(game, range(1), 3)


def test_a_leaking_private_card_is_caught(monkeypatch):
    game = _leaky_game(monkeypatch, "_private_cards")
    with pytest.raises(AssertionError, match="prompt changes when what it cannot see is redrawn"):
        check_prompts(game, range(1), 3)
