"""Errors a user can cause on the ``smuggle`` command line: each is one line ``smuggle: error: ...``
on stderr, no traceback, exit code 2 for a bad request (1 for a run that failed part-way, saying
what is kept and where). Model files that are missing, a folder or not a model; output folders
that cannot be written; and reading a tournament database without writing anything next to it.

Tests run as root, where ``chmod`` does not stop writes: unwritable paths are made with a regular
file where a folder is needed (``FILE/out``), and read-only reading is checked by the folder's
listing and the database's bytes and mtime staying the same. The real ``chmod`` cases run too;
what only a non-root user would see is asserted only when not running as root.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from training.cli import main
from training.db import TournamentDB
from training.errors import UsageError

REPO = Path(__file__).resolve().parents[2]
ROOT = os.geteuid() == 0
TOURNAMENT = ["tournament", "smuggle_v0", "--agents", "random,random,random", "--games", "3", "--workers", "1"]


def _one_line_error(capsys, code: int = 2) -> str:
    """The command's error line (asserting it is the only stderr line, and no traceback)."""
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("smuggle: error: "), err
    return lines[0]


def _blocked(tmp_path: Path) -> Path:
    """A regular file: ``_blocked(tmp) / "out"`` can never be created, not even by root."""
    path = tmp_path / "file.txt"
    path.write_text("not a folder\n")
    return path


def _save_model(directory: Path, players: int = 3) -> Path:
    """An untrained MaskablePPO model for ``players``-player Smuggle."""
    from sb3_contrib import MaskablePPO

    from training.selfplay.single_agent import SelfPlayEnv

    env = SelfPlayEnv("smuggle_v0", {"num_players": players})
    model = MaskablePPO(
        "MlpPolicy", env, seed=0, device="cpu", n_steps=64, batch_size=64, policy_kwargs={"net_arch": [8]}
    )
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "final.zip"
    model.save(path)
    return path


