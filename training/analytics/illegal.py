"""Hidden-information analytics of Illegal (``illegal_v0``), computed from stored replays.

What Illegal hides is the hands (closed unless under Tax Inspection). Three kinds of decision
depend on them, and the replay, which sees every hand, classifies each exactly; per agent:

**Trades** (config ``trading``; the rulebook's trade with the active player):
  * as active player: *turns* it could offer a trade, *offers* (turns it offered cards),
    *proposed* (offers put to a partner: some seat held enough cards to be asked), *accepted*;
    acceptance rate = accepted / proposed;
  * as partner: *asked*, *able* (it held every card asked for: only then may it accept, and
    nobody else can tell), *accepted*, *declined while able*; accept rate = accepted / able.
**Magnum** (the one Magnum card: "stop a Hostile Takeover or a theft via Relatives, or remove
any one Hassle card"). After every takeover with a target and every hassle that stays, the
engine asks every seat that might hold the Magnum, so a pass tells nothing:
  * *windows* it was asked in, *holding*: those in which it held the Magnum; *reactions*: stops
    and removals in a window; reaction rate = reactions / holding; *let pass while holding*;
  * *stops* of a takeover, of which *on its own table*, and the Euros of the businesses saved;
  * *hassle removals* in a window (off turn) and on its own turn, of which *its own hassle*;
  * *against*: what each Magnum played was used on (Hostile Takeover, Relatives, or the hassle
    removed: Raid, Protection Money, Tax Inspection, Vacation in Sweden);
  * as taker: its takeovers stopped by a Magnum.
**Passing left** after a Paranoia card (face down: only the passer and the receiver know the
card): *passes*, *Paranoia passed* (and the Euros of the penalties passed on: each costs its
holder at the accounting), *businesses passed* (and their Euros), *Magnum passed*.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from smuggle_envs.core.game import State
from smuggle_envs.games.illegal import IllegalState
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import EXTRA, PASS, PLAY, REACT, TARGET, TRADE_ANSWER, TRADE_GIVE

from ._common import money, pct, rate
from ._report import Column, ObservingAnalysis, Panel, Table, rate_columns, ratio

ENV_ID = "illegal_v0"
"""The game analysed: ``training.analytics.ANALYZERS`` files ``ANALYSIS`` under it."""

# What a Magnum was used against: the two takeover cards, then the hassles in hassle-index order.
MAGNUM_AGAINST = ("Hostile Takeover", "Relatives", "Raid", "Protection Money", "Tax Inspection", "Vacation in Sweden")
_AGAINST_CARD = {A.TAKEOVER: MAGNUM_AGAINST[0], A.RELATIVES: MAGNUM_AGAINST[1]}


@dataclass
class IllegalAgentStats:
    """One agent's counts in Illegal games: trades, Magnum windows, passes left (module docstring)."""

    name: str
    # trading, as active player
    trade_turns: int = 0
    offers: int = 0
    proposed: int = 0
    accepted: int = 0
    # trading, as partner
    asked: int = 0
    able: int = 0
    agreed: int = 0
    declined_able: int = 0
    # Magnum
    windows: int = 0
    windows_holding: int = 0
    let_pass_holding: int = 0
    stops: int = 0
    stops_own: int = 0
    saved_value: int = 0
    removals_window: int = 0
    removals_turn: int = 0
    removals_own: int = 0
    against: dict[str, int] = field(default_factory=dict)
    takeovers_stopped: int = 0  # as taker
    # passing left after a Paranoia card
    passes: int = 0
    paranoia_passed: int = 0
    paranoia_value: int = 0
    business_passed: int = 0
    business_value: int = 0
    magnum_passed: int = 0

    @property
    def reactions(self) -> int:
        return self.stops + self.removals_window

    def row(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "agent": self.name,
            "trade_turns": self.trade_turns,
            "trade_offers": self.offers,
            "trades_proposed": self.proposed,
            "trades_accepted": self.accepted,
            "trade_acceptance_rate": rate(self.accepted, self.proposed),
            "trades_asked": self.asked,
            "trades_able": self.able,
            "trades_agreed": self.agreed,
            "trades_declined_while_able": self.declined_able,
            "trade_accept_rate": rate(self.agreed, self.able),
            "magnum_windows": self.windows,
            "magnum_windows_holding": self.windows_holding,
            "magnum_reactions": self.reactions,
            "magnum_reaction_rate": rate(self.reactions, self.windows_holding),
            "magnum_let_pass_holding": self.let_pass_holding,
            "magnum_stops": self.stops,
            "magnum_stops_own_table": self.stops_own,
            "magnum_saved_value": self.saved_value,
            "magnum_removals_window": self.removals_window,
            "magnum_removals_own_turn": self.removals_turn,
            "magnum_removals_own_hassle": self.removals_own,
        }
        for what in MAGNUM_AGAINST:
            row["magnum_vs_" + what.lower().replace(" ", "_")] = self.against.get(what, 0)
        row.update(
            {
                "takeovers_stopped_by_magnum": self.takeovers_stopped,
                "passes": self.passes,
                "paranoia_passed": self.paranoia_passed,
                "paranoia_value_passed": self.paranoia_value,
                "businesses_passed": self.business_passed,
                "business_value_passed": self.business_value,
                "magnum_passed": self.magnum_passed,
            }
        )
        return row


