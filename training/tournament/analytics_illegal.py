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

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from smuggle_envs import make_game
from smuggle_envs.core.driver import BaseObserver, Driver, replay_policy
from smuggle_envs.core.game import State
from smuggle_envs.games.illegal import IllegalState
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import EXTRA, PASS, PLAY, REACT, TARGET, TRADE_ANSWER, TRADE_GIVE
from training.match import format_table

from .analytics_common import PerAgentAnalysis, _ci, _money, _pct, _rate, plot_panels

# What a Magnum was used against: the two takeover cards, then the hassles in hassle-index order.
MAGNUM_AGAINST = ("Hostile Takeover", "Relatives", "Raid", "Protection Money", "Tax Inspection", "Vacation in Sweden")
_AGAINST_CARD = {A.TAKEOVER: MAGNUM_AGAINST[0], A.RELATIVES: MAGNUM_AGAINST[1]}


@dataclass
class IllegalAgentStats:
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
            "trade_acceptance_rate": _rate(self.accepted, self.proposed),
            "trades_asked": self.asked,
            "trades_able": self.able,
            "trades_agreed": self.agreed,
            "trades_declined_while_able": self.declined_able,
            "trade_accept_rate": _rate(self.agreed, self.able),
            "magnum_windows": self.windows,
            "magnum_windows_holding": self.windows_holding,
            "magnum_reactions": self.reactions,
            "magnum_reaction_rate": _rate(self.reactions, self.windows_holding),
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


class IllegalAnalysis(PerAgentAnalysis, BaseObserver):
    """Trades, Magnum reactions and face-down passes of Illegal games; see the module docstring.

    Each stored game is replayed by a core :class:`Driver` with the analysis as its observer:
    ``on_action`` sees the position before every decision."""

    title = "hidden_information"
    stats_class = IllegalAgentStats

    def __init__(self, names: Sequence[str]):
        super().__init__(names)
        self._seating: Sequence[str] = ()
        self._pending: tuple[IllegalAgentStats, int] | None = None  # a Magnum on a hassle, target to come

    def add_game(self, env_id: str, config: dict, seed: int, actions: Sequence[int], seating: Sequence[str]) -> None:
        game = make_game(env_id, **config)
        self.games += 1
        self._seating = seating
        for name in seating:
            self._stat(name)
        # A stored game may stop before the end (a cap): the replay stops with its actions.
        driver = Driver(game, max_decisions=len(actions) or None, observers=[self])
        driver.reset(seed)
        if actions:
            driver.play(replay_policy(actions))

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

    # ----- output --------------------------------------------------------------------------
    def text(self) -> str:
        agents = self.ordered()
        parts = [
            "trades (with the active player): proposed = offers put to a partner; as partner, "
            "able = it held the cards asked for"
        ]
        rows = [
            [
                s.name,
                s.trade_turns,
                s.offers,
                s.proposed,
                s.accepted,
                _pct(_rate(s.accepted, s.proposed)),
                _ci(s.accepted, s.proposed),
                s.asked,
                s.able,
                s.agreed,
                s.declined_able,
                _pct(_rate(s.agreed, s.able)),
            ]
            for s in agents
        ]
        parts.append(
            format_table(
                [
                    "agent",
                    "turns",
                    "offers",
                    "proposed",
                    "accepted",
                    "acceptance",
                    "95% CI",
                    "asked",
                    "able",
                    "agreed",
                    "declined while able",
                    "accept rate",
                ],
                rows,
            )
        )
        parts.append(
            "Magnum reactions: windows = times asked (everyone who might hold it is asked); "
            "holding = asked while holding it;\nreactions = takeovers stopped + hassles "
            "removed in a window; saved = Euros of the businesses a stop kept"
        )
        rows = [
            [
                s.name,
                s.windows,
                s.windows_holding,
                s.reactions,
                _pct(_rate(s.reactions, s.windows_holding)),
                s.let_pass_holding,
                s.stops,
                s.stops_own,
                _money(s.saved_value),
                s.removals_window,
                s.removals_turn,
                s.removals_own,
                s.takeovers_stopped,
            ]
            for s in agents
        ]
        parts.append(
            format_table(
                [
                    "agent",
                    "windows",
                    "holding",
                    "reactions",
                    "reaction rate",
                    "let pass holding",
                    "stops",
                    "own table",
                    "saved",
                    "removals in window",
                    "on own turn",
                    "own hassle",
                    "its takeovers stopped",
                ],
                rows,
            )
        )
        rows = [[s.name] + [s.against.get(w, 0) for w in MAGNUM_AGAINST] for s in agents]
        parts.append("Magnum played against")
        parts.append(format_table(["agent"] + list(MAGNUM_AGAINST), rows))
        parts.append(
            "passing left after a Paranoia card (face down): Paranoia cards passed on with "
            "their penalties, businesses given away"
        )
        rows = [
            [
                s.name,
                s.passes,
                s.paranoia_passed,
                _pct(_rate(s.paranoia_passed, s.passes)),
                _money(s.paranoia_value),
                s.business_passed,
                _money(s.business_value),
                s.magnum_passed,
            ]
            for s in agents
        ]
        parts.append(
            format_table(
                [
                    "agent",
                    "passes",
                    "Paranoia passed",
                    "share",
                    "penalties passed",
                    "businesses passed",
                    "business Euros",
                    "Magnum passed",
                ],
                rows,
            )
        )
        return "\n\n".join(parts)

    def plot(self, path: str | os.PathLike, title: str = "") -> None:
        agents = self.ordered()
        plot_panels(
            path,
            title or "Illegal hidden information",
            [s.name for s in agents],
            [
                (
                    "trades",
                    [
                        ("acceptance (proposer)", [_rate(s.accepted, s.proposed) for s in agents]),
                        ("accept rate (partner, able)", [_rate(s.agreed, s.able) for s in agents]),
                    ],
                    "share",
                ),
                (
                    "Magnum: reactions when asked holding it",
                    [("reaction rate", [_rate(s.reactions, s.windows_holding) for s in agents])],
                    "share",
                ),
                (
                    "Magnum played against",
                    [(what, [s.against.get(what, 0) for s in agents]) for what in MAGNUM_AGAINST],
                    "count",
                ),
                (
                    "passing left: Paranoia cards passed / passes",
                    [("Paranoia passed / passes", [_rate(s.paranoia_passed, s.passes) for s in agents])],
                    "share",
                ),
            ],
        )