# ----- model files -------------------------------------------------------------------------------
def test_missing_model_file_is_one_line_for_play_and_match(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("builtins.input", lambda prompt="": pytest.fail("play asked for input"))
    assert main(["play", "smuggle_v0", "--bots", "ppo:bad.zip"]) == 2
    line = _one_line_error(capsys)
    assert (
        line
        == "smuggle: error: cannot build agent 'ppo:bad.zip' for smuggle_v0: no trained model at bad.zip (no such file)"
    )
    assert main(["match", "--agents", "ppo:nope.zip,rule,random,random"]) == 2
    assert "no trained model at nope.zip" in _one_line_error(capsys)
    assert main(["tournament", "smuggle_v0", "--agents", "ppo:nope.zip,random,random", "--db", "r.sqlite"]) == 2
    assert "cannot build agent 'ppo:nope.zip'" in _one_line_error(capsys)
    assert not (tmp_path / "r.sqlite").exists()


def test_model_path_that_is_a_folder_names_the_model_inside(capsys, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    assert main(["match", "--agents", f"ppo:{run},random,random", "--games", "1"]) == 2
    line = _one_line_error(capsys)
    assert f"{run} is a folder, not a model file" in line and "DIR/final.zip" in line
    (run / "final.zip").write_bytes(b"")  # only its existence matters for the hint
    assert main(["match", "--agents", f"ppo:{run},random,random", "--games", "1"]) == 2
    assert f"did you mean {run / 'final.zip'}?" in _one_line_error(capsys)
    assert main(["play", "smuggle_v0", "--players", "3", "--bots", f"ppo:{run}"]) == 2
    assert f"did you mean {run / 'final.zip'}?" in _one_line_error(capsys)


def test_a_file_that_is_not_a_model_is_one_line(capsys, tmp_path):
    text = tmp_path / "notes.zip"
    text.write_text("hello\n")
    assert main(["match", "--agents", f"ppo:{text},random,random", "--games", "1"]) == 2
    line = _one_line_error(capsys)
    assert f"{text} is not a trained model: not a zip file" in line
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("hello.txt", "a zip, but not a model")
    assert main(["match", "--agents", f"ppo:{other},random,random", "--games", "1"]) == 2
    assert f"{other} is not a trained MaskablePPO model" in _one_line_error(capsys)


def test_a_model_for_another_player_count_is_one_line_and_a_path_without_zip_works(capsys, tmp_path):
    model = _save_model(tmp_path / "run", players=3)
    assert main(["match", "--agents", f"ppo:{model},rule,random,random", "--games", "1", "--quiet"]) == 2
    assert "it was trained for another game or player count" in _one_line_error(capsys)
    # SB3 saves runs/x/final as runs/x/final.zip, so the spec without ".zip" names it too.
    stem = str(model)[: -len(".zip")]
    assert main(["match", "--agents", f"ppo:{stem},random,random", "--games", "1", "--quiet"]) == 0
    assert f"ppo:{stem}" in capsys.readouterr().out


def test_a_bad_warm_start_teacher_is_refused_before_training(capsys, tmp_path):
    run = tmp_path / "teacher"
    run.mkdir()
    (run / "final.zip").write_bytes(b"")
    out = tmp_path / "run"
    assert main(["train", "smuggle_v0", "--imitate", f"ppo:{run}", "--out", str(out)]) == 2
    assert f"did you mean {run / 'final.zip'}?" in _one_line_error(capsys)
    assert main(["train", "smuggle_v0", "--imitate", "ppo", "--out", str(out)]) == 2
    assert "a ppo agent needs a model file: write the spec as ppo:PATH" in _one_line_error(capsys)
    assert not out.exists()  # refused before anything was written


def test_console_script_prints_no_traceback_for_a_missing_model(tmp_path):
    exe = shutil.which("smuggle")
    cmd = [exe] if exe else [sys.executable, "-m", "training.cli"]
    result = subprocess.run(
        [*cmd, "match", "--agents", "ppo:nope.zip,rule,random,random"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "smuggle: error: cannot build agent 'ppo:nope.zip' for smuggle_v0: no trained model at nope.zip (no such file)"
    ]


# ----- folders that cannot be written ----------------------------------------------------------------
def test_train_refuses_an_unwritable_out_before_any_work(capsys, tmp_path):
    blocked = _blocked(tmp_path)
    assert main(["train", "smuggle_v0", "--out", str(blocked / "run")]) == 2
    line = _one_line_error(capsys)
    assert line == (
        f"smuggle: error: cannot write to the run folder {blocked / 'run'}: {blocked} is a file, "
        "not a folder; choose another --out"
    )
    assert main(["train", "smuggle_v0", "--out", str(blocked)]) == 2
    assert "it is a file, not a folder" in _one_line_error(capsys)


def test_train_in_a_read_only_folder(capsys, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        argv = ["train", "smuggle_v0", "--players", "3", "--n-envs", "2", "--steps", "512", "--eval-games", "2"]
        code = main([*argv, "--imitate", "none", "--no-progress", "--out", str(folder / "run")])
        if not ROOT:  # root writes anyway: then the tiny run simply succeeds
            assert code == 2
            line = _one_line_error(capsys)
            assert "cannot write to the run folder" in line and "Permission denied" in line
        else:
            assert code == 0 and (folder / "run" / "final.zip").is_file()
    finally:
        folder.chmod(0o755)


def test_tournament_refuses_unwritable_db_and_out_before_playing(capsys, tmp_path):
    blocked = _blocked(tmp_path)
    db = tmp_path / "r.sqlite"
    assert main([*TOURNAMENT, "--db", str(blocked / "r.sqlite")]) == 2
    line = _one_line_error(capsys)
    assert f"cannot write to the database's folder {blocked}: it is a file, not a folder" in line
    assert "choose another --db" in line
    assert main([*TOURNAMENT, "--db", str(db), "--out", str(blocked / "plots")]) == 2
    line = _one_line_error(capsys)
    assert line == (
        f"smuggle: error: cannot write to the output folder {blocked / 'plots'}: {blocked} is a file, "
        "not a folder; choose another --out"
    )
    assert not db.exists()  # refused before the first game


def test_tournament_in_a_read_only_folder(capsys, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        code = main([*TOURNAMENT, "--db", str(folder / "r.sqlite"), "--quiet", "--no-plots"])
        err = capsys.readouterr().err
        if not ROOT:
            assert code == 2 and "Permission denied" in err and err.count("\n") == 1
            assert list(folder.iterdir()) == []
        else:
            assert code == 0 and (folder / "r.sqlite").is_file()
    finally:
        folder.chmod(0o755)


def test_a_report_that_fails_at_the_end_says_the_games_are_saved_and_where(capsys, tmp_path):
    db = tmp_path / "r.sqlite"
    out = tmp_path / "plots"
    (out / "r_t1_leaderboard.csv").mkdir(parents=True)  # a folder where the CSV goes: open() fails
    argv = [*TOURNAMENT, "--db", str(db), "--out", str(out), "--quiet", "--no-plots"]
    assert main(argv) == 1
    line = _one_line_error(capsys)
    assert f"cannot write the leaderboard files to {out}" in line and "Is a directory" in line
    assert f"The games are saved: 3 of 3 games of tournament 1 are stored in {db}" in line
    assert "--out DIR" in line
    with TournamentDB(db, readonly=True) as store:
        assert store.count_games(1) == 3
    # As the message says: the same command with another --out writes the files, playing nothing.
    assert main([*argv[:-4], "--out", str(tmp_path / "elsewhere"), "--quiet", "--no-plots"]) == 0
    text = capsys.readouterr().out
    assert "complete: all 3 games already stored" in text and "played" not in text.split("===")[0]
    assert (tmp_path / "elsewhere" / "r_t1_leaderboard.csv").is_file()


def test_save_replay_and_analyze_out_are_checked_before_any_work(capsys, tmp_path, monkeypatch):
    blocked = _blocked(tmp_path)
    monkeypatch.setattr("builtins.input", lambda prompt="": pytest.fail("play asked for input"))
    assert main(["play", "smuggle_v0", "--save-replay", str(blocked / "game.json")]) == 2
    assert f"cannot write --save-replay {blocked / 'game.json'}: {blocked} is a file" in _one_line_error(capsys)
    assert main(["match", "--games", "0", "--save-replay", str(tmp_path)]) == 2
    assert f"cannot write --save-replay {tmp_path}: it is a folder" in _one_line_error(capsys)
    db = tmp_path / "r.sqlite"
    assert main([*TOURNAMENT, "--db", str(db), "--quiet", "--no-plots"]) == 0
    capsys.readouterr()
    assert main(["analyze", str(db), "--out", str(blocked / "an")]) == 2
    assert "cannot write to the output folder" in _one_line_error(capsys)


def test_usage_errors_carry_exit_codes():
    assert UsageError("x").code == 2 and UsageError("x", code=1).code == 1


# ----- reading a database without writing --------------------------------------------------------
def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


@pytest.fixture
def stored(tmp_path, capsys) -> Path:
    """A tournament database of 3 games, alone in its folder."""
    folder = tmp_path / "results"
    folder.mkdir()
    db = folder / "r.sqlite"
    assert main([*TOURNAMENT, "--db", str(db), "--quiet", "--no-plots", "--out", str(tmp_path / "report")]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in folder.iterdir()) == ["r.sqlite"]  # the writer removed its -wal, -shm
    return db


def test_replay_and_analyze_read_a_read_only_database_and_write_nothing(stored, tmp_path, capsys):
    folder = stored.parent
    before = _snapshot(folder)
    stored.chmod(0o444)
    folder.chmod(0o555)
    try:
        assert main(["replay", str(stored), "2"]) == 0
        out = capsys.readouterr().out
        assert "game 2 of tournament 1" in out and "stored result:" in out
        assert main(["analyze", str(stored), "--out", str(tmp_path / "an"), "--no-plots"]) == 0
        assert "=== tournament 1: smuggle_v0" in capsys.readouterr().out
        assert (tmp_path / "an" / "r_t1_bluffing.csv").is_file()
        assert _snapshot(folder) == before  # no journal, -wal or -shm; the file untouched

        # Read-only at the SQLite level, even for root.
        with TournamentDB(stored, readonly=True) as db, pytest.raises(sqlite3.OperationalError, match="readonly"):
            db.conn.execute("DELETE FROM games")
        assert _snapshot(folder) == before

        # No --out: the files would go next to the database. A non-root user gets the analysis
        # and a note that the files were not written; root can write there, and does.
        assert main(["analyze", str(stored), "--no-plots"]) == 0
        captured = capsys.readouterr()
        assert "=== tournament 1: smuggle_v0" in captured.out and "Traceback" not in captured.err
        if not ROOT:
            assert "the CSV and PNG files are not written" in captured.err and "add --out DIR" in captured.err
            assert _snapshot(folder) == before
        else:
            assert (folder / "r_t1_bluffing.csv").is_file()
    finally:
        folder.chmod(0o755)
        stored.chmod(0o644)


def test_reading_while_a_tournament_writes_sees_its_games_and_adds_no_file(stored, capsys):
    folder = stored.parent
    with TournamentDB(stored) as writer:  # an open writer: its -wal and -shm files exist
        writer.conn.execute("UPDATE games SET duration = 9.5 WHERE id = 3")  # committed, in the -wal only
        names = sorted(p.name for p in folder.iterdir())
        assert "r.sqlite-wal" in names
        with TournamentDB(stored, readonly=True) as reader:
            assert reader.game(3).duration == 9.5 and reader.count_games() == 3
        assert main(["replay", str(stored), "3"]) == 0
        assert "game 3 of tournament 1" in capsys.readouterr().out
        assert sorted(p.name for p in folder.iterdir()) == names


def test_replay_and_analyze_refuse_what_is_not_a_database(capsys, tmp_path):
    assert main(["replay", str(tmp_path), "1"]) == 2
    assert f"'{tmp_path}' is a folder, not a database file" in _one_line_error(capsys)
    assert main(["analyze", str(tmp_path / "missing.sqlite")]) == 2
    assert "no database file" in _one_line_error(capsys)
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    mtime = junk.stat().st_mtime_ns
    assert main(["replay", str(junk), "1"]) == 2
    line = _one_line_error(capsys)
    assert f"cannot read '{junk}' as a tournament database: file is not a database" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.sqlite"] and junk.stat().st_mtime_ns == mtime
