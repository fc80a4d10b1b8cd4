"""The registry of env ids. Game modules are imported on first use to keep ``import`` cheap."""

from __future__ import annotations

import importlib
from typing import Any

from .core.errors import ConfigError
from .core.game import Game
from .core.replay import set_game_factory

_GAMES = {
    "smuggle_v0": ("smuggle_envs.games.smuggle", "SmuggleGame", "Smuggle (MB Games 1981)", "3-6"),
    "ciq_v0": ("smuggle_envs.games.ciq", "CIQGame", "CIQ (Jason Reed)", "2-6"),
    "illegal_v0": ("smuggle_envs.games.illegal", "IllegalGame", "Illegal (ElPadre)", "2-6"),
    "humble_smuggle_v0": ("smuggle_envs.games.humble_smuggle", "HumbleSmuggleGame", "Humble smuggle", "2-5"),
    "import_export_v0": (
        "smuggle_envs.games.import_export",
        "ImportExportGame",
        "Import / Export (Dark Flight Games)",
        "2-6",
    ),
}

ENV_IDS: tuple[str, ...] = tuple(_GAMES)

# Options consumed by the AEC wrapper rather than by the game's config.
ENV_OPTIONS = ("render_mode", "reward_mode", "max_turns", "render_perspective")


def game_class(env_id: str) -> type[Game]:
    try:
        module, name, _, _ = _GAMES[env_id]
    except KeyError:
        raise ConfigError(f"unknown env id {env_id!r}; known ids are {list(ENV_IDS)}") from None
    return getattr(importlib.import_module(module), name)


def make_game(env_id: str, **config: Any) -> Game:
    return game_class(env_id)(**config)


set_game_factory(make_game)


def describe() -> list[dict[str, str]]:
    return [{"env_id": env_id, "game": title, "players": players} for env_id, (_, _, title, players) in _GAMES.items()]


def split_options(kwargs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    env_kwargs = {k: v for k, v in kwargs.items() if k in ENV_OPTIONS}
    game_kwargs = {k: v for k, v in kwargs.items() if k not in ENV_OPTIONS}
    return env_kwargs, game_kwargs


def raw_env(env_id: str, **kwargs: Any):
    from .core.env import GameEnv

    env_kwargs, game_kwargs = split_options(kwargs)
    return GameEnv(make_game(env_id, **game_kwargs), **env_kwargs)


def make(env_id: str, **kwargs: Any):
    """The wrapped AEC env: PettingZoo's OrderEnforcingWrapper over the generic ``GameEnv``."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(env_id, **kwargs))
