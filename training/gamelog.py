"""A game printed turn by turn: one decision per line with the score changes it caused, the table
at the start, at every new round and at the end, and the final scores with the winners.

``GameLog`` is a driver observer, so a played game (``smuggle match``'s sample game, ``smuggle
play``) and a stored one (``print_replay``: ``smuggle replay``, ``smuggle replay-json``) print
alike, in full or as one seat saw them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

from smuggle_envs.core.driver import Driver
from smuggle_envs.core.errors import IllegalActionError, MalformedActionError
from smuggle_envs.core.game import Game, State

from .stats import fmt_num


def money_changes(before: Sequence[float], after: Sequence[float]) -> str:
    """``"P1 -300, P0 +300"``: who lost and gained score with one decision (losers first)."""
    diffs = [(p, a - b) for p, (b, a) in enumerate(zip(before, after)) if a != b]
    diffs.sort(key=lambda pd: (pd[1] > 0, pd[0]))
    return ", ".join(f"P{p} {'+' if d > 0 else '-'}{fmt_num(abs(d))}" for p, d in diffs)


def _round_key(state: State[Any]) -> int | None:
    """A marker that changes when a new round starts, if the game exposes one."""
    key = getattr(state, "rounds_played", None)
    return None if key is None else int(key)


class GameLog:
    """Prints a game one decision per line, with the score changes each decision caused, and the
    whole table at the start, at every new round (or every ``table_every`` decisions for games
    without rounds) and at the end.

    ``viewer`` None prints the full view (every card shown); a seat prints only what that seat
    sees: its rendered table and every other seat's action as that seat saw it
    (``State.action_to_string(action, viewer)``), so a replay shown to a seat hides what the seat
    never saw. It is a driver observer (``labels`` names the seats); by hand, call
    ``step(state, player, action, who)`` before each action is applied and ``finish(state)`` once
    at the end.
    """

    def __init__(
        self,
        out: TextIO | None = None,
        table_every: int = 50,
        viewer: int | None = None,
        labels: Sequence[str] | None = None,
    ):
        self.out = out
        self.table_every = table_every
        self.viewer = viewer
        self.labels = labels
        self.count = 0
        # (decision number, player, who, action text, scores before, round before)
        self._pending: tuple[int, int, str | None, str, list[float], int | None] | None = None

    def _print(self, text: str = "") -> None:
        print(text, file=self.out if self.out is not None else sys.stdout)

    def _table(self, state: State[Any], title: str) -> None:
        seen = "all cards shown" if self.viewer is None else f"as P{self.viewer} sees it"
        self._print(f"--- {title} ({seen}) ---")
        self._print(state.render(self.viewer))

    # observer hooks
    def on_start(self, state: State[Any]) -> None:
        pass

    def on_action(self, state: State[Any], player: int, action: int) -> None:
        self.step(state, player, action, self.labels[player] if self.labels else None)

    def on_end(self, state: State[Any], driver: Driver) -> None:
        self.finish(state)

    def step(self, state: State[Any], player: int, action: int, who: str | None = None) -> None:
        self.flush(state)
        if self.count == 0:
            self._table(state, "start")
        self.count += 1
        self._pending = (
            self.count,
            player,
            who,
            state.action_to_string(action, self.viewer),
            list(state.scores()),
            _round_key(state),
        )

    def flush(self, state: State[Any]) -> None:
        """Print the decision announced last, now that ``state`` shows its effect."""
        if self._pending is None:
            return
        n, player, who, text, before, round_before = self._pending
        self._pending = None
        label = f"P{player}" + (f" ({who})" if who else "")
        changes = money_changes(before, state.scores())
        self._print(f"{n:4d}  {label}: {text}" + (f"   [{changes}]" if changes else ""))
        if state.is_terminal():
            return
        round_now = _round_key(state)
        if round_before is not None:
            if round_now is not None and round_now != round_before:
                self._table(state, f"round {round_now + 1}")
        elif self.table_every and n % self.table_every == 0:
            self._table(state, f"after {n} decisions")

    def finish(self, state: State[Any]) -> None:
        self.flush(state)
        if self.count == 0:
            self._table(state, "start")
        self._table(state, "end")
        self._print(final_summary(state))


class ReplayActionError(Exception):
    """Action ``number`` (1-based) of a replay could not be applied; ``cause`` says why."""

    def __init__(self, number: int, cause: Exception):
        super().__init__(f"action {number} cannot be applied: {cause}")
        self.number = number
        self.cause = cause


def print_replay(game: Game, seed: int, actions: Sequence[int], log: GameLog) -> State[Any]:
    """Replay ``actions`` from ``seed`` through the core driver, printed by ``log`` (a full or a
    seat's view); returns the final state. A bad action raises ``ReplayActionError``."""
    driver = Driver(game, observers=[log])
    state = driver.reset(seed)
    for i, action in enumerate(actions):
        try:
            driver.step(action)
        except (IllegalActionError, MalformedActionError) as exc:
            log.flush(state)
            raise ReplayActionError(i + 1, exc) from None
    if not driver.done:
        log.finish(state)  # a replay that stops before the end: the driver never calls on_end
    return state


def final_summary(state: State[Any], labels: Sequence[str] | None = None) -> str:
    """Final scores and the winners, under the core's termination contract: a truncated game
    (stopped by a cap) or an unfinished one has no winner."""
    scores = state.scores()
    parts = []
    for p, s in enumerate(scores):
        who = f" ({labels[p]})" if labels else ""
        parts.append(f"P{p}{who} {fmt_num(s)}")
    text = f"final scores: {', '.join(parts)}\n"
    if not state.is_terminal():
        return text + "no winner (game unfinished)"
    if state.is_truncated():
        return text + "no winner (the game was stopped by its turn limit: truncated)"
    won = [f"P{p}" + (f" ({labels[p]})" if labels else "") for p in state.winning_seats()]
    verb = "winner" if len(won) == 1 else "shared win"
    return text + f"{verb}: {', '.join(won)} with {fmt_num(max(scores))}"
