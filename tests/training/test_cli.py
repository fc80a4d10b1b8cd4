"""The ``smuggle`` command line: list, play (scripted stdin), match, replay-json, errors, help
and --version, Ctrl-C during training, the warm start's progress bars. (Errors from model files,
output folders and read-only databases: ``test_cli_errors.py``.)"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from smuggle_envs import make_game
from smuggle_envs.core import Replay
from training import cli
from training.cli import main, play
from training.stats import format_table, wilson_interval

REPO = Path(__file__).resolve().parents[2]


def _results(out: str) -> dict[str, list[str]]:
    """The rows of the results table, by agent label."""
    lines = out.split("=== results")[1].splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("agent"))
    rows = {}
    for line in lines[header + 2 :]:
        if not line.strip():
            break
        cells = re.split(r"\s{2,}", line.strip())
        rows[cells[0]] = cells
    return rows


# ----- list --------------------------------------------------------------------------------------
def test_list_shows_every_env_with_sizes(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    game = make_game("smuggle_v0")
    row = next(line for line in out.splitlines() if line.startswith("smuggle_v0"))
    assert "3-6" in row
    assert str(game.observation_layout.size) in row.split()
    assert str(game.num_actions) in row.split()
    assert out.splitlines()[-1] == "engine: pure Python build"  # the suite runs the pure build


def test_console_script_list_runs_without_heavy_imports():
    exe = shutil.which("smuggle")
    cmd = [exe, "list"] if exe else [sys.executable, "-m", "training.cli", "list"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=REPO)
    assert result.returncode == 0, result.stderr
    assert "smuggle_v0" in result.stdout
    # `python -m training.cli` works too, and `list` imports neither torch, tqdm nor the agents.
    probe = (
        "import sys; from training.cli import main; rc = main(['list']); "
        "heavy = [m for m in ('torch', 'tqdm', 'agents') if m in sys.modules]; "
        "print('HEAVY', heavy); sys.exit(rc)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert result.returncode == 0, result.stderr
    assert "HEAVY []" in result.stdout
    result = subprocess.run(
        [sys.executable, "-m", "training.cli", "match", "nope"], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "unknown env id" in result.stderr


# ----- match -------------------------------------------------------------------------------------
def test_match_prints_log_and_table_and_is_deterministic(capsys):
    argv = ["match", "--games", "20", "--seed", "5"]
    assert main(argv) == 0
    first = capsys.readouterr()
    assert main(argv) == 0
    second = capsys.readouterr()
    assert first.out == second.out

    out = first.out
    decisions = [line for line in out.split("=== results")[0].splitlines() if re.match(r"^\s*\d+\s+P\d \(", line)]
    assert 50 < len(decisions) < 1000  # one line per decision of the sample game
    assert "final scores:" in out and "winner" in out.split("=== results")[0]

    rows = _results(out)
    rule = next(label for label in rows if label.startswith("rule"))
    assert set(rows) == {rule, "random"}
    assert int(rows[rule][1]) == 20 and int(rows["random"][1]) == 60  # seat-games
    wins = sum(float(r[2]) for r in rows.values())
    assert wins == pytest.approx(20)  # shared wins are split, never lost
    for r in rows.values():
        assert re.fullmatch(r"\d+\.\d%", r[3]) and re.fullmatch(r"\[\d+\.\d%, \d+\.\d%\]", r[4])


def test_match_seed_changes_results_and_quiet_prints_only_results(capsys):
    assert main(["match", "--games", "12", "--agents", "random,random,random", "--quiet"]) == 0
    a = capsys.readouterr()
    assert main(["match", "--games", "12", "--agents", "random,random,random", "--quiet", "--seed", "1"]) == 0
    b = capsys.readouterr()
    assert "sample game" not in a.out and "games:" not in a.err  # no log, no progress bar
    rows = _results(a.out)
    assert list(rows) == ["random"] and rows["random"][1] == "36"
    assert "3 players" in a.out
    assert a.out.split("=== results")[1] != b.out.split("=== results")[1]


def test_match_rotates_seats(capsys, monkeypatch):
    from training import match

    seen = []
    real = match.lineup_for_game
    monkeypatch.setattr(match, "lineup_for_game", lambda lineup, g: seen.append(real(lineup, g)) or seen[-1])
    assert main(["match", "--games", "4", "--agents", "rule,random,random,random", "--quiet"]) == 0
    labels = [s for s in seen if isinstance(s[0], str)]
    first = [lab.startswith("rule") for lab in labels[0]]
    assert [[lab.startswith("rule") for lab in s].index(True) for s in labels] == [0, 3, 2, 1]
    assert first == [True, False, False, False]


# ----- replay ------------------------------------------------------------------------------------
def test_save_replay_and_replay_json_round_trip(tmp_path, capsys):
    path = tmp_path / "game.json"
    assert (
        main(
            [
                "match",
                "--games",
                "0",
                "--seed",
                "11",
                "--agents",
                "random",
                "--players",
                "5",
                "--save-replay",
                str(path),
            ]
        )
        == 0
    )
    match_out = capsys.readouterr().out
    replay = Replay.from_json(path.read_text())
    assert replay.env_id == "smuggle_v0" and replay.seed == 11 and replay.config["num_players"] == 5
    final = replay.final_state()
    assert final.is_terminal()

    assert main(["replay-json", str(path)]) == 0
    replay_out = capsys.readouterr().out

    def decisions(text, strip_label):
        lines = [line for line in text.splitlines() if re.match(r"^\s*\d+\s+P\d", line)]
        return [re.sub(r" \([^)]*\):", ":", line) if strip_label else line for line in lines]

    assert decisions(replay_out, False) == decisions(match_out, True)
    assert len(decisions(replay_out, False)) == len(replay.actions)
    scores = ", ".join(f"P{p} {int(s)}" for p, s in enumerate(final.scores()))
    assert f"final scores: {scores}" in replay_out


def test_replay_json_bad_files(tmp_path, capsys):
    missing = tmp_path / "missing.json"
    assert main(["replay-json", str(missing)]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["replay-json", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    illegal = tmp_path / "illegal.json"
    illegal.write_text(
        json.dumps({"env_id": "smuggle_v0", "config": {"num_players": 4}, "seed": 1, "actions": [0, 498]})
    )  # the Officer cannot 'accept'
    assert main(["replay-json", str(illegal)]) == 2
    err = capsys.readouterr().err
    assert "action 2 cannot be applied" in err and "Traceback" not in err


# ----- play --------------------------------------------------------------------------------------
class ScriptedPerson:
    """Stands in for ``input()``: first bad inputs (checking each got an error), then a filter
    and a number taken from the filtered list, then always the first legal action."""

    def __init__(self, capsys):
        self.capsys = capsys
        self.log: list[str] = []
        self.calls = 0
        self.filtered_choice: str | None = None

    def __call__(self, prompt: str = "") -> str:
        out = self.capsys.readouterr().out
        self.log.append(out)
        self.calls += 1
        assert self.calls < 3000, "the game does not end"
        if self.calls == 1:
            assert "Your move" in out and "legal actions" in out  # the declaration filter hint
            assert "(you)" in out  # the table from our seat
            return "abc"
        if self.calls == 2:
            assert "No legal action matches 'abc'" in out
            return "99999"
        if self.calls == 3:
            assert "99999 is out of range" in out
            return ""
        if self.calls == 4:
            assert "Please type" in out
            return "  WINE  "
        if self.calls == 5:
            listed = re.findall(r"^\s+(\d+)\. (.*)$", out, re.M)
            assert listed and all("wine" in text for _, text in listed)
            number, self.filtered_choice = listed[0]
            return number
        return "1"

    def output(self) -> str:
        return "".join(self.log) + self.capsys.readouterr().out


def test_play_whole_game_with_scripted_input(capsys, monkeypatch):
    person = ScriptedPerson(capsys)
    monkeypatch.setattr("builtins.input", person)
    assert main(["play", "smuggle_v0", "--players", "4", "--seat", "1", "--seed", "2"]) == 0
    out = person.output()
    assert person.calls > 6
    assert f"P1 (you): {person.filtered_choice}" in out
    assert re.search(r"^P[023] \(rule(->random)?\): \S", out, re.M)  # bots' moves are shown
    assert "final scores:" in out and re.search(r"^(winner|shared win): ", out, re.M)
    assert "Traceback" not in out


def test_play_shows_the_table_at_every_turn(capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    assert main(["play", "smuggle_v0", "--seat", "0", "--seed", "4", "--bots", "random"]) == 0
    out = capsys.readouterr().out
    assert out.count("P0 (you): £") > 10
    assert "the table cannot be shown" not in out


def test_play_exact_text_quit_and_eof(capsys, monkeypatch):
    game = make_game("smuggle_v0")
    state = game.new_initial_state(0)
    monkeypatch.setattr("builtins.input", lambda prompt="": "Declare  Wine x2")
    action = play.choose_action(state, state.current_player())
    assert state.action_to_string(action) == "declare wine x2"

    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    assert main(["play", "smuggle_v0", "--seat", "1", "--seed", "0", "--bots", "random"]) == 0
    assert "you left the game" in capsys.readouterr().out

    def eof(prompt=""):
        raise EOFError

    monkeypatch.setattr("builtins.input", eof)
    assert main(["play", "smuggle_v0", "--seat", "1", "--seed", "0", "--bots", "random"]) == 1
    captured = capsys.readouterr()
    assert "game abandoned" in captured.err and "Traceback" not in captured.err


# ----- errors and helpers ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv, message",
    [
        (["match", "nope_v9"], "unknown env id 'nope_v9'"),
        (["play", "nope_v9"], "unknown env id 'nope_v9'"),
        (["match", "--players", "9"], "out of range"),
        (["play", "smuggle_v0", "--players", "2"], "out of range"),
        (["play", "smuggle_v0", "--seat", "4"], "--seat 4"),
        (["match", "--agents", "rule,random", "--players", "4"], "names 2 agents"),
        (["match", "--agents", "alphazero,random,random"], "unknown agent 'alphazero'"),
    ],
)
def test_bad_requests_exit_2_with_one_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and err.startswith("smuggle: error:")


def test_help_and_usage_errors(capsys):
    assert main(["--help"]) == 0
    assert "replay-json" in capsys.readouterr().out
    for command in ("list", "play", "match", "replay-json"):
        assert main([command, "--help"]) == 0
        assert f"usage: smuggle {command}" in capsys.readouterr().out
    assert main([]) == 2
    assert main(["match", "--games", "many"]) == 2
    assert "invalid int value" in capsys.readouterr().err


def test_wilson_interval_and_table():
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    table = format_table(["a", "bb"], [["x", 1], ["yyy", 22]])
    assert table.splitlines() == ["a    bb", "---  --", "x     1", "yyy  22"]


def test_play_against_any_agent_spec_and_refuses_unknown_ones(capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    assert main(["play", "smuggle_v0", "--seat", "0", "--seed", "5", "--bots", "random"]) == 0
    assert "P1 is random" in capsys.readouterr().out
    assert main(["play", "smuggle_v0", "--seat", "0", "--seed", "5", "--bots", "alien"]) == 2
    assert "unknown agent" in capsys.readouterr().err


# ----- --version and --help ----------------------------------------------------------------------
def test_version_prints_the_package_version_and_the_engine_build(capsys):
    import smuggle_envs
    from smuggle_envs import compiled

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"smuggle (smuggle_envs) {smuggle_envs.__version__}, {compiled.describe()}\n"
    exe = shutil.which("smuggle")
    cmd = [exe] if exe else [sys.executable, "-m", "training.cli"]
    result = subprocess.run([*cmd, "--version"], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert result.returncode == 0 and smuggle_envs.__version__ in result.stdout


def test_top_level_help_names_every_subcommand_with_a_one_line_description(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps help at the terminal's width
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    sub = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    commands = {a.dest: a.help for a in sub._get_subactions()}
    assert set(commands) == set(sub.choices)  # every registered subcommand has a help line
    assert {"list", "play", "match", "replay-json", "train", "tournament", "replay", "analyze"} <= set(commands)
    for name, text in commands.items():
        assert text and "\n" not in text
        assert re.search(rf"^ +{re.escape(name)} +{re.escape(text)}$", out, re.M), f"{name}:\n{out}"
    assert "--version" in out


# ----- Ctrl-C during training ----------------------------------------------------------------------
# Runs `smuggle train` (training.cli.main) in a subprocess that prints a line at every rollout
# start, so the test knows when training is under way; the signal itself is a real SIGINT.
_TRAIN_WITH_ROLLOUT_LINES = """
import sys
from training.selfplay import trainer

