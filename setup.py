"""The opt-in compiled build (``smuggle_envs/compiled.py`` says what it compiles and why).

``pip install .`` installs pure Python, as ``pyproject.toml`` describes. With
``SMUGGLE_ENVS_COMPILE=1`` in the environment, the same command also compiles the engine's hot
modules with Cython (pure-Python mode, annotations not read as C types); ``scripts/build_backend.py``
then asks pip for Cython as a build requirement. Everything else about the package is in
``pyproject.toml``.
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent


def compiling() -> bool:
    """Whether this build compiles the engine (``SMUGGLE_ENVS_COMPILE=1``)."""
    return os.environ.get("SMUGGLE_ENVS_COMPILE", "0") == "1"


def extensions() -> list:
    """The Cython extension modules of the compiled build; none for the pure one."""
    if not compiling():
        return []
    from Cython.Build import cythonize

    # Read by path: importing the package would import numpy, which a build environment lacks.
    files = runpy.run_path(str(ROOT / "smuggle_envs" / "compiled.py"))["engine_files"](ROOT / "smuggle_envs")
    directives = {"language_level": 3, "binding": True, "annotation_typing": False}
    sources = [str(f.relative_to(ROOT)) for f in files]
    # The generated C goes under build/ (ignored by git), not beside the sources.
    return cythonize(
        sources, compiler_directives=directives, build_dir="build/cython", nthreads=os.cpu_count() or 1, quiet=True
    )


setup(ext_modules=extensions(), options={"build_ext": {"parallel": os.cpu_count() or 1}})
