"""What every test shares: each game's scenario hook (``scenarios.arrange``) bound as a method of
its State, so that a test lays a position out with ``state.arrange(...)``. The binding lives here,
with the tests: the engine never binds it, and no engine module imports the scenarios. A game
without a ``scenarios`` module (the sixth-game fixture, registered by its plugin) has none."""

from __future__ import annotations

import importlib
import importlib.util

import smuggle_envs

for _env_id in smuggle_envs.ENV_IDS:
    _game = smuggle_envs.registry.game_class(_env_id)
    _name = _game.__module__.rsplit(".", 1)[0] + ".scenarios"
    if importlib.util.find_spec(_name) is not None:
        _game.state_class.arrange = importlib.import_module(_name).arrange  # type: ignore[attr-defined]
