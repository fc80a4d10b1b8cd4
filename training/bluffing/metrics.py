"""Deception metrics of labelled claims, per agent and game, each with a bootstrap interval over
deals.

The rows are the bluffing dataset's (``smuggle dataset``: a pyarrow Table, a dict of columns or a
list of row dicts; see :func:`as_columns`). A **lie** is a claim whose ``truth`` is False; on a
call row it is the claim the call answers. The metrics of one agent in one game:

* **claim side** (rows of role ``claim``; a game whose hidden decisions are ``commitment`` rows
  gets the same numbers for them, under the names of ``ROLE_LABELS``, or of ``DECISION_LABELS``
  for a commitment whose False truth is no miss): the bluff rate (lies / claims), the share of
  the lies open to a challenge that were caught, the mean payoff of lying claims and of truthful
  ones, and their gap (lie - truth);
* **call side** (role ``call``): the challenge rate (calls that challenge / calls); detection
  taking a challenge as the prediction "lie": precision (lies among challenges), recall
  (challenges among lies) and AUROC of a score: the policy's probability of challenging
  (column ``score``) where the caller provides it, else the binary decision (AUROC is then the
  balanced accuracy, (TPR + TNR) / 2); and the calibration of any probability column as a
  forecast of a lie: Brier score, log-loss (forecasts clipped to [``EPS``, 1 - ``EPS``], so a
  certain forecast that is wrong costs -ln ``EPS`` = 13.8, not infinity) and expected calibration
  error (``BINS`` equal-width bins, each weighted by its share of rows).

**Intervals.** Every metric is a function of row weights (:class:`Metric`): 1 for the point
estimate; for a bootstrap replicate, the number of times the row's *deal* (its seed) was drawn,
deals drawn with replacement as many as there are (:func:`resample_weights`). The rows of one deal
(the claim and its calls, every seating of a duplicate tournament) so always move together, as
they are not independent. The interval is the percentile interval of the replicates (``LEVEL``,
``N_BOOT`` of them, from a seeded generator: the same data and seed give the same interval);
replicates in which a metric is undefined (a resample without lies has no recall) are left out.

**Forced decisions** (``forced``: the only legal action) are defined once, here
(:func:`report_sections`, :func:`claim_metrics`), for the report and the benchmarks alike: a
forced call is left out of every call-side number (it detects nothing) and counted apart; a
forced claim counts in the bluff rate (the table cannot tell it from a chosen one) but not in the
payoffs (its payoff is what happened to the seat, not what its choice earned), and is counted
apart too.

Only numpy here (pyarrow only to read a Table handed in): the command line (``smuggle analyze
--deception``, :mod:`training.bluffing.deception`), the benchmarks and the belief probes build on
it. Each statistic is scikit-learn's number (``roc_auc_score`` with sample weights,
``brier_score_loss``, ``log_loss``, ``calibration_curve`` for the ECE;
``tests/training/bluffing/test_statistics.py`` checks each), kept here in numpy, one definition of
each, because the bootstrap evaluates them on every replicate (scikit-learn's input checks cost
about 80 times as much a call) and an undefined value must be a quiet NaN; the log-loss's clip at
``EPS`` and the ECE (which scikit-learn has not) are the kit's own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

LEVEL = 0.95
N_BOOT = 1000
BINS = 10
EPS = 1e-6

Columns = dict[str, np.ndarray]
"""Column name -> one value a row: floats (NaN for a missing value, booleans as 0 / 1) or objects."""

ROLE_LABELS = {
    "claim": {"rate": "bluff rate", "lie_payoff": "lie payoff", "truth_payoff": "truth payoff"},
    "commitment": {"rate": "miss rate", "lie_payoff": "miss payoff", "truth_payoff": "kept payoff"},
}
"""What the claim-side numbers are called for each role: a commitment is not a lie, but one that
did not turn out as chosen (the card broke the round's rule, the bid lost the ship)."""

DECISION_LABELS = {
    "play": {
        "rate": "card discarded",
        "lie_payoff": "payoff if discarded",
        "truth_payoff": "payoff if scored",
        "lies": "discarded",
        "what": "the card a Play card went on was discarded: an attack that met its aim or a protection "
        "that failed, not a miss (Humble smuggle)",
    },
}
"""The commitments whose False truth is no miss, each reported on its own under these names (a
Humble smuggle Play card: its truth is that the card it went on was scored); every other
commitment decision is a miss when False (a selection discarded, a bid that lost the ship)."""


# ----- columns -------------------------------------------------------------------------------------
def _column(values: Sequence[Any]) -> np.ndarray:
    """Numbers and booleans as floats (None -> NaN); anything else as objects."""
    if all(v is None or isinstance(v, (bool, int, float, np.bool_, np.integer, np.floating)) for v in values):
        return np.array([math.nan if v is None else float(v) for v in values], dtype=float)
    return np.array(values, dtype=object)


def as_columns(data: Any, skip: Sequence[str] = ("observation",)) -> Columns:
    """The rows of ``data`` (a pyarrow Table, a dict of columns or a list of row dicts) as numpy
    columns (see ``Columns``), less the columns named in ``skip``."""
    if hasattr(data, "to_pydict"):
        data = data.to_pydict()
    if isinstance(data, Mapping):
        return {k: _column(list(v)) for k, v in data.items() if k not in skip}
    rows = list(data)
    names = [k for k in dict.fromkeys(k for r in rows for k in r) if k not in skip]  # every row's keys
    return {k: _column([r.get(k) for r in rows]) for k in names}


def select(cols: Columns, mask: np.ndarray) -> Columns:
    """The rows of ``cols`` where ``mask`` is True."""
    return {k: v[mask] for k, v in cols.items()}


def forced(cols: Columns) -> np.ndarray:
    """Which rows are forced decisions (the only legal action; rows without the column: none)."""
    col = cols.get("forced")
    if col is None:
        return np.zeros(len(next(iter(cols.values()), ())), dtype=bool)
    if col.dtype.kind == "f":
        return np.nan_to_num(col) > 0
    return np.array([bool(v) for v in col], dtype=bool)


def report_sections(cols: Columns) -> list[tuple[str, str | None, np.ndarray]]:
    """The sections every report of these rows has, as ``(role, decision, rows)``: the claims
    (forced ones included); the commitments that miss when False, then each decision of
    ``DECISION_LABELS`` on its own; the calls, forced ones left out. Sections without rows are
    left out; the forced calls are counted by ``forced_calls``."""
    role = cols["role"] if "role" in cols else np.zeros(0, dtype=object)
    decision = cols.get("decision", np.full(len(role), "", dtype=object))
    found: list[tuple[str, str | None, np.ndarray]] = [("claim", None, role == "claim")]
    commitment = role == "commitment"
    apart = np.isin(decision, list(DECISION_LABELS))
    found.append(("commitment", None, commitment & ~apart))
    found += [("commitment", d, commitment & (decision == d)) for d in DECISION_LABELS]
    found.append(("call", None, (role == "call") & ~forced(cols)))
    return [(r, d, mask) for r, d, mask in found if mask.any()]


def forced_calls(cols: Columns) -> np.ndarray:
    """The forced calls: in no call-side number (a call with one legal action detects nothing)."""
    return (cols["role"] == "call") & forced(cols)


# ----- weighted statistics (weights: a row's multiplicity in a bootstrap replicate) ---------------
def wmean(x: np.ndarray, w: np.ndarray) -> float:
    """The weighted mean of ``x`` (NaN when the weights sum to 0)."""
    total = float(w.sum())
    return float(w @ x) / total if total > 0 else math.nan


def precision(pred: np.ndarray, label: np.ndarray, w: np.ndarray) -> float:
    """Share of the rows predicted positive (``pred`` 1) that are positive (``label`` 1)."""
    return wmean(label[pred > 0], w[pred > 0])


def recall(pred: np.ndarray, label: np.ndarray, w: np.ndarray) -> float:
    """Share of the positive rows predicted positive."""
    return wmean(pred[label > 0], w[label > 0])


def auroc(score: np.ndarray, label: np.ndarray, w: np.ndarray) -> float:
    """The area under the ROC curve: the probability that a positive row scores above a negative
    one, ties counting one half (the Mann-Whitney statistic, rows weighted). NaN without both
    classes."""
    order = np.argsort(score, kind="stable")
    s, y, ww = score[order], label[order], w[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])  # the first row of each tied score
    pos = np.add.reduceat(ww * y, starts) if len(s) else np.zeros(0)
    neg = np.add.reduceat(ww * (1 - y), starts) if len(s) else np.zeros(0)
    n_pos, n_neg = float(pos.sum()), float(neg.sum())
    if n_pos <= 0 or n_neg <= 0:
        return math.nan
    below = np.cumsum(neg) - neg  # negatives scoring strictly lower than each tied group
    return float(pos @ (below + 0.5 * neg)) / (n_pos * n_neg)


