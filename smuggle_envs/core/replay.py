"""Replays: a game is (env id, config, seed, actions), stored as plain JSON."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Iterator

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
    def from_json(cls, text: str) -> "Replay":
        data = json.loads(text)
        missing = {"env_id", "config", "seed", "actions"} - set(data)
        if missing:
            raise ValueError(f"replay JSON lacks {sorted(missing)}")
        return cls(data["env_id"], data["config"], int(data["seed"]), [int(a) for a in data["actions"]])

    def states(self) -> Iterator[tuple[State, int | None]]:
        """Yield (state, action about to be applied); the last pair has action None."""
        from ..registry import make_game

        state = make_game(self.env_id, **self.config).new_initial_state(self.seed)
        for action in self.actions:
            yield state, action
            state.apply_action(action)
        yield state, None

    def final_state(self) -> State:
        state = None
        for state, _ in self.states():
            pass
        return state
