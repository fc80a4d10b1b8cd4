"""``smuggle bench`` and ``training.bench.run_bench``: protocol v1 at a tiny budget (one deal a
field), the scorecard's schema, its reproducibility on every backend and for every way of
seating an agent, the comparison and the command line."""

import copy
import json
import re
import sys
from pathlib import Path

import pytest

from training.bench import run_bench
from training.bench.protocol import FIELD_SEEDS, FIELDS, PROTOCOL, budget_deals, make_field
from training.bench.report import compare, format_card
from training.bench.schema import SCHEMA, check, read, reproducible, validate, write
from training.cli import main

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "smuggle_agent_example"


@pytest.fixture(scope="module")
def card():
    return run_bench("rule", "smuggle_v0", budget=1)


@pytest.fixture
def example_path(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE))


# ----- the protocol ---------------------------------------------------------------------------------
def test_every_field_plays_every_rotation_of_seeded_deals_and_quick_is_a_prefix_of_full():
    for name in FIELDS:
        quick, full = make_field(name, 4, 10), make_field(name, 4, 100)
        assert full.schedule[: len(quick.schedule)] == quick.schedule
        deals = {}
        for game in full.schedule:
            assert game.seed == FIELD_SEEDS[name] + game.deal
            deals.setdefault(game.deal, []).append(game.seating)
        for seatings in deals.values():  # each deal: every agent of the lineup in every seat
            assert len(seatings) == 4 and all(len({s[seat] for s in seatings}) == 4 for seat in range(4))
    assert make_field("rule", 4, 1).specs == (None, "rule", "rule", "rule")
    assert make_field("mixed", 4, 1).specs == (None, "rule", "rule", "random", "random")
    assert budget_deals("quick") == ("quick", 10) and budget_deals(100) == ("full", 100)
    assert budget_deals(3) == ("custom", 3)
    with pytest.raises(ValueError, match="unknown budget 'fast'"):
        budget_deals("fast")


# ----- the scorecard --------------------------------------------------------------------------------
def test_the_scorecard_has_every_number_of_the_protocol(card):
    assert card["protocol"] == PROTOCOL and card["budget"] == "custom" and card["deals"] == 1
    assert set(card["fields"]) == set(FIELDS) and card["skipped"] == {}
    for field in card["fields"].values():
        win = field["win_rate"]
        assert 0 <= win["low"] <= win["value"] <= win["high"] <= 1
    assert card["fields"]["random"]["games"] == 4 and card["fields"]["mixed"]["games"] == 20  # whole cycles
    assert 1 <= card["mixed"]["place"] <= card["mixed"]["of"] == 5
    assert card["decisions"]["count"] > 0 and card["decisions"]["p95_ms"] > 0 and card["decisions"]["errors"] == 0
    assert card["deception"]["bluff_rate"]["count"] > 0 and card["deception"]["challenge_recall"] is not None
    text = format_card(card)
    assert "CUSTOM RUN, not the full protocol" in text and "place" in text and "bluff rate" in text


def test_the_same_games_give_the_same_numbers_on_a_process_pool(card):
    pooled = run_bench("rule", "smuggle_v0", budget=1, workers=2)
    assert reproducible(pooled) == reproducible(card)


def test_an_object_a_py_spec_and_an_entry_point_get_the_same_scorecard(example_path):
    from smuggle_agent_example import FirstLegalAgent

    import smuggle_envs

    game = smuggle_envs.make_game("illegal_v0")
    by_object = run_bench(FirstLegalAgent(game), "illegal_v0", budget=1)
    by_py = run_bench("py:smuggle_agent_example:FirstLegalAgent", "illegal_v0", budget=1)
    by_entry_point = run_bench("greedy_example", "illegal_v0", budget=1)
    assert by_object["agent"] == "object:smuggle_agent_example.FirstLegalAgent"
    assert reproducible(by_object) == reproducible(by_py) == reproducible(by_entry_point)


class _Faulty:
    """Raises at every third decision and plays an illegal action at every fifth."""

    name = "faulty"

    def __init__(self):
        self.n = 0

    def reset(self, seed=None):
        self.n = 0

    def act(self, observation, action_mask):
        self.n += 1
        if self.n % 3 == 0:
            raise RuntimeError("boom")
        return -1 if self.n % 5 == 0 else int(action_mask.nonzero()[0][0])


def test_errors_are_counted_and_replaced_and_the_games_go_on():
    got = run_bench(_Faulty(), "ciq_v0", budget=1)
    d = got["decisions"]
    assert d["errors"] > d["count"] // 3 and "RuntimeError: boom" in d["error_examples"]
    assert "illegal action -1" in d["error_examples"]
    assert got["fields"]["random"]["games"] == 4


def test_an_agent_that_cannot_be_seated_is_one_line_error():
    with pytest.raises(ValueError, match="unknown agent 'nosuch'"):
        run_bench("nosuch", "smuggle_v0", budget=1)
    with pytest.raises(ValueError, match="does not implement the Agent protocol"):
        run_bench(object(), "smuggle_v0", budget=1)


