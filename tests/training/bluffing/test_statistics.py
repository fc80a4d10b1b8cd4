"""The kit's statistics against scikit-learn's: one definition of each (``metrics``), which the
probes read too, and the probe's fit at the optimum of its objective.

``metrics`` keeps its own weighted numpy definitions because the bootstrap evaluates them on
every replicate (scikit-learn's input checks cost about 80 times as much a call) and because they
differ on purpose where said: a quiet NaN for an undefined value (a replicate without a lie), a log-loss clipped
at ``EPS``, and an ECE (which scikit-learn has not) binned by ``floor(p * bins)``. These tests pin
each to scikit-learn's number wherever both are defined."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss, roc_auc_score
from sklearn.metrics import log_loss as sk_log_loss

from training.bluffing import metrics, probes


def _case(seed: int, n: int = 300) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Forecasts with ties (a score of 21 levels), outcomes, and bootstrap-like weights (zeros too)."""
    rng = np.random.default_rng(seed)
    p = rng.integers(0, 21, n) / 20.0
    y = (rng.random(n) < 0.2 + 0.6 * p).astype(float)
    w = rng.poisson(1.0, n).astype(float)
    return p, y, w


@pytest.mark.parametrize("seed", range(4))
def test_auroc_brier_and_log_loss_are_sklearns_with_sample_weights(seed):
    p, y, w = _case(seed)
    assert metrics.auroc(p, y, w) == pytest.approx(roc_auc_score(y, p, sample_weight=w), abs=1e-12)
    assert metrics.brier(p, y, w) == pytest.approx(brier_score_loss(y, p, sample_weight=w), abs=1e-12)
    # inside [EPS, 1 - EPS] the clip changes nothing: scikit-learn's log-loss exactly
    q = np.clip(p, 0.01, 0.99)
    assert metrics.log_loss(q, y, w) == pytest.approx(sk_log_loss(y, q, sample_weight=w, labels=[0, 1]), abs=1e-12)
    # unweighted, as the probes read them
    assert probes.auroc(p, y) == pytest.approx(roc_auc_score(y, p), abs=1e-12)
    assert probes.brier(p, y) == pytest.approx(brier_score_loss(y, p), abs=1e-12)


def test_where_the_kit_differs_from_sklearn_on_purpose():
    # A certain forecast that is wrong costs -ln EPS (13.8), not scikit-learn's -ln(machine eps).
    p, y, w = np.array([0.0, 0.5]), np.array([1.0, 0.0]), np.ones(2)
    assert metrics.log_loss(p, y, w) == pytest.approx((-math.log(metrics.EPS) + math.log(2)) / 2)
    assert sk_log_loss(y, p, labels=[0, 1]) > metrics.log_loss(p, y, w) + 5
    # One class (or a replicate that drew none of the other): NaN, quietly (scikit-learn warns).
    assert math.isnan(metrics.auroc(np.array([0.2, 0.8]), np.array([1.0, 0.0]), np.array([1.0, 0.0])))
    with pytest.warns(UndefinedMetricWarning):
        roc_auc_score([1.0, 1.0], [0.2, 0.8])
    assert math.isnan(probes.ece(np.zeros(0), np.zeros(0)))  # no position: no calibration error


@pytest.mark.parametrize("bins", [2, 10, 15])
def test_ece_is_built_on_sklearns_calibration_curve(bins):
    rng = np.random.default_rng(bins)
    p = rng.random(500)  # no forecast on a bin edge, where the two binnings differ
    y = (rng.random(500) < p**1.5).astype(float)
    w = rng.integers(0, 4, 500).astype(float)
    # a weight is a multiplicity: the weighted ECE is the ECE of the rows repeated
    rows = np.repeat(np.arange(500), w.astype(int))
    truth, mean = calibration_curve(y[rows], p[rows], n_bins=bins, strategy="uniform")
    counts = np.histogram(p[rows], bins=np.linspace(0.0, 1.0, bins + 1))[0]
    expected = float(np.sum(counts[counts > 0] / len(rows) * np.abs(mean - truth)))
    assert metrics.ece(p, y, w, bins) == pytest.approx(expected, abs=1e-12)
    assert probes.ece(p[rows], y[rows], bins) == pytest.approx(expected, abs=1e-12)


def test_the_probes_calibration_is_the_metrics_one():
    p, y, _ = _case(7)
    ones = np.ones(len(p))
    cal = probes.calibration(p, y)
    assert cal["brier"] == metrics.brier(p, y, ones) and cal["ece"] == metrics.ece(p, y, ones)
    assert cal["log_loss"] == metrics.log_loss(p, y, ones, eps=1e-12)
    assert probes.auroc(p, y.astype(bool)) == metrics.auroc(p, y, ones)


@pytest.mark.parametrize("l2", [1.0, 1e-3])
def test_the_probe_sits_at_the_optimum_of_its_penalised_log_loss(l2):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(600, 6)) * [1.0, 3.0, 0.2, 1.0, 1.0, 0.0]  # the last feature is constant
    y = (rng.random(600) < 1 / (1 + np.exp(-(x @ [1.0, -0.5, 4.0, 0.0, 0.5, 0.0])))).astype(float)
    probe = probes.fit_probe(x, y, l2=l2)
    z = np.hstack([(x - probe.mean) / probe.scale, np.ones((600, 1))])
    theta = np.r_[probe.w, probe.b]
    # the gradient of sum(log-loss) + l2 / 2 |w|^2 (intercept unpenalised) vanishes at the fit
    grad = z.T @ (probes._sigmoid(z @ theta) - y) + l2 * np.r_[probe.w, 0.0]
    assert np.abs(grad).max() < 1e-6 and probe.w[-1] == 0.0 and 0 < probe.iterations < 20
    reference = LogisticRegression(C=1 / l2, solver="lbfgs", tol=1e-10, max_iter=1000).fit(z[:, :-1], y)
    assert np.allclose(probe.predict(x), reference.predict_proba(z[:, :-1])[:, 1], atol=1e-6)


def test_outcomes_of_one_class_give_the_constant_probe():
    x = np.random.default_rng(0).normal(size=(20, 3))
    assert np.all(probes.fit_probe(x, np.ones(20)).predict(x) == 1.0)
    assert np.all(probes.fit_probe(x, np.zeros(20)).predict(x) == 0.0)