def _against(what: str) -> Any:
    """A getter of how often an agent's Magnum was played against ``what``."""
    return lambda s: s.against.get(what, 0)


TABLES = (
    Table(
        "trades (with the active player): proposed = offers put to a partner; as partner, able = it held the "
        "cards asked for",
        (
            Column("turns", "trade_turns"),
            Column("offers", "offers"),
            Column("proposed", "proposed"),
            Column("accepted", "accepted"),
            *rate_columns("acceptance", "accepted", "proposed"),
            Column("asked", "asked"),
            Column("able", "able"),
            Column("agreed", "agreed"),
            Column("declined while able", "declined_able"),
            Column("accept rate", ratio("agreed", "able"), pct),
        ),
    ),
    Table(
        "Magnum reactions: windows = times asked (everyone who might hold it is asked); holding = asked while "
        "holding it;\nreactions = takeovers stopped + hassles removed in a window; saved = Euros of the "
        "businesses a stop kept",
        (
            Column("windows", "windows"),
            Column("holding", "windows_holding"),
            Column("reactions", "reactions"),
            Column("reaction rate", ratio("reactions", "windows_holding"), pct),
            Column("let pass holding", "let_pass_holding"),
            Column("stops", "stops"),
            Column("own table", "stops_own"),
            Column("saved", "saved_value", money),
            Column("removals in window", "removals_window"),
            Column("on own turn", "removals_turn"),
            Column("own hassle", "removals_own"),
            Column("its takeovers stopped", "takeovers_stopped"),
        ),
    ),
    Table("Magnum played against", tuple(Column(what, _against(what)) for what in MAGNUM_AGAINST)),
    Table(
        "passing left after a Paranoia card (face down): Paranoia cards passed on with their penalties, "
        "businesses given away",
        (
            Column("passes", "passes"),
            Column("Paranoia passed", "paranoia_passed"),
            Column("share", ratio("paranoia_passed", "passes"), pct),
            Column("penalties passed", "paranoia_value", money),
            Column("businesses passed", "business_passed"),
            Column("business Euros", "business_value", money),
            Column("Magnum passed", "magnum_passed"),
        ),
    ),
)

PANELS = (
    Panel(
        "trades",
        (
            ("acceptance (proposer)", ratio("accepted", "proposed")),
            ("accept rate (partner, able)", ratio("agreed", "able")),
        ),
        "share",
    ),
    Panel(
        "Magnum: reactions when asked holding it", (("reaction rate", ratio("reactions", "windows_holding")),), "share"
    ),
    Panel("Magnum played against", tuple((what, _against(what)) for what in MAGNUM_AGAINST), "count"),
    Panel(
        "passing left: Paranoia cards passed / passes",
        (("Paranoia passed / passes", ratio("paranoia_passed", "passes")),),
        "share",
    ),
)


