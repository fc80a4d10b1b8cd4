"""The build backend: setuptools' own, asking for Cython too when the compiled build is asked for.

``pyproject.toml`` names this module (``backend-path = ["scripts"]``). With
``SMUGGLE_ENVS_COMPILE=1`` in the environment, pip's isolated build environment gets Cython
besides setuptools, and ``setup.py`` compiles the engine (``smuggle_envs/compiled.py``);
without it, this is setuptools' backend unchanged.
"""

from __future__ import annotations

import os

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  (every hook this module does not override)

CYTHON = "cython>=3.1"


def _extra() -> list[str]:
    return [CYTHON] if os.environ.get("SMUGGLE_ENVS_COMPILE", "0") == "1" else []


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    """setuptools' requirements, and Cython for the compiled build."""
    return build_meta.get_requires_for_build_wheel(config_settings) + _extra()


def get_requires_for_build_editable(config_settings=None):  # type: ignore[no-untyped-def]
    """As :func:`get_requires_for_build_wheel`, for ``pip install -e``."""
    return build_meta.get_requires_for_build_editable(config_settings) + _extra()
