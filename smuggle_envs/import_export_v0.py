"""Import / Export (Dark Flight Games) as a PettingZoo AEC env; see ``smuggle_envs.games.import_export``."""

from typing import Any

from . import registry

ENV_ID = "import_export_v0"


def raw_env(**kwargs: Any):
    return registry.raw_env(ENV_ID, **kwargs)


def env(**kwargs: Any):
    return registry.make(ENV_ID, **kwargs)
