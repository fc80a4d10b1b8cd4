"""The game-agnostic core: engine contract, observation layout, game specs, replay, AEC wrapper."""

from .env import GameEnv
from .errors import ConfigError, DataError, GameOverError, IllegalActionError, MalformedActionError, SmuggleEnvsError
from .game import TERMINAL, Game, GameConfig, State
from .layout import ObservationLayout, Piece
from .outcomes import REWARD_MODES
from .replay import Replay
from .spec import GameSpec

__all__ = [
    "REWARD_MODES",
    "TERMINAL",
    "ConfigError",
    "DataError",
    "Game",
    "GameConfig",
    "GameEnv",
    "GameOverError",
    "GameSpec",
    "IllegalActionError",
    "MalformedActionError",
    "ObservationLayout",
    "Piece",
    "Replay",
    "SmuggleEnvsError",
    "State",
]
