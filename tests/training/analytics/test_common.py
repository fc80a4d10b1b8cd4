"""The shared parts of the analytics (``training/analytics/_common.py``, ``_report.py``): rates
that remember their counts, their Wilson intervals on plots, and reports declared as tables of
columns."""

from __future__ import annotations

import math

import pytest

from training.analytics import (
    Column,
    Panel,
    PerAgentAnalysis,
    Table,
    ci,
    money,
    panel_intervals,
    pct,
    plot_panels,
    rate,
)
from training.analytics._report import rate_columns, ratio
from training.stats import format_table


def test_plot_panels_draws_wilson_intervals_of_counted_rates(tmp_path):
    from training.stats import wilson_interval

    names = ["a", "b", "c"]
    lies = [rate(3, 10), rate(0, 4), rate(0, 0)]  # the last: nothing to measure
    shares = [rate(1.5, 3), rate(0.25, 1), rate(0.0, 2)]  # a mean of fractions: no Wilson
    explicit = [(0.1, 0.3), None, (0.0, 0.5)]
    assert panel_intervals(lies, "share") == [wilson_interval(3, 10), wilson_interval(0, 4), None]
    assert panel_intervals(shares, "share") == [None, None, None]
    assert panel_intervals(lies, "money") == [None, None, None]
    fig = plot_panels(
        tmp_path / "p.png",
        "title",
        names,
        [
            ("rates", [("lie rate", lies), ("share", shares)], "share"),
            ("given", [("x", [0.2, 0.3, 0.4], explicit)], "share"),
            ("money", [("profit", [rate(5, 2), -1.0, math.nan])], "money"),
        ],
    )
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "95% Wilson" in fig._suptitle.get_text()
    rates_ax, given_ax, money_ax = fig.axes
    segments = [seg for c in rates_ax.containers if hasattr(c, "lines") for seg in c.lines[2][0].get_segments()]
    assert [(s[0][1], s[1][1]) for s in segments] == [
        pytest.approx(wilson_interval(3, 10)),
        pytest.approx(wilson_interval(0, 4)),
    ]
    segments = [seg for c in given_ax.containers if hasattr(c, "lines") for seg in c.lines[2][0].get_segments()]
    assert [(s[0][1], s[1][1]) for s in segments] == [pytest.approx((0.1, 0.3)), pytest.approx((0.0, 0.5))]
    assert not [c for c in money_ax.containers if hasattr(c, "lines")]
    # Rates still behave as floats in tables and CSV files.
    assert rate(3, 10) == 0.3 and f"{rate(3, 10):.2f}" == "0.30" and str(rate(1, 4)) == "0.25"
    assert math.isnan(rate(1, 0))


class _Stats:
    def __init__(self, name: str, hits: int = 0, tries: int = 0, cash: float = 0.0, seen: dict | None = None):
        self.name, self.hits, self.tries, self.cash, self.seen = name, hits, tries, cash, seen or {}

    def row(self) -> dict:
        return {"agent": self.name, "hits": self.hits}


def test_a_table_is_its_caption_then_one_row_an_agent_as_its_columns_print_them():
    agents = [_Stats("a", 3, 10, 12.5), _Stats("b", 0, 0, 2.0)]
    table = Table(
        "caption\nsecond line",
        (Column("tries", "tries"), *rate_columns("hit rate", "hits", "tries"), Column("cash", "cash", money)),
    )
    assert table.text(None, agents) == format_table(
        ["agent", "tries", "hit rate", "95% CI", "cash"],
        [["a", 10, "30.0%", ci(rate(3, 10)), "12.50"], ["b", 0, "-", "-", "2"]],
    )
    # columns known only from the data: a function of the analysis, and another first header
    by_name = Table(
        "seen", lambda analysis: [Column(n, lambda s, n=n: s.seen.get(n, 0)) for n in analysis], first="row"
    )
    agents[0].seen = {"b": 2}
    assert by_name.text(["a", "b"], agents).splitlines()[0].split() == ["row", "a", "b"]
    assert by_name.text(["a", "b"], agents).splitlines()[2].split() == ["a", "0", "2"]


def test_rate_getters_and_formats():
    stats = _Stats("a", 1, 4)
    value = ratio("hits", "tries")(stats)
    assert value == 0.25 and pct(value) == "25.0%" and ci(value).startswith("[") and ci(value).endswith("%]")
    assert math.isnan(ratio("hits", "cash")(stats)) and pct(math.nan) == "-" and ci(math.nan) == "-"
    assert money(math.nan) == "-" and money(2.0) == "2" and money(1 / 3) == "0.33"


def test_a_per_agent_analysis_prints_its_tables_then_its_warnings_and_plots_its_panels(tmp_path):
    class Demo(PerAgentAnalysis):
        stats_class = _Stats
        plot_title = "demo"
        tables = (Table("one", (Column("hits", "hits"),)), Table("two", (Column("tries", "tries"),)))
        panels = (Panel("hit rate", (("hits", ratio("hits", "tries")),), "share"),)

        def warnings(self):
            return ["warning: demo"]

    analysis = Demo(["x"])
    analysis._stat("y").hits = 2
    blocks = analysis.text().split("\n\n")
    assert blocks[0] == "one" and blocks[2] == "two" and blocks[-1] == "warning: demo" and len(blocks) == 5
    assert blocks[1].splitlines()[-1].split() == ["y", "2"]
    analysis.write_csv(tmp_path / "d.csv")
    assert (tmp_path / "d.csv").read_text().splitlines() == ["agent,hits", "x,0", "y,2"]
    analysis.plot(tmp_path / "d.png")
    assert (tmp_path / "d.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(("wins", "n"), [(0, 5), (1, 10), (3, 10), (37, 80), (99, 100), (12, 12), (500, 1234)])
def test_the_wilson_interval_is_scipys(wins, n):
    # One definition (training.stats.wilson_interval), read by the analytics' wilson_bounds too,
    # and SciPy's number wherever SciPy's is defined (whole counts; issue #35).
    from scipy.stats import binomtest

    from training.analytics import wilson_bounds
    from training.stats import wilson_interval

    scipy_ci = binomtest(wins, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson_interval(wins, n) == pytest.approx((scipy_ci.low, scipy_ci.high), abs=1e-12)
    assert wilson_bounds(rate(wins, n)) == wilson_interval(wins, n)
