"""The league: PFSP weights from recorded results, pairwise results from finished games,
snapshot retirement, JSON round trip."""

from __future__ import annotations

import json

import pytest

from training.selfplay.league import Entry, League, initial_entries


def _league(tmp_path, **kwargs) -> League:
    return League(tmp_path, initial_entries(["rule", "random"]), **kwargs)


def test_new_entries_start_even_and_harder_opponents_get_more_weight(tmp_path):
    league = _league(tmp_path)
    assert league.probabilities() == pytest.approx([0.5, 0.5])
    for _ in range(200):
        league.record("rule", 0.0)  # the learner loses to the rule bot...
        league.record("random", 1.0)  # ... and beats random
    p_rule, p_random = league.probabilities()
    assert p_rule > 0.9 and p_random > 0  # the floor keeps random in play
    assert league.win_rate(league.entries[0]) < 0.05 < 0.95 < league.win_rate(league.entries[1])
    # A fresh entry gets the prior (50%), between the two.
    league.add(Entry("x", "random", "random"))
    w = dict(zip([e.id for e in league.entries], league.weights()))
    assert w["rule"] > w["x"] > w["random"]
    assert w["x"] == pytest.approx(0.25)  # (1 - 0.5)^2


def test_weightings(tmp_path):
    for weighting, expect_first_heavier in (("hard", True), ("variance", False)):
        league = _league(tmp_path, weighting=weighting)
        for _ in range(100):
            league.record("rule", 0.0)
            league.record("random", 0.5)
        p = league.probabilities()
        assert (p[0] > p[1]) == expect_first_heavier
    uniform = _league(tmp_path, weighting="uniform")
    uniform.record("rule", 0.0)
    assert uniform.probabilities() == pytest.approx([0.5, 0.5])
    with pytest.raises(ValueError):
        League(tmp_path, weighting="easy")


def test_results_decay_so_the_rate_follows_the_learner(tmp_path):
    league = _league(tmp_path, decay=0.95)
    rule = league.entries[0]
    for _ in range(200):
        league.record("rule", 0.0)
    for _ in range(100):
        league.record("rule", 1.0)
    assert league.win_rate(rule) > 0.9  # recent wins dominate
    assert rule.total_games == 300 and rule.total_wins == 100
    league.record("retired", 1.0)  # results for entries no longer in the pool: ignored


def test_record_game_scores_pairwise_results_from_the_learners_seat(tmp_path):
    league = _league(tmp_path)
    # Learner at seat 1 with 50; seat 0 (rule) has 80, seat 2 (random) 10, seat 3 (rule) 50.
    league.record_game({"seat": 1, "opponents": ["rule", None, "random", "rule"], "scores": [80.0, 50.0, 10.0, 50.0]})
    rule, rand = league.entries
    assert rule.total_games == 2 and rule.total_wins == 0.5  # a loss and a tie
    assert rand.total_games == 1 and rand.total_wins == 1.0


class _FakeModel:
    def save(self, path):
        with open(path, "w") as f:
            f.write("model")


def test_snapshots_are_saved_and_the_oldest_retired(tmp_path):
    league = _league(tmp_path, max_snapshots=2)
    for step in (100, 200, 300):
        entry = league.add_snapshot(_FakeModel(), step)
        assert (tmp_path / entry.spec).exists()
    ids = [e.id for e in league.entries]
    assert ids == ["rule", "random", "snapshot@200", "snapshot@300"]
    assert (tmp_path / "snapshots" / "snapshot_0000000100.zip").exists()  # file kept
    pool = dict(league.pool())
    assert pool["rule"] == "rule"
    assert pool["snapshot@300"].startswith("ppo:") and pool["snapshot@300"].endswith("snapshot_0000000300.zip")
    with pytest.raises(ValueError):
        league.add(Entry("rule", "rule", "rule"))


