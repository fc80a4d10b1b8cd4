"""A fingerprint of every game's engine: seeded random games of each game at each player count,
with every seat's observation, the legal actions and mask, the full and per-seat renders, each
action's text as every seat reads it, a resampled world every 25 decisions and the returns under
every reward mode, hashed in order.

``python tests/core/engine_fingerprint.py`` writes ``tests/core/data/engine_fingerprint.json``;
``test_engine_fingerprint.py`` checks the engines still produce exactly the same (a refactor or a
speed-up of an engine must not change what it does). Regenerate only for an intended change of
behaviour, and say so. The stored file was made from the code before issue #35's refactor (with
``PYTHONPATH`` pointing at that tree, which this script honours before its own).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data" / "engine_fingerprint.json"
GAMES, MAX_DECISIONS, RESAMPLE_EVERY = 2, 150, 25
MODES = ("win_loss", "score")


def fingerprint(env_id: str, players: int) -> str:
    """The hash of ``GAMES`` seeded random games of ``env_id`` at ``players`` seats."""
    from smuggle_envs.registry import make_game

    game = make_game(env_id, num_players=players)
    h = hashlib.sha256()
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        for step in range(MAX_DECISIONS):
            if state.is_terminal():
                break
            _hash_position(h, state, players)
            action = rng.choice(state.legal_actions())
            for viewer in range(players):
                h.update(state.action_to_string(action, viewer).encode())
            if step % RESAMPLE_EVERY == 0:
                world = state.resample(state.current_player(), random.Random(step))
                _hash_position(h, world, players)
            state.apply_action(action)
        _hash_position(h, state, players)
        for mode in MODES:
            h.update(repr(state.returns(mode)).encode())
    return h.hexdigest()[:16]


def _hash_position(h: Any, state: Any, players: int) -> None:
    h.update(repr(state.legal_actions()).encode())
    h.update(state.legal_action_mask().tobytes())
    h.update(state.render().encode())
    for p in range(players):
        h.update(state.observation(p).tobytes())
        h.update(state.render(p).encode())


def cases() -> list[tuple[str, int]]:
    from smuggle_envs.registry import ENV_IDS, game_class

    return [(e, n) for e in ENV_IDS for n in range(game_class(e).min_players, game_class(e).max_players + 1)]


if __name__ == "__main__":
    sys.path.append(str(ROOT))  # after PYTHONPATH: a tree named there is the one fingerprinted
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps({f"{e}@{n}": fingerprint(e, n) for e, n in cases()}, indent=1) + "\n")
