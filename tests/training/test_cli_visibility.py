"""What the terminal shows one seat of the others' actions: only what that seat may see.

``smuggle play`` prints every bot move to the person, and ``replay`` / ``replay-json --seat S``
print a stored game as seat S saw it. Each line must be the viewer's text of the action
(``State.action_to_string(action, viewer)``), which the contract test checks against resampled
hidden information for every game; here we check that the commands use it, and that a replay
shown to a seat prints nothing that changes when the other seats' hidden cards are redrawn.
"""

from __future__ import annotations

import json
import re

import pytest

import smuggle_envs
from smuggle_envs.core import Replay
from training.cli import main

# A move line: "P1 (rule): text   [changes]" (play), "  12  P1: text" (a numbered replay line).
LINE = re.compile(r"^(?:\s*\d+\s+)?P(\d+)(?: \(([^)]*)\))?: (.*?)(?:   \[.*\])?$")
NUMBERED = re.compile(r"^\s*\d+\s+P")
# The tables play prints (a turn's prompt; the end) may hold lines that read like moves
# ("P0 (red harbor): 10 credits"): they are skipped.
TURN_START = re.compile(r"^.* You are P\d+[^;]*\.$")
TURN_END = "Answer with the number"
END_TABLE = "The table at the end of the game:"


def _moves(out: str) -> list[tuple[int, str]]:
    """The moves of a replay's output: its numbered lines (a table drawn between them is not)."""
    return [
        (int(m.group(1)), m.group(3)) for line in out.splitlines() if NUMBERED.match(line) and (m := LINE.match(line))
    ]


def _play_moves(out: str) -> list[tuple[int, str]]:
    """The moves of ``smuggle play``'s output, outside the tables it draws."""
    moves, in_table = [], False
    for line in out.split(END_TABLE)[0].splitlines():
        if TURN_START.match(line):
            in_table = True
        elif in_table:
            in_table = not line.startswith(TURN_END)
        elif m := LINE.match(line):
            moves.append((int(m.group(1)), m.group(3)))
    return moves


def _viewer_texts(replay: Replay, viewer: int | None) -> list[tuple[int, str, str]]:
    """(actor, the viewer's text, the full text) of every action of a replay."""
    out = []
    for state, action in replay.states():
        if action is not None:
            out.append((state.current_player(), state.action_to_string(action, viewer), state.action_to_string(action)))
    return out


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_play_shows_the_person_each_bot_move_only_as_their_seat_sees_it(env_id, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    path = tmp_path / "game.json"
    n = max(3, smuggle_envs.game_class(env_id).min_players)
    argv = ["play", env_id, "--players", str(n), "--seat", "1", "--seed", "7", "--save-replay", str(path)]
    assert main(argv) == 0
    shown = _play_moves(capsys.readouterr().out)
    expected = _viewer_texts(Replay.from_json(path.read_text()), viewer=1)
    assert [(p, text) for p, text, _ in expected] == shown
    mine = [(text, full) for p, text, full in expected if p == 1]
    assert all(text == full for text, full in mine)  # the person's own moves in full


def test_play_hides_humble_smuggle_face_down_choices(capsys, monkeypatch, tmp_path):
    """The issue's example: in a seed-7 3-player game the person read the bots' face-down
    selections ("select 10") and their Play cards."""
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    path = tmp_path / "game.json"
    assert main(["play", "humble_smuggle_v0", "--players", "3", "--seed", "7", "--save-replay", str(path)]) == 0
    out = capsys.readouterr().out
    bots = [text for p, text in _play_moves(out) if p != 0]
    assert bots and not any(re.match(r"select \d", text) for text in bots)
    hidden = [1 for p, text, full in _viewer_texts(Replay.from_json(path.read_text()), 0) if p != 0 and text != full]
    assert len(hidden) > 5


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_a_replay_shown_to_a_seat_does_not_change_when_hidden_cards_are_redrawn(env_id, capsys, tmp_path):
    """Replay-json --seat S prints the table as S saw it and the others' actions as S saw them;
    redrawing what S could not see (resample from S's seat at each step) changes none of the
    text of the actions S saw."""
    import random

    game = smuggle_envs.make_game(env_id, num_players=3)
    state = game.new_initial_state(11)
    rng = random.Random(0)
    while not state.is_terminal() and len(state.history) < 150:
        state.apply_action(rng.choice(state.legal_actions()))
    path = tmp_path / "r.json"
    path.write_text(state.to_replay().to_json())
    assert main(["replay-json", str(path), "--seat", "2"]) == 0
    out = capsys.readouterr().out
    assert "(as P2 sees it)" in out and "(all cards shown)" not in out
    replay = Replay.from_json(path.read_text())
    assert [(p, text) for p, text, _ in _viewer_texts(replay, 2)] == _moves(out)
    # The same lines come out of any world P2 cannot tell apart from the real one.
    for position, action in replay.states():
        if action is None or position.current_player() == 2:
            continue
        text = position.action_to_string(action, 2)
        twin = position.resample(2, rng)
        if action in twin.legal_actions():
            assert twin.action_to_string(action, 2) == text


def test_replay_seat_is_checked(capsys, tmp_path):
    state = smuggle_envs.make_game("smuggle_v0").new_initial_state(1)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(json.loads(state.to_replay().to_json())))
    assert main(["replay-json", str(path), "--seat", "4"]) == 2
    assert "--seat 4 is not a seat of this 4-player game" in capsys.readouterr().err
