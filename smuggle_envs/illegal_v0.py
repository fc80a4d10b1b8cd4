"""Illegal (ElPadre) as a PettingZoo AEC env; see ``smuggle_envs.games.illegal``."""

from typing import Any

from . import registry

ENV_ID = "illegal_v0"


def raw_env(**kwargs: Any):
    return registry.raw_env(ENV_ID, **kwargs)


def env(**kwargs: Any):
    return registry.make(ENV_ID, **kwargs)
