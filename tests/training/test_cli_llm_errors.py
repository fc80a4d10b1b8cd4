"""An ``llm:`` agent's endpoint that refuses its requests (401, 404) or is dead (nothing listens)
stops every command that seats it with one line ``smuggle: error: ...`` naming the endpoint, no
traceback and no API key (issue #34): ``match``, ``play``, ``tournament``, ``exploit`` and
``zoo value``, against the scripted server on 127.0.0.1 (``tests/_llm_mock.py``)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # the mock server is imported as tests._llm_mock
    sys.path.insert(0, str(REPO))

from agents.zoo import ZOO_DIR  # noqa: E402
from tests._llm_mock import MockLLM, Reply  # noqa: E402
from training.cli import main  # noqa: E402

from .test_cli_errors import _one_line_error  # noqa: E402

KEY = "sk-test-do-not-print"
EXPLOIT_TINY = ["--steps", "64", "--n-envs", "1", "--n-steps", "32", "--eval-games", "0", "--games", "2"]


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    """A key the endpoint gets and no error line may show."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _argv(command: str, spec: str, tmp: Path) -> list[str]:
    """``smuggle COMMAND`` seating the agent ``spec`` (a small, quick run of it)."""
    if command == "match":
        return ["match", "ciq_v0", "--agents", f"{spec},random,random", "--games", "2", "--quiet"]
    if command == "play":  # the bots (every other seat) play first: seat 0 asks the model
        return ["play", "ciq_v0", "--players", "3", "--seat", "2", "--seed", "3", "--bots", spec]
    if command == "tournament":
        db, out = str(tmp / "t.sqlite"), str(tmp / "out")
        lineup = ["--agents", f"{spec},random,random", "--games", "3", "--workers", "1"]
        return ["tournament", "ciq_v0", *lineup, "--db", db, "--out", out, "--quiet", "--no-plots"]
    if command == "exploit":
        return ["exploit", spec, "--env", "ciq_v0", "--players", "3", "--out", str(tmp / "x"), *EXPLOIT_TINY]
    assert command == "zoo value"
    return ["zoo", "value", "ciq_v0@4", "--opponents", spec, "--games", "10", "--no-progress"]


def dead_port() -> int:
    """A loopback port where nothing listens (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _copy_zoo(folder: Path) -> Path:
    folder.mkdir()
    for path in ZOO_DIR.iterdir():
        if path.is_file():
            shutil.copy2(path, folder / path.name)
    return folder


def _run(command: str, spec: str, tmp: Path, monkeypatch, capsys) -> tuple[int, str]:
    """The exit code and the one error line of ``smuggle COMMAND`` seating ``spec``."""
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")  # play: the person's answers
    monkeypatch.setenv("SMUGGLE_ZOO", str(_copy_zoo(tmp / "zoo")))  # zoo value writes nothing elsewhere
    code = main(_argv(command, spec, tmp))
    line = _one_line_error(capsys)
    assert KEY not in line
    return code, line


COMMANDS = ["match", "play", "tournament", "exploit", "zoo value"]
EXIT = {"tournament": 1}  # a tournament keeps the games it stored: a run that failed part-way


@pytest.mark.parametrize("status", [401, 404])
@pytest.mark.parametrize("command", COMMANDS)
def test_a_refused_model_is_one_line(command, status, tmp_path, monkeypatch, capsys):
    with MockLLM(default=Reply(status=status)) as llm:
        code, line = _run(command, llm.spec(), tmp_path, monkeypatch, capsys)
    assert code == EXIT.get(command, 2)
    assert f"llm agent: the model endpoint refused model 'mock' (HTTP {status})" in line
    assert f"(endpoint {llm.base_url}/)" in line


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_a_dead_endpoint_is_one_line_not_a_game_of_fallbacks(command, tmp_path, monkeypatch, capsys):
    port = dead_port()
    spec = f"llm:model=m;base_url=http://127.0.0.1:{port}/v1;timeout=2"
    code, line = _run(command, spec, tmp_path, monkeypatch, capsys)
    assert code == EXIT.get(command, 2)
    assert "llm agent: the model endpoint did not answer 3 requests in a row for model 'm'" in line
    assert f"(endpoint http://127.0.0.1:{port}/v1/)" in line
    if command == "tournament":
        assert "0 of 3 games are stored" in line
    else:  # the line docs/llm.md shows, but for the port
        assert line.replace(str(port), "8000") in (REPO / "docs" / "llm.md").read_text(encoding="utf-8")


def test_the_console_command_prints_no_traceback_for_a_refusal(tmp_path):
    with MockLLM(default=Reply(status=401)) as llm:
        result = subprocess.run(
            [sys.executable, "-m", "training.cli", *_argv("match", llm.spec(), tmp_path)],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "smuggle: error: llm agent: the model endpoint refused model 'mock' (HTTP 401); check model, "
        f"base_url and the API key (endpoint {llm.base_url}/)"
    ]