def brier(p: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """The mean squared error of the forecasts ``p`` of the event ``y``."""
    return wmean((p - y) ** 2, w)


def log_loss(p: np.ndarray, y: np.ndarray, w: np.ndarray, eps: float = EPS) -> float:
    """The mean negative log-likelihood of ``y`` under ``p`` (clipped to [``eps``, 1 - ``eps``])."""
    q = np.clip(p, eps, 1 - eps)
    return wmean(-(y * np.log(q) + (1 - y) * np.log(1 - q)), w)


def ece(p: np.ndarray, y: np.ndarray, w: np.ndarray, bins: int = BINS) -> float:
    """Expected calibration error: over ``bins`` equal-width bins of ``p`` (a forecast of 1.0 in
    the last), the bins' shares of the weight times |mean forecast - mean outcome| in each."""
    total = float(w.sum())
    if total <= 0:
        return math.nan
    which = np.minimum((np.clip(p, 0.0, 1.0) * bins).astype(int), bins - 1)
    gap = np.bincount(which, weights=w * (p - y), minlength=bins)  # sum of w (p - y) a bin
    return float(np.abs(gap).sum()) / total


# ----- metrics ----------------------------------------------------------------------------------------
Stat = Callable[[Columns, np.ndarray], float]
"""A metric's value from the columns of one agent's rows and their weights."""


@dataclass(frozen=True)
class Metric:
    """One number of the report: ``stat`` computes it from weighted rows; ``count`` says how many
    rows it rests on (the challenges for a precision, the lies for a recall); ``unit`` is
    ``share`` (0 to 1), ``payoff`` (the game's score) or ``loss`` (a Brier score, a log-loss)."""

    key: str
    label: str
    unit: str
    stat: Stat
    count: Callable[[Columns], int]


def _lie(cols: Columns) -> np.ndarray:
    return 1.0 - cols["truth"]


def _rows(cols: Columns) -> int:
    return len(cols["truth"])


def _paid(cols: Columns, lie: bool) -> np.ndarray:
    """The chosen (not forced) rows of a lie (``lie``) or a truth with a settled payoff."""
    return (_lie(cols) == float(lie)) & np.isfinite(cols["payoff"]) & ~forced(cols)


def _payoff_mean(lie: bool) -> Stat:
    def stat(cols: Columns, w: np.ndarray) -> float:
        mask = _paid(cols, lie)
        return wmean(cols["payoff"][mask], w[mask])

    return stat


def _payoff_rows(lie: bool) -> Callable[[Columns], int]:
    return lambda cols: int(_paid(cols, lie).sum())


def _open_lies(cols: Columns) -> np.ndarray:
    """The lies the rules let someone challenge (``caught`` settled, True or False)."""
    caught = cols.get("caught")
    if caught is None or caught.dtype.kind != "f":
        return np.zeros(len(cols["truth"]), dtype=bool)
    return (_lie(cols) == 1.0) & np.isfinite(caught)


def lies_caught() -> Metric:
    """Of the lies the rules let someone challenge, the share that were caught."""

    def stat(c: Columns, w: np.ndarray) -> float:
        mask = _open_lies(c)
        return wmean(c["caught"][mask], w[mask]) if mask.any() else math.nan

    return Metric("lies_caught", "lies caught", "share", stat, lambda c: int(_open_lies(c).sum()))


def claim_metrics(role: str = "claim", decision: str | None = None) -> list[Metric]:
    """The claim-side metrics, named for ``role`` (``claim`` or ``commitment``; a commitment of
    ``DECISION_LABELS`` under its own names). The rate counts every row; the payoffs only the
    chosen ones (a forced row's payoff is what befell the seat, not what a choice earned)."""
    names = DECISION_LABELS.get(decision or "", ROLE_LABELS[role])
    lie_pay, truth_pay = _payoff_mean(True), _payoff_mean(False)
    caught = [lies_caught()] if role == "claim" else []
    return [
        Metric("rate", names["rate"], "share", lambda c, w: wmean(_lie(c), w), _rows),
        *caught,
        Metric("lie_payoff", names["lie_payoff"], "payoff", lie_pay, _payoff_rows(True)),
        Metric("truth_payoff", names["truth_payoff"], "payoff", truth_pay, _payoff_rows(False)),
        Metric(
            "payoff_gap",
            "payoff gap",
            "payoff",
            lambda c, w: lie_pay(c, w) - truth_pay(c, w),
            lambda c: min(_payoff_rows(True)(c), _payoff_rows(False)(c)),
        ),
    ]


def call_metrics(score: str = "score") -> list[Metric]:
    """The call-side metrics: challenge rate, precision, recall and the AUROC of column ``score``
    (the caller fills it with a probability of challenging, or the decision itself)."""
    return [
        Metric("challenge_rate", "challenge rate", "share", lambda c, w: wmean(c["challenged"], w), _rows),
        Metric(
            "precision",
            "precision",
            "share",
            lambda c, w: precision(c["challenged"], _lie(c), w),
            lambda c: int((c["challenged"] > 0).sum()),
        ),
        Metric(
            "recall", "recall", "share", lambda c, w: recall(c["challenged"], _lie(c), w), lambda c: int(_lie(c).sum())
        ),
        Metric("auroc", "AUROC", "share", lambda c, w: auroc(c[score], _lie(c), w), _rows),
    ]


def calibration_metrics(prob: str, event: str = "lie", prefix: str = "") -> list[Metric]:
    """Brier, log-loss and ECE of column ``prob`` as a forecast of ``event`` (``lie`` or ``truth``)."""

    def outcome(cols: Columns) -> np.ndarray:
        return _lie(cols) if event == "lie" else cols["truth"]

    return [
        Metric(prefix + "brier", "Brier", "loss", lambda c, w: brier(c[prob], outcome(c), w), _rows),
        Metric(prefix + "log_loss", "log-loss", "loss", lambda c, w: log_loss(c[prob], outcome(c), w), _rows),
        Metric(prefix + "ece", "ECE", "share", lambda c, w: ece(c[prob], outcome(c), w), _rows),
    ]


# ----- the bootstrap over deals -------------------------------------------------------------------
@dataclass(frozen=True)
class Bootstrapped:
    """A metric's value, its percentile interval over deals, and the rows it rests on."""

    value: float
    low: float
    high: float
    count: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (NaN -> None)."""
        clean = [None if isinstance(x, float) and math.isnan(x) else x for x in (self.value, self.low, self.high)]
        return {"value": clean[0], "low": clean[1], "high": clean[2], "count": self.count}


def resample_weights(deals: np.ndarray, n_boot: int = N_BOOT, seed: int = 0) -> Iterator[np.ndarray]:
    """``n_boot`` bootstrap replicates of the rows, as row weights: the deals (distinct values of
    ``deals``) drawn with replacement, as many as there are, and each row weighted by the times
    its deal was drawn. Seeded: the same deals and seed give the same replicates."""
    keys, inverse = np.unique(np.asarray(deals), return_inverse=True)
    rng = np.random.default_rng(seed)
    for _ in range(n_boot):
        drawn = np.bincount(rng.integers(0, len(keys), len(keys)), minlength=len(keys)) if len(keys) else keys
        yield drawn[inverse].astype(float)


def _interval(values: list[float], level: float) -> tuple[float, float]:
    finite = np.array([v for v in values if not math.isnan(v)])
    if not finite.size:
        return math.nan, math.nan
    tail = (1.0 - level) / 2.0
    lo, hi = np.quantile(finite, [tail, 1.0 - tail])
    return float(lo), float(hi)


def bootstrap(
    metrics: Sequence[Metric],
    cols: Columns,
    deals: np.ndarray,
    n_boot: int = N_BOOT,
    seed: int = 0,
    level: float = LEVEL,
) -> dict[str, Bootstrapped]:
    """Each metric's value on ``cols`` with its interval over the deals ``deals`` (one a row): all
    the metrics are evaluated on the same replicates."""
    ones = np.ones(len(deals))
    samples: dict[str, list[float]] = {m.key: [] for m in metrics}
    with np.errstate(invalid="ignore", divide="ignore"):
        for w in resample_weights(deals, n_boot, seed):
            for m in metrics:
                samples[m.key].append(m.stat(cols, w))
        points = {m.key: m.stat(cols, ones) for m in metrics}
    return {m.key: Bootstrapped(points[m.key], *_interval(samples[m.key], level), m.count(cols)) for m in metrics}


# ----- the report -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Section:
    """One agent's rows of one role in one game, and their metrics."""

    agent: str
    role: str
    rows: int
    deals: int
    values: dict[str, Bootstrapped]
    lies: int = 0  # lies among the claims, or among the claims the calls answer
    score: str | None = None  # a call side: what the AUROC ranks ("P(challenge)" or "decision")
    forced: int = 0  # forced decisions: in the rate of claims; in no call-side number
    decision: str | None = None  # a commitment of ``DECISION_LABELS``: its decision


@dataclass(frozen=True)
class GameReport:
    """The metrics of one game: its sections by role (``claim``, ``commitment``, ``call``), each a
    list of agents (a commitment of ``DECISION_LABELS`` under ``commitment:<decision>``);
    ``calls_possible``: whether a seat of this game ever calls another's claim (False:
    claim-side metrics only; None: not known); ``games``: the games with a labelled decision,
    ``stored``: every game of this env in the source (None: not known)."""

    env_id: str
    games: int
    deals: int
    sections: dict[str, list[Section]] = field(default_factory=dict)
    calls_possible: bool | None = None
    stored: int | None = None


@dataclass(frozen=True)
class Settings:
    """How the intervals are drawn, and the probability columns to calibrate (name -> the event
    they forecast, ``lie`` or ``truth``)."""

    n_boot: int = N_BOOT
    seed: int = 0
    level: float = LEVEL
    forecasts: Mapping[str, str] = field(default_factory=lambda: {"challenge_prob": "lie"})


def _complete(cols: Columns, name: str) -> bool:
    """A float column with a value on every row."""
    col = cols.get(name)
    return col is not None and col.dtype.kind == "f" and bool(np.isfinite(col).all()) and len(col) > 0


def _call_section(agent: str, cols: Columns, settings: Settings, n_forced: int = 0) -> Section:
    """An agent's chosen calls (``n_forced`` forced ones left out): the score is its probability
    of challenging where every row has one."""
    policy = _complete(cols, "challenge_prob")
    cols = {**cols, "score": cols["challenge_prob"] if policy else cols["challenged"]}
    metrics = call_metrics()
    for prob, event in settings.forecasts.items():
        if _complete(cols, prob):
            metrics += calibration_metrics(prob, event)
    values = bootstrap(metrics, cols, cols["seed"], settings.n_boot, settings.seed, settings.level)
    deals, lies = len(np.unique(cols["seed"])), int(_lie(cols).sum())
    score = "P(challenge)" if policy else "decision"
    return Section(agent, "call", len(cols["seed"]), deals, values, lies, score, n_forced)


def _agent_key(cols: Columns) -> np.ndarray:
    return cols["agent_name"] if "agent_name" in cols else cols["agent"]


def _claim_section(agent: str, cols: Columns, settings: Settings, role: str, decision: str | None) -> Section:
    """An agent's claims or commitments (one kind of ``report_sections``)."""
    metrics = claim_metrics(role, decision)
    values = bootstrap(metrics, cols, cols["seed"], settings.n_boot, settings.seed, settings.level)
    deals, lies, n_forced = len(np.unique(cols["seed"])), int(_lie(cols).sum()), int(forced(cols).sum())
    return Section(agent, role, len(cols["seed"]), deals, values, lies, None, n_forced, decision)


def game_report(
    cols: Columns, settings: Settings, calls_possible: bool | None = None, stored: int | None = None
) -> GameReport:
    """The report of one game's rows (every row of ``cols`` one game's), by ``report_sections``;
    ``stored``: the games of this env in the source, labelled decisions or not."""
    env = str(cols["env_id"][0]) if len(cols["env_id"]) else ""
    games = len(np.unique(cols["game_id"])) if "game_id" in cols else 0
    report = GameReport(env, games, len(np.unique(cols["seed"])), {}, calls_possible, stored)
    agents = _agent_key(cols)
    skipped = forced_calls(cols)
    callers = {str(a) for a in agents[skipped]}  # an agent whose every call was forced still gets a row
    kinds = report_sections(cols)
    if callers and all(role != "call" for role, _, _ in kinds):
        kinds.append(("call", None, np.zeros(len(agents), dtype=bool)))
    for role, decision, rows in kinds:
        names = {str(a) for a in agents[rows]} | (callers if role == "call" else set())
        sections = []
        for agent in sorted(names):
            sub = select(cols, rows & (agents == agent))
            if role == "call":
                sections.append(_call_section(agent, sub, settings, int((skipped & (agents == agent)).sum())))
            else:
                sections.append(_claim_section(agent, sub, settings, role, decision))
        if sections:
            report.sections[role if decision is None else f"{role}:{decision}"] = sections
    return report


def deception_report(
    data: Any,
    settings: Settings | None = None,
    calls_possible: Mapping[str, bool] | None = None,
    stored: Mapping[str, int] | None = None,
) -> list[GameReport]:
    """Every game's report from the dataset's rows ``data`` (see :func:`as_columns`), games in
    the order they first appear; ``calls_possible``: env id -> whether its seats ever call;
    ``stored``: env id -> the games of that env in the source (with a labelled decision or not)."""
    cols = as_columns(data)
    settings = settings or Settings()
    envs = list(dict.fromkeys(str(e) for e in cols.get("env_id", [])))
    known, counted = calls_possible or {}, stored or {}
    return [
        game_report(select(cols, cols["env_id"] == env), settings, known.get(env), counted.get(env)) for env in envs
    ]


# ----- the printed tables ---------------------------------------------------------------------------
def fmt_value(x: float, unit: str) -> str:
    """A number for a table: shares and losses to 2 decimals, payoffs to 3 significant digits."""
    if math.isnan(x):
        return "-"
    if unit != "payoff" or abs(x) < 10:
        return f"{x:.2f}"
    return f"{x:.1f}" if abs(x) < 100 else f"{x:.0f}"


def fmt_interval(b: Bootstrapped, unit: str, deals: int | None = None) -> str:
    """``value [low, high]`` ("-" for an undefined value, "[-]" for an undefined interval;
    ``value [n/a (1 deal)]`` when ``deals`` is 1: a bootstrap over one deal has no spread)."""
    from training.stats import one_deal_interval

    if math.isnan(b.value):
        return "-"
    if deals is not None and (na := one_deal_interval(deals)):
        return f"{fmt_value(b.value, unit)} [{na}]"
    if math.isnan(b.low):
        return f"{fmt_value(b.value, unit)} [-]"
    return f"{fmt_value(b.value, unit)} [{fmt_value(b.low, unit)}, {fmt_value(b.high, unit)}]"


def _table(sections: Sequence[Section], metrics: Sequence[Metric], counts: Sequence[tuple[str, Any]]) -> str:
    """One table: an agent a row, its counts, then each metric with its interval."""
    from training.stats import format_table

    shown = [m for m in metrics if any(m.key in s.values for s in sections)]
    headers = ["agent", *(name for name, _ in counts), *(m.label for m in shown)]
    rows = []
    for s in sections:
        cells = [get(s) for _, get in counts]
        cells += [fmt_interval(s.values[m.key], m.unit, s.deals) if m.key in s.values else "-" for m in shown]
        rows.append([s.agent, *cells])
    return format_table(headers, rows)


def _claims_text(role: str, sections: Sequence[Section]) -> str:
    decision = sections[0].decision
    if role == "claim":
        what, noun, lies = "claims (a lie: a claim whose truth is False", "claims", "lies"
    elif decision in DECISION_LABELS:
        what = f"commitments: {decision} ({DECISION_LABELS[decision]['what']}"
        noun, lies = f"{decision}s", DECISION_LABELS[decision]["lies"]
    else:
        what, noun, lies = "commitments (a miss: a commitment that did not turn out as chosen", "commitments", "misses"
    counts = [
        (noun, lambda s: s.rows),
        (lies, lambda s: s.lies),
        ("forced", lambda s: s.forced),
        ("deals", lambda s: s.deals),
    ]
    note = "; payoffs: the seat's score change the decision led to, forced decisions left out)"
    return what + note + "\n" + _table(sections, claim_metrics(role, decision), counts)


def _calls_text(sections: Sequence[Section], forecasts: Mapping[str, str]) -> str:
    counts = [
        ("calls", lambda s: s.rows),
        ("forced", lambda s: s.forced),
        ("challenges", lambda s: s.values["precision"].count),
        ("lies faced", lambda s: s.lies),
        ("deals", lambda s: s.deals),
        ("AUROC of", lambda s: s.score),
    ]
    metrics = call_metrics() + [m for prob, event in forecasts.items() for m in calibration_metrics(prob, event)]
    note = (
        "calls (the chosen ones: a forced call, the only legal action, detects nothing and is only counted; "
        "a challenge predicts a lie; AUROC ranks the calls by P(challenge), the agent's own policy's "
        "probability of challenging, where it can be read, else by the decision: then it is the balanced accuracy; "
        "Brier, log-loss, ECE: P(challenge) as a forecast of a lie)"
    )
    return note + "\n" + _table(sections, metrics, counts)


def format_report(report: GameReport, settings: Settings | None = None) -> str:
    """A game's tables: its claims (or commitments), then its calls, or why it has none."""
    from training.stats import few_deals_warning

    settings = settings or Settings()
    labelled = f"{report.games} games" if report.stored is None else f"{report.stored} games, {report.games}"
    head = (
        f"=== deception: {report.env_id}: {labelled} with a labelled decision, {report.deals} deal{'' if report.deals == 1 else 's'} "
        f"({settings.level:.0%} intervals: percentile bootstrap over deals, {settings.n_boot} resamples, "
        f"seed {settings.seed}) ==="
    )
    parts = [head]
    if warning := few_deals_warning(report.deals):
        parts.append(warning)
    for key, sections in report.sections.items():
        if key != "call":
            parts.append(_claims_text(sections[0].role, sections))
    if "call" in report.sections:
        parts.append(_calls_text(report.sections["call"], settings.forecasts))
    elif report.calls_possible is False:
        parts.append(f"calls: none: in {report.env_id} no seat calls another's claim: claim-side metrics only")
    else:
        parts.append("calls: none in these games: claim-side metrics only")
    return "\n\n".join(parts)


__all__ = [
    "BINS",
    "DECISION_LABELS",
    "EPS",
    "LEVEL",
    "N_BOOT",
    "ROLE_LABELS",
    "Bootstrapped",
    "Columns",
    "GameReport",
    "Metric",
    "Section",
    "Settings",
    "as_columns",
    "auroc",
    "bootstrap",
    "brier",
    "calibration_metrics",
    "call_metrics",
    "claim_metrics",
    "deception_report",
    "ece",
    "fmt_interval",
    "forced",
    "forced_calls",
    "format_report",
    "game_report",
    "lies_caught",
    "log_loss",
    "precision",
    "recall",
    "report_sections",
    "resample_weights",
    "select",
    "wmean",
]
