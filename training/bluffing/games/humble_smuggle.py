"""Humble smuggle's commitments: the face-down selections and Play cards, settled at the reveal.

There is no search or challenge in this game: every selected card is revealed, and the round's
rule (public before the selection) decides alone which are discarded. So both hidden choices are
commitments (``challenged`` and ``caught`` None), their truth read at the reveal:

* ``select`` (step 2, a white card laid face down): ``truth``: the card fit the round's rule
  (it was scored, not discarded). ``payoff``: the seat's points change from before the selection
  to the reveal (the card's tens digit and the symbol sets it completes, plus the tie-break
  hundredth of a scored card), counted without the Hold cards: they stay hidden until the end,
  and a reveal that ends the game must not credit the selection with them.
* ``play`` (step 3, a Play card attached face down; its kind is hidden, its target is not):
  ``truth``: the card it went on fit the round's rule (an attacker wanting a rival's card
  discarded reads False as its aim met). ``payoff`` None: the round scores the Play cards and the
  selections together, and the selection's row already holds it.

A game stored cut short before a reveal leaves that round's commitments out (no truth yet).
``facing``: None everywhere: nobody calls a claim here.
"""

from __future__ import annotations

from typing import Any, cast

from smuggle_envs.core.game import State
from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.rules import HumbleSmuggleState
from smuggle_envs.games.humble_smuggle.vocab import PLAY, SELECT

from ._common import Draft, GameClaims, Labeller, no_facing

ENV_ID = "humble_smuggle_v0"


class HumbleLabeller(Labeller):
    """Drafts every selection and Play card of a round; the reveal settles them all."""

    def __init__(self) -> None:
        super().__init__()
        self.round: list[tuple[Draft, int]] = []  # the round's drafts and the seat whose card each is on
        self.last: object = None  # the reveal record last seen

    def score(self, state: State[Any], seat: int) -> float:
        """Points without the hidden Hold cards, plus the tie-break hundredth per scored card."""
        st = cast(HumbleSmuggleState, state)
        return st.points(holds=False)[seat] + len(st.scored[seat]) / 100

    def start(self, state: State[Any]) -> None:
        self.last = cast(HumbleSmuggleState, state).last

    def decide(self, state: State[Any], step: int, seat: int, action: int) -> bool:
        st = cast(HumbleSmuggleState, state)
        if st.phase == SELECT:
            d = self.draft(st, step, action, "select", "commitment", resolved=self._revealed)
            self.round.append((d, seat))
            return True
        if st.phase == PLAY and action != A.PASS:
            on = (seat + (action - A.PLAY) % A.MAX_PLAYERS) % st.n
            self.round.append((self.draft(st, step, action, "play", "commitment"), on))
            return True
        return False

    def _revealed(self, state: State[Any]) -> bool:
        """A new reveal record: the round's face-down cards are open."""
        return cast(HumbleSmuggleState, state).last is not self.last

    def applied(self, state: State[Any], step: int) -> None:
        last = cast(HumbleSmuggleState, state).last
        if last is self.last or last is None:
            return
        super().applied(state, step)  # the selections' payoff windows end at the reveal
        for d, on in self.round:
            d.truth = on not in last.discarded
        self.round = []
        self.last = last


CLAIMS = GameClaims(HumbleLabeller, no_facing)
"""Humble smuggle's part of the bluffing kit (``training.bluffing.games.CLAIMS`` files it under ``ENV_ID``)."""

__all__ = ["CLAIMS", "ENV_ID", "HumbleLabeller"]
