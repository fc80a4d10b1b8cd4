"""Bluffing analytics of Smuggle (``smuggle_v0``), computed from stored replays.

Per agent (``SmuggleAnalysis``):

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from smuggle_envs.core.driver import BaseObserver, Driver
from smuggle_envs.core.game import State
from smuggle_envs.core.spec import GameSpec
from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.rules import SmuggleState
from smuggle_envs.games.smuggle.vocab import DECLARE, LYING, OFFICER, RECEIVE

from ._common import money, pct, rate, replay_record
from ._report import Column, Panel, PerAgentAnalysis, Table, rate_columns, ratio

ENV_ID = "smuggle_v0"
"""The game analysed: ``training.analytics.ANALYZERS`` files ``ANALYSIS`` under it."""


@dataclass
class SmuggleAgentStats:
    """One agent's counts in Smuggle games: as holder, as Officer, as next player (module docstring)."""

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
            "lie_rate": rate(self.lies, self.declarations),
            "undeclared_value": self.undeclared_value,
            "undeclared_per_lie": rate(self.undeclared_value, self.lies),
            "lies_let_pass": self.lies_let_pass,
            "caught": self.caught,
            "caught_rate": rate(self.caught, self.lies),
            "caught_by_officer": self.caught_by_officer,
            "caught_by_informer": self.caught_by_informer,
            "duty_saved": self.duty_saved,
            "fines_paid": self.fines_paid,
            "profit": self.profit,
            "profit_per_lie": rate(self.profit, self.lies),
            "truthful_searched": self.truthful_searched,
            "bag_true": self.bag_true,
            "bag_false": self.bag_false,
            "bag_true_searched": self.bag_true_searched,
            "bag_false_searched": self.bag_false_searched,
            "bag_false_caught": self.bag_false_caught,
            "officer_judged": self.judged,
            "officer_searches": self.searches,
            "officer_search_rate": rate(self.searches, self.judged),
            "officer_hits": self.search_hits,
            "officer_precision": rate(self.search_hits, self.searches),
            "officer_lies_faced": self.lies_faced_officer,
            "officer_recall": rate(self.search_hits, self.lies_faced_officer),
            "receiver_hands": self.receives,
            "informs": self.informs,
            "inform_rate": rate(self.informs, self.receives),
            "inform_hits": self.inform_hits,
            "inform_precision": rate(self.inform_hits, self.informs),
            "receiver_lies_faced": self.lies_faced_receiver,
            "receiver_recall": rate(self.inform_hits, self.lies_faced_receiver),
        }


@dataclass
class _Live:
    """The declaration on the live hand, followed until it is resolved."""

    holder: str
    lie: bool
    bag_claim: bool
    true_duty: int


def _caught_by(catcher: str) -> Callable[[SmuggleAgentStats], int]:
    """A getter of the lies of an agent that ``catcher`` caught."""
    return lambda s: s.caught_by.get(catcher, 0)


def _catchers(analysis: SmuggleAnalysis) -> list[Column]:
    """One column an agent met: the lies of the row's agent it caught."""
    return [Column(c, _caught_by(c)) for c in analysis.names]


TABLES = (
    Table(
        "declarations (as holder): a lie is any declaration that is not the complete truth, or a false Bag "
        "claim;\nprofit = duty saved on lies let pass - fines paid on lies caught",
        (
            Column("declared", "declarations"),
            Column("lies", "lies"),
            *rate_columns("lie rate", "lies", "declarations"),
            Column("undeclared/lie", ratio("undeclared_value", "lies"), money),
            Column("caught", "caught"),
            Column("caught rate", ratio("caught", "lies"), pct),
            Column("by Officer", "caught_by_officer"),
            Column("by Informer", "caught_by_informer"),
            Column("duty saved", "duty_saved", money),
            Column("fines paid", "fines_paid", money),
            Column("profit", "profit", money),
            Column("profit/lie", ratio("profit", "lies"), money),
        ),
    ),
    Table(
        "as Customs Officer: precision = searches that caught a liar / searches; recall = lies caught / lies faced",
        (
            Column("judged", "judged"),
            Column("searches", "searches"),
            *rate_columns("search rate", "searches", "judged"),
            Column("hits", "search_hits"),
            *rate_columns("precision", "search_hits", "searches"),
            Column("lies faced", "lies_faced_officer"),
            Column("recall", ratio("search_hits", "lies_faced_officer"), pct),
        ),
    ),
    Table(
        "as next player (hands passed to it): Informer rate and precision",
        (
            Column("hands", "receives"),
            Column("informs", "informs"),
            *rate_columns("inform rate", "informs", "receives"),
            Column("hits", "inform_hits"),
            *rate_columns("precision", "inform_hits", "informs"),
            Column("lies faced", "lies_faced_receiver"),
            Column("recall", ratio("inform_hits", "lies_faced_receiver"), pct),
        ),
    ),
    Table(
        "Diplomatic Bag claims",
        (
            Column("claims", lambda s: s.bag_true + s.bag_false),
            Column("true", "bag_true"),
            Column("true searched", "bag_true_searched"),
            Column("false", "bag_false"),
            Column("false searched", "bag_false_searched"),
            Column("false caught", "bag_false_caught"),
        ),
    ),
    Table("lies caught: liar (row) by catcher (column), as Officer or Informer", _catchers, first="liar \\ caught by"),
)

PANELS = (
    Panel(
        "as holder", (("lie rate", ratio("lies", "declarations")), ("lies caught", ratio("caught", "lies"))), "share"
    ),
    Panel("profit from lying per lie", (("profit/lie", ratio("profit", "lies")),), "money"),
    Panel(
        "as Customs Officer",
        (("search rate", ratio("searches", "judged")), ("precision", ratio("search_hits", "searches"))),
        "share",
    ),
    Panel(
        "as next player",
        (("Informer rate", ratio("informs", "receives")), ("precision", ratio("inform_hits", "informs"))),
        "share",
    ),
)


class SmuggleAnalysis(PerAgentAnalysis):
    """Bluffing statistics of Smuggle games; see the module docstring for the definitions."""

    title = "bluffing"
    plot_title = "Smuggle bluffing"
    stats_class = SmuggleAgentStats
    tables = TABLES
    panels = PANELS

    def __init__(self, names: Sequence[str]):
        super().__init__(names)
        self.mismatches = 0  # engine verdicts that disagree with our classification

    def add_game(self, spec: GameSpec, seed: int, actions: Sequence[int], seating: Sequence[str]) -> None:
        self.games += 1
        replay_record(spec, seed, actions, [_SmuggleReplay(self, seating)])

    def warnings(self) -> list[str]:
        if not self.mismatches:
            return []
        return [
            f"warning: {self.mismatches} search verdicts of the engine disagreed with the declaration's classification"
        ]


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


ANALYSIS = SmuggleAnalysis
"""The analyser of ``ENV_ID``'s games, built as ``ANALYSIS(agent_names)``."""
