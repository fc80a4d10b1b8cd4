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

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from smuggle_envs import make_game
from smuggle_envs.core.driver import BaseObserver, Driver, replay_policy
from smuggle_envs.core.game import State
from smuggle_envs.games.ciq import CIQState
from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.vocab import FIRE_DECISION, SHIPPING
from training.match import format_table

from .analytics_common import PerAgentAnalysis, _ci, _money, _pct, _rate, plot_panels


@dataclass
class CIQAgentStats:
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

    def row(self) -> dict[str, Any]:
        return {
            "agent": self.name,
            "shipments": self.shipments,
            "smuggle_chances": self.chances,
            "smuggles": self.smuggles,
            "smuggle_rate": _rate(self.smuggles, self.chances),
            "smuggles_into_face_card": self.into_face,
            "caught": self.caught,
            "caught_rate": _rate(self.caught, self.smuggles),
            "smuggled_worth": self.worth,
            "smuggled_worth_per_smuggle": _rate(self.worth, self.smuggles),
            "smuggled_stopped": self.stopped_against,
            "smuggled_through": self.through,
            "smuggles_faced": self.faced,
            "faced_able_to_fire": self.able,
            "fires": self.fires,
            "fire_rate": _rate(self.fires, self.able),
            "fires_justified": self.justified,
            "fire_precision": _rate(self.justified, self.fires),
            "worth_firing": self.worth_firing,
            "fire_recall": _rate(self.justified, self.worth_firing),
            "cards_stopped": self.cards_stopped,
            "tolerance_cards_lost": self.tolerance_lost,
            "fire_net_cards": self.cards_stopped - self.tolerance_lost,
            "kept_while_able": self.kept_able,
            "cards_let_through": self.let_through,
        }


class CIQAnalysis(PerAgentAnalysis, BaseObserver):
    """Smuggling and Firing statistics of CIQ games; see the module docstring.

    Each stored game is replayed by a core :class:`Driver` with the analysis as its observer:
    ``on_action`` sees the position before every decision."""

    title = "smuggling"
    stats_class = CIQAgentStats

    def __init__(self, names: Sequence[str]):
        super().__init__(names)
        self._seating: Sequence[str] = ()
        self._chance_counted = False

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

    # ----- output --------------------------------------------------------------------------
    def text(self) -> str:
        agents = self.ordered()
        parts = [
            "as shipper: a Smuggle is the one Illegal card that ends a shipment; chances = "
            "shipments that offered one;\ncaught = the target Fired its customs worker; worth = "
            "cards the smuggled card transfers if not Fired against"
        ]
        rows = [
            [
                s.name,
                s.shipments,
                s.chances,
                s.smuggles,
                _pct(_rate(s.smuggles, s.chances)),
                _ci(s.smuggles, s.chances),
                s.into_face,
                s.caught,
                _pct(_rate(s.caught, s.smuggles)),
                s.worth,
                _money(_rate(s.worth, s.smuggles)),
                s.stopped_against,
                s.through,
            ]
            for s in agents
        ]
        parts.append(
            format_table(
                [
                    "agent",
                    "shipments",
                    "chances",
                    "smuggles",
                    "smuggle rate",
                    "95% CI",
                    "into face card",
                    "caught",
                    "caught rate",
                    "worth",
                    "worth/smuggle",
                    "stopped",
                    "through",
                ],
                rows,
            )
        )
        parts.append(
            "as target of a Smuggle: able = holding a face card; Fire rate = Fires / able; "
            "precision = Fires that stopped\nat least one card / Fires; recall = those / "
            "smuggles faced while able that were worth a card; net = cards stopped -\n"
            "Tolerance-pile cards sent to the Export pile by the Fires"
        )
        rows = [
            [
                s.name,
                s.faced,
                s.able,
                s.fires,
                _pct(_rate(s.fires, s.able)),
                _ci(s.fires, s.able),
                s.justified,
                _pct(_rate(s.justified, s.fires)),
                _ci(s.justified, s.fires),
                s.worth_firing,
                _pct(_rate(s.justified, s.worth_firing)),
                s.cards_stopped,
                s.tolerance_lost,
                s.cards_stopped - s.tolerance_lost,
                s.let_through,
            ]
            for s in agents
        ]
        parts.append(
            format_table(
                [
                    "agent",
                    "faced",
                    "able",
                    "Fires",
                    "Fire rate",
                    "95% CI",
                    "justified",
                    "precision",
                    "95% CI",
                    "worth firing",
                    "recall",
                    "stopped",
                    "Tolerance lost",
                    "net",
                    "let through",
                ],
                rows,
            )
        )
        return "\n\n".join(parts)

    def plot(self, path: str | os.PathLike, title: str = "") -> None:
        agents = self.ordered()
        plot_panels(
            path,
            title or "CIQ smuggling",
            [s.name for s in agents],
            [
                (
                    "as shipper",
                    [
                        ("smuggle rate", [_rate(s.smuggles, s.chances) for s in agents]),
                        ("caught", [_rate(s.caught, s.smuggles) for s in agents]),
                    ],
                    "share",
                ),
                (
                    "cards per smuggle",
                    [
                        ("worth", [_rate(s.worth, s.smuggles) for s in agents]),
                        ("through", [_rate(s.through, s.smuggles) for s in agents]),
                    ],
                    "cards",
                ),
                (
                    "as target: firing the customs worker",
                    [
                        ("Fire rate", [_rate(s.fires, s.able) for s in agents]),
                        ("precision", [_rate(s.justified, s.fires) for s in agents]),
                        ("recall", [_rate(s.justified, s.worth_firing) for s in agents]),
                    ],
                    "share",
                ),
                (
                    "net cards saved per Fire",
                    [("net/Fire", [_rate(s.cards_stopped - s.tolerance_lost, s.fires) for s in agents])],
                    "cards",
                ),
            ],
        )
