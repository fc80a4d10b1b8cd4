"""Build the opt-in compiled engine into a folder of its own, for tests and benchmarks.

    python scripts/build_compiled.py      # prints the folder (made now unless already made)

Makes the wheel a user's ``SMUGGLE_ENVS_COMPILE=1 pip install .`` makes (``setup.py``), without
build isolation (no download: the dev extra has Cython), and installs its ``smuggle_envs`` alone
into ``build/compiled/<key>/``. A process started there (or with that folder first on
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


def _build(target: Path) -> Path:
    if (target / "smuggle_envs").exists():
        return target
    shutil.rmtree(CACHE, ignore_errors=True)
    wheels, partial = CACHE / "wheel", CACHE / "partial"
    env = {**os.environ, "SMUGGLE_ENVS_COMPILE": "1"}
    pip = [sys.executable, "-m", "pip", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", wheels, ROOT], env=env, check=True)
    subprocess.run([*pip, "install", "--no-deps", "--target", partial, *wheels.glob("*.whl")], check=True)
    # Only the engine package: agents and training come from the source tree.
    for other in partial.iterdir():
        if other.name != "smuggle_envs":
            shutil.rmtree(other) if other.is_dir() else other.unlink()
    partial.rename(target)
    shutil.rmtree(wheels)
    return target


if __name__ == "__main__":
    print(build())