def test_exploiters_are_kept_apart_from_snapshots_and_the_oldest_retired(tmp_path):
    league = _league(tmp_path, max_snapshots=1, max_exploiters=2)
    league.add_snapshot(_FakeModel(), 100)
    for step in (100, 200, 300):
        league.add_exploiter(step)
    assert [e.id for e in league.entries] == ["rule", "random", "snapshot@100", "exploiter@200", "exploiter@300"]
    assert dict(league.pool())["exploiter@300"] == "ppo:" + str(league.exploiter_path(300).resolve())
    # the exploiters and their limit survive a save
    again = League.from_dict(tmp_path, league.to_dict())
    assert again.max_exploiters == 2 and [e.kind for e in again.entries][-2:] == ["exploiter", "exploiter"]


def test_save_and_load_round_trip(tmp_path):
    league = _league(tmp_path, max_snapshots=3, decay=0.9)
    league.add_snapshot(_FakeModel(), 512)
    for r in (1.0, 0.0, 0.5):
        league.record("snapshot@512", r)
    path = league.save()
    data = json.loads(path.read_text())
    assert data["entries"][2]["total_games"] == 3
    again = League.load(tmp_path)
    assert again.to_dict() == league.to_dict()
    assert again.probabilities() == pytest.approx(league.probabilities())
    # Snapshot paths are relative: a moved run directory still finds its snapshots.
    moved = tmp_path / "moved"
    moved.mkdir()
    (moved / "league.json").write_text(path.read_text())
    assert League.load(moved).pool()[2][1] == "ppo:" + str((moved / "snapshots" / "snapshot_0000000512.zip").resolve())


def _with_snapshots(tmp_path, **kwargs) -> League:
    league = _league(tmp_path, **kwargs)
    for step in (1, 2, 3):
        league.add(Entry(f"snapshot@{step}", "snapshot", f"snapshots/{step}.zip", added_at=step))
    for _ in range(200):  # the learner beats the baselines and loses to its snapshots
        league.record("rule", 0.9)
        league.record("random", 1.0)
        for step in (1, 2, 3):
            league.record(f"snapshot@{step}", 0.3)
    return league


def test_a_baseline_share_keeps_the_rule_bot_and_random_in_play(tmp_path):
    plain = _with_snapshots(tmp_path).probabilities()
    assert plain[0] + plain[1] < 0.05  # snapshots have taken over
    kept = _with_snapshots(tmp_path, baseline_share=0.3).probabilities()
    assert sum(kept) == pytest.approx(1.0)
    assert kept[0] + kept[1] == pytest.approx(0.3)
    assert kept[0] / kept[1] == pytest.approx(plain[0] / plain[1])  # split by their own weights
    assert kept[2:] == pytest.approx([x * 0.7 / sum(plain[2:]) for x in plain[2:]])
    # Already above the share, or nothing but baselines: unchanged.
    assert _with_snapshots(tmp_path, baseline_share=0.01).probabilities() == pytest.approx(plain)
    only = _league(tmp_path, baseline_share=0.5)
    assert only.probabilities() == pytest.approx([0.5, 0.5])
    with pytest.raises(ValueError, match="baseline_share"):
        _league(tmp_path, baseline_share=1.0)
    # Saved and loaded with the league; leagues saved before it existed load with 0.
    league = _with_snapshots(tmp_path, baseline_share=0.3)
    assert League.from_dict(tmp_path, league.to_dict()).probabilities() == pytest.approx(kept)
    old = league.to_dict()
    del old["baseline_share"]
    assert League.from_dict(tmp_path, old).baseline_share == 0.0


def test_the_training_config_checks_the_baseline_share(tmp_path):
    from smuggle_envs.core.errors import ConfigError
    from training.selfplay.trainer import TrainConfig

    with pytest.raises(ConfigError, match="baseline_share"):
        TrainConfig(baseline_share=1.5).validate()
    TrainConfig(baseline_share=0.25).validate()
