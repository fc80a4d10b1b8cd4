"""``smuggle serve``'s network options: the operator token, serving beyond this machine, the proxy
in front, idle tables. A bad option is a one-line error before anything listens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from training.cli import main

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--host", "0.0.0.0"], "--operator-token generate"),
        (["--host", "192.0.2.7", "--allow-host", "lab.test"], "--open-creation"),
        (["--operator-token", "short"], "16 to 200 printable"),
        (["--operator-token", "has spaces in the middle of it"], "without spaces"),
        (["--proxy-from", "*"], "not an IP address"),
        (["--proxy-from", "proxy.lab"], "not an IP address"),
        (["--proxy-from", ","], "needs the address"),
        (["--table-idle-minutes", "-1"], "--table-idle-minutes must be from 0"),
        (["--table-idle-minutes", "nan"], "--table-idle-minutes must be from 0"),
    ],
)
def test_smuggle_serve_refuses_unsafe_or_bad_network_options(tmp_path, capsys, options, words):
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "g.sqlite"), *options]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err
    assert not (tmp_path / "g.sqlite").exists()  # refused before anything was made


def get(url: str, headers: dict[str, str] | None = None) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_a_generated_operator_token_is_printed_and_required(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = ["serve", "--port", "0", "--db", str(tmp_path / "g.sqlite"), "--operator-token", "generate"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "training.cli", *argv, "--table-idle-minutes", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    try:
        url = (proc.stdout.readline() if proc.stdout else "").split()[2]
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith("operator token: "), line
        token = line.split()[2]
        assert len(token) >= 16
        with urllib.request.urlopen(url + "api/envs", timeout=30) as response:
            envs = json.load(response)
        assert envs["operator_required"] is True and envs["table_idle_minutes"] == 30
        assert get(url + "api/tables") == 401
        assert get(url + "api/tables", {"X-Operator-Token": token + "x"}) == 403
        assert get(url + "api/tables", {"X-Operator-Token": token}) == 200
    finally:
        proc.terminate()
        proc.wait(30)
