"""Per-agent reports as data: the tables and plots of every game's analysis are declared, not
written out, and printed or drawn by the functions here.

A game's analysis lists its :class:`Table` specs (a caption and its :class:`Column` specs: a
header, a getter reading an agent's stats, a format) and its :class:`Panel` specs (a bar chart:
labelled getters and a unit). :func:`render` prints the tables, ``plot_panels`` draws the panels,
and :class:`PerAgentAnalysis` ties them to one stats row per agent, so a game's module holds only
what it counts and how it names it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from smuggle_envs.core.driver import BaseObserver
from smuggle_envs.core.spec import GameSpec
from training.stats import few_deals_warning, format_table

from ._common import ci, pct, plot_panels, rate, replay_record, write_rows

Getter = str | Callable[[Any], Any]
"""How a column or a series reads an agent's stats: an attribute name, or a function of them."""


def read(stats: Any, get: Getter) -> Any:
    """The value ``get`` reads from ``stats``."""
    return getattr(stats, get) if isinstance(get, str) else get(stats)


def ratio(num: str, den: str) -> Callable[[Any], float]:
    """A getter of the ``rate`` of two attributes (NaN when the second is 0)."""
    return lambda stats: rate(getattr(stats, num), getattr(stats, den))


def _as_is(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Column:
    """One column of a per-agent table: its header, what it reads (``Getter``) and how it prints
    the value (default: as it is; ``pct``, ``ci``, ``money``, ...)."""

    header: str
    get: Getter
    fmt: Callable[[Any], Any] = _as_is

    def cell(self, stats: Any) -> Any:
        return self.fmt(read(stats, self.get))


def rate_columns(header: str, num: str, den: str) -> tuple[Column, Column]:
    """A rate of two counts in percent, then its 95% Wilson interval."""
    return Column(header, ratio(num, den), pct), Column("95% CI", ratio(num, den), ci)


@dataclass(frozen=True)
class Table:
    """A caption and a table with one row an agent: its name (under ``first``), then ``columns``:
    a sequence, or a function of the analysis for columns known only from the data (such as one
    column an agent met)."""

    caption: str
    columns: Sequence[Column] | Callable[[Any], Sequence[Column]]
    first: str = "agent"

    def text(self, analysis: Any, agents: Sequence[Any]) -> str:
        columns = self.columns(analysis) if callable(self.columns) else self.columns
        rows = [[s.name] + [c.cell(s) for c in columns] for s in agents]
        return format_table([self.first] + [c.header for c in columns], rows)


def render(tables: Sequence[Table], analysis: Any, agents: Sequence[Any]) -> list[str]:
    """Each table's caption, then the table, as the blocks of a report."""
    parts: list[str] = []
    for table in tables:
        parts += [table.caption, table.text(analysis, agents)]
    return parts


@dataclass(frozen=True)
class Panel:
    """One bar chart of a plot: a title, its series (label, ``Getter``) and the unit of its axis
    (``"share"``: [0, 1] with Wilson error bars; see ``plot_panels``)."""

    title: str
    series: Sequence[tuple[str, Getter]]
    unit: str

    def data(self, agents: Sequence[Any]) -> tuple[str, list[tuple[str, list[Any]]], str]:
        """The panel as ``plot_panels`` takes it: values per agent for each series."""
        return self.title, [(label, [read(s, get) for s in agents]) for label, get in self.series], self.unit


class PerAgentAnalysis:
    """One ``stats_class(name)`` per agent, created on first sight, kept in the order given (then
    the order met); the report is ``tables``, the figure ``panels`` (titled ``plot_title``), the CSV
    file the stats' ``row()``. Subclasses define ``add_game`` and may add ``warnings()``."""

    title = "analysis"  # names the files: <stem>_<title>.csv and .png
    plot_title = ""
    stats_class: type = None  # type: ignore[assignment]
    tables: Sequence[Table] = ()
    panels: Sequence[Panel] = ()

    def __init__(self, names: Sequence[str]):
        self.names = list(names)
        self.stats = {n: self.stats_class(n) for n in self.names}
        self.games = 0

    def _stat(self, name: str) -> Any:
        if name not in self.stats:
            self.names.append(name)
            self.stats[name] = self.stats_class(name)
        return self.stats[name]

    def ordered(self) -> list[Any]:
        return [self.stats[n] for n in self.names]

    def warnings(self) -> list[str]:
        """Lines printed after the tables (e.g. the engine disagreeing with the analysis)."""
        return []

    def text(self) -> str:
        """The tables, then the warnings, then a warning when fewer than ``MIN_DEALS`` games back
        the intervals."""
        few = few_deals_warning(self.games, "games") if self.games else ""
        return "\n\n".join(render(self.tables, self, self.ordered()) + self.warnings() + ([few] if few else []))

    def write_csv(self, path: str | os.PathLike[str]) -> None:
        write_rows(path, [s.row() for s in self.ordered()])

    def plot(self, path: str | os.PathLike[str], title: str = "") -> None:
        agents = self.ordered()
        names, panels = [s.name for s in agents], [p.data(agents) for p in self.panels]
        plot_panels(path, title or self.plot_title, names, panels, games=self.games)


class ObservingAnalysis(PerAgentAnalysis, BaseObserver):
    """A ``PerAgentAnalysis`` that watches every stored game replayed through the driver (its
    ``on_start`` / ``on_action`` hooks), reading ``self._seating`` to name the seat that acted."""

    def __init__(self, names: Sequence[str]):
        super().__init__(names)
        self._seating: Sequence[str] = ()

    def add_game(self, spec: GameSpec, seed: int, actions: Sequence[int], seating: Sequence[str]) -> None:
        self.games += 1
        self._seating = seating
        for name in seating:
            self._stat(name)
        # A stored game may stop before the end (a cap): the replay stops with its actions.
        replay_record(spec, seed, actions, [self])
