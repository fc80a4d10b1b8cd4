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

``questions`` (``training.bluffing.questions``): at its Play decision (every selection face down,
before the reveal) a seat faces the next seat's selection: "P{q}'s face-down card fits the
round's rule", read in a world as the reveal would read it if it came now (the Play cards
attached so far, none more): ``q`` not among the cards the rule discards. At the pass that ends
the Play phase that is the ``select`` row's truth; earlier, Play cards still to come may change it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from smuggle_envs.core.game import State
from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.rules import HumbleSmuggleState
from smuggle_envs.games.humble_smuggle.steps import _discarded
from smuggle_envs.games.humble_smuggle.vocab import PLAY, SELECT, Reveal
from training.claims.humble_smuggle import fits_rule, new_reveal

from .. import Facing
from ._common import Draft, GameClaims, Labeller, no_facing

ENV_ID = "humble_smuggle_v0"


class HumbleLabeller(Labeller):
    """Drafts every selection and Play card of a round; the reveal settles them all."""

    def __init__(self) -> None:
        super().__init__()
        self.round: list[tuple[Draft, int]] = []  # the round's drafts and the seat whose card each is on
        self.last: Reveal | None = None  # the reveal record last seen

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
        return new_reveal(cast(HumbleSmuggleState, state), self.last) is not None

    def applied(self, state: State[Any], step: int) -> None:
        last = new_reveal(cast(HumbleSmuggleState, state), self.last)
        if last is None:
            return
        super().applied(state, step)  # the selections' payoff windows end at the reveal
        for d, on in self.round:
            d.truth = fits_rule(last, on)
        self.round = []
        self.last = last


def fits_now(q: int) -> Callable[[State[Any]], bool]:
    """Seat ``q``'s face-down card survives the reveal if it came now, in any world (a Play
    phase position): the engine's own resolution, so the rule is read exactly as it plays."""

    def truth(world: State[Any]) -> bool:
        st = cast(HumbleSmuggleState, world)
        read = [st.effective_value(s) for s in range(st.n)]
        values, shielded = [v for v, _ in read], [sh for _, sh in read]
        return q not in _discarded(st, values, shielded, st.centre[0])

    return truth


def _select_step(st: HumbleSmuggleState, q: int) -> int | None:
    """The index in the history of ``q``'s selection this round: the round's selections are the
    last ``n`` selection actions, in turn order from the first player."""
    picks = [i for i, a in enumerate(st.history) if A.SELECT <= a < A.PLAY][-st.n :]
    return picks[(q - st.first) % st.n] if len(picks) == st.n else None


def questions(state: State[Any], seat: int) -> Facing | None:
    """The seat to play a Play card faces the next seat's face-down selection (None elsewhere)."""
    st = cast(HumbleSmuggleState, state)
    if st.phase != PLAY or seat != st.actor:
        return None
    q = (seat + 1) % st.n
    claim = f"P{q}'s face-down card fits the round's rule"
    return Facing(seat, "play", claim, q, _select_step(st, q), fits_now(q))


CLAIMS = GameClaims(HumbleLabeller, no_facing)
"""Humble smuggle's part of the bluffing kit (``training.bluffing.games.CLAIMS`` files it under ``ENV_ID``)."""

__all__ = ["CLAIMS", "ENV_ID", "HumbleLabeller", "fits_now", "questions"]
