"""The one game loop: every tool that plays games plays them through a :class:`Driver`.

The AEC env, the self-play env, the arena, evaluation, matches, tournaments and the analytics all
step games here, so a game starts, advances, is capped and ends the same way everywhere:

* ``step(action)`` applies one decision of the current player, counts it, and tells the observers;
* ``max_decisions`` caps a game from outside (the env's ``max_turns``): reaching it *truncates*
  the game, exactly like a game's own cap (``State.is_truncated()``);
* ``terminated`` / ``truncated`` / ``done`` and ``returns(mode)`` follow the termination contract
  of :mod:`smuggle_envs.core.game`: a truncated game has no winner and pays zero to every seat;
* ``play(policy)`` runs decisions from a policy ``(state, player) -> action`` until the game is
  over, or until a given seat is to act (the self-play env's opponents).

Observers (:class:`Observer`) see every decision without reaching into the engine: ``on_start``
after ``reset``, ``on_action(state, player, action)`` just *before* the action is applied (the
state is the position the actor decided in), and ``on_end`` once when the game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from .checks import is_int
from .errors import ConfigError, GameOverError
from .game import Game, State

Policy = Callable[[State[Any], int], Any]
"""Chooses the action of ``player`` in ``state`` (a legal action of the current player)."""


class Observer(Protocol):
    """Hooks a driver calls; implement the ones you need (see :class:`BaseObserver`)."""

    def on_start(self, state: State[Any]) -> None: ...

    def on_action(self, state: State[Any], player: int, action: int) -> None: ...

    def on_end(self, state: State[Any], driver: Driver) -> None: ...


class BaseObserver:
    """An observer that ignores everything; subclass it and override what you need."""

    def on_start(self, state: State[Any]) -> None:
        pass

    def on_action(self, state: State[Any], player: int, action: int) -> None:
        pass

    def on_end(self, state: State[Any], driver: Driver) -> None:
        pass


class Driver:
    """Plays one game at a time of ``game``; see the module docstring.

    ``driver.state`` is the live state (read it, never apply actions to it directly).
    """

    def __init__(self, game: Game, max_decisions: int | None = None, observers: Iterable[Observer] = ()):
        if max_decisions is not None and (not is_int(max_decisions) or max_decisions < 1):
            raise ConfigError(f"max_decisions must be a positive int or None, got {max_decisions!r}")
        self.game = game
        self.max_decisions = None if max_decisions is None else int(max_decisions)
        self.observers: list[Observer] = list(observers)
        self.current: State[Any] | None = None  # the game in play (``state`` when one is sure to exist)
        self.decisions = 0
        # The termination contract, as plain attributes: read after every step in hot loops.
        self.done = False  # over, by the rules or by a cap
        self.terminated = False  # over by the game's rules (rewards are paid)
        self.truncated = False  # stopped by a cap, the game's own or max_decisions (no winner)
        self.capped = False  # stopped by ``max_decisions``

    # ----- the game ------------------------------------------------------------------------
    @property
    def state(self) -> State[Any]:
        if self.current is None:
            raise RuntimeError("no game yet: call reset() first")
        return self.current

    @property
    def has_game(self) -> bool:
        return self.current is not None

    def reset(self, seed: int | None = None, state: State[Any] | None = None) -> State[Any]:
        """Start a new game from ``seed`` (or continue from a given ``state``)."""
        self.current = new = self.game.new_initial_state(seed) if state is None else state
        self.decisions = 0
        self.done = self.terminated = self.truncated = self.capped = False
        for obs in self.observers:
            obs.on_start(new)
        if new.is_terminal():
            self._end()
        return new

    def step(self, action: Any) -> None:
        """Apply one decision of the current player. A refused action raises and changes nothing."""
        state = self.current
        if state is None:
            raise RuntimeError("no game yet: call reset() first")
        if self.done:
            raise GameOverError(f"the game is over ({self.status}); action {action!r} was not applied")
        if self.observers:
            player = state.current_player()
            action = state.check_action(action)  # observers see only actions that will apply
            for obs in self.observers:
                obs.on_action(state, player, action)
        state.apply_action(action)
        self.decisions += 1
        if state.is_terminal():
            self._end()
        elif self.max_decisions is not None and self.decisions >= self.max_decisions:
            self.capped = True
            self._end()

    def play(self, policy: Policy, until: int | None = None) -> State[Any]:
        """Run decisions chosen by ``policy`` until the game is over or seat ``until`` is to act."""
        state = self.state
        while not self.done:
            player = state.current_player()
            if player == until:
                break
            self.step(policy(state, player))
        return state

    # ----- the termination contract --------------------------------------------------------
    @property
    def status(self) -> str:
        if not self.done:
            return "in play"
        if self.capped:
            return f"truncated after {self.decisions} decisions (max_decisions)"
        return "truncated by the game's own cap" if self.truncated else "terminated"

    def returns(self, mode: str = "win_loss") -> list[float]:
        """Final rewards per seat: zero until the end and for a truncated game."""
        if self.capped:
            self.state.returns(mode)  # validates the mode alike
            return [0.0] * self.game.num_players
        return self.state.returns(mode)

    def winning_seats(self) -> list[int]:
        return [] if self.capped else self.state.winning_seats()

    def _end(self) -> None:
        state = self.state
        self.done = True
        self.truncated = self.capped or state.is_truncated()
        self.terminated = not self.truncated
        for obs in self.observers:
            obs.on_end(state, self)


def replay_policy(actions: Sequence[int]) -> Policy:
    """A policy that plays back recorded actions in order (for analytics and replays)."""
    it = iter(actions)

    def policy(state: State[Any], player: int) -> int:
        try:
            return next(it)
        except StopIteration:
            raise ValueError("the recorded actions ran out before the game ended") from None

    return policy
