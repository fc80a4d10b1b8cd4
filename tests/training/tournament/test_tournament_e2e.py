"""End-to-end tournaments on small budgets for every env id, through the command line."""

from __future__ import annotations

import csv
import json
import re
import sqlite3
import subprocess
import sys

import pytest

import smuggle_envs
from agents import AGENT_KINDS
from smuggle_envs import make_game
from smuggle_envs.core import Replay
from smuggle_envs.core.errors import ConfigError
from training.db import TournamentDB, unique_names
from training.errors import UsageError
from training.tournament import schedule as S


def _block(text: str, header: str) -> list[str]:
    """The lines after the line starting with ``header``, up to the next blank line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header)) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def _lineup(env_id: str, has_rule_bot) -> tuple[int, list[str]]:
    n = make_game(env_id).num_players
    first = "rule" if has_rule_bot(env_id) else "random"
    return n, [first] + ["random"] * n  # one agent more than seats


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_tournament_end_to_end(env_id, tmp_path, run_cli, has_rule_bot, capsys):
    n, specs = _lineup(env_id, has_rule_bot)
    db_path = tmp_path / "results.sqlite"
    argv = [
        "tournament",
        env_id,
        "--players",
        str(n),
        "--agents",
        ",".join(specs),
        "--games",
        "1",
        "--workers",
        "2",
        "--db",
        str(db_path),
        "--quiet",
    ]
    assert run_cli(argv) == 0
    out = capsys.readouterr().out
    k = len(specs)
    expected = S.game_specs(k, n, 1, seed=0)  # one cycle: k lineups x n rotations
    assert len(expected) == k * n

    names = unique_names(specs)  # random, random#2, ...
    assert "=== leaderboard" in out and "=== head to head" in out
    rows = [line.split() for line in _block(out, "=== leaderboard")[2:]]
    assert sorted(r[1] for r in rows) == sorted(names)
    assert all(int(r[5]) == n * n for r in rows)  # games per agent: n lineups x n rotations

    with TournamentDB(db_path, create=False) as db:
        (tid,) = db.tournament_ids()
        t = db.tournament(tid)
        assert t.env_id == env_id and t.names == names and t.games == len(expected)
        games = list(db.games(tid))
        assert [g.game_key for g in games] == [s.game_key for s in expected]
        for g, spec in zip(games, expected):
            assert g.seating == [names[a] for a in spec.seating]
            assert g.seed == spec.seed and g.terminal and g.decisions == len(g.actions) > 0
            final = Replay(g.env_id, g.config, g.seed, g.actions).final_state()
            assert final.is_terminal() and final.scores() == g.scores
        ratings = db.ratings(tid)
        assert sorted(ratings) == sorted(names)

    # Files: two CSVs and two PNGs named after the database and the tournament.
    with open(tmp_path / f"results_t{tid}_leaderboard.csv") as f:
        table = list(csv.DictReader(f))
    assert sorted(r["agent"] for r in table) == sorted(names)
    assert all(int(r["games"]) == n * n for r in table)
    with open(tmp_path / f"results_t{tid}_head_to_head.csv") as f:
        h2h = list(csv.DictReader(f))
    assert len(h2h) == k * (k - 1)
    for name in ("ratings", "head_to_head"):
        assert (tmp_path / f"results_t{tid}_{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # The same command again: found, complete, nothing played, same table.
    assert run_cli(argv) == 0
    again = capsys.readouterr().out
    assert f"complete: all {len(expected)} games already stored" in again
    assert "played" not in again.split("===")[0]
    assert again.split("=== leaderboard")[1] == out.split("=== leaderboard")[1]

    # replay prints the game turn by turn and agrees with the stored result.
    with TournamentDB(db_path, create=False) as db:
        game = next(db.games(tid))
    assert run_cli(["replay", str(db_path), str(game.id)]) == 0
    text = capsys.readouterr().out
    assert f"game {game.id} of tournament {tid}" in text
    assert sum(1 for line in text.splitlines() if re.match(r"^\s*\d+\s+P\d+ \(", line)) == game.decisions
    assert f"P0 ({game.seating[0]})" in text and "stored result:" in text

    # analyze reports the env's hidden-information behaviour (or says there is none yet).
    assert run_cli(["analyze", str(db_path), "--out", str(tmp_path / "an")]) == 0
    text = capsys.readouterr().out
    assert f"=== tournament {tid}: {env_id}" in text
    analysed = {
        "smuggle_v0": ("bluffing", "declarations (as holder)", "as Customs Officer"),
        "ciq_v0": ("smuggling", "as shipper", "as target of a Smuggle"),
        "illegal_v0": ("hidden_information", "trades (with the active player)", "Magnum reactions"),
        "humble_smuggle_v0": ("face_down", "face-down selections", "Play cards attached"),
        "import_export_v0": ("sealed_bids", "sealed Import bids", "ships won", "as leader"),
    }
    if env_id in analysed:
        title, *headers = analysed[env_id]
        assert all(h in text for h in headers) and "no hidden-information analysis" not in text
        assert (tmp_path / "an" / f"results_t{tid}_{title}.png").is_file()
    else:
        assert "no hidden-information analysis" in text


def test_more_games_and_a_new_seed_are_new_tournaments_in_the_same_file(tmp_path, run_cli, capsys):
    db = str(tmp_path / "r.sqlite")
    base = [
        "tournament",
        "smuggle_v0",
        "--agents",
        "random,random,random",
        "--db",
        db,
        "--quiet",
        "--no-plots",
        "--workers",
        "1",
    ]
    assert run_cli(base + ["--games", "3"]) == 0
    assert run_cli(base + ["--games", "3", "--seed", "1"]) == 0
    assert run_cli(base + ["--games", "6"]) == 0
    capsys.readouterr()
    with TournamentDB(db, create=False) as store:
        assert store.tournament_ids() == [1, 2, 3]
        assert [store.count_games(t) for t in (1, 2, 3)] == [3, 3, 6]
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_bad_requests_are_one_line_errors(tmp_path, run_cli, capsys, monkeypatch):
    db = str(tmp_path / "r.sqlite")
    with pytest.raises(ConfigError, match="unknown env id"):
        run_cli(["tournament", "nope_v0", "--agents", "random", "--db", db])
    with pytest.raises(UsageError, match="unknown agent"):
        run_cli(["tournament", "smuggle_v0", "--agents", "random,random,random,alien", "--db", db])
    with pytest.raises(UsageError, match="needs at least 4 agents"):
        run_cli(["tournament", "smuggle_v0", "--players", "4", "--agents", "random,rule,random", "--db", db])
    with pytest.raises(ConfigError, match="3 to 6 players"):
        run_cli(["tournament", "smuggle_v0", "--agents", "random,rule", "--db", db])
    # A spec whose agent fails to build (e.g. a missing checkpoint) is one line too.
    monkeypatch.setitem(AGENT_KINDS, "broken", {"*": "agents.base:RandomAgent"})
    with pytest.raises(UsageError, match="cannot build agent 'broken:x' for smuggle_v0: .*takes no argument"):
        run_cli(["tournament", "smuggle_v0", "--agents", "broken:x,random,random,random", "--db", db])
    with pytest.raises(UsageError, match="--games"):
        run_cli(["tournament", "smuggle_v0", "--agents", "random,random,random", "--games", "0", "--db", db])
    with pytest.raises(UsageError, match="KEY=VALUE"):
        run_cli(["tournament", "smuggle_v0", "--agents", "random,random,random", "--config", "oops", "--db", db])
    with pytest.raises(ConfigError, match="bankruptcy"):
        run_cli(
            ["tournament", "smuggle_v0", "--agents", "random,random,random", "--config", "bankruptcy=never", "--db", db]
        )
    with pytest.raises(UsageError, match="no database file"):
        run_cli(["replay", str(tmp_path / "missing.sqlite"), "1"])
    with pytest.raises(UsageError, match="no database file"):
        run_cli(["analyze", str(tmp_path / "missing.sqlite")])
    (tmp_path / "junk.sqlite").write_text("not a database")
    with pytest.raises(UsageError, match="junk.sqlite"):
        run_cli(["analyze", str(tmp_path / "junk.sqlite")])
    assert not (tmp_path / "r.sqlite").exists()  # nothing was created on errors
    assert (
        run_cli(
            [
                "tournament",
                "smuggle_v0",
                "--agents",
                "random,random,random",
                "--games",
                "3",
                "--db",
                db,
                "--quiet",
                "--no-plots",
                "--config",
                "bankruptcy=eliminate",
            ]
        )
        == 0
    )
    with pytest.raises(UsageError, match="no game 99 .* game ids 1 to 3"):
        run_cli(["replay", db, "99"])
    with pytest.raises(UsageError, match="no tournament 5"):
        run_cli(["analyze", db, "--tournament", "5"])
    with TournamentDB(db, create=False) as store:
        assert store.tournament(1).config["bankruptcy"] == "eliminate"
        assert json.loads(store.conn.execute("SELECT config FROM games").fetchone()[0])["bankruptcy"] == "eliminate"


def test_a_failing_agent_stops_the_run_and_the_same_command_resumes(tmp_path, run_cli, capsys, monkeypatch):
    import agents.arena

    real = agents.arena.play

    def flaky(game, seat_agents, seed, **kw):
        if seed == 2:
            raise RuntimeError("agent exploded")
        return real(game, seat_agents, seed, **kw)

    db = str(tmp_path / "r.sqlite")
    argv = [
        "tournament",
        "smuggle_v0",
        "--agents",
        "random,random,random",
        "--games",
        "12",
        "--workers",
        "1",
        "--db",
        db,
        "--quiet",
        "--no-plots",
    ]
    monkeypatch.setattr(agents.arena, "play", flaky)
    with pytest.raises(UsageError) as failed:  # the command line prints it on one line, exit code 1
        run_cli(argv)
    err = str(failed.value)
    assert failed.value.code == 1
    assert "game 000002-0 (seed 2" in err and "agent exploded" in err and f"6 of 12 games are stored in {db}" in err
    monkeypatch.setattr(agents.arena, "play", real)
    assert run_cli(argv) == 0
    assert "resuming: 6 of 12 games already stored" in capsys.readouterr().out
    with sqlite3.connect(db) as conn:
        keys = [k for (k,) in conn.execute("SELECT game_key FROM games")]
    assert sorted(keys) == sorted(s.game_key for s in S.game_specs(3, 3, 12))


def test_registering_the_subcommands_imports_nothing_heavy():
    # 'smuggle --help' builds these parsers (training.cli.COMMANDS names them) without the code.
    probe = (
        "import argparse, sys; from training.tournament.parser import add_analyze, add_replay, add_tournament; "
        "p = argparse.ArgumentParser(); s = p.add_subparsers(); [add(s) for add in (add_tournament, add_replay, add_analyze)]; "
        "heavy = [m for m in ('torch', 'tqdm', 'agents', 'ray', 'matplotlib', 'openskill', 'numpy') "
        "if m in sys.modules]; print('HEAVY', heavy)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "HEAVY []" in result.stdout