# ----- the schema -----------------------------------------------------------------------------------
def test_the_json_is_checked_on_write_and_on_read(card, tmp_path):
    path = tmp_path / "c.json"
    write(card, path)
    assert read(path) == json.loads(json.dumps(card))
    broken = json.loads(path.read_text())
    broken["fields"]["rule"]["win_rate"]["count"] = -1
    path.write_text(json.dumps(broken))
    with pytest.raises(ValueError, match="not a bench scorecard: fields.rule.win_rate.count") as caught:
        read(path)
    assert "\n" not in str(caught.value)
    broken = copy.deepcopy(card)
    broken["schema_version"] = 99
    with pytest.raises(ValueError, match="schema version 99 is not 1"):
        write(broken, tmp_path / "d.json")
    with pytest.raises(ValueError, match="not JSON"):
        (tmp_path / "e.json").write_text("{")
        read(tmp_path / "e.json")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c.pop("protocol"), "lacks protocol"),
        (lambda c: c.update(budget="slow"), "budget: expected one of"),
        (lambda c: c["fields"]["rule"].update(extra=1), "unknown key 'extra'"),
        (lambda c: c["decisions"].update(errors=True), "decisions.errors: expected integer"),
    ],
)
def test_the_small_validator_refuses_what_jsonschema_refuses(card, monkeypatch, change, message):
    broken = copy.deepcopy(card)
    change(broken)
    with pytest.raises(ValueError, match=message):
        check(broken, SCHEMA)
    with pytest.raises(ValueError):
        validate(broken)  # jsonschema, where installed
    monkeypatch.setitem(sys.modules, "jsonschema", None)  # as if it were not installed
    with pytest.raises(ValueError, match=message):
        validate(broken)
    check(card, SCHEMA)


# ----- the comparison -------------------------------------------------------------------------------
def test_compare_says_which_differences_are_separated(card):
    text, separated = compare(card, card)
    assert separated == 0 and "0 of" in text
    other = copy.deepcopy(card)
    other["fields"]["rule"]["win_rate"] = {"value": 0.9, "low": 0.85, "high": 0.95, "count": 4}
    text, separated = compare(card, other)
    assert separated == 1
    assert next(line for line in text.splitlines() if line.startswith("rule: win rate")).endswith("separated")
    other["env_id"] = "ciq_v0"
    with pytest.raises(ValueError, match="differ in env_id"):
        compare(card, other)


# ----- the command line -----------------------------------------------------------------------------
def test_the_command_prints_writes_and_draws_and_compares(tmp_path, capsys):
    out = tmp_path / "a.json"
    argv = ["bench", "random", "--env", "import_export_v0", "--deals", "1", "--quiet", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "smuggle bench: random in import_export_v0" in printed and "win rate [95%]" in printed
    assert read(out)["agent"] == "random" and out.with_suffix(".png").stat().st_size > 10_000
    assert main(["bench", "--compare", str(out), str(out)]) == 0
    assert "0 of" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "rule"], "give an agent SPEC and --env ENV_ID"),
        (["bench", "rule", "--env", "nope_v0"], "unknown env id"),
        (["bench", "nosuch", "--env", "ciq_v0", "--deals", "1"], "unknown agent 'nosuch'"),
        (["bench", "rule", "--env", "ciq_v0", "--workers", "0"], "--workers must be at least 1"),
        (["bench", "--compare", "missing.json", "missing.json"], "missing.json: cannot read"),
    ],
)
def test_bad_requests_are_one_line_errors(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").rglob("*.json"))


def test_the_python_block_of_the_benchmark_page_runs_as_shown(capsys):
    page = (Path(__file__).resolve().parents[3] / "docs" / "benchmark.md").read_text(encoding="utf-8")
    [block] = re.findall(r"^```python\n(.*?)^```", page, re.S | re.M)
    exec(compile(block, "docs/benchmark.md", "exec"), {})
    assert "smuggle bench: rule in ciq_v0" in capsys.readouterr().out


def test_exploit_adds_the_best_response_lower_bound(monkeypatch):
    import training.exploit

    seen = {}

    def fake(game, target, config, out, games, eval_every, eval_games, baseline, log=print):
        seen.update(target=target, steps=config.steps, games=games)
        row = {"games": games, "win_rate": 0.5, "ci_low": 0.4, "ci_high": 0.6}
        return {"steps": config.steps, "best_response": row, "chance": 0.25, "margin_over_chance": 0.25}

    monkeypatch.setattr(training.exploit, "run_exploit", fake)  # the training itself: tests/training/test_exploit.py
    got = run_bench("random", "ciq_v0", budget=1, exploit_steps=64)
    assert seen == {"target": "random", "steps": 64, "games": 100}
    assert got["exploit"]["win_rate"] == {"value": 0.5, "low": 0.4, "high": 0.6, "count": 100}
    assert "best response (64 steps, 100 games): wins 50.0% [40.0, 60.0]" in format_card(got)
    with pytest.raises(ValueError, match="--exploit needs an agent spec"):
        run_bench(_Faulty(), "ciq_v0", budget=1, exploit_steps=64)
