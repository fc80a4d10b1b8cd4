"""Deception metrics (``training/bluffing/metrics.py``): each metric against a hand-computed case,
the bootstrap over deals, ``smuggle analyze --deception`` on a tiny tournament database, and
``benchmarks/lie_detection.py`` at a tiny budget."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from training.bluffing.metrics import (
    Settings,
    as_columns,
    auroc,
    bootstrap,
    brier,
    calibration_metrics,
    call_metrics,
    claim_metrics,
    deception_report,
    ece,
    format_report,
    log_loss,
    precision,
    recall,
    resample_weights,
)
from training.cli import main

from ._support import play_tournament

ROOT = Path(__file__).resolve().parents[3]

# Six calls of three deals: the truth of the claim each answers, whether it was challenged, a
# probability of a lie, and the payoff (None: not settled). Lies are rows 1, 3 and 5.
SEEDS = [1, 1, 2, 2, 3, 3]
TRUTH = [False, True, False, True, False, True]
CHALLENGED = [True, True, False, False, True, False]
P_LIE = [0.9, 0.6, 0.4, 0.2, 0.8, 0.4]
PAYOFF = [10.0, 2.0, -5.0, 0.0, 4.0, None]


def _hand_case(role: str = "call") -> list[dict]:
    return [
        {
            "env_id": "smuggle_v0",
            "game_id": i // 2,
            "seed": s,
            "role": role,
            "agent": "rule",
            "agent_name": "rule",
            "truth": t,
            "challenged": c,
            "challenge_prob": p,
            "payoff": pay,
        }
        for i, (s, t, c, p, pay) in enumerate(zip(SEEDS, TRUTH, CHALLENGED, P_LIE, PAYOFF))
    ]


def test_each_metric_matches_the_hand_computed_case():
    lie, pred, p, w = (
        np.array([0.0 if t else 1.0 for t in TRUTH]),
        np.array(CHALLENGED, float),
        np.array(P_LIE),
        np.ones(6),
    )
    assert precision(pred, lie, w) == pytest.approx(2 / 3)  # rows 1, 2, 5 challenged; 1 and 5 lies
    assert recall(pred, lie, w) == pytest.approx(2 / 3)  # lies 1, 3, 5; 1 and 5 challenged
    # positives 0.9, 0.4, 0.8 against negatives 0.6, 0.2, 0.4: 3 + (1 + 0.5) + 3 pairs of 9
    assert auroc(p, lie, w) == pytest.approx(7.5 / 9)
    assert auroc(pred, lie, w) == pytest.approx((2 / 3 + 2 / 3) / 2)  # binary: the balanced accuracy
    assert brier(p, lie, w) == pytest.approx((0.01 + 0.36 + 0.36 + 0.04 + 0.04 + 0.16) / 6)
    expected = -(math.log(0.9) + math.log(0.4) + math.log(0.4) + math.log(0.8) + math.log(0.8) + math.log(0.6)) / 6
    assert log_loss(p, lie, w) == pytest.approx(expected)
    # bins 9, 6, 4 (two rows: mean 0.4 against 0.5), 2, 8: |gaps| 0.1, 0.6, 2 x 0.1, 0.2, 0.2
    assert ece(p, lie, w) == pytest.approx(1.3 / 6)
    assert auroc(p, np.zeros(6), w) != auroc(p, np.zeros(6), w)  # one class: undefined (NaN)


def test_the_report_reads_the_same_numbers_from_rows():
    settings = Settings(n_boot=50)
    (report,) = deception_report(_hand_case(), settings)
    (calls,) = report.sections["call"]
    v = {k: b.value for k, b in calls.values.items()}
    assert calls.score == "P(challenge)"
    assert v["challenge_rate"] == pytest.approx(0.5)
    assert (v["precision"], v["recall"], v["auroc"]) == pytest.approx((2 / 3, 2 / 3, 7.5 / 9))
    assert (v["brier"], v["ece"]) == pytest.approx((0.97 / 6, 1.3 / 6))
    assert (calls.values["precision"].count, calls.lies, calls.deals) == (3, 3, 3)

    rows = _hand_case("claim")
    (claims,) = deception_report(rows, settings)[0].sections["claim"]
    v = {k: b.value for k, b in claims.values.items()}
    assert v["rate"] == pytest.approx(0.5)
    assert (v["lie_payoff"], v["truth_payoff"], v["payoff_gap"]) == pytest.approx((3.0, 1.0, 2.0))
    assert claims.values["truth_payoff"].count == 2  # the unsettled payoff is left out


def test_without_a_probability_the_auroc_ranks_the_decision_and_says_so():
    rows = _hand_case()
    rows[0]["challenge_prob"] = None  # one call unreadable: the whole agent is scored by its decisions
    (calls,) = deception_report(rows, Settings(n_boot=20))[0].sections["call"]
    assert calls.score == "decision"
    assert calls.values["auroc"].value == pytest.approx(2 / 3)
    assert "brier" not in calls.values  # no probability column to calibrate


def test_the_bootstrap_resamples_deals_and_keeps_their_rows_together():
    seeds = np.array([7, 7, 3, 9, 9, 9, 4])
    replicates = list(resample_weights(seeds, 200, seed=5))
    for w in replicates:
        for s in set(seeds.tolist()):
            assert len(set(w[seeds == s].tolist())) == 1  # one deal's rows, one weight
        assert sum(w[seeds == s][0] for s in set(seeds.tolist())) == 4  # 4 deals drawn of 4
    assert any(not np.array_equal(w, np.ones(7)) for w in replicates)
    again = list(resample_weights(seeds, 200, seed=5))
    assert all(np.array_equal(a, b) for a, b in zip(replicates, again))
    other = list(resample_weights(seeds, 200, seed=6))
    assert not all(np.array_equal(a, b) for a, b in zip(replicates, other))


def test_a_deal_whose_rows_cancel_gives_no_spread_as_rows_resampled_would():
    # every deal: one lie and one truth, so every resample of deals has a bluff rate of 1/2 exactly
    cols = as_columns(
        {"seed": [s for s in range(20) for _ in (0, 1)], "truth": [True, False] * 20, "payoff": [0.0] * 40}
    )
    found = bootstrap(claim_metrics()[:1], cols, cols["seed"], n_boot=300, seed=1)["rate"]
    assert (found.value, found.low, found.high) == (0.5, 0.5, 0.5)


def test_intervals_contain_the_point_estimate_and_are_seeded():
    rng = np.random.default_rng(3)
    n = 120
    truth = rng.random(n) < 0.6
    p = np.clip(np.where(truth, 0.35, 0.6) + rng.normal(0, 0.2, n), 0, 1)
    cols = {
        "seed": np.repeat(np.arange(30), 4).astype(float),
        "truth": truth.astype(float),
        "challenged": (p > 0.5).astype(float),
        "score": p,
        "prob": p,
        "payoff": rng.normal(0, 5, n),
        "caught": np.where(truth, np.nan, (p > 0.5).astype(float)),  # every lie open to a challenge
    }
    metrics = claim_metrics() + call_metrics() + calibration_metrics("prob")
    first = bootstrap(metrics, cols, cols["seed"], n_boot=300, seed=11)
    for key, b in first.items():
        assert b.low <= b.value <= b.high, key
        assert b.low < b.high, key
    assert bootstrap(metrics, cols, cols["seed"], n_boot=300, seed=11) == first


def test_analyze_deception_prints_a_table_for_every_game_present(tmp_path):
    db = tmp_path / "two.sqlite"
    play_tournament("smuggle_v0", db, games=6)
    play_tournament("illegal_v0", db, games=3)
    plot = tmp_path / "deception.png"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["analyze", str(db), "--deception", "--boot", "30", "--plot", str(plot)]) == 0
    text = out.getvalue()
    assert "=== deception: smuggle_v0: 6 games, 6 with a labelled decision, 2 deals" in text
    assert "=== deception: illegal_v0: 3 games, 3 with a labelled decision, 1 deal " in text
    # one deal: no interval to print, and a warning under the header (below MIN_DEALS deals)
    illegal = text.split("=== deception: illegal_v0")[1]
    assert "[n/a (1 deal)]" in illegal and not re.search(r"\[(-?[\d.]+), \1\]", illegal)
    assert "warning: only 1 deal (fewer than 10)" in illegal and "warning: only 2 deals" in text
    assert "bluff rate" in text and "challenge rate" in text and "AUROC" in text
    assert "in illegal_v0 no seat calls another's claim: claim-side metrics only" in text
    assert "P(challenge)" in text  # the rule bot and the random agent expose their distributions
    assert plot.stat().st_size > 0
    with contextlib.redirect_stderr(io.StringIO()):
        assert main(["analyze", str(db), "--plot", str(plot)]) == 2  # --plot without --deception: said so


def _benchmark():
    spec = importlib.util.spec_from_file_location("lie_detection", ROOT / "benchmarks" / "lie_detection.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_lie_detection_benchmark_runs_at_a_tiny_budget(tmp_path, capsys):
    data, plot = tmp_path / "ld.json", tmp_path / "ld.png"
    argv = ["--envs", "smuggle_v0,illegal_v0", "--games", "6", "--seed", "1", "--players", "3"]
    argv += [
        "--agents",
        "rule,random,random",
        "--samples",
        "4",
        "--boot",
        "10",
        "--data",
        str(data),
        "--plot",
        str(plot),
    ]
    assert _benchmark().main(argv) == 0
    stored = json.loads(data.read_text())
    assert stored["command"].startswith("python benchmarks/lie_detection.py --envs smuggle_v0,illegal_v0")
    smuggle, illegal = stored["games"]["smuggle_v0"], stored["games"]["illegal_v0"]
    names = [s["scorer"] for s in smuggle["scorers"]]
    assert names[:3] == ["uniform posterior", "policy-aware posterior", "logistic regression"]
    assert any(n.startswith("rule's calls") for n in names)
    assert smuggle["calls"]["train"] > 0 and smuggle["calls"]["test"] > 0  # seeds 1 and 2: one split each
    assert illegal["scorers"] == [] and "claim-side metrics only" in illegal["note"]
    assert illegal["claim_side"]["claim"]  # its let-passes still get their bluff rates
    assert len(stored["table"]["rows"]) == len(names) + 1
    assert "| game | scorer |" in capsys.readouterr().out and plot.stat().st_size > 0
    # --report rebuilds the same table from the stored games, measuring nothing
    table = stored["table"]
    stored["table"] = {"headers": [], "align": "", "rows": []}
    data.write_text(json.dumps(stored))
    plot.unlink()
    assert _benchmark().main(["--report", "--data", str(data), "--plot", str(plot)]) == 0
    assert json.loads(data.read_text())["table"] == table and plot.stat().st_size > 0


# ----- one definition of the rows each number reads (issue #34) -------------------------------------
def _row(seed: int, role: str, truth: bool, **more) -> dict:
    row = {"env_id": "ciq_v0", "game_id": seed, "seed": seed, "role": role, "agent": "zoo", "agent_name": "zoo"}
    return {**row, "truth": truth, "challenged": None, "caught": None, "payoff": None, "forced": False, **more}


def test_forced_calls_are_in_no_call_number_and_are_counted_apart():
    # two chosen calls (one challenge, of a lie) and four forced keeps of true claims (a target without a face card)
    rows = [_row(1, "call", False, challenged=True), _row(2, "call", True, challenged=False)]
    rows += [_row(3 + i, "call", True, challenged=False, forced=True) for i in range(4)]
    (report,) = deception_report(rows, Settings(n_boot=50))
    (calls,) = report.sections["call"]
    assert (calls.rows, calls.forced) == (2, 4)
    assert calls.values["challenge_rate"].value == pytest.approx(0.5)  # not 1 / 6
    assert calls.values["recall"].value == 1.0 and calls.values["auroc"].value == 1.0
    assert "forced" in format_report(report).split("calls (")[1].splitlines()[1]
    (only_forced,) = deception_report(rows[2:], Settings(n_boot=50))
    assert only_forced.sections["call"][0].rows == 0 and only_forced.sections["call"][0].forced == 4


def test_the_payoff_gap_leaves_out_forced_claims():
    # Illegal's let-pass: a forced truth (no Magnum) costs what the hassle takes; a chosen lie costs nothing
    rows = [_row(1, "claim", False, payoff=0.0), _row(2, "claim", True, payoff=5.0)]
    rows += [_row(3 + i, "claim", True, payoff=-20.0, forced=True) for i in range(3)]
    cols = as_columns(rows)
    values = bootstrap(claim_metrics(), cols, cols["seed"], n_boot=50)
    assert values["rate"].value == pytest.approx(1 / 5)  # the rate counts every claim
    assert values["truth_payoff"].value == 5.0 and values["truth_payoff"].count == 1
    assert values["payoff_gap"].value == -5.0  # not 0 - (5 - 60) / 4
    (report,) = deception_report(rows, Settings(n_boot=50))
    assert report.sections["claim"][0].forced == 3
    assert "forced decisions left out" in format_report(report)


def test_a_play_card_on_a_discarded_card_is_not_a_miss():
    # Humble smuggle: a selection discarded is a miss; a Play card whose card was discarded is its own number
    rows = [_row(1, "commitment", True, decision="select"), _row(2, "commitment", False, decision="select")]
    rows += [_row(1, "commitment", False, decision="play"), _row(2, "commitment", False, decision="play")]
    (report,) = deception_report(rows, Settings(n_boot=50))
    (misses,), (plays,) = report.sections["commitment"], report.sections["commitment:play"]
    assert (misses.rows, misses.values["rate"].value) == (2, 0.5)  # the Play cards are not in the miss rate
    assert (plays.rows, plays.values["rate"].value) == (2, 1.0)
    text = format_report(report)
    assert "miss rate" in text and "card discarded" in text and "not a miss" in text


def test_the_header_names_the_games_stored_and_those_with_a_labelled_decision():
    rows = [_row(seed, "claim", True) for seed in range(12)]
    (report,) = deception_report(rows, Settings(n_boot=20), stored={"ciq_v0": 20})
    assert format_report(report).startswith("=== deception: ciq_v0: 20 games, 12 with a labelled decision, 12 deals")
