"""Bluffing analytics computed from stored replays.

Each stored game is replayed from (env id, config, seed, actions) through the core ``Driver``
(``analytics_common.replay_record``), the analyser watching as an observer, and every decision is
classified from the state's public fields just before and after it. Games register
an analyser in ``ANALYZERS`` (env id -> class); a game without one gets ``GenericAnalysis``,
which says so and counts decisions per agent. Smuggle's analyser is below; CIQ's, Illegal's,
Humble smuggle's and Import / Export's are in ``analytics_ciq.py``, ``analytics_illegal.py``,
``analytics_humble.py`` and ``analytics_import_export.py`` (their definitions in their
docstrings), sharing the helpers of ``analytics_common.py``.

Smuggle (``SmuggleAnalysis``), per agent:

As **holder** (declaring the live hand of four cards):
  * *lie*: a declaration that is not the complete truth (rule R2.2: the declared dutiable items
    must match the hand's exactly, so over-declaring is a lie too), or a Diplomatic Bag claim
    without the Bag;
  * *undeclared value*: the duty of the dutiable cards held beyond those declared
    (``sum_k max(0, held_k - declared_k) * duty_k``; a Bag claim declares nothing);
  * *caught*: a lie searched by the Officer or by the next player as Informer (the engine's
    reveal says "lying"), and by whom (agent, and whether as Officer or Informer);
  * *profit from lying*, per lie: **duty saved** when the Officer lets it pass (the duty of every
    dutiable card held minus the duty actually paid, which is what declaring the complete truth
    and being let pass would have cost more) **minus fines paid** when it is caught (the money
    the liar paid on the exposure: fines on every dutiable card, plus the false-Bag fine). A lie
    let pass and then exposed by the Informer counts both. It is the lie's money against the
    honest hand let pass; it leaves out the defamation money an honest hand would have earned
    if searched.
As **Officer**: declarations judged, searches, search rate (searches / judged), precision
(searches that caught a liar / searches), lies faced and caught (recall).
As **next player**: hands passed to it, Informer rate (informs / hands), precision (informs that
caught a liar / informs), lies faced and caught.
**Diplomatic Bag** claims: true and false, how many of each were searched, false ones caught.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from smuggle_envs.core.driver import BaseObserver, Driver
from smuggle_envs.core.game import State
from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.rules import SmuggleState
from smuggle_envs.games.smuggle.vocab import DECLARE, LYING, OFFICER, RECEIVE
from training.match import format_table

from .analytics_ciq import CIQAnalysis
from .analytics_common import _canvas, _ci, _money, _pct, _rate, plot_panels, replay_record, write_rows
from .analytics_humble import HumbleSmuggleAnalysis
from .analytics_illegal import IllegalAnalysis
from .analytics_import_export import ImportExportAnalysis


# ----- Smuggle -----------------------------------------------------------------------------------
@dataclass
class SmuggleAgentStats:
    name: str
    # as holder
    declarations: int = 0
    lies: int = 0
    undeclared_value: float = 0.0  # summed over lies
    lies_let_pass: int = 0  # lies the Officer let pass
    caught: int = 0
    caught_by_officer: int = 0
    caught_by_informer: int = 0
    duty_saved: float = 0.0  # over lies let pass
    fines_paid: float = 0.0  # over lies caught
    truthful_searched: int = 0  # honest hands searched (by Officer or Informer)
    # Diplomatic Bag claims
    bag_true: int = 0
    bag_false: int = 0
    bag_true_searched: int = 0
    bag_false_searched: int = 0
    bag_false_caught: int = 0
    # as Officer
    judged: int = 0
    searches: int = 0
    search_hits: int = 0
    lies_faced_officer: int = 0
    # as next player
    receives: int = 0
    informs: int = 0
    inform_hits: int = 0
    lies_faced_receiver: int = 0
    caught_by: dict[str, int] = field(default_factory=dict)  # catcher agent -> lies caught

    @property
    def profit(self) -> float:
        return self.duty_saved - self.fines_paid

    def row(self) -> dict[str, str | float]:
        return {
            "agent": self.name,
            "declarations": self.declarations,
            "lies": self.lies,
            "lie_rate": _rate(self.lies, self.declarations),
            "undeclared_value": self.undeclared_value,
            "undeclared_per_lie": _rate(self.undeclared_value, self.lies),
            "lies_let_pass": self.lies_let_pass,
            "caught": self.caught,
            "caught_rate": _rate(self.caught, self.lies),
            "caught_by_officer": self.caught_by_officer,
            "caught_by_informer": self.caught_by_informer,
            "duty_saved": self.duty_saved,
            "fines_paid": self.fines_paid,
            "profit": self.profit,
            "profit_per_lie": _rate(self.profit, self.lies),
            "truthful_searched": self.truthful_searched,
            "bag_true": self.bag_true,
            "bag_false": self.bag_false,
            "bag_true_searched": self.bag_true_searched,
            "bag_false_searched": self.bag_false_searched,
            "bag_false_caught": self.bag_false_caught,
            "officer_judged": self.judged,
            "officer_searches": self.searches,
            "officer_search_rate": _rate(self.searches, self.judged),
            "officer_hits": self.search_hits,
            "officer_precision": _rate(self.search_hits, self.searches),
            "officer_lies_faced": self.lies_faced_officer,
            "officer_recall": _rate(self.search_hits, self.lies_faced_officer),
            "receiver_hands": self.receives,
            "informs": self.informs,
            "inform_rate": _rate(self.informs, self.receives),
            "inform_hits": self.inform_hits,
            "inform_precision": _rate(self.inform_hits, self.informs),
            "receiver_lies_faced": self.lies_faced_receiver,
            "receiver_recall": _rate(self.inform_hits, self.lies_faced_receiver),
        }


@dataclass
class _Live:
    """The declaration on the live hand, followed until it is resolved."""

    holder: str
    lie: bool
    bag_claim: bool
    true_duty: int


class SmuggleAnalysis:
    """Bluffing statistics of Smuggle games; see the module docstring for the definitions."""

    title = "bluffing"

    def __init__(self, names: Sequence[str]):
        self.names = list(names)
        self.stats = {n: SmuggleAgentStats(n) for n in self.names}
        self.games = 0
        self.mismatches = 0  # engine verdicts that disagree with our classification

    def _stat(self, name: str) -> SmuggleAgentStats:
        if name not in self.stats:
            self.names.append(name)
            self.stats[name] = SmuggleAgentStats(name)
        return self.stats[name]

    def add_game(self, env_id: str, config: dict, seed: int, actions: Sequence[int], seating: Sequence[str]) -> None:
        self.games += 1
        replay_record(env_id, config, seed, actions, [_SmuggleReplay(self, seating)])

    # ----- output --------------------------------------------------------------------------
    def ordered(self) -> list[SmuggleAgentStats]:
        return [self.stats[n] for n in self.names]

    def text(self) -> str:
        agents = self.ordered()
        parts = []
        rows = [
            [
                s.name,
                s.declarations,
                s.lies,
                _pct(_rate(s.lies, s.declarations)),
                _ci(s.lies, s.declarations),
                _money(_rate(s.undeclared_value, s.lies)),
                s.caught,
                _pct(_rate(s.caught, s.lies)),
                s.caught_by_officer,
                s.caught_by_informer,
                _money(s.duty_saved),
                _money(s.fines_paid),
                _money(s.profit),
                _money(_rate(s.profit, s.lies)),
            ]
            for s in agents
        ]
        parts.append(
            "declarations (as holder): a lie is any declaration that is not the complete "
            "truth, or a false Bag claim;\nprofit = duty saved on lies let pass - fines "
            "paid on lies caught"
        )
        parts.append(
            format_table(
                [
                    "agent",
                    "declared",
                    "lies",
                    "lie rate",
                    "95% CI",
                    "undeclared/lie",
                    "caught",
                    "caught rate",
                    "by Officer",
                    "by Informer",
                    "duty saved",
                    "fines paid",
                    "profit",
                    "profit/lie",
                ],
                rows,
            )
        )
        rows = [
            [
                s.name,
                s.judged,
                s.searches,
                _pct(_rate(s.searches, s.judged)),
                _ci(s.searches, s.judged),
                s.search_hits,
                _pct(_rate(s.search_hits, s.searches)),
                _ci(s.search_hits, s.searches),
                s.lies_faced_officer,
                _pct(_rate(s.search_hits, s.lies_faced_officer)),
            ]
            for s in agents
        ]
        parts.append(
            "as Customs Officer: precision = searches that caught a liar / searches; recall = lies caught / lies faced"
        )
        parts.append(
            format_table(
                [
                    "agent",
                    "judged",
                    "searches",
                    "search rate",
                    "95% CI",
                    "hits",
                    "precision",
                    "95% CI",
                    "lies faced",
                    "recall",
                ],
                rows,
            )
        )
        rows = [
            [
                s.name,
                s.receives,
                s.informs,
                _pct(_rate(s.informs, s.receives)),
                _ci(s.informs, s.receives),
                s.inform_hits,
                _pct(_rate(s.inform_hits, s.informs)),
                _ci(s.inform_hits, s.informs),
                s.lies_faced_receiver,
                _pct(_rate(s.inform_hits, s.lies_faced_receiver)),
            ]
            for s in agents
        ]
        parts.append("as next player (hands passed to it): Informer rate and precision")
        parts.append(
            format_table(
                [
                    "agent",
                    "hands",
                    "informs",
                    "inform rate",
                    "95% CI",
                    "hits",
                    "precision",
                    "95% CI",
                    "lies faced",
                    "recall",
                ],
                rows,
            )
        )
        rows = [
            [
                s.name,
                s.bag_true + s.bag_false,
                s.bag_true,
                s.bag_true_searched,
                s.bag_false,
                s.bag_false_searched,
                s.bag_false_caught,
            ]
            for s in agents
        ]
        parts.append("Diplomatic Bag claims")
        parts.append(
            format_table(["agent", "claims", "true", "true searched", "false", "false searched", "false caught"], rows)
        )
        catchers = self.names
        rows = [[s.name] + [s.caught_by.get(c, 0) for c in catchers] for s in agents]
        parts.append("lies caught: liar (row) by catcher (column), as Officer or Informer")
        parts.append(format_table(["liar \\ caught by"] + catchers, rows))
        if self.mismatches:
            parts.append(
                f"warning: {self.mismatches} search verdicts of the engine disagreed with "
                "the declaration's classification"
            )
        return "\n\n".join(parts)

    def write_csv(self, path: str | os.PathLike) -> None:
        write_rows(path, [s.row() for s in self.ordered()])

    def plot(self, path: str | os.PathLike, title: str = "") -> None:
        agents = self.ordered()
        plot_panels(
            path,
            title or "Smuggle bluffing",
            [s.name for s in agents],
            [
                (
                    "as holder",
                    [
                        ("lie rate", [_rate(s.lies, s.declarations) for s in agents]),
                        ("lies caught", [_rate(s.caught, s.lies) for s in agents]),
                    ],
                    "share",
                ),
                ("profit from lying per lie", [("profit/lie", [_rate(s.profit, s.lies) for s in agents])], "money"),
                (
                    "as Customs Officer",
                    [
                        ("search rate", [_rate(s.searches, s.judged) for s in agents]),
                        ("precision", [_rate(s.search_hits, s.searches) for s in agents]),
                    ],
                    "share",
                ),
                (
                    "as next player",
                    [
                        ("Informer rate", [_rate(s.informs, s.receives) for s in agents]),
                        ("precision", [_rate(s.inform_hits, s.informs) for s in agents]),
                    ],
                    "share",
                ),
            ],
        )


class _SmuggleReplay(BaseObserver):
    """Follows one replayed Smuggle game for a ``SmuggleAnalysis``: ``on_action`` sees each
    position before its decision; a judgement (search, let pass, accept, inform) is settled at
    the next decision, or at the end, from the position it led to (money paid, the reveal)."""

    def __init__(self, analysis: SmuggleAnalysis, seating: Sequence[str]):
        self.analysis = analysis
        self.seating = seating
        self.live: _Live | None = None
        # (phase, holder, judge seat, the holder's money before, searched) of the last judgement
        self.judging: tuple[int, int, int, int, bool] | None = None

    def on_action(self, state: State[Any], player: int, action: int) -> None:
        s = cast(SmuggleState, state)
        self._settle(s)
        phase = s.phase
        if phase == DECLARE:
            self.live = self._declaration(s, action)
        elif phase in (OFFICER, RECEIVE):
            holder = s.holder
            judge = s.officer if phase == OFFICER else s.receiver
            searched = action == (A.SEARCH if phase == OFFICER else A.INFORM)
            self.judging = (phase, holder, judge, s.money[holder], searched)

    def on_end(self, state: State[Any], driver: Driver) -> None:
        self._settle(cast(SmuggleState, state))

    def _declaration(self, state: SmuggleState, action: int) -> _Live:
        duties = state.game.data.duties
        hand = state.hand.tolist()
        bag_claim = action == A.CLAIM_BAG
        declared = (0,) * A.NUM_ITEMS if bag_claim else A.DECLARATIONS[action]
        true_duty = sum(hand[k] * duties[k] for k in range(A.NUM_ITEMS))
        lie = hand[A.BAG] == 0 if bag_claim else tuple(hand[: A.NUM_ITEMS]) != tuple(declared)
        st = self.analysis._stat(self.seating[state.holder])
        st.declarations += 1
        if lie:
            st.lies += 1
            st.undeclared_value += sum(max(0, hand[k] - declared[k]) * duties[k] for k in range(A.NUM_ITEMS))
        if bag_claim:
            if lie:
                st.bag_false += 1
            else:
                st.bag_true += 1
        return _Live(self.seating[state.holder], lie, bag_claim, true_duty)

    def _settle(self, state: SmuggleState) -> None:
        """Account for the last judgement, now that ``state`` is the position it led to."""
        if self.judging is None:
            return
        phase, holder, judge_seat, before, searched = self.judging
        self.judging = None
        live = self.live
        assert live is not None, "a judgement always follows a declaration"
        stat = self.analysis._stat
        judge, liar = stat(self.seating[judge_seat]), stat(live.holder)
        paid = before - state.money[holder]
        if phase == OFFICER:
            judge.judged += 1
            judge.lies_faced_officer += live.lie
        else:
            judge.receives += 1
            judge.lies_faced_receiver += live.lie
        if searched:
            reveal = state.last_reveal
            caught = reveal is not None and reveal.outcome == LYING
            if caught != live.lie:
                self.analysis.mismatches += 1
            if phase == OFFICER:
                judge.searches += 1
                judge.search_hits += caught
            else:
                judge.informs += 1
                judge.inform_hits += caught
            if live.bag_claim:
                if live.lie:
                    liar.bag_false_searched += 1
                else:
                    liar.bag_true_searched += 1
            if caught:
                liar.caught += 1
                liar.fines_paid += paid
                liar.caught_by[judge.name] = liar.caught_by.get(judge.name, 0) + 1
                if phase == OFFICER:
                    liar.caught_by_officer += 1
                else:
                    liar.caught_by_informer += 1
                if live.bag_claim:
                    liar.bag_false_caught += 1
            elif not live.lie:
                liar.truthful_searched += 1
        elif phase == OFFICER and live.lie:
            liar.lies_let_pass += 1
            liar.duty_saved += live.true_duty - paid


# ----- fallback ----------------------------------------------------------------------------------
class GenericAnalysis:
    """For a game without a bluffing analyser yet: says so, and counts each agent's decisions."""

    title = "decisions"

    def __init__(self, names: Sequence[str], env_id: str = ""):
        self.env_id = env_id
        self.names = list(names)
        self.games = 0
        self.decisions = {n: 0 for n in self.names}
        self.seat_games = {n: 0 for n in self.names}

    def add_game(self, env_id: str, config: dict, seed: int, actions: Sequence[int], seating: Sequence[str]) -> None:
        from smuggle_envs import make_game

        self.games += 1
        state = make_game(env_id, **config).new_initial_state(seed)
        for name in seating:
            self.decisions.setdefault(name, 0)
            self.seat_games[name] = self.seat_games.get(name, 0) + 1
        for action in actions:
            self.decisions[seating[state.current_player()]] += 1
            state.apply_action(action)

    def text(self) -> str:
        rows = [
            [
                n,
                self.seat_games.get(n, 0),
                self.decisions[n],
                _money(_rate(self.decisions[n], self.seat_games.get(n, 0))),
            ]
            for n in self.decisions
        ]
        return f"no hidden-information analysis exists for {self.env_id} yet; decisions per agent:\n\n" + format_table(
            ["agent", "games", "decisions", "per game"], rows
        )

    def write_csv(self, path: str | os.PathLike) -> None:
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["agent", "games", "decisions"])
            for n in self.decisions:
                w.writerow([n, self.seat_games.get(n, 0), self.decisions[n]])

    def plot(self, path: str | os.PathLike, title: str = "") -> None:
        fig = _canvas(6, 4)
        ax = fig.add_subplot(1, 1, 1)
        names = list(self.decisions)
        ax.bar(range(len(names)), [_rate(self.decisions[n], self.seat_games.get(n, 0)) or 0 for n in names])
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=30, ha="right")
        ax.set_ylabel("decisions per game")
        ax.set_title(title or f"{self.env_id}: decisions")
        fig.tight_layout()
        fig.savefig(path)


