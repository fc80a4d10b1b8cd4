"""Belief probes: does a trained network's hidden layer know whether the claim it faces is true?

A linear (logistic) probe reads one hidden layer of a ``NumpyPolicy`` (a ``ppo:`` model or a zoo
model) at the decisions where its seat faces a claim, and is fitted to the claim's truth. Its
calibration (Brier score, log-loss, expected calibration error) is reported beside that of the two
posteriors of :mod:`training.bluffing.beliefs` (uniform over the worlds the seat cannot rule out,
and weighted by the other seats' known policies), and its agreement with each (mean absolute
difference, correlation). A probe that beats the uniform posterior has learnt something from the
table's history that card counting alone does not give; one near the policy-aware posterior
reads its opponents about as well as knowing their policies would.

Tasks (:data:`TASKS`, ``--task``): ``smuggle_officer`` (:data:`SMUGGLE_OFFICER`), the Customs
Officer's search / let-pass decision facing a declaration or a Diplomatic Bag claim, true when the
hand matches the declaration exactly or holds the Bag, its policy-aware posterior reweighted from
the last fresh four-card deal, where it is exact (see ``beliefs``); ``ENV_ID:facing`` for the games
with calls, Smuggle and CIQ (:func:`facing_task`), every decision the kit's
``training.bluffing.facing`` plugins say faces a claim; and ``ENV_ID:question`` for each of the
five games (:func:`question_task`), every decision ``training.bluffing.questions`` says faces a
claim or a hidden commitment (in Illegal, Humble smuggle and Import / Export, which have no calls:
a let-pass, a face-down selection, a sealed bid); both reweighted from the claim's own step only.

The probe is scikit-learn's ``LogisticRegression`` (Newton's method, ``newton-cholesky``) on
standardised features with an L2 penalty (the ``train`` extra); its calibration and AUROC are the
kit's one definition of each (:mod:`training.bluffing.metrics`, every row weighted 1).
``python -m training.bluffing.probes --help`` runs the study.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents import make_agent
from agents.base import decide
from agents.ppo import NumpyMLP
from smuggle_envs.core.game import Game, State
from smuggle_envs.games.smuggle import actions as SA
from smuggle_envs.games.smuggle.actions import BAG, NUM_ITEMS
from smuggle_envs.games.smuggle.vocab import DECLARE, OFFICER
from smuggle_envs.registry import make_game

from . import metrics
from .beliefs import Estimate, Truth, policy_for, posterior_since, uniform_posterior
from .games import CLAIMS

# ----- what to probe --------------------------------------------------------------------------------
Found = tuple[Truth, int]
"""What a task finds at a decision: the claim's truth (a function of a world) and the step to
reweight the policy-aware posterior from (an index into the game's past states)."""


@dataclass(frozen=True)
class ProbeTask:
    """A decision at which the seat to act faces a claim, for one game.

    ``find(state, past)``: ``(truth, root_step)`` when the player to act faces a claim, else
    None; ``past[k]`` is the state before the game's action ``k`` (``past[-1]`` is ``state``).
    ``root_step`` should be a position whose hidden cards do not depend on the actions before it
    (a fresh deal), where the policy-aware posterior is exact; the claim's own step is the
    one-action case of ``beliefs.policy_aware_posterior``."""

    name: str
    env_id: str
    find: Callable[[State[Any], Sequence[State[Any]]], Found | None]


def smuggle_claim_true(state: Any) -> bool:
    """The live hand matches its declaration exactly (R2.2), or holds the Bag for a Bag claim."""
    if state.decl_action == SA.CLAIM_BAG:
        return bool(state.hand[BAG] > 0)
    return tuple(state.hand[:NUM_ITEMS]) == SA.DECLARATIONS[state.decl_action]


def _smuggle_officer(state: Any, past: Sequence[Any]) -> Found | None:
    if state.phase != OFFICER:
        return None
    # The last fresh deal (four cards just dealt, not yet declared): every other card drawn this
    # round lies face up in the open suitcase, so the hidden cards there owe nothing to the
    # actions before it, and reweighting from it covers every action that saw the live hand.
    root = next(k for k in range(len(past) - 1, -1, -1) if past[k].phase == DECLARE and past[k].kept == 0)
    return smuggle_claim_true, root


def _kit_task(env_id: str, name: str) -> ProbeTask:
    """A task through the kit's ``training.bluffing.<name>`` (``facing`` or ``questions``): every
    decision at which the seat to act faces a claim, reweighted from the claim's own step (the
    claimant's decision; earlier actions are not reweighted) or, for a fact nobody stated, not
    at all."""

    def find(state: State[Any], past: Sequence[State[Any]]) -> Found | None:
        from . import facing, questions  # the plugins load the games: imported when first used

        claim = {"facing": facing, "questions": questions}[name](state, state.current_player())
        if claim is None:
            return None
        step = claim.claim_step if claim.claim_step is not None else len(past) - 1
        return claim.truth, step

    return ProbeTask(f"{env_id}: every decision facing a claim (training.bluffing.{name})", env_id, find)


def facing_task(env_id: str) -> ProbeTask:
    """The calls of a game (``training.bluffing.facing``): Smuggle's and CIQ's; the other games
    have none, so their task finds no position."""
    return _kit_task(env_id, "facing")


def question_task(env_id: str) -> ProbeTask:
    """Every claim or hidden commitment a seat faces (``training.bluffing.questions``): the calls
    in Smuggle and CIQ, an Illegal let-pass, a Humble smuggle selection, an Import / Export
    sealed bid."""
    return _kit_task(env_id, "questions")


GAMES = tuple(CLAIMS)
"""The games with a ``:question`` task: every game the kit has a plugin for (asked of the plugins)."""
SMUGGLE_OFFICER = ProbeTask("Smuggle: the Officer searches or lets pass", "smuggle_v0", _smuggle_officer)
TASKS = {"smuggle_officer": SMUGGLE_OFFICER}
# ``:facing`` only where a seat calls a claim (elsewhere it would find nothing to probe).
TASKS.update({f"{env}:facing": facing_task(env) for env in GAMES if CLAIMS[env].has_calls})
TASKS.update({f"{env}:question": question_task(env) for env in GAMES})


# ----- positions ------------------------------------------------------------------------------------
@dataclass
class ClaimPosition:
    """One decision facing a claim: the seat's observation and the claim's truth; ``state``,
    ``root`` and ``since`` (the position the task reweights from, and the actions after it) to
    compute the posteriors later, for the positions that need them."""

    game: int  # index of the game it came from (the split is by game)
    seat: int
    observation: np.ndarray
    truth: bool
    judge: Truth
    state: State[Any]
    root: State[Any]
    since: list[int]
    uniform: Estimate | None = None  # filled in by add_posteriors
    policy: Estimate | None = None


def collect_positions(
    game: Game, specs: Sequence[str], task: ProbeTask, games: int, seed: int = 0
) -> list[ClaimPosition]:
    """Play ``games`` games of the agents ``specs`` (one a seat, e.g. ``["rule"] * 4``), seeds
    ``seed``, ``seed + 1``, ...; return every decision at which the seat to act faces a claim."""
    positions: list[ClaimPosition] = []
    for g in range(games):
        agents = [make_agent(spec, game, seed=seed + 1000 * g + s) for s, spec in enumerate(specs)]
        state = game.new_initial_state(seed + g)
        past: list[State[Any]] = []  # past[k]: the state before action k (a clone is cheap)
        while not state.is_terminal():
            past.append(state.clone())
            seat = state.current_player()
            found = task.find(state, past)
            if found is not None:
                judge, step = found
                root, since = past[step], list(state.history[step:])
                obs = state.observation(seat)
                positions.append(ClaimPosition(g, seat, obs, bool(judge(state)), judge, past[-1], root, since))
            state.apply_action(decide(agents[seat], state, seat))
    return positions


def add_posteriors(
    positions: Sequence[ClaimPosition],
    policies: dict[int, Any],
    samples: int,
    seed: int = 0,
    min_ess: float = 0.0,
    max_samples: int | None = None,
) -> None:
    """Fill in each position's uniform posterior (``samples`` worlds) and policy-aware one
    (batches of ``samples`` until the ESS reaches ``min_ess`` or ``max_samples`` worlds);
    ``policies``: seat -> ActionPolicy of the agents that played."""
    for i, pos in enumerate(positions):
        pos.uniform = uniform_posterior(pos.state, pos.seat, pos.judge, samples, rng=seed + 2 * i)
        root, since = pos.root, pos.since
        rng = seed + 2 * i + 1
        pos.policy = posterior_since(
            root, since, pos.seat, pos.judge, policies, samples, rng, min_ess=min_ess, max_samples=max_samples
        )


# ----- features -------------------------------------------------------------------------------------
def hidden_activations(network: NumpyMLP, observations: np.ndarray, layer: int = -1) -> np.ndarray:
    """The output of hidden layer ``layer`` (0 the first; -1 the last before the action head)
    of ``network`` for a batch of observations (rows): the network cut after that layer, its
    activation included. Nothing is added to the network's class."""
    hidden = len(network.layers) - 1
    if not -hidden <= layer < hidden:
        raise ValueError(f"the network has {hidden} hidden layers; layer {layer} is out of range")
    cut = NumpyMLP(network.layers[: layer % hidden + 1])
    return np.asarray(cut(np.atleast_2d(np.asarray(observations, dtype=np.float32))), dtype=np.float64)


# ----- the probe ------------------------------------------------------------------------------------
@dataclass
class LogisticProbe:
    """Logistic regression on standardised features: P(true) = sigmoid(z @ w + b), z = (x - mean) / scale."""

    w: np.ndarray
    b: float
    mean: np.ndarray
    scale: np.ndarray
    iterations: int = 0  # Newton steps the fit took
    history: list[float] = field(default_factory=list)  # the penalised loss at the fit (one value)

    def predict(self, x: np.ndarray) -> np.ndarray:
        z = (np.asarray(x, dtype=np.float64) - self.mean) / self.scale
        return _sigmoid(z @ self.w + self.b)

    def coefficients(self) -> tuple[np.ndarray, float]:
        """The weights and intercept on the raw (unstandardised) features."""
        w = self.w / self.scale
        return w, float(self.b - self.mean @ w)


def _sigmoid(t: np.ndarray) -> np.ndarray:
    out: np.ndarray = 0.5 * (1.0 + np.tanh(0.5 * t))  # tanh: no overflow warnings for large |t|
    return out


def fit_probe(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iterations: int = 50, tol: float = 1e-8) -> LogisticProbe:
    """Fit a logistic probe: scikit-learn's ``LogisticRegression`` by Newton's method
    (``newton-cholesky``, at most ``iterations`` steps, ``tol`` on the gradient) minimising the
    summed log-loss plus ``l2 / 2 * |w|^2`` (``C = 1 / l2``; the intercept is not penalised;
    ``l2 = 0``: no penalty). Constant features are kept at scale 1, so they get weight 0 instead of
    a division by zero; outcomes of one class only give the constant probe (its certain intercept)."""
    try:
        from sklearn.exceptions import ConvergenceWarning
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        raise ImportError("the belief probes fit with scikit-learn: pip install 'smuggle_envs[train]'") from None
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-12] = 1.0
    z = (x - mean) / scale
    if len(np.unique(y)) < 2:  # the likelihood's maximum is at an infinite intercept
        return LogisticProbe(np.zeros(x.shape[1]), math.inf if y.size and y[0] else -math.inf, mean, scale)
    c = 1.0 / l2 if l2 > 0 else math.inf  # C = inf: no penalty
    model = LogisticRegression(C=c, solver="newton-cholesky", max_iter=iterations, tol=tol)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # ``iterations`` is a budget, as asked
        model.fit(z, y)
    w, b = model.coef_[0].astype(np.float64), float(model.intercept_[0])
    t = z @ w + b
    loss = float(np.sum(np.logaddexp(0.0, t) - y * t) + 0.5 * l2 * float(w @ w))
    return LogisticProbe(w, b, mean, scale, int(model.n_iter_[0]), [loss])


