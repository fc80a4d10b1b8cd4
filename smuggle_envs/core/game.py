"""The engine contract every game implements (OpenSpiel's Game/State split).

``Game`` is immutable and built from a config dataclass. ``State`` is a mutable, cheap game
position that carries its own seeded RNG, so a game is a pure function of (config, seed, actions)
whatever the global RNGs do.

The public ``State.apply_action`` is the single step that owns the cross-cutting rules (as in
Pgx): it checks the action's type, range and legality, refuses actions after the game ended, and
records the history; games implement only ``_apply``. A refused action raises and leaves the
state untouched, because validation happens before any mutation.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from .errors import ConfigError, GameOverError, IllegalActionError, MalformedActionError
from .layout import ObservationLayout
from .outcomes import rewards as _rewards

TERMINAL = -1
"""``State.current_player()`` once the game is over."""


@dataclasses.dataclass(frozen=True)
class GameConfig:
    """Base of every game's config. Subclasses add rule variants as fields with defaults."""

    num_players: int = 4

    def validate(self, min_players: int, max_players: int) -> None:
        if isinstance(self.num_players, bool) or not isinstance(self.num_players, int):
            raise ConfigError(f"num_players must be an int, got {self.num_players!r}")
        if not min_players <= self.num_players <= max_players:
            raise ConfigError(
                f"num_players={self.num_players} is out of range; this game takes "
                f"{min_players} to {max_players} players"
            )

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Game(ABC):
    """An immutable game definition: rules variant, sizes, layout."""

    env_id: ClassVar[str]
    config_class: ClassVar[type[GameConfig]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    def __init__(self, config: GameConfig | None = None, **kwargs: Any):
        if config is not None and kwargs:
            raise ConfigError("give either a config object or keyword arguments, not both")
        self.config = config if config is not None else self.make_config(**kwargs)
        if not isinstance(self.config, self.config_class):
            raise ConfigError(f"expected a {self.config_class.__name__}, got {type(self.config).__name__}")
        self.config.validate(self.min_players, self.max_players)
        self.num_players = self.config.num_players

    @classmethod
    def make_config(cls, **kwargs: Any) -> GameConfig:
        known = {f.name for f in dataclasses.fields(cls.config_class)}
        unknown = sorted(set(kwargs) - known)
        # numpy integers (e.g. from a sweep) become plain ints so configs stay JSON-friendly.
        kwargs = {k: int(v) if isinstance(v, np.integer) else v for k, v in kwargs.items()}
        if unknown:
            raise ConfigError(f"unknown option(s) {unknown} for {cls.env_id}; valid options are {sorted(known)}")
        return cls.config_class(**kwargs)

    @property
    @abstractmethod
    def num_actions(self) -> int: ...

    @property
    @abstractmethod
    def observation_layout(self) -> ObservationLayout: ...

    @property
    def score_scale(self) -> float:
        """The natural unit of a score difference, used by the normalised-score reward."""
        return 1.0

    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> State: ...

    @abstractmethod
    def action_to_string(self, action: int) -> str: ...

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config})"


def new_seed() -> int:
    """A fresh seed from the OS, for games started without one (kept so they can be replayed)."""
    return random.SystemRandom().getrandbits(63)


class State(ABC):
    """A game position. Subclasses implement the underscore methods and the abstract ones."""

    def __init__(self, game: Game, seed: int | None):
        self.game = game
        self.seed = new_seed() if seed is None else _check_seed(seed)
        self.rng = random.Random(self.seed)
        self.history: list[int] = []
        self._num_actions = game.num_actions

    # ----- the contract --------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat that decides next, or ``TERMINAL``."""

    @abstractmethod
    def legal_actions(self) -> Sequence[int]:
        """Legal actions of the current player, ascending. Empty once terminal."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    def is_truncated(self) -> bool:
        """True when a terminal state was reached by a game's own cap (a turn limit) rather
        than by its rules; the env reports it as truncation."""
        return False

    @abstractmethod
    def scores(self) -> list[float]:
        """Raw scores of every seat (money, points). Before the end they must use only public
        information (self-play reads them every step as a dense reward), so a game with hidden
        scoring cards reports its public part until the game is over."""

    @abstractmethod
    def observation(self, player: int) -> np.ndarray:
        """The float32 observation of ``player``, seat-relative; see the game's layout."""

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def resample(self, player: int, rng: random.Random) -> State:
        """A copy consistent with everything ``player`` has observed, hidden cards redrawn."""

    @abstractmethod
    def render(self, player: int | None = None) -> str:
        """Text of the table: everything if ``player`` is None, else what that seat sees."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an action already known to be legal."""

    # ----- shared behaviour ----------------------------------------------------------------
    def apply_action(self, action: Any) -> None:
        action = self.check_action(action)
        self._apply(action)
        self.history.append(action)

    def check_action(self, action: Any) -> int:
        """Return ``action`` as an int, or raise a clear error; never mutates the state."""
        if type(action) is int and 0 <= action < self._num_actions and self._is_legal(action):
            return action  # the common case, kept cheap; ``_is_legal`` is False once terminal
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise MalformedActionError(
                f"an action must be an int in [0, {self.game.num_actions}), got {type(action).__name__} {action!r}"
            )
        action = int(action)
        if self.is_terminal():
            raise GameOverError(f"the game is over; action {action} was not applied", action, [])
        legal = list(self.legal_actions())
        shown = ", ".join(f"{a} ({self.game.action_to_string(a)})" for a in legal[:12])
        shown += f", ... ({len(legal)} in all)" if len(legal) > 12 else ""
        if not 0 <= action < self.game.num_actions:
            raise IllegalActionError(
                f"action {action} is out of range [0, {self.game.num_actions}); legal actions: {shown}",
                action,
                legal,
            )
        if not self._is_legal(action):
            raise IllegalActionError(
                f"action {action} ({self.game.action_to_string(action)}) is not legal for "
                f"player {self.current_player()} now; legal actions: {shown}",
                action,
                legal,
            )
        return action

    def _is_legal(self, action: int) -> bool:
        return action in self.legal_actions()

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        mask[list(self.legal_actions())] = 1
        return mask

    def returns(self, mode: str = "win_loss") -> list[float]:
        """Final rewards of every seat under a reward mode (see ``core.outcomes``)."""
        return _rewards(self.scores(), mode, self.game.score_scale)

    def action_to_string(self, action: int) -> str:
        return self.game.action_to_string(action)

    def to_replay(self):
        from .replay import Replay

        if self.__dict__.get("_not_replayable"):
            raise ValueError(f"this state cannot be replayed from (config, seed, actions): {self._not_replayable}")
        return Replay(self.game.env_id, self.game.config.to_dict(), self.seed, list(self.history))

    def __str__(self) -> str:
        return self.render()


def _check_seed(seed: Any) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ConfigError(f"a seed must be an int, got {type(seed).__name__} {seed!r}")
    if seed < 0:
        # random.Random(-s) deals the same game as random.Random(s): refuse rather than alias.
        raise ConfigError(f"a seed must be a non-negative int, got {seed}")
    return int(seed)
