"""A game named by value: ``GameSpec(env_id, config)``, an env id and the options it is built with.

What every layer above passes around when it means "this game, with these options" (a command's
game, a training run's, a tournament's, a stored game's), instead of an ``(env_id, config)``
pair. It is checked when made: an unknown env id, an unknown option or a bad value is a
``ConfigError`` on one line, the same one building the game gives. It knows its player count
(the ``num_players`` option, else the game's default), builds the game, and goes to and from
JSON (a database row, a replay) as ``{"env_id": ..., "config": {...}}``: the options it was
given, nothing added.

    >>> spec = GameSpec("smuggle_v0", {"num_players": 3})
    >>> spec.num_players, spec.with_players(5).num_players
    (3, 5)
    >>> game = spec.make_game()

Turning an env id into its game class is the registry's job, one layer up, so core does not
import it: the registry hands core its lookup at import time (``set_game_lookup``), as it does
for ``Replay``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import ConfigError

if TYPE_CHECKING:
    from .game import Game, GameConfig

GameLookup = Callable[[str], "type[Game]"]
_lookup: GameLookup | None = None


def set_game_lookup(lookup: GameLookup) -> None:
    """Called by the registry: how a ``GameSpec`` finds the game class of an env id."""
    global _lookup
    _lookup = lookup


def _plain(value: Any) -> Any:
    """An option's value as JSON would hold it: numpy integers (e.g. from a sweep) become ints."""
    return int(value) if isinstance(value, np.integer) else copy.deepcopy(value)


def _hashable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value


@dataclass(frozen=True, repr=False)
class GameSpec:
    """An env id and the options of its game (``config``: read-only, only the options given).

    Made, it is valid: ``ConfigError`` names an unknown env id, option or value. Equal specs
    (same id, same options) are equal and hash alike; a spec pickles (worker processes)."""

    env_id: str
    config: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.env_id, str):
            raise ConfigError(f"an env id must be a string, got {self.env_id!r}")
        if not isinstance(self.config, Mapping):
            raise ConfigError(f"a game's config must be a mapping of options, got {self.config!r}")
        options = {k: _plain(v) for k, v in self.config.items()}
        object.__setattr__(self, "config", MappingProxyType(options))
        self.game_config()  # an unknown id, option or value fails here, not later

    # ----- the game --------------------------------------------------------------------------
    def game_class(self) -> type[Game]:
        """The class of the game (the registry's lookup; ``ConfigError`` for an unknown id)."""
        if _lookup is None:
            raise RuntimeError("no game registry loaded: import smuggle_envs first")
        return _lookup(self.env_id)

    def game_config(self) -> GameConfig:
        """The game's full, checked config: these options over the game's defaults."""
        cls = self.game_class()
        config = cls.make_config(**self.config)
        config.validate(cls.min_players, cls.max_players)
        return config

    @property
    def num_players(self) -> int:
        """The player count: the ``num_players`` option, else the game's default."""
        return int(self.game_config().num_players)

    def make_game(self) -> Game:
        """A new ``Game`` with these options (what ``smuggle_envs.make_game(env_id, **config)`` builds)."""
        return self.game_class()(**self.config)

    def with_players(self, num_players: int) -> GameSpec:
        """The same game and options at ``num_players`` players (checked: ``ConfigError``)."""
        return GameSpec(self.env_id, {**self.config, "num_players": num_players})

    # ----- JSON ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """``{"env_id": ..., "config": {...}}``, a fresh copy: the options given, nothing added."""
        return {"env_id": self.env_id, "config": copy.deepcopy(dict(self.config))}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSpec:
        """The spec of ``to_dict``'s output (``config`` may be left out: no options)."""
        if not isinstance(data, Mapping) or "env_id" not in data:
            raise ConfigError(f"a game spec is an object with 'env_id' and 'config', got {data!r}")
        return cls(data["env_id"], data.get("config", {}))

    # ----- value semantics -------------------------------------------------------------------
    def __hash__(self) -> int:
        return hash((self.env_id, _hashable(self.config)))

    def __repr__(self) -> str:
        return f"GameSpec({self.env_id!r}, {dict(self.config)!r})"

    def __reduce__(self) -> tuple[type[GameSpec], tuple[str, dict[str, Any]]]:
        return (GameSpec, (self.env_id, dict(self.config)))
