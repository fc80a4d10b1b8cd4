"""Errors raised by engines and envs.

Every error a user can trigger is a ``ValueError`` or ``TypeError`` subclass with a message that
names what was wrong and what would have been accepted.
"""

from __future__ import annotations


class SmuggleEnvsError(Exception):
    """Base class of every error this library raises on purpose."""


class IllegalActionError(SmuggleEnvsError, ValueError):
    """An action that is out of range or not legal in the current state.

    The state is left exactly as it was before the call.
    """

    def __init__(self, message: str, action: int | None = None, legal_actions: list[int] | None = None):
        super().__init__(message)
        self.action = action
        self.legal_actions = legal_actions


class MalformedActionError(SmuggleEnvsError, TypeError):
    """An action of the wrong type (a float, a bool, a string, an array...)."""


class GameOverError(IllegalActionError):
    """An action was given after the game ended."""


class ConfigError(SmuggleEnvsError, ValueError):
    """A game or env configuration that is unknown or out of range."""


class DataError(SmuggleEnvsError, ValueError):
    """A card-data file that fails validation."""


class SeatError(SmuggleEnvsError, ValueError, TypeError):
    """A seat argument (``observation(p)``, ``resample(p, ...)``, ``render(p)``...) that is not
    an int naming a seat of this game. Both a ``ValueError`` and a ``TypeError``: a float or a
    string is as wrong as an out-of-range int, and callers may catch either."""
