"""``training.bluffing.probes``: the metrics against hand-computed values, the probe against a
planted linear signal, the hidden layers against the network, and a tiny study end to end."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agents import make_agent
from smuggle_envs.registry import make_game
from training.bluffing.probes import (
    SMUGGLE_OFFICER,
    TASKS,
    StudyConfig,
    agreement,
    auroc,
    brier,
    calibration,
    collect_positions,
    ece,
    fit_probe,
    hidden_activations,
    log_loss,
    probe_study,
    smuggle_claim_true,
)


def test_calibration_metrics_match_hand_computed_values():
    p, y = np.array([0.1, 0.4, 0.8, 0.9]), np.array([0, 1, 1, 0])
    assert brier(p, y) == pytest.approx((0.01 + 0.36 + 0.04 + 0.81) / 4)
    assert log_loss(p, y) == pytest.approx(-(math.log(0.9) + math.log(0.4) + math.log(0.8) + math.log(0.1)) / 4)
    # ten bins: each sample alone, |p - y| averaged; two bins: {0.1, 0.4} and {0.8, 0.9}
    assert ece(p, y, bins=10) == pytest.approx((0.1 + 0.6 + 0.2 + 0.9) / 4)
    assert ece(p, y, bins=2) == pytest.approx(0.5 * abs(0.25 - 0.5) + 0.5 * abs(0.85 - 0.5))
    assert auroc(p, y) == pytest.approx(0.5)  # 0.4 and 0.8 each beat 0.1 and lose to 0.9
    assert auroc(np.array([0.2, 0.2, 0.9]), np.array([1, 0, 1])) == pytest.approx(0.75)  # a tie counts half
    assert math.isnan(auroc(p, np.ones(4)))
    assert calibration(p, y)["n"] == 4
    assert ece(np.array([1.0, 0.0]), np.array([1, 0])) == 0.0  # 1.0 falls in the last bin
    close = agreement(np.array([0.2, 0.4, 0.6]), np.array([0.3, 0.4, 0.8]))
    assert close["mean_abs"] == pytest.approx(0.1) and close["rms"] == pytest.approx(math.sqrt(0.05 / 3))
    assert close["corr"] > 0.9


def test_probe_recovers_a_planted_linear_signal():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4000, 5)) * [1.0, 2.0, 0.5, 1.0, 0.0]  # the last feature is constant
    w_true, b_true = np.array([1.5, -0.75, 2.0, 0.0, 0.0]), 0.3
    p_true = 1.0 / (1.0 + np.exp(-(x @ w_true + b_true)))
    y = (rng.random(4000) < p_true).astype(float)
    probe = fit_probe(x, y, l2=1e-3)
    w, b = probe.coefficients()
    assert np.allclose(w, w_true, atol=0.2) and b == pytest.approx(b_true, abs=0.15)
    assert len(probe.history) == 1 and probe.iterations < 20  # Newton converges (the loss at the fit)
    p = probe.predict(x)
    assert np.abs(p - p_true).mean() < 0.03 and ece(p, y) < 0.03
    assert brier(p, y) < brier(np.full(4000, y.mean()), y) - 0.05  # better than the base rate
    # No signal: the probe stays near the base rate.
    flat = fit_probe(x, (rng.random(4000) < 0.3).astype(float))
    assert np.abs(flat.predict(x) - 0.3).max() < 0.1


def test_hidden_activations_are_the_networks_layers():
    game = make_game("smuggle_v0", num_players=4)
    network = make_agent("zoo", game).policy
    state = game.new_initial_state(0)
    obs = np.array([state.observation(s) for s in range(4)])
    (w0, b0, a0), (w1, b1, a1), (w2, b2, _) = network.layers
    assert (a0, a1) == ("Tanh", "Tanh")
    h0 = np.tanh(obs @ w0.T + b0)
    h1 = np.tanh(h0 @ w1.T + b1)
    assert np.allclose(hidden_activations(network, obs, 0), h0, atol=1e-5)
    assert np.allclose(hidden_activations(network, obs, -1), h1, atol=1e-5)
    assert np.allclose(h1 @ w2.T + b2, network(obs), atol=1e-4)  # the head reads the last layer
    with pytest.raises(ValueError, match="hidden layers"):
        hidden_activations(network, obs, 2)


def test_collected_positions_are_labelled_and_a_tiny_study_runs():
    game = make_game("smuggle_v0", num_players=4)
    positions = collect_positions(game, ["rule"] * 4, SMUGGLE_OFFICER, games=1, seed=3)
    assert positions and all(p.state.current_player() == p.seat == p.state.officer for p in positions)
    assert all(p.truth == smuggle_claim_true(p.state) for p in positions)
    assert all(np.array_equal(p.observation, p.state.observation(p.seat)) for p in positions)
    assert 0 < sum(p.truth for p in positions) < len(positions)  # both kinds of claim occur

    config = StudyConfig(games=3, test_share=0.34, samples=20, eval_positions=6, max_samples=20, min_ess=1.0)
    report = probe_study(config)
    assert report["positions"]["evaluated"] == 6 and report["positions"]["train"] > 50
    for name in ("hidden0", "hidden1", "observation"):
        row = report["probes"][name]
        assert 0.0 <= row["truth"]["brier"] <= 1.0 and row["truth"]["n"] == 6
        assert set(row) >= {"vs_uniform", "vs_policy_aware", "truth_where_policy_aware"}
    assert 0.0 <= report["posteriors"]["uniform"]["brier"] <= 1.0


def test_smuggle_officer_task_agrees_with_the_kits_facing_plugin():
    # The kit's own labels (training.bluffing.facing) and this task's truth must be one truth.
    import training.bluffing as kit

    game = make_game("smuggle_v0", num_players=4)
    positions = collect_positions(game, ["rule"] * 4, SMUGGLE_OFFICER, games=1, seed=5)
    task = TASKS["smuggle_v0:facing"]
    for pos in positions:
        claim = kit.facing(pos.state, pos.seat)
        assert claim is not None and claim.truth(pos.state) == pos.truth
        truth, step = task.find(pos.state, [pos.root] * (len(pos.state.history) + 1))
        assert truth(pos.state) == pos.truth
        assert step == len(pos.state.history) - 1  # the Officer's claim is the declaration just made
