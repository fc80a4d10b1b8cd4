"""Replays: a game is (env id, config, seed, actions), stored as plain JSON.

A replay names its game by env id. Turning the id into a ``Game`` is the registry's job, one
layer up, so core does not import it: the registry hands core its factory at import time
(``set_game_factory``), and the methods that replay use it unless given the game.

``Replay`` is defined in ``core/game.py``, beside the ``State`` that makes one (``to_replay``) and
that it rebuilds, so that the two modules do not import each other; this is its public home.
"""

from __future__ import annotations

from .game import GameFactory, Replay, set_game_factory

__all__ = ["GameFactory", "Replay", "set_game_factory"]
