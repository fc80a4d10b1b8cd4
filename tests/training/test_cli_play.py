"""``smuggle play`` as a newcomer meets it (issue #26): the commands that explain the game, every
step told as the seat's log, the language model's prompt at each turn, the bots listed in the
help, and scores shown as the game writes them."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import smuggle_envs
from agents import AGENT_KINDS
from smuggle_envs.text import SeatLog, TextObservation, card_table, rules_brief
from training.cli import main, play
from training.gamelog import labelled_seat, money_changes

BRACKETS = re.compile(r"   \[(.*)\]$", re.M)  # the score changes at the end of an actor's line


class Script:
    """Stands in for ``input()``: answers each prompt with the next scripted line, then with
    ``default`` for ever; ``outputs[i]`` is what was printed before prompt ``i``."""

    def __init__(self, capsys, lines, default="1"):
        self.capsys = capsys
        self.lines = list(lines)
        self.default = default
        self.outputs: list[str] = []

    def __call__(self, prompt: str = "") -> str:
        self.outputs.append(self.capsys.readouterr().out)
        assert len(self.outputs) < 3000, "the game does not end"
        return self.lines.pop(0) if self.lines else self.default

    def rest(self) -> str:
        return self.capsys.readouterr().out


def _players(env_id: str) -> int:
    return max(3, smuggle_envs.game_class(env_id).min_players)


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_the_commands_answer_at_a_turn_of_every_game(env_id, capsys, monkeypatch):
    script = Script(capsys, ["help", "cards", "rules", "log", "table", "?", "quit"])
    monkeypatch.setattr("builtins.input", script)
    argv = ["play", env_id, "--players", str(_players(env_id)), "--seat", "1", "--seed", "3", "--bots", "random"]
    assert main(argv) == 0
    first, after_help, after_cards, after_rules, after_log, after_table, after_list = script.outputs
    game = smuggle_envs.make_game(env_id, num_players=_players(env_id))
    assert "'help'" in first and "'rules'" in first  # the intro says where the rules are
    assert "How to choose your action" in after_help and "rules" in after_help
    assert card_table(game).strip() in after_cards
    assert rules_brief(env_id).strip() in after_rules
    assert after_log.strip()  # the seat's log so far, or that nothing happened yet
    assert re.search(r"^\s+1\. \S", after_list, re.M)
    # 'table' shows the turn again: the same text as at the start of the turn.
    assert after_table.strip() and after_table.strip() in first
    assert "you left the game" in script.rest()


def test_a_command_word_that_is_also_an_action_is_run_and_the_action_is_named_by_number(capsys):
    state = smuggle_envs.make_game("smuggle_v0").new_initial_state(0)
    seat = state.current_player()
    obs = TextObservation(state.game.env_id, seat, "PROMPT", [7, 9], ["table", "log the bag"])
    turn = play.Turn(state, seat, SeatLog(state.game, seat), obs)
    assert play._answer("table", turn) is None
    out = capsys.readouterr().out
    assert "PROMPT" in out and "type its number, 1" in out
    assert play._answer("1", turn) == 7
    assert play._answer("log the", turn) == 9  # the start of one action's text
    assert play._answer("Log The Bag", turn) == 9


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_a_whole_game_is_told_as_the_seat_log(env_id, capsys, monkeypatch):
    """Every step is printed as the seat's log lines (the person's own moves too): 'log' at the
    second turn repeats only lines that were printed as the game went."""
    script = Script(capsys, ["help", "1", "log"])
    monkeypatch.setattr("builtins.input", script)
    argv = ["play", env_id, "--players", str(_players(env_id)), "--seat", "0", "--seed", "5"]
    assert main(argv) == 0
    out = "".join(script.outputs) + script.rest()
    assert "final scores:" in out and "Traceback" not in out
    # The log asked for at the second turn holds every line printed as the game went, in order.
    log_lines = [line for line in script.outputs[3].splitlines() if line.strip()]
    printed = "".join(script.outputs[:3])
    shown = [BRACKETS.sub("", line).replace(" (you)", "").strip() for line in printed.splitlines()]
    for line in log_lines:
        assert _unlabelled(line) in [_unlabelled(s) for s in shown], line


def _unlabelled(line: str) -> str:
    """A printed line without who plays the seat (``P1 (rule): ``, ``P0 (green, you): ``)."""
    return re.sub(r"^(P\d+)(?: \(([^)]*)\))?: ", lambda m: m.group(1) + ": ", line.strip())


def test_a_new_round_is_announced(capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    assert main(["play", "smuggle_v0", "--players", "3", "--seat", "0", "--seed", "2", "--bots", "random"]) == 0
    assert re.search(r"^  .*\bround 2\b", capsys.readouterr().out, re.M | re.I)


def test_humble_smuggle_shows_no_tie_break_fraction_as_money(capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    assert main(["play", "humble_smuggle_v0", "--players", "3", "--seat", "0", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    changes = BRACKETS.findall(out)
    assert not any(re.search(r"\d\.\d", change) for change in changes), changes
    final = next(line for line in out.splitlines() if line.startswith("final scores:"))
    assert not re.search(r"\d\.\d", final)


def test_play_help_lists_every_agent_kind(capsys):
    assert main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    bots = out[out.index("bots (--bots SPEC)") :]
    for kind in AGENT_KINDS:
        assert re.search(rf"^  {re.escape(kind)}(:|\[|\s)", bots, re.M), kind


def test_building_the_play_parser_imports_no_agent():
    """The bot list is read from ``agents.AGENT_KINDS`` when help is printed, not when the
    parser is built (``smuggle --help`` builds them all)."""
    probe = (
        "import argparse, sys; from training.cli.parser import add_play; "
        "p = argparse.ArgumentParser(); add_play(p.add_subparsers()); print('AGENTS', 'agents' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "AGENTS False" in result.stdout


def test_money_changes_read_the_games_score_text():
    humble = smuggle_envs.make_game("humble_smuggle_v0", num_players=3)
    assert money_changes([3.01, 0.0, 5.0], [3.02, 0.0, 5.0], humble) == ""  # a tie-break card only
    assert money_changes([3.01, 2.0, 5.0], [5.02, 0.0, 5.0], humble) == "P1 -2, P0 +2"
    assert money_changes([3.01, 0.0], [3.02, 0.0]) == "P0 +0.01"  # without a game: as before
    assert labelled_seat("P0 (green)", "you") == "P0 (green, you)" and labelled_seat("P1", "rule") == "P1 (rule)"
