"""What one seat has been told so far, as lines of text: the seat's memory in a prompt.

A step adds, for a seat, one actor line (``"P2: declares wine x2"``: the action as that seat may
see it, so a face-down choice reads as one) and the game's notes on the step as that seat may
know them (a new round, a search's verdict, who paid whom: ``State.step_notes``).

``SeatLog.record`` adds the lines of one step that the caller has just made; ``SeatLog.follow``
keeps the log up to date with a true state by itself, replaying the game from its seed on a
replica of its own (incrementally: only the actions it has not replayed yet). A resampled state
is a hypothetical deal that no seed replays, so ``follow`` refuses it.
"""

from __future__ import annotations

from typing import Any

from ..core.checks import check_seat
from ..core.game import Game, State


class SeatLog:
    """The lines that seat ``seat`` of ``game`` has been told, oldest first (``lines``).

    Keep a log either with ``record`` (the caller applies each action and hands over the states
    around it) or with ``follow`` (the log replays the game itself), not both: ``follow`` starts
    over on its own replica whenever it did not write the lines it holds."""

    def __init__(self, game: Game, seat: int):
        self.game = game
        self.seat = check_seat(seat, game.num_players, "seat")
        self.lines: list[str] = []
        # The true state as far as follow() has replayed it; None until it first runs. The
        # count of lines it wrote tells it whether record() was called in between.
        self._replica: State[Any] | None = None
        self._followed_lines = 0

    def record(self, before: State[Any], action: int, after: State[Any]) -> list[str]:
        """Append and return the lines one step adds for this seat: ``before`` is a copy of the
        state taken before ``action`` was applied, ``after`` the state once applied."""
        actor = before.current_player()
        new = [f"{self.game.seat_name(actor)}: {before.action_to_string(action, self.seat)}"]
        new.extend(after.step_notes(before, action, self.seat))
        self.lines.extend(new)
        return new

    def follow(self, state: State[Any]) -> list[str]:
        """Bring the log up to ``state`` (a true state of this game, not a resampled one) and
        return the lines this call added. Replays only the actions not yet replayed when
        ``state``'s history extends what the log has seen; otherwise starts over."""
        self._check_followable(state)
        replica = self._replica
        if (
            replica is None
            or self._followed_lines != len(self.lines)
            or replica.seed != state.seed
            or len(replica.history) > len(state.history)
            or state.history[: len(replica.history)] != replica.history
        ):
            self.lines = []
            replica = self._replica = state.game.new_initial_state(state.seed)
        start = len(self.lines)
        for action in state.history[len(replica.history) :]:
            before = replica.clone()
            replica.apply_action(action)
            self.record(before, action, replica)
        self._followed_lines = len(self.lines)
        return self.lines[start:]

    def _check_followable(self, state: State[Any]) -> None:
        game = state.game
        if game.env_id != self.game.env_id or game.config != self.game.config:
            raise ValueError(
                f"this log is of {self.game.env_id} {self.game.config}, not of {game.env_id} {game.config}"
            )
        try:
            state.to_replay()
        except ValueError as error:
            raise ValueError(f"SeatLog.follow replays the true game from its seed and actions, and {error}") from None

    def __repr__(self) -> str:
        return f"SeatLog({self.game.env_id}, seat={self.seat}, {len(self.lines)} lines)"
