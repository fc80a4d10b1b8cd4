"""Argument checks shared by every game, so each contract input is validated once and alike.

Each check returns the value in its canonical form (a plain ``int``, a ``random.Random``) or
raises a one-line error that names what was given and what is accepted.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from .errors import ConfigError, SeatError


def is_int(value: Any) -> bool:
    """True for a plain or numpy integer, False for bools (``True`` is not seat 1)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_seat(player: Any, num_players: int, what: str = "player") -> int:
    """``player`` as a plain int in ``[0, num_players)``, or a ``SeatError``."""
    if not is_int(player):
        raise SeatError(
            f"{what} must be a seat number (an int in [0, {num_players})), got {type(player).__name__} {player!r}"
        )
    if not 0 <= player < num_players:
        raise SeatError(f"{what} {player} is not a seat of this game; seats are 0 to {num_players - 1}")
    return int(player)


def as_rng(rng: Any) -> random.Random:
    """A ``random.Random`` from what a caller may reasonably pass as a source of randomness:
    a ``random.Random`` (used as is), an int seed, a numpy ``Generator`` (one draw seeds a new
    ``random.Random``, so the caller's generator advances deterministically), or None (fresh
    entropy from the OS)."""
    if isinstance(rng, random.Random):
        return rng
    if rng is None:
        return random.Random(random.SystemRandom().getrandbits(64))
    if is_int(rng):
        return random.Random(int(rng))
    if isinstance(rng, np.random.Generator):
        return random.Random(int(rng.integers(0, 2**63)))
    raise ConfigError(
        f"rng must be a random.Random, an int seed, a numpy Generator or None, got {type(rng).__name__} {rng!r}"
    )