class IllegalAnalysis(ObservingAnalysis):
    """Trades, Magnum reactions and face-down passes of Illegal games; see the module docstring.

    Each stored game is replayed by a core :class:`Driver` with the analysis as its observer:
    ``on_action`` sees the position before every decision."""

    title = "hidden_information"
    plot_title = "Illegal hidden information"
    stats_class = IllegalAgentStats
    tables = TABLES
    panels = PANELS

    def __init__(self, names: Sequence[str]):
        super().__init__(names)
        self._pending: tuple[IllegalAgentStats, int] | None = None  # a Magnum on a hassle, target to come

    # ----- the observer ----------------------------------------------------------------------
    def on_start(self, state: State[Any]) -> None:
        self._pending = None

    def on_action(self, state: State[Any], player: int, action: int) -> None:
        assert isinstance(state, IllegalState)
        game = state.game
        phase = state.phase
        me = self._stat(self._seating[state.decider])
        if phase == TRADE_GIVE and state.n_give == 0:
            me.trade_turns += 1
            me.offers += action != A.NO_TRADE
        elif phase == TRADE_ANSWER:
            proposer = self._stat(self._seating[state.active])
            able = A.ACCEPT in state.legal_actions()
            proposer.proposed += 1
            proposer.accepted += action == A.ACCEPT
            me.asked += 1
            me.able += able
            me.agreed += action == A.ACCEPT
            me.declined_able += able and action == A.DECLINE
        elif phase == PASS:
            k = action - A.PASS_CARD
            me.passes += 1
            if k in A.PARANOIA_KINDS:
                me.paranoia_passed += 1
                me.paranoia_value += game.penalties[k]
            elif k in A.BUSINESS_KINDS:
                me.business_passed += 1
                me.business_value += game.values[k]
            elif k == A.MAGNUM:
                me.magnum_passed += 1
        elif phase == REACT:
            holding = state.hands[state.decider][A.MAGNUM] > 0
            me.windows += 1
            me.windows_holding += holding
            if action == A.LET_PASS:
                me.let_pass_holding += holding
            elif action == A.CANCEL:
                me.stops += 1
                me.stops_own += state.target == state.decider
                me.saved_value += game.biz_values[state.biz]
                what = _AGAINST_CARD[state.card]
                me.against[what] = me.against.get(what, 0) + 1
                self._stat(self._seating[state.active]).takeovers_stopped += 1
            else:  # the Magnum on a hassle, off turn
                me.removals_window += 1
                self._pending = self._magnum_on_hassle(state, me)
        elif phase in (PLAY, EXTRA) and action == A.PLAY + A.MAGNUM:
            me.removals_turn += 1
            self._pending = self._magnum_on_hassle(state, me)
        elif phase == TARGET and self._pending is not None and state.magnum_actor >= 0:
            self._removed(state, self._pending, (state.decider + action - A.TARGET) % state.n)
            self._pending = None

    def _magnum_on_hassle(self, state: IllegalState, me: IllegalAgentStats) -> tuple[IllegalAgentStats, int] | None:
        """The Magnum is played on a hassle: with one hassle on the tables, that is its target
        (chosen automatically); otherwise the next decision chooses it."""
        hassled = [q for q in range(state.n) if state.hassle[q] >= 0]
        pending = (me, state.decider)
        if len(hassled) == 1:
            self._removed(state, pending, hassled[0])
            return None
        return pending

    @staticmethod
    def _removed(state: IllegalState, pending: tuple[IllegalAgentStats, int], q: int) -> None:
        me, seat = pending
        what = MAGNUM_AGAINST[2 + state.hassle[q]]
        me.against[what] = me.against.get(what, 0) + 1
        me.removals_own += q == seat


ANALYSIS = IllegalAnalysis
"""The analyser of ``ENV_ID``'s games, built as ``ANALYSIS(agent_names)``."""
