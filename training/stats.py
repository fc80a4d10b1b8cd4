"""Statistics and plain-text tables: Wilson intervals of win rates, shared-win counting, and the
tables every command prints. Nothing here knows about games, so matches, evaluations,
tournaments and the analytics all use it."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence


def wilson_interval(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default): SciPy's
    ``binomtest(wins, n).proportion_ci(method="wilson")`` (``tests/training/analytics`` checks
    it), kept here because it differs where the project needs it to: ``wins`` may be fractional
    (a shared win counts 1/k), no game gives [0, 1], and the ends are exactly 0 and 1 at 0 and
    ``n`` wins. The one definition: the analytics' ``wilson_bounds`` reads it too."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return lo, hi


def win_shares(scores: Sequence[float]) -> list[float]:
    """Each seat's share of the win: 1/k for each of the k seats with the best score, else 0."""
    best = max(scores)
    k = sum(1 for s in scores if s == best)
    return [1.0 / k if s == best else 0.0 for s in scores]


MIN_DEALS = 10
"""Below this many deals (or games, where games are the unit resampled) an interval is too coarse
to read: the reports say so in a warning line (``few_deals_warning``)."""


def one_deal_interval(deals: int) -> str:
    """What an interval over ``deals`` deals prints instead of itself: ``n/a (1 deal)`` for one
    deal (a bootstrap over one deal has no spread: it would print [x, x]), else ""."""
    return "n/a (1 deal)" if deals == 1 else ""


def few_deals_warning(n: int, unit: str = "deals") -> str:
    """A warning line when the ``n`` deals (or games: ``unit``) behind intervals are fewer than
    ``MIN_DEALS``, else ""."""
    if n >= MIN_DEALS:
        return ""
    return (
        f"warning: only {n} {unit[:-1] if n == 1 else unit} (fewer than {MIN_DEALS}): the intervals are too "
        f"coarse to rank agents by; play more {unit}"
    )


def format_table(headers: Sequence[str], rows: Iterable[Sequence[object]], align: str | None = None) -> str:
    """A plain-text table; ``align`` has one letter per column, ``l`` or ``r`` (default: the first
    column left, the rest right)."""
    cells = [[str(c) for c in row] for row in rows]
    align = align or "l" + "r" * (len(headers) - 1)
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(texts: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(texts, widths, align)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])


def fmt_num(x: float) -> str:
    """A score for printing: whole numbers without decimals."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"
