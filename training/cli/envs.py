"""``smuggle list``: every env id with its game, player range and default player count, and the
observation size and number of actions at that count, then the engine build loaded (pure Python
or compiled: ``smuggle_envs.compiled``). It loads no agents, so it starts at once."""

from __future__ import annotations

import argparse

from smuggle_envs import compiled, registry
from training.stats import format_table


def cmd_list(args: argparse.Namespace) -> int:
    rows = []
    for entry in registry.describe():
        game = registry.make_game(entry["env_id"])
        rows.append(
            [
                entry["env_id"],
                entry["game"],
                entry["players"],
                game.num_players,
                game.observation_layout.size,
                game.num_actions,
            ]
        )
    print(format_table(["env id", "game", "players", "default", "obs size", "actions"], rows, align="lllrrr"))
    print("\nobs size and actions are at the default player count.")
    print(f"engine: {compiled.describe()}")
    return 0
