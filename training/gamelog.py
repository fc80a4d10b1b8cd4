"""A game printed turn by turn: one decision per line with the score changes it caused, the table
at the start, at every new round and at the end, and the final scores with the winners.

``GameLog`` is a driver observer, so a played game (``smuggle match``'s sample game, ``smuggle
play``) and a stored one (``print_replay``: ``smuggle replay``, ``smuggle replay-json``) print
alike, in full or as one seat saw them.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from smuggle_envs.core.driver import Driver
from smuggle_envs.core.errors import IllegalActionError, MalformedActionError
from smuggle_envs.core.game import Game, State

from .stats import fmt_num


def money_changes(before: Sequence[float], after: Sequence[float], game: Game | None = None) -> str:
    """``"P1 -300, P0 +300"``: who lost and gained score with one decision (losers first).

    With ``game`` the text is the one a person reads: seats named by ``game.seat_name`` and each
    change read off ``game.score_text``, so a part of the score that the game's text does not
    show as money (Humble smuggle's tie-break hundredths) is never printed as a change."""
    if game is None:
        diffs = [(p, a - b) for p, (b, a) in enumerate(zip(before, after)) if a != b]
        diffs.sort(key=lambda pd: (pd[1] > 0, pd[0]))
        return ", ".join(f"P{p} {'+' if d > 0 else '-'}{fmt_num(abs(d))}" for p, d in diffs)
    shown = [(p, _text_change(game.score_text(b), game.score_text(a))) for p, (b, a) in enumerate(zip(before, after))]
    changes = [(p, d, text) for p, (d, text) in shown if text]
    changes.sort(key=lambda pdt: (pdt[1] > 0, pdt[0]))
    return ", ".join(f"{game.seat_name(p)} {text}" for p, _, text in changes)


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _text_change(before: str, after: str) -> tuple[float, str]:
    """``(signed change, its text)`` between two ``score_text`` values: the change of their first
    number (``"+300"``), ``"12 -> 15 (2 cards)"`` where a text carries no number, or ``(0, "")``
    where the number, the part a person reads as money, did not change."""
    if before == after:
        return 0.0, ""
    nb, na = (_NUMBER.search(text.replace(",", "")) for text in (before, after))
    if nb is None or na is None:
        return 0.0, f"{before} -> {after}"
    d = float(na.group()) - float(nb.group())
    return d, (f"{'+' if d > 0 else '-'}{fmt_num(abs(d))}" if d else "")


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
        # through the game's score text: a Humble tie-break change is not money (issue #26)
        changes = money_changes(before, state.scores(), state.game)
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
        self._print(final_summary(state, as_text=True))


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


def labelled_seat(name: str, label: str | None) -> str:
    """A seat's name with who plays it: ``"P1 (rule)"``, and ``"P0 (green, you)"`` where the
    game's name of the seat already ends in brackets (one pair, so a line still reads
    ``NAME (WHO): ...``)."""
    if not label:
        return name
    if name.endswith(")") and "(" in name:
        return f"{name[:-1]}, {label})"
    return f"{name} ({label})"


def final_summary(state: State[Any], labels: Sequence[str] | None = None, *, as_text: bool = False) -> str:
    """Final scores and the winners, under the core's termination contract: a truncated game
    (stopped by a cap) or an unfinished one has no winner. ``as_text``: seats and scores as the
    game's text names them (``seat_name``, ``score_text``), as ``smuggle play`` shows them."""
    scores = state.scores()
    game = state.game

    def seat(p: int) -> str:
        if as_text:
            return labelled_seat(game.seat_name(p), labels[p] if labels else None)
        return f"P{p}" + (f" ({labels[p]})" if labels else "")

    def score(value: float) -> str:
        return game.score_text(value) if as_text else fmt_num(value)

    text = f"final scores: {', '.join(f'{seat(p)} {score(s)}' for p, s in enumerate(scores))}\n"
    if not state.is_terminal():
        return text + "no winner (game unfinished)"
    if state.is_truncated():
        return text + "no winner (the game was stopped by its turn limit: truncated)"
    won = [seat(p) for p in state.winning_seats()]
    verb = "winner" if len(won) == 1 else "shared win"
    return text + f"{verb}: {', '.join(won)} with {score(max(scores))}"
