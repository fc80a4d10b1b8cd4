"""smuggle_envs: smuggling and customs card games as PettingZoo AEC environments.

>>> import smuggle_envs
>>> env = smuggle_envs.make("smuggle_v0", num_players=4)
"""

from .core.spec import GameSpec
from .registry import ENV_IDS, game_class, make, make_game, raw_env

__version__ = "0.1.0"
__all__ = ["ENV_IDS", "GameSpec", "__version__", "game_class", "make", "make_game", "raw_env"]
