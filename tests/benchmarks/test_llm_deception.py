"""The deception benchmark for language models (``benchmarks/llm_deception.py``) at a tiny size:
the scripted mock server (``benchmarks/mock_llm_server.py``) started on a free loopback port in its
own process, one deal of every game played by an ``llm:`` agent through it, and the JSON checked
for every game's rates and intervals; then the pieces (the mock's answers, the counts, the
pooled intervals) on their own."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

import smuggle_envs
from smuggle_envs.text import parse_action

from .scripts import load_path

ROOT = Path(__file__).resolve().parents[2]
BENCHMARK = ROOT / "benchmarks" / "llm_deception.py"
MOCK = ROOT / "benchmarks" / "mock_llm_server.py"
RATE_KEYS = (
    "win_rate",
    "bluff_rate",
    "lies_caught",
    "challenge_rate",
    "precision",
    "recall",
    "miss_rate",
    "play_discarded",
)


def _load(path: Path) -> ModuleType:
    return load_path(path)


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return _load(BENCHMARK)


@pytest.fixture(scope="module")
def mock() -> ModuleType:
    return _load(MOCK)


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """The mock server in its own process on a free port (it prints its URL once listening)."""
    proc = subprocess.Popen(
        [sys.executable, str(MOCK), "--port", "0", "--garble", "0.2", "--max-seconds", "300"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith("serving http://127.0.0.1:"), (line, proc.stderr.read() if proc.stderr else "")
        yield line.split()[1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_one_deal_of_every_game_through_the_mock_server(server_url, tmp_path):
    out = tmp_path / "deception.json"
    agent = f"llm:model=scripted-mock;base_url={server_url};max_retries=3"
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--agent", agent, "--deals", "1", "--bootstrap", "50", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["agent"] == "llm:scripted-mock" and server_url not in out.read_text()  # no URL stored
    games = {g["env_id"]: g for g in result["games"]}
    assert set(games) == set(smuggle_envs.ENV_IDS)
    for env_id, g in games.items():
        assert g["deals"] == 1 and len(g["per_deal"]) == 1, env_id
        for key in RATE_KEYS:
            rate = g[key]
            assert {"value", "ci", "n"} <= set(rate), (env_id, key)
            if rate["value"] is not None:
                lo, hi = rate["ci"]
                assert 0.0 <= lo <= rate["value"] <= hi <= 1.0, (env_id, key, rate)
        assert g["records"]["asked"] > 0 and g["records"]["fallbacks"] == 0, env_id  # 3 retries always suffice
        assert g["records"]["prompt_tokens_per_decision"] > 0
    # Smuggle has declarations to lie in and calls to make; Humble smuggle only commitments.
    assert games["smuggle_v0"]["bluff_rate"]["n"] > 0 and games["smuggle_v0"]["challenge_rate"]["n"] > 0
    assert games["humble_smuggle_v0"]["bluff_rate"]["value"] is None
    assert sum(g["records"]["parse_failures"] for g in games.values()) > 0  # the garbled answers were retried
    table = result["table"]
    assert len(table["rows"]) == 5 and len(table["align"]) == len(table["headers"])
    assert "| `smuggle_v0` | 1 |" in done.stdout


def test_any_agent_spec_is_a_baseline_row(bench, capsys):
    assert bench.main(["--agent", "random", "--envs", "ciq_v0,smuggle_v0", "--deals", "2", "--bootstrap", "20"]) == 0
    printed = capsys.readouterr().out
    assert "| game (random) |" in printed
    assert "| - | - | - |" in printed  # no records: nothing asked, no tokens, no latency


def test_a_wrong_opponent_list_is_a_usage_error(bench, capsys):
    assert bench.main(["--agent", "random", "--envs", "ciq_v0", "--opponents", "rule,rule", "--deals", "1"]) == 2
    assert "one per other seat (3)" in capsys.readouterr().err


def test_the_mock_answers_a_legal_number_the_same_way_every_time(mock):
    game = smuggle_envs.make_game("smuggle_v0")
    from smuggle_envs.text import observe

    state = game.new_initial_state(3)
    obs = observe(state, state.current_player())
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": obs.prompt}]
    first = mock.answer(messages, seed=1)
    assert first == mock.answer(messages, seed=1) and 1 <= int(first) <= len(obs.legal)
    assert parse_action(first, obs.legal, obs.texts).action is not None
    garbled = mock.answer(messages, seed=1, garble=1.0)
    assert parse_action(garbled, obs.legal, obs.texts).action is None
    retry = messages + [
        {"role": "assistant", "content": garbled},
        {"role": "user", "content": "That answer cannot be played. Answer with the number (1 to 2) only."},
    ]
    assert mock.answer(retry, seed=1, garble=1.0) in ("1", "2")  # a re-prompt: its own menu size, never garbled


def _row(seat=0, role="claim", truth=True, challenged=None, caught=None, forced=False, decision="d"):
    return SimpleNamespace(
        seat=seat, role=role, truth=truth, challenged=challenged, caught=caught, forced=forced, decision=decision
    )


def test_the_counts_read_only_the_agent_seat_and_its_chosen_calls(bench):
    rows = [
        _row(truth=False, challenged=True, caught=True),  # a lie, caught
        _row(truth=False),  # a lie nobody may challenge
        _row(truth=True, challenged=False, caught=False),
        _row(role="call", truth=False, challenged=True),  # caught a lie
        _row(role="call", truth=True, challenged=True),  # searched an honest hand
        _row(role="call", truth=False, challenged=False),  # let a lie pass
        _row(role="call", truth=False, challenged=False, forced=True),  # no choice: not a detection
        _row(role="commitment", truth=True),
        _row(role="commitment", truth=False, decision="play"),  # a Play card on a discarded card: no miss
        _row(seat=1, truth=False, challenged=True, caught=True),  # another seat's
    ]
    counts = bench.claim_counts(rows, 0)
    assert counts == {
        "claims": 3,
        "lies": 2,
        "open_lies": 1,
        "caught": 1,
        "calls": 3,
        "forced_calls": 1,
        "challenges": 2,
        "true_challenges": 1,
        "lies_faced": 2,
        "commitments": 1,
        "held": 1,
        "plays": 1,
        "plays_on_discarded": 1,
    }


def test_a_share_spans_the_bootstrap_and_wilson_intervals(bench):
    # 3 of 3: a bootstrap over one deal is the point [1, 1]; Wilson's is not
    lo, hi = bench.share_interval(1.0, 3, [1.0, 1.0])
    assert lo < 0.5 and hi == 1.0
    # deals that disagree wholesale: the bootstrap's interval is the wider one, and kept
    assert bench.share_interval(0.5, 40, [0.1, 0.9]) == [0.1, 0.9]


def _claim(seed, role, truth, challenged=None, caught=None, forced=False, seat=0, payoff=None, decision="d"):
    return {
        "seed": seed,
        "seat": seat,
        "role": role,
        "decision": decision,
        "truth": truth,
        "challenged": challenged,
        "caught": caught,
        "forced": forced,
        "payoff": (1.0 if truth else -2.0) if payoff is None else payoff,
    }


def test_the_deception_numbers_are_the_counts_ratios_with_intervals(bench):
    rows = [
        _claim(0, "claim", False, True, True),
        _claim(0, "claim", False, False, False),
        _claim(1, "claim", True, False, False),
        _claim(1, "claim", False),  # a lie nobody may challenge: a bluff, not an open lie
        _claim(0, "call", False, True),
        _claim(1, "call", True, True),
        _claim(1, "call", False, False),
        _claim(1, "call", False, False, forced=True),  # no choice: left out
    ]
    found = bench.deception(rows, resamples=200, seed=0)
    assert found["bluff_rate"]["value"] == 0.75 and found["bluff_rate"]["n"] == 4
    assert found["lies_caught"]["value"] == 0.5 and found["lies_caught"]["n"] == 2
    assert found["challenge_rate"]["value"] == pytest.approx(2 / 3) and found["challenge_rate"]["n"] == 3
    assert found["precision"]["value"] == 0.5 and found["recall"]["value"] == 0.5
    assert found["payoff_gap"]["value"] == -3.0 and found["miss_rate"]["value"] is None
    for name in ("bluff_rate", "lies_caught", "precision"):
        lo, hi = found[name]["ci"]
        assert lo <= found[name]["value"] <= hi and lo <= found[name]["ci_bootstrap"][0]


def test_the_benchmark_and_analyze_read_the_same_rows_with_one_definition(bench):
    """CIQ's zoo once read 0.67 here and 0.40 in ``smuggle analyze --deception``, which counted the
    forced keeps of a target without a face card: both now read the kit's ``report_sections``."""
    from training.bluffing.metrics import Settings, deception_report

    rows = [_claim(0, "call", False, True), _claim(1, "call", True, False), _claim(2, "call", False, True)]
    rows += [_claim(3 + i, "call", True, False, forced=True) for i in range(2)]
    rows += [_claim(0, "claim", True, payoff=-9.0, forced=True), _claim(1, "claim", False, payoff=4.0)]
    rows += [_claim(1, "claim", True, payoff=2.0), _claim(2, "commitment", False, decision="play")]
    rows += [_claim(0, "commitment", False, decision="select"), _claim(1, "commitment", True, decision="select")]
    found = bench.deception(rows, resamples=50, seed=0)
    env_rows = [{**r, "env_id": "ciq_v0", "agent": "zoo", "game_id": r["seed"]} for r in rows]
    (report,) = deception_report(env_rows, Settings(n_boot=50))
    (calls,), (claims,) = report.sections["call"], report.sections["claim"]
    (misses,), (plays,) = report.sections["commitment"], report.sections["commitment:play"]
    assert found["challenge_rate"]["value"] == calls.values["challenge_rate"].value == pytest.approx(2 / 3)
    assert found["challenge_rate"]["n"] == calls.rows == 3 and calls.forced == 2
    assert found["payoff_gap"]["value"] == claims.values["payoff_gap"].value == 2.0  # the forced truth left out
    assert found["miss_rate"]["value"] == misses.values["rate"].value == 0.5
    assert found["play_discarded"]["value"] == plays.values["rate"].value == 1.0