# ----- calibration (the kit's one definition of each: ``metrics``, every row weighted 1) -------------
def _unweighted(p: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    p, y = np.asarray(p, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return p, y, np.ones(len(p))


def brier(p: np.ndarray, y: np.ndarray) -> float:
    """Mean squared error of the probabilities against the 0/1 outcomes (``metrics.brier``)."""
    return metrics.brier(*_unweighted(p, y))


def log_loss(p: np.ndarray, y: np.ndarray, eps: float = 1e-12) -> float:
    """Mean negative log-likelihood (natural log), probabilities clipped to [eps, 1 - eps]
    (``metrics.log_loss``)."""
    return metrics.log_loss(*_unweighted(p, y), eps=eps)


def ece(p: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error over ``bins`` equal-width bins of [0, 1] (``metrics.ece``);
    NaN without a position."""
    return metrics.ece(*_unweighted(p, y), bins=bins)


def calibration(p: np.ndarray, y: np.ndarray, bins: int = 10) -> dict[str, float]:
    """Brier score, log-loss and ECE of probabilities ``p`` for outcomes ``y``."""
    return {"brier": brier(p, y), "log_loss": log_loss(p, y), "ece": ece(p, y, bins), "n": float(len(p))}


def agreement(p: np.ndarray, q: np.ndarray) -> dict[str, float]:
    """How close two sets of probabilities are: mean |p - q|, root mean square, correlation."""
    p, q = np.asarray(p, dtype=np.float64), np.asarray(q, dtype=np.float64)
    corr = float(np.corrcoef(p, q)[0, 1]) if len(p) > 1 and p.std() > 0 and q.std() > 0 else math.nan
    return {"mean_abs": float(np.mean(np.abs(p - q))), "rms": float(np.sqrt(np.mean((p - q) ** 2))), "corr": corr}


def auroc(p: np.ndarray, y: np.ndarray) -> float:
    """Area under the ROC curve (``metrics.auroc``: ties counted half); NaN with one class."""
    return metrics.auroc(*_unweighted(p, y))


# ----- the study ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StudyConfig:
    """What ``probe_study`` plays and measures (see ``main``'s options)."""

    task: str = "smuggle_officer"
    players: int = 4
    agents: str = "rule"  # one spec for every seat: rule, zoo, ...
    network: str = "zoo"  # the network whose hidden layers are probed (zoo or ppo:PATH)
    games: int = 40
    test_share: float = 0.25
    samples: int = 200
    eval_positions: int = 600
    min_ess: float = 20.0
    max_samples: int = 3000
    l2: float = 1.0
    seed: int = 0


def _features(network: NumpyMLP, obs: np.ndarray) -> dict[str, np.ndarray]:
    """The probes' inputs: every hidden layer of the network, and the observation itself."""
    hidden = len(network.layers) - 1
    out = {f"hidden{k}": hidden_activations(network, obs, k) for k in range(hidden)}
    out["observation"] = obs.astype(np.float64)
    return out


def probe_study(config: StudyConfig) -> dict[str, Any]:
    """Play, fit a probe on each hidden layer (and on the raw observation, for reference) with the
    first games, and measure it on the last ``test_share`` of them against the truth and both
    posteriors (computed for up to ``eval_positions`` test positions, evenly spread)."""
    task = TASKS[config.task]
    game = make_game(task.env_id, num_players=config.players)
    specs = [config.agents] * config.players
    positions = collect_positions(game, specs, task, config.games, config.seed)
    first_test = config.games - max(1, round(config.games * config.test_share))
    train = [p for p in positions if p.game < first_test]
    test = [p for p in positions if p.game >= first_test]
    step = max(1, len(test) // config.eval_positions)
    evaluated = test[::step][: config.eval_positions]
    players = [make_agent(spec, game, seed=s) for s, spec in enumerate(specs)]
    policies = {s: policy_for(a) for s, a in enumerate(players)}
    add_posteriors(evaluated, policies, config.samples, config.seed, config.min_ess, config.max_samples)
    network = getattr(make_agent(config.network, game), "policy", None)
    if not isinstance(network, NumpyMLP):
        raise ValueError(f"{config.network} has no numpy network to probe")
    y_train = np.array([p.truth for p in train], dtype=float)
    x_train = _features(network, np.array([p.observation for p in train]))
    x_eval = _features(network, np.array([p.observation for p in evaluated]))
    y_eval = np.array([p.truth for p in evaluated], dtype=float)
    report: dict[str, Any] = {
        "config": config.__dict__,
        "task": task.name,
        "positions": {"train": len(train), "test": len(test), "evaluated": len(evaluated)},
        "base_rate": {"train": float(y_train.mean()), "evaluated": float(y_eval.mean())},
    }
    report["posteriors"], ok = _posterior_rows(evaluated, y_eval, config.min_ess)
    report["probes"] = {}
    for name, x in x_train.items():
        probe = fit_probe(x, y_train, l2=config.l2)
        p = probe.predict(x_eval[name])
        report["probes"][name] = _probe_rows(p, y_eval, evaluated, ok, probe.iterations)
    return report


def _posterior_rows(
    evaluated: Sequence[ClaimPosition], y: np.ndarray, min_ess: float
) -> tuple[dict[str, Any], np.ndarray]:
    """Calibration of both posteriors; the policy-aware one only where its ESS reaches ``min_ess``."""
    uniform = np.array([p.uniform.p for p in evaluated if p.uniform is not None])
    policy = np.array([p.policy.p if p.policy is not None else math.nan for p in evaluated])
    ess = np.array([p.policy.ess if p.policy is not None else 0.0 for p in evaluated])
    ok = (ess >= min_ess) & ~np.isnan(policy)
    rows = {
        "uniform": {**calibration(uniform, y), "auroc": auroc(uniform, y)},
        "policy_aware": {**calibration(policy[ok], y[ok]), "auroc": auroc(policy[ok], y[ok])},
        "policy_aware_coverage": float(ok.mean()) if len(ok) else math.nan,
        "policy_aware_median_ess": float(np.median(ess)) if len(ess) else math.nan,
    }
    return rows, ok


def _probe_rows(
    p: np.ndarray, y: np.ndarray, evaluated: Sequence[ClaimPosition], ok: np.ndarray, iterations: int
) -> dict[str, Any]:
    uniform = np.array([pos.uniform.p for pos in evaluated if pos.uniform is not None])
    policy = np.array([pos.policy.p if pos.policy is not None else math.nan for pos in evaluated])
    return {
        "truth": {**calibration(p, y), "auroc": auroc(p, y)},
        "truth_where_policy_aware": calibration(p[ok], y[ok]),
        "vs_uniform": agreement(p, uniform),
        "vs_policy_aware": agreement(p[ok], policy[ok]),
        "newton_steps": iterations,
    }


def report_table(report: dict[str, Any]) -> dict[str, Any]:
    """The docs' table of a study (``<!-- data-table: belief_probes -->`` in docs/bluffing.md):
    each predictor of the claim's truth on the evaluated positions, with its coverage."""
    post = report["posteriors"]
    n = report["positions"]["evaluated"]

    def row(name: str, cal: dict[str, Any], coverage: str, corr: str) -> list[str]:
        return [name, coverage, f"{cal['auroc']:.3f}", f"{cal['brier']:.3f}", f"{cal['ece']:.3f}", corr]

    rows = [
        row("uniform posterior", post["uniform"], f"{n}", "-"),
        row(
            f"policy-aware posterior (ESS >= {report['config']['min_ess']:g})",
            post["policy_aware"],
            f"{int(post['policy_aware']['n'])} ({post['policy_aware_coverage']:.0%})",
            "1",
        ),
    ]
    for name, probe in report["probes"].items():
        rows.append(row(f"linear probe on {name}", probe["truth"], f"{n}", f"{probe['vs_policy_aware']['corr']:.2f}"))
    headers = ["predictor of the claim's truth", "positions", "AUROC", "Brier", "ECE", "corr. with policy-aware"]
    return {"headers": headers, "align": "lrrrrr", "rows": rows}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m training.bluffing.probes``: run :func:`probe_study` and print its report (JSON);
    ``--data FILE`` also writes it with the docs' table (docs/img/data/belief_probes.json)."""
    parser = argparse.ArgumentParser(prog="python -m training.bluffing.probes", description=main.__doc__)
    defaults = StudyConfig()
    for name, value in defaults.__dict__.items():
        flag = "--" + name.replace("_", "-")
        choices = sorted(TASKS) if name == "task" else None
        parser.add_argument(flag, type=type(value), default=value, choices=choices, help=f"default {value}")
    parser.add_argument("--data", default=None, help="also write the report and its docs table to this JSON file")
    args = vars(parser.parse_args(argv))
    data = args.pop("data")
    report = probe_study(StudyConfig(**args))
    print(json.dumps(report, indent=1, default=float))
    if data is not None:
        command = "python -m training.bluffing.probes " + " ".join(argv if argv is not None else sys.argv[1:])
        with open(data, "w", encoding="utf-8") as f:
            json.dump({"command": command, "report": report, "table": report_table(report)}, f, indent=1, default=float)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