ANALYZERS = {
    "smuggle_v0": SmuggleAnalysis,
    "ciq_v0": CIQAnalysis,
    "illegal_v0": IllegalAnalysis,
    "humble_smuggle_v0": HumbleSmuggleAnalysis,
    "import_export_v0": ImportExportAnalysis,
}
"""env id -> analyser class: ``cls(agent_names)`` with ``add_game(env_id, config, seed, actions,
seating)``, ``text()``, ``write_csv(path)`` and ``plot(path, title)``."""


def analyzer_for(env_id: str, names: Sequence[str]):
    cls = ANALYZERS.get(env_id)
    return cls(names) if cls is not None else GenericAnalysis(names, env_id)


def analyze_games(env_id: str, names: Sequence[str], games: Iterable):
    """Run the env's analyser over ``games`` (``GameRecord``s: env_id, config, seed, actions,
    seating)."""
    analysis = analyzer_for(env_id, names)
    for g in games:
        analysis.add_game(g.env_id, g.config, g.seed, g.actions, g.seating)
    return analysis


def analyze_tournament(db, tournament):
    return analyze_games(tournament.env_id, tournament.names, db.games(tournament.id))


def analysis_paths(out_dir: str | os.PathLike, stem: str, analysis) -> dict[str, Path]:
    """``<stem>_<title>.csv`` and ``.png`` in ``out_dir`` (title: e.g. "bluffing")."""
    stem = f"{stem}_{analysis.title}"
    return {"csv": Path(out_dir) / f"{stem}.csv", "png": Path(out_dir) / f"{stem}.png"}
