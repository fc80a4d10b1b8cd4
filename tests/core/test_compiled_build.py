"""The opt-in compiled build (``smuggle_envs/compiled.py``, ``setup.py``): what it compiles, that
the build a process loads is the one it expects, and that a fresh compiled build plays exactly
the games the pure one plays (the engine fingerprint and the core test families, run on it) and
that the search grows the same trees on it for the same seed as on the pure build.

The build test makes the wheel a user's ``SMUGGLE_ENVS_COMPILE=1 pip install .`` makes and
installs it into a folder of its own (``scripts/build_compiled.py``: kept under ``build/`` until
the package's files change), then runs the tests there in a fresh process.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from smuggle_envs import compiled

ROOT = Path(__file__).resolve().parents[2]
EXPECT = "SMUGGLE_ENVS_EXPECT_BUILD"  # the build a test process should have loaded (default: pure)
SEARCH = "SMUGGLE_ENVS_SEARCH_FINGERPRINT"  # the pure build's search fingerprint, given to the compiled run
ON_THE_BUILD = [  # what runs on the compiled build: the fingerprint, the core families, the checks below
    "tests/core/test_engine_fingerprint.py",
    "tests/core/families",
    "tests/core/test_compiled_build.py::test_the_loaded_build_is_the_one_expected",
    "tests/core/test_compiled_build.py::test_the_search_makes_the_same_trees",
]


def test_every_game_compiles_the_same_roles_and_core_its_hot_modules() -> None:
    modules = compiled.engine_modules()
    games = {m.split(".")[2] for m in modules if m.startswith("smuggle_envs.games.")}
    assert games == {p.name for p in (compiled.PACKAGE / "games").iterdir() if (p / "__init__.py").exists()}
    for game in games:
        roles = {m.split(".")[3] for m in modules if m.startswith(f"smuggle_envs.games.{game}.")}
        assert {"state", "steps", "rules", "actions", "encoder", "resample", "game"} <= roles, game
        assert not roles & compiled.COLD, game
    assert {"smuggle_envs.core.driver", "smuggle_envs.core.fields", "smuggle_envs.core.game"} <= set(modules)
    assert "smuggle_envs.games.import_export.powers.modifiers" in modules  # a game's subpackage too
    assert all(f.suffix == ".py" and f.exists() for f in compiled.engine_files())


def test_the_loaded_build_is_the_one_expected() -> None:
    expected = os.environ.get(EXPECT, "pure")
    assert compiled.build() == expected
    assert compiled.describe().startswith("pure Python" if expected == "pure" else f"{expected} build")
    suffix = importlib.machinery.EXTENSION_SUFFIXES if expected == "compiled" else [".py"]
    assert str(compiled.__file__).endswith(".py"), "the build's own module stays Python (setup.py reads it)"
    from smuggle_envs.core import driver

    assert str(driver.__file__).endswith(tuple(suffix))


def test_the_build_backend_asks_for_cython_only_for_the_compiled_build(monkeypatch) -> None:
    backend = _load("build_backend")
    monkeypatch.delenv("SMUGGLE_ENVS_COMPILE", raising=False)
    assert backend._extra() == []
    monkeypatch.setenv("SMUGGLE_ENVS_COMPILE", "1")
    assert backend._extra() == [backend.CYTHON] == ["cython>=3.1"]
    monkeypatch.setenv("SMUGGLE_ENVS_COMPILE", "yes")  # only "1" asks for it, as setup.py reads it
    assert backend._extra() == []


def search_fingerprint() -> str:
    """The hash of IS-MCTS searches (30 simulations, seeded) at positions of seeded random games in
    every game: each search's move and its root's visit counts."""
    import hashlib
    import random

    import smuggle_envs
    from agents import make_agent
    from agents.base import SeatView

    h = hashlib.sha256()
    for env_id in smuggle_envs.ENV_IDS:
        game = smuggle_envs.make_game(env_id)
        agent = make_agent("ismcts:sims=30", game, seed=7)
        state, rng = game.new_initial_state(3), random.Random(3)
        for step in range(60):
            if state.is_terminal():
                break
            if step % 20 == 0:
                h.update(repr(agent.act_in(SeatView(state, state.current_player()))).encode())
                h.update(agent.last_visits.tobytes())
            state.apply_action(rng.choice(state.legal_actions()))
    return h.hexdigest()[:16]


def test_the_search_makes_the_same_trees() -> None:
    # Run on the compiled build, it compares with the pure build's searches (given by the build
    # test); run on the pure one, it checks the searches are a function of their seeds.
    expected = os.environ.get(SEARCH) or search_fingerprint()
    assert search_fingerprint() == expected


def _load(name: str):
    """``scripts/NAME.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_compiled_build_plays_exactly_the_games_of_the_pure_one() -> None:
    target = _load("build_compiled").build()
    assert compiled.build() == os.environ.get(EXPECT, "pure"), "this process runs the build it expects"
    # Run from the build's folder: the interpreter puts its working directory first on the path,
    # so the compiled package is found before the source tree's.
    env = {**os.environ, EXPECT: "compiled", "PYTHONPATH": str(target), SEARCH: search_fingerprint()}
    tests = [str(ROOT / t) for t in ON_THE_BUILD]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "--rootdir", ROOT]
    result = subprocess.run([*command, *tests], cwd=target, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "failed" not in result.stdout
