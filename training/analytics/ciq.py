"""Smuggling analytics of CIQ (``ciq_v0``), computed from stored replays.

In CIQ every shipped card is face up: a Smuggle is public. What is hidden is the target's hand:
the shipper cannot see whether the target holds a face card (J, Q, K; the Ace too with
``ace_is_face``) with which to Fire its customs worker, and the engine asks the target every
time (KEEP is always legal), so nobody learns it from the decision either. The replay sees the
real hands, so per agent:

As **shipper** (a *shipment* is a turn in which it ships at least one card):
  * *chances*: shipments in which some Shipping decision offered an Illegal card to Smuggle
    (not bribed by a Joker: a bribed card is no Smuggle, R1.5);
  * *smuggles*: shipments ended by a Smuggled Illegal card; *smuggle rate* = smuggles / chances;
  * *into a face card*: smuggles whose target held a face card (could Fire);
  * *caught*: smuggles the target Fired against;
  * *cards worth*: what each smuggled card transfers if not Fired against (its own result, in
    cards; an Ace while the Stock lasts, a King with an empty Import pile, a Jack turning over a
    face card, or a Smuggle after the Stock ran out transfer 0); *stopped*: the worth of the
    smuggles caught; *through*: the worth of the others.
As **target** of a Smuggle (the Fire decision):
  * *faced*, and *able*: holding a face card; *Fire rate* = Fires / able;
  * *justified* Fire: one that stopped at least one card; *Fire precision* = justified / Fires;
    *worth firing*: smuggles faced while able whose worth was at least 1; *recall* = justified
    Fires / worth firing;
  * *cards stopped* by its Fires, *Tolerance cards lost* (a Fire sends the Tolerance pile to the
    bottom of the Export pile: cards to get rid of again), *net* = stopped - lost.

A smuggled card's worth is exact: the engine (``CIQState.smuggled_worth``) resolves the shipment
twice on copies of the state at the Fire decision (once with the Smuggled card's result, once
without; the cards before it transfer the same either way, in the same order, from the same
sources) and takes the difference. Transfers the shipper must pick from its hand are picked in
any order (the count is the same).

The replay is a core :class:`~smuggle_envs.core.driver.Driver` with the analysis as its observer;
it reads only public engine state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from smuggle_envs.core.driver import Driver
from smuggle_envs.core.game import State
from smuggle_envs.games.ciq import CIQState
from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.vocab import FIRE_DECISION, SHIPPING

from ._common import money, pct, rate
from ._report import Column, ObservingAnalysis, Panel, Table, rate_columns, ratio

ENV_ID = "ciq_v0"
"""The game analysed: ``training.analytics.ANALYZERS`` files ``ANALYSIS`` under it."""


@dataclass
class CIQAgentStats:
    """One agent's counts in CIQ games: as shipper and as target of a Smuggle (module docstring)."""

    name: str
    # as shipper
    shipments: int = 0
    chances: int = 0
    smuggles: int = 0
    into_face: int = 0
    caught: int = 0
    worth: int = 0  # cards its smuggled cards were worth (resolved smuggles)
    stopped_against: int = 0  # of which stopped by Fires
    # as target
    faced: int = 0
    able: int = 0
    fires: int = 0
    justified: int = 0
    worth_firing: int = 0
    cards_stopped: int = 0
    tolerance_lost: int = 0
    kept_able: int = 0
    let_through: int = 0  # cards transferred by the smuggles it did not Fire against

    @property
    def through(self) -> int:
        return self.worth - self.stopped_against

    @property
    def net(self) -> int:
        """Cards its Fires stopped minus the Tolerance-pile cards they cost it."""
        return self.cards_stopped - self.tolerance_lost

    def row(self) -> dict[str, Any]:
        return {
            "agent": self.name,
            "shipments": self.shipments,
            "smuggle_chances": self.chances,
            "smuggles": self.smuggles,
            "smuggle_rate": rate(self.smuggles, self.chances),
            "smuggles_into_face_card": self.into_face,
            "caught": self.caught,
            "caught_rate": rate(self.caught, self.smuggles),
            "smuggled_worth": self.worth,
            "smuggled_worth_per_smuggle": rate(self.worth, self.smuggles),
            "smuggled_stopped": self.stopped_against,
            "smuggled_through": self.through,
            "smuggles_faced": self.faced,
            "faced_able_to_fire": self.able,
            "fires": self.fires,
            "fire_rate": rate(self.fires, self.able),
            "fires_justified": self.justified,
            "fire_precision": rate(self.justified, self.fires),
            "worth_firing": self.worth_firing,
            "fire_recall": rate(self.justified, self.worth_firing),
            "cards_stopped": self.cards_stopped,
            "tolerance_cards_lost": self.tolerance_lost,
            "fire_net_cards": self.net,
            "kept_while_able": self.kept_able,
            "cards_let_through": self.let_through,
        }


