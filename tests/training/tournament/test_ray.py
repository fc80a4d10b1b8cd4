"""The Ray backend against a local Ray: the same games, the same results as the local backend."""

from __future__ import annotations

import sqlite3


def _rows(db):
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT game_key, seed, seating, agents, scores, ranks, actions FROM games ORDER BY game_key"
        ).fetchall()


def test_ray_backend_matches_local_backend(tmp_path, run_cli, capsys, has_rule_bot):
    import ray

    first = "rule" if has_rule_bot("smuggle_v0") else "random"
    base = [
        "tournament",
        "smuggle_v0",
        "--agents",
        f"{first},random,random,random,random",
        "--games",
        "20",
        "--quiet",
        "--no-plots",
    ]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert run_cli(base + ["--backend", "ray", "--db", str(tmp_path / "ray.sqlite")]) == 0
        out = capsys.readouterr().out
        assert "played 20 games" in out and "ray backend" in out
        assert ray.is_initialized()  # a Ray it did not start is left running
    finally:
        ray.shutdown()
    assert run_cli(base + ["--workers", "1", "--db", str(tmp_path / "local.sqlite")]) == 0
    local_out = capsys.readouterr().out
    ray_rows, local_rows = _rows(tmp_path / "ray.sqlite"), _rows(tmp_path / "local.sqlite")
    assert len(ray_rows) == 20 and ray_rows == local_rows
    board = lambda text: text.split("=== leaderboard")[1].split("written:")[0]
    assert board(out) == board(local_out)
