"""A tournament killed (SIGKILL) in the middle resumes with the same command: the database ends
with exactly the scheduled games, each once, equal to an uninterrupted run."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from training.db import TournamentDB
from training.tournament import schedule as S

REPO = Path(__file__).resolve().parents[3]
AGENTS = "random,random,random,random,random"
GAMES = 300  # 15 cycles of 5 lineups x 4 rotations


def _argv(db: Path, workers: int) -> list[str]:
    return [
        "tournament",
        "smuggle_v0",
        "--agents",
        AGENTS,
        "--games",
        str(GAMES),
        "--seed",
        "7",
        "--workers",
        str(workers),
        "--db",
        str(db),
        "--quiet",
        "--no-plots",
    ]


def _stored(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=1) as conn:
            return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # the schema is not created yet
        return 0


def _rows(db: Path):
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT game_key, deal, rotation, seed, seating, agents, scores, ranks, "
            "actions, decisions FROM games ORDER BY game_key"
        ).fetchall()


def test_kill_in_the_middle_then_resume(tmp_path, run_cli, capsys):
    db = tmp_path / "killed.sqlite"
    cmd = [sys.executable, "-m", "training.tournament.cli"] + _argv(db, workers=2)
    proc = subprocess.Popen(
        cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )  # its own group: the pool dies with it
    try:
        deadline = time.monotonic() + 90
        while _stored(db) < 30:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the tournament stored no games in time"
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    at_kill = _stored(db)
    assert 30 <= at_kill < GAMES, at_kill  # really killed in the middle
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    # The same command resumes and plays only the missing games.
    assert run_cli(_argv(db, workers=2)) == 0
    out = capsys.readouterr().out
    assert f"resuming: {at_kill} of {GAMES} games already stored" in out
    assert f"played {GAMES - at_kill} games" in out
    expected = sorted(s.game_key for s in S.game_specs(5, 4, GAMES, seed=7))
    keys = [row[0] for row in _rows(db)]
    assert keys == expected  # every game, each exactly once

    # Identical to an uninterrupted run (played in-process, in order).
    clean = tmp_path / "clean.sqlite"
    assert run_cli(_argv(clean, workers=1)) == 0
    capsys.readouterr()
    assert _rows(db) == _rows(clean)
    with TournamentDB(db, create=False) as a, TournamentDB(clean, create=False) as b:
        assert a.ratings(1) == b.ratings(1) and len(a.ratings(1)) == 5