TABLES = (
    Table(
        "as shipper: a Smuggle is the one Illegal card that ends a shipment; chances = shipments that "
        "offered one;\ncaught = the target Fired its customs worker; worth = cards the smuggled card "
        "transfers if not Fired against",
        (
            Column("shipments", "shipments"),
            Column("chances", "chances"),
            Column("smuggles", "smuggles"),
            *rate_columns("smuggle rate", "smuggles", "chances"),
            Column("into face card", "into_face"),
            Column("caught", "caught"),
            Column("caught rate", ratio("caught", "smuggles"), pct),
            Column("worth", "worth"),
            Column("worth/smuggle", ratio("worth", "smuggles"), money),
            Column("stopped", "stopped_against"),
            Column("through", "through"),
        ),
    ),
    Table(
        "as target of a Smuggle: able = holding a face card; Fire rate = Fires / able; precision = Fires "
        "that stopped\nat least one card / Fires; recall = those / smuggles faced while able that were "
        "worth a card; net = cards stopped -\nTolerance-pile cards sent to the Export pile by the Fires",
        (
            Column("faced", "faced"),
            Column("able", "able"),
            Column("Fires", "fires"),
            *rate_columns("Fire rate", "fires", "able"),
            Column("justified", "justified"),
            *rate_columns("precision", "justified", "fires"),
            Column("worth firing", "worth_firing"),
            Column("recall", ratio("justified", "worth_firing"), pct),
            Column("stopped", "cards_stopped"),
            Column("Tolerance lost", "tolerance_lost"),
            Column("net", "net"),
            Column("let through", "let_through"),
        ),
    ),
)

PANELS = (
    Panel(
        "as shipper", (("smuggle rate", ratio("smuggles", "chances")), ("caught", ratio("caught", "smuggles"))), "share"
    ),
    Panel(
        "cards per smuggle", (("worth", ratio("worth", "smuggles")), ("through", ratio("through", "smuggles"))), "cards"
    ),
    Panel(
        "as target: firing the customs worker",
        (
            ("Fire rate", ratio("fires", "able")),
            ("precision", ratio("justified", "fires")),
            ("recall", ratio("justified", "worth_firing")),
        ),
        "share",
    ),
    Panel("net cards saved per Fire", (("net/Fire", ratio("net", "fires")),), "cards"),
)


class CIQAnalysis(ObservingAnalysis):
    """Smuggling and Firing statistics of CIQ games; see the module docstring.

    Each stored game is replayed by a core :class:`Driver` with the analysis as its observer:
    ``on_action`` sees the position before every decision."""

    title = "smuggling"
    plot_title = "CIQ smuggling"
    stats_class = CIQAgentStats
    tables = TABLES
    panels = PANELS

    def __init__(self, names: Sequence[str]):
        super().__init__(names)
        self._chance_counted = False

    # ----- the observer ----------------------------------------------------------------------
    def on_start(self, state: State[Any]) -> None:
        self._chance_counted = False

    def on_action(self, state: State[Any], player: int, action: int) -> None:
        assert isinstance(state, CIQState)
        phase = state.phase
        if phase == FIRE_DECISION:  # the previous card was Smuggled: the target decides
            self._smuggled(state)
            self._fire_decision(state, action)
            return
        if phase == SHIPPING and not self._chance_counted and not state.bribe:
            tv = state.tol_value[state.target]
            values = state.game.values
            if tv and any(a < A.SABOTAGE and values[a] > tv for a in state.legal_actions()):
                self._stat(self._seating[state.turn]).chances += 1  # an Illegal card on offer
                self._chance_counted = True
        if action < A.SABOTAGE and phase != SHIPPING:  # the first card shipped: a new shipment
            self._stat(self._seating[state.turn]).shipments += 1
            self._chance_counted = False

    def on_end(self, state: State[Any], driver: Driver) -> None:
        assert isinstance(state, CIQState)
        if state.phase == FIRE_DECISION:  # the record stops at a Fire decision
            self._smuggled(state)

    def _smuggled(self, state: CIQState) -> None:
        """A Smuggle, seen at the Fire decision it leads to (the target's hand is as it was)."""
        shipper = self._stat(self._seating[state.turn])
        shipper.smuggles += 1
        target_hand = state.hand[state.target]
        shipper.into_face += any(target_hand[k] for k in state.game.face_kinds)

    def _fire_decision(self, state: CIQState, action: int) -> None:
        shipper = self._stat(self._seating[state.turn])
        target = self._stat(self._seating[state.target])
        able = any(A.FIRE <= a < A.GIVE for a in state.legal_actions())
        worth = state.smuggled_worth()
        tolerance = len(state.tol[state.target])
        fired = A.FIRE <= action < A.GIVE
        shipper.worth += worth
        target.faced += 1
        target.able += able
        target.worth_firing += able and worth > 0
        if fired:
            shipper.caught += 1
            shipper.stopped_against += worth
            target.fires += 1
            target.justified += worth > 0
            target.cards_stopped += worth
            target.tolerance_lost += tolerance
        else:
            target.kept_able += able
            target.let_through += worth


ANALYSIS = CIQAnalysis
"""The analyser of ``ENV_ID``'s games, built as ``ANALYSIS(agent_names)``."""
