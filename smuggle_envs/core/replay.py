"""Replays: a game is (env id, config, seed, actions), stored as plain JSON.

A replay names its game by env id. Turning the id into a ``Game`` is the registry's job, one
layer up, so core does not import it: the registry hands core its factory at import time
(``set_game_factory``), and the methods that replay use it unless given the game.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the contract imports this module; these names are for annotations only
    from .game import Game, State


GameFactory = Callable[..., "Game"]
_factory: GameFactory | None = None


def set_game_factory(factory: GameFactory) -> None:
    """Called by the registry: how ``Replay`` turns ``(env_id, **config)`` into a ``Game``."""
    global _factory
    _factory = factory


@dataclasses.dataclass
class Replay:
    env_id: str
    config: dict[str, Any]
    seed: int
    actions: list[int]

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Replay:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("replay JSON must be an object")
        missing = {"env_id", "config", "seed", "actions"} - set(data)
        if missing:
            raise ValueError(f"replay JSON lacks {sorted(missing)}")
        actions, seed = data["actions"], data["seed"]
        if not isinstance(actions, list) or not all(_is_int(a) for a in actions):
            raise ValueError("replay JSON 'actions' must be a list of integers")
        if not _is_int(seed):
            raise ValueError(f"replay JSON 'seed' must be an integer, got {seed!r}")
        if not isinstance(data["config"], dict):
            raise ValueError("replay JSON 'config' must be an object")
        if not isinstance(data["env_id"], str):
            raise ValueError("replay JSON 'env_id' must be a string")
        return cls(data["env_id"], data["config"], seed, actions)

    def game(self) -> Game:
        """The game this replay was played in (its env id and config)."""
        if _factory is None:
            raise RuntimeError("no game registry loaded: import smuggle_envs first")
        return _factory(self.env_id, **self.config)

    def _initial_state(self, game: Game | None) -> State[Any]:
        if game is None:
            game = self.game()
        elif game.env_id != self.env_id:
            raise ValueError(f"this replay is of {self.env_id}, not {game.env_id}")
        return game.new_initial_state(self.seed)

    def states(self, game: Game | None = None) -> Iterator[tuple[State[Any], int | None]]:
        """Yield (snapshot of the state, action about to be applied); the last has action None."""
        state = self._initial_state(game)
        for action in self.actions:
            yield state.clone(), action
            state.apply_action(action)
        yield state, None

    def final_state(self, game: Game | None = None) -> State[Any]:
        state = self._initial_state(game)
        for action in self.actions:
            state.apply_action(action)
        return state


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
