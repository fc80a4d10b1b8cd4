"""The registry of env ids. Game modules are imported on first use to keep ``import`` cheap.

The five games of the package are listed here; a game that lives elsewhere (a test fixture's,
another package's) joins with one call to :func:`register`, after which ``make``, ``make_game``,
``ENV_IDS``, ``describe()`` (``smuggle list``) and replays know it like the others. A family of
ids registers itself the first time one of them is asked for (``ON_DEMAND``: the OpenSpiel games
``os_kuhn_poker_v0``, ``os_leduc_poker_v0``, ``os_sheriff_v0`` of ``smuggle_envs.pyspiel_game``),
or when :func:`register_family` is called with its prefix.
"""

from __future__ import annotations

import importlib
import re
import sys
from types import ModuleType
from typing import Any

from .core.errors import ConfigError
from .core.game import Game
from .core.replay import set_game_factory
from .core.spec import set_game_lookup

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


def register(
    env_id: str, game: type[Game], title: str, players: str | None = None, env_module: ModuleType | None = None
) -> None:
    """Register a game that lives outside this package, under ``env_id`` (``<name>_v<N>``, the
    ``env_id`` its ``Game`` class declares): it is appended to ``ENV_IDS`` (rebound here and on the
    ``smuggle_envs`` package, so code that reads ``smuggle_envs.ENV_IDS`` after the call sees it;
    a module that copied the tuple before keeps the old one: register first, e.g. from a pytest
    plugin). ``title`` and ``players`` (default ``"<min>-<max>"``) are what ``describe()`` lists.
    ``env_module``, the game's env module (``ENV_ID``, ``raw_env(**kwargs)``, ``env(**kwargs)``,
    as ``smuggle_envs/<game>_v0.py`` is for a game of the package), becomes importable as
    ``smuggle_envs.<env_id>``. A taken id, or a class that is not the id's ``Game``, is refused.
    ``docs/adding_a_game.md`` walks through it; ``tests/test_sixth_game.py`` proves it."""
    global ENV_IDS
    if not isinstance(env_id, str) or not re.fullmatch(r"[a-z][a-z0-9_]*_v\d+", env_id):
        raise ValueError(f"an env id is <name>_v<N> in lower case, like 'smuggle_v0'; got {env_id!r}")
    if env_id in _GAMES:
        raise ValueError(f"{env_id} is already registered ({_GAMES[env_id][0]}.{_GAMES[env_id][1]})")
    if not (isinstance(game, type) and issubclass(game, Game) and getattr(game, "env_id", None) == env_id):
        raise TypeError(f"{game!r} is not a Game class whose env_id is {env_id!r}")
    if env_module is not None and not (
        getattr(env_module, "ENV_ID", None) == env_id and callable(getattr(env_module, "raw_env", None))
    ):
        raise TypeError(f"{env_module!r} is not {env_id}'s env module (ENV_ID = {env_id!r}, raw_env, env)")
    players = players or f"{game.min_players}-{game.max_players}"
    _GAMES[env_id] = (game.__module__, game.__qualname__, title, players)
    ENV_IDS = (*ENV_IDS, env_id)
    package = sys.modules.get(__package__ or "")
    if package is not None:
        package.ENV_IDS = ENV_IDS  # type: ignore[attr-defined]
    if env_module is not None:
        sys.modules[f"{__package__}.{env_id}"] = env_module
        if package is not None:
            setattr(package, env_id, env_module)


# Families of env ids registered on first use, by prefix: "module:TABLE" names a dict of env id ->
# game class that the registry registers. Named by string (imported only then), so the registry
# imports nothing above it and ENV_IDS stays the package's games until one of these ids is asked
# for (``smuggle exploit ... --env os_kuhn_poker_v0``); the family's module only declares its
# games and never imports the registry back (no import cycle, not even through the string).
ON_DEMAND = {"os_": "smuggle_envs.pyspiel_game:OPENSPIEL_GAMES"}


def register_family(prefix: str) -> tuple[str, ...]:
    """Register every env id of the ``ON_DEMAND`` family ``prefix`` (each once; calling again does
    nothing) and return them. Afterwards they are in ``ENV_IDS`` and every layer finds them like
    the others."""
    if prefix not in ON_DEMAND:
        raise ConfigError(f"no family of env ids starts with {prefix!r}; families: {sorted(ON_DEMAND)}")
    module, _, table = ON_DEMAND[prefix].partition(":")
    games: dict[str, type[Game]] = getattr(importlib.import_module(module), table)
    for env_id, cls in games.items():
        if env_id not in _GAMES:
            low, high = cls.min_players, cls.max_players
            title = getattr(cls, "title", env_id)  # a family's classes name themselves (OpenSpielGame.title)
            register(env_id, cls, title, str(low) if low == high else f"{low}-{high}")
    return tuple(games)


def _register_on_demand(env_id: str) -> None:
    """Register the family of ``env_id`` if it belongs to one of ``ON_DEMAND`` (once)."""
    for prefix in ON_DEMAND:
        if env_id.startswith(prefix):
            try:
                register_family(prefix)
            except ImportError as exc:
                raise ConfigError(f"{env_id!r} needs OpenSpiel: pip install -e '.[openspiel]' ({exc})") from None


def game_class(env_id: str) -> type[Game]:
    if isinstance(env_id, str) and env_id not in _GAMES:
        _register_on_demand(env_id)
    try:
        module, name, _, _ = _GAMES[env_id]
    except KeyError:
        raise ConfigError(f"unknown env id {env_id!r}; known ids are {list(ENV_IDS)}") from None
    return getattr(importlib.import_module(module), name)


def make_game(env_id: str, **config: Any) -> Game:
    return game_class(env_id)(**config)


set_game_factory(make_game)
set_game_lookup(game_class)


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
