"""Build the opt-in compiled engine into a folder of its own, for tests and benchmarks.

    python scripts/build_compiled.py      # prints the folder (made now unless already made)

Makes the wheel a user's ``SMUGGLE_ENVS_COMPILE=1 pip install .`` makes (``setup.py``), from a
copy of the engine package and the build files, without build isolation (no download: the dev
extra has Cython), and installs its ``smuggle_envs`` into ``build/compiled/<key>/``. A process started there (or with that folder first on
``PYTHONPATH``) runs the compiled engine; the layers above still come from the source tree.
``<key>`` hashes the package's files, Cython's version and the build files, so a folder is made
again only when one of them changes (a build takes a few minutes on 2 cores).
``tests/core/test_compiled_build.py`` and ``benchmarks/compiled_build.py`` use it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no lock (one build at a time is then the caller's to keep)
    fcntl = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "build" / "compiled"


def key() -> str:
    """The hash of what the build depends on: Cython's version, the build files, the package."""
    import Cython

    h = hashlib.sha256(Cython.__version__.encode())
    files = [ROOT / "setup.py", ROOT / "scripts" / "build_backend.py", *sorted((ROOT / "smuggle_envs").rglob("*"))]
    for f in files:
        if f.is_file() and "__pycache__" not in f.parts:
            h.update(str(f.relative_to(ROOT)).encode() + f.read_bytes())
    return h.hexdigest()[:16]


def build() -> Path:
    """The folder holding this tree's compiled ``smuggle_envs`` (built now unless it exists).
    One process builds at a time (a lock file beside the cache): ``scripts/test.sh`` starts a
    build while the linters run, and the suite's test waits for it instead of building again."""
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    with open(CACHE.parent / "compiled.lock", "w", encoding="utf-8") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        return _build(CACHE / key())


SOURCES = ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "scripts/build_backend.py", "smuggle_envs")


def _build(target: Path) -> Path:
    if (target / "smuggle_envs").exists():
        return target
    shutil.rmtree(CACHE, ignore_errors=True)
    # Built from a copy of the engine package and the build files alone: the wheel then holds
    # only ``smuggle_envs``, and the build never writes into the tree (so it can run while
    # ``pip install -e .`` does).
    source, wheels, partial = CACHE / "source", CACHE / "wheel", CACHE / "partial"
    for name in SOURCES:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        else:
            shutil.copy2(ROOT / name, source / name)
    env = {**os.environ, "SMUGGLE_ENVS_COMPILE": "1"}
    pip = [sys.executable, "-m", "pip", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", wheels, source], env=env, check=True)
    subprocess.run([*pip, "install", "--no-deps", "--target", partial, *wheels.glob("*.whl")], check=True)
    partial.rename(target)
    shutil.rmtree(wheels)
    shutil.rmtree(source)
    return target


if __name__ == "__main__":
    print(build())
