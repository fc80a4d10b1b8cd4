"""What every game's bluffing plugin shares: the ``GameClaims`` record each one declares, the
``Draft`` of a claim being labelled, the ``Labeller`` base that follows one replayed game, and the
walk that replays a game through it.

A module whose name starts with ``_`` is shared code, not a game's plugin (see the package
docstring). Nothing here knows any game.

**How a game is labelled.** ``walk`` replays the stored actions on a fresh state. Before each
action its labeller's ``decide(state, step, seat, action)`` sees the position the seat decided in
(and may open drafts: the truth of a declaration is in the hand right there); after it,
``applied(state, step)`` sees the position it led to (a search's verdict, a reveal, the end of a
payoff window). A draft's **payoff** is the seat's score change over a window: from the position
before its decision to the first later position its ``resolved`` test accepts (the live hand
settled, the round revealed), read by the game's ``score``; a window the record ends inside
leaves the payoff None. A draft whose truth the record never settles (a game stored cut short
before the reveal) is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from smuggle_envs.core import Replay
from smuggle_envs.core.game import State

from .. import Claim, Facing

Resolved = Callable[[State[Any]], bool]
"""Reads a position after a decision: True once the decision's payoff window is over."""


@dataclass
class Draft:
    """A claim being labelled: what its decision fixes at once, and what later positions settle
    (``truth``, ``challenged``, ``caught``, ``payoff``; None until then)."""

    step: int
    seat: int
    decision: str
    role: str
    claim: str
    action: int
    action_text: str
    forced: bool
    truth: bool | None = None
    challenged: bool | None = None
    caught: bool | None = None
    payoff: float | None = None
    called_step: int | None = None
    claimant: int | None = None
    start: float = 0.0  # the seat's score before the decision (the payoff window's start)
    resolved: Resolved | None = field(default=None, repr=False)  # the open payoff window's end test

    def claim_row(self, env_id: str, seed: int) -> Claim:
        """The finished claim (``truth`` must be settled)."""
        if self.truth is None:
            raise ValueError(f"the claim of step {self.step} has no truth yet")
        return Claim(
            env_id=env_id,
            seed=seed,
            step=self.step,
            seat=self.seat,
            decision=self.decision,
            role=self.role,
            claim=self.claim,
            truth=self.truth,
            challenged=self.challenged,
            caught=self.caught,
            payoff=self.payoff,
            called_step=self.called_step,
            claimant=self.claimant,
            action=self.action,
            action_text=self.action_text,
            forced=self.forced,
        )


def heard(state: State[Any], action: int) -> str:
    """``action`` (about to be taken) as the other seats read it: what the table heard."""
    actor = state.current_player()
    return state.action_to_string(action, viewer=(actor + 1) % state.game.num_players)


class Labeller:
    """Follows one replayed game and drafts its claims (see the module docstring). A game's
    labeller overrides ``decide`` (and ``applied``, ``end`` where positions after a decision
    settle something), opening drafts with ``draft``."""

    def __init__(self) -> None:
        self.drafts: list[Draft] = []
        self._windows: list[Draft] = []  # drafts whose payoff window is open

    # ----- the hooks -------------------------------------------------------------------------------
    def score(self, state: State[Any], seat: int) -> float:
        """The seat's score as payoffs measure it: by default its public score (``State.scores``)."""
        return float(state.scores()[seat])

    def start(self, state: State[Any]) -> None:
        """The game's first position (before any decision)."""

    def decide(self, state: State[Any], step: int, seat: int, action: int) -> bool:
        """``seat`` takes ``action`` in ``state`` (not applied yet). Returns True if the decision
        may become a claim (its observation is kept), which ``applied`` may confirm."""
        raise NotImplementedError

    def applied(self, state: State[Any], step: int) -> None:
        """The position the decision of ``step`` led to: closes the payoff windows it ends."""
        still = []
        for d in self._windows:
            if d.resolved is not None and d.resolved(state):
                d.payoff = round(self.score(state, d.seat) - d.start, 9)  # no float dust (hundredths)
                d.resolved = None
            else:
                still.append(d)
        self._windows = still

    def end(self, state: State[Any]) -> None:
        """The last position of the record (over, or cut short: open windows stay None)."""

    # ----- drafting --------------------------------------------------------------------------------
    def draft(
        self,
        state: State[Any],
        step: int,
        action: int,
        decision: str,
        role: str,
        claim: str | None = None,
        resolved: Resolved | None = None,
        **settled: Any,
    ) -> Draft:
        """A new draft of the current player's ``action`` in ``state`` (the claim text defaults
        to what the table heard); with ``resolved``, its payoff window opens now."""
        seat = state.current_player()
        d = Draft(
            step=step,
            seat=seat,
            decision=decision,
            role=role,
            claim=heard(state, action) if claim is None else claim,
            action=action,
            action_text=state.action_to_string(action),
            forced=len(state.legal_actions()) == 1,
            **settled,
        )
        if resolved is not None:
            d.start = self.score(state, seat)
            d.resolved = resolved
            self._windows.append(d)
        self.drafts.append(d)
        return d


Observation = npt.NDArray[np.float32]


Challenge = Callable[[State[Any], int], bool]
"""At a call decision (``state`` before it): whether ``action`` challenges the claim."""


@dataclass(frozen=True)
class GameClaims:
    """What a game's plugin declares: its ``Labeller`` class, its ``facing`` function and, for a
    game with calls, its ``challenge`` test (which actions at a call challenge the claim: the
    labeller's own, so the calls' ``challenged`` labels and ``smuggle analyze --deception``'s
    probabilities of challenging read one rule)."""

    labeller: Callable[[], Labeller]
    facing: Callable[[State[Any], int], Facing | None]
    challenge: Challenge | None = None

    @property
    def has_calls(self) -> bool:
        """Whether a seat of the game ever calls another's claim (it has a ``facing``)."""
        return self.facing is not no_facing


def walk(game_claims: GameClaims, replay: Replay, observe: bool = False) -> list[tuple[Claim, Observation | None]]:
    """Replay ``replay`` through a new labeller of ``game_claims``; its claims in step order,
    each with the seat's observation at the decision when ``observe`` (else None)."""
    state = replay.game().new_initial_state(replay.seed)
    labeller = game_claims.labeller()
    labeller.start(state)
    seen: dict[int, Observation] = {}
    for step, action in enumerate(replay.actions):
        seat = state.current_player()
        if labeller.decide(state, step, seat, action) and observe:
            seen[step] = np.array(state.observation(seat), dtype=np.float32)  # a copy: never an encoder's buffer
        state.apply_action(action)
        labeller.applied(state, step)
    labeller.end(state)
    drafts = sorted((d for d in labeller.drafts if d.truth is not None), key=lambda d: d.step)
    return [(d.claim_row(replay.env_id, replay.seed), seen.get(d.step)) for d in drafts]


def resolved_after_one(state: State[Any]) -> bool:
    """A payoff window of the decision alone (what it changed at once)."""
    return True


def no_facing(state: State[Any], seat: int) -> Facing | None:
    """A game in which no seat ever calls another's claim (commitments and claims nobody can
    challenge): it faces none."""
    return None


def last_step(state: State[Any], test: Callable[[int], bool]) -> int | None:
    """The index in ``state.history`` of the last action ``test`` accepts (None: none)."""
    history: Sequence[int] = state.history
    for i in range(len(history) - 1, -1, -1):
        if test(history[i]):
            return i
    return None
