"""Replays: a game is (env id, config, seed, actions), stored as plain JSON."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

from .game import State


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
        return cls(data["env_id"], data["config"], seed, actions)

    def states(self) -> Iterator[tuple[State, int | None]]:
        """Yield (snapshot of the state, action about to be applied); the last has action None."""
        from ..registry import make_game

        state = make_game(self.env_id, **self.config).new_initial_state(self.seed)
        for action in self.actions:
            yield state.clone(), action
            state.apply_action(action)
        yield state, None

    def final_state(self) -> State:
        from ..registry import make_game

        state = make_game(self.env_id, **self.config).new_initial_state(self.seed)
        for action in self.actions:
            state.apply_action(action)
        return state


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