real = trainer.Trainer.on_rollout_start

def on_rollout_start(self):
    print("ROLLOUT", self.model.num_timesteps, flush=True)
    real(self)

trainer.Trainer.on_rollout_start = on_rollout_start
from training.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _lines_of(stream, lines: list[str], seen: threading.Event) -> None:
    for line in stream:
        lines.append(line.rstrip("\n"))
        seen.set()


def test_ctrl_c_in_train_saves_a_checkpoint_and_resume_continues_from_it(tmp_path, capsys):
    out = tmp_path / "run"
    script = tmp_path / "train.py"
    script.write_text(_TRAIN_WITH_ROLLOUT_LINES)
    argv = ["train", "smuggle_v0", "--players", "3", "--n-envs", "2", "--imitate", "none", "--eval-games", "2"]
    proc = subprocess.Popen(
        [sys.executable, str(script), *argv, "--no-progress", "--steps", "10000000", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    lines: list[str] = []
    seen = threading.Event()
    reader = threading.Thread(target=_lines_of, args=(proc.stdout, lines, seen), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 90
        # One rollout is 2 envs x 256 steps = 512 steps: interrupt once the second one has begun.
        while not any(line.startswith("ROLLOUT") and int(line.split()[1]) >= 512 for line in lines):
            assert proc.poll() is None, f"training ended early: {proc.stderr.read() if proc.stderr else ''}"
            assert time.monotonic() < deadline, f"training did not start: {lines}"
            seen.wait(0.5)
            seen.clear()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=10)

    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "Ctrl-C: saving a checkpoint at the end of this rollout" in err
    match = re.search(r"smuggle: stopped at step (\d+); checkpoint saved in (\S+)\. Continue with: (.*)$", err, re.M)
    assert match, err
    step, checkpoint = int(match.group(1)), Path(match.group(2))
    assert match.group(3) == f"smuggle train smuggle_v0 --out {out} --resume"
    assert step >= 512 and step % 512 == 0  # at a rollout boundary, from the second rollout on
    assert checkpoint == out / "checkpoints" / f"step_{step:010d}" and (checkpoint / "state.pkl").is_file()
    assert (out / "checkpoints" / "latest.txt").read_text().strip() == checkpoint.name
    assert not (out / "final.zip").exists()  # stopped, not finished

    # --resume continues from the saved step, not from 0.
    assert main([*argv, "--no-progress", "--out", str(out), "--resume", "--steps", str(step + 512)]) == 0
    text = capsys.readouterr().out
    assert f"resuming smuggle_v0 from step {step} ({checkpoint.name}) towards {step + 512} steps" in text
    assert "training smuggle_v0" not in text  # not a fresh start
    assert json.loads((out / "final_eval.json").read_text())["steps"] == step + 512
    evals = sorted({int(row.split(",")[0]) for row in (out / "eval.csv").read_text().splitlines()[1:]})
    assert evals[0] == 0 and evals[-1] == step + 512  # the curve from before the stop is kept


# ----- the warm start's progress bars --------------------------------------------------------------
def _tiny_run(out: Path, progress: bool):
    from training.selfplay.trainer import TrainConfig, Trainer

    config = TrainConfig(
        env_id="smuggle_v0",
        num_players=3,
        steps=256,
        n_envs=2,
        n_steps=128,
        batch_size=128,
        n_epochs=1,
        net_arch=(16,),
        imitate="rule",
        imitation_samples=300,
        imitation_epochs=2,
        eval_games=2,
        final_eval_games=2,
        tensorboard=False,
        progress=progress,
    )
    return Trainer(config, out, log=lambda text: None).run()


def test_warm_start_shows_progress_bars_like_the_rest_of_training(tmp_path, capsys):
    _tiny_run(tmp_path / "a", progress=True)
    err = capsys.readouterr().err
    assert "warm start: playing rule" in err and "decision" in err  # recording the teacher's games
    assert "warm start: cloning (2 epochs)" in err and "batch" in err  # fitting the policy
    assert "self-play smuggle_v0" in err
    _tiny_run(tmp_path / "b", progress=False)  # --no-progress: quiet
    assert capsys.readouterr().err == ""
