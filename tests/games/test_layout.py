"""Every game package has the same files in the same roles (see each package's ``__init__``). Its
``rules.py`` assembles the State from them: the step from ``steps.py``, the resample from
``resample.py``, the text from ``render.py``. Its ``game.py`` holds the one Game class, which
declares what core builds it from (``state_class``, ``build_layout``, ``encoder_class``) rather
than overriding the same hooks in every game; ``rules.py`` makes the declaration. Scenarios (``scenarios.py``) are for tests and
tutorials: no module of the engine imports them (the tests bind ``arrange``, ``tests/conftest.py``)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import smuggle_envs

ROLES = (
    "vocab",
    "actions",
    "data",
    "game",
    "state",
    "steps",
    "resample",
    "scenarios",
    "encoder",
    "render",
    "text",
    "rules",
)
ENGINE = ("game", "state", "steps", "resample", "encoder", "render", "text", "rules")


def package(env_id: str) -> str:
    return smuggle_envs.registry.game_class(env_id).__module__.rsplit(".", 1)[0]


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_every_game_has_the_same_files(env_id):
    for role in ROLES:
        importlib.import_module(f"{package(env_id)}.{role}")


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_the_state_is_assembled_from_the_game_modules(env_id):
    game = smuggle_envs.make_game(env_id)
    state_class = type(game.new_initial_state(0))
    where = {"_apply": "steps", "_resample": "resample", "_render": "render"}
    for method, role in where.items():
        assert getattr(state_class, method).__module__ == f"{package(env_id)}.{role}", method
    assert state_class.__module__ == f"{package(env_id)}.rules"
    assert type(game).__module__ == f"{package(env_id)}.game"


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_the_game_is_one_class_of_declarations(env_id):
    """No per-game assembly class: the game's one class declares its state, layout and encoder,
    and core builds them (no game overrides the hooks that would do it by hand)."""
    game_class = smuggle_envs.registry.game_class(env_id)
    own = [c for c in game_class.__mro__ if c.__module__.startswith(package(env_id))]
    assert own == [game_class]
    for hook in ("new_initial_state", "_build_layout", "_make_encoder", "observation_layout", "encoder"):
        assert hook not in vars(game_class), hook
    with pytest.raises(TypeError, match="declared already"):
        game_class.declare(state_class=game_class.state_class, build_layout=game_class.build_layout)
    game = game_class()
    assert type(game.new_initial_state(0)) is game_class.state_class
    assert isinstance(game.encoder, game_class.encoder_class)  # type: ignore[arg-type]


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_no_engine_module_imports_the_scenarios(env_id):
    folder = Path(importlib.import_module(package(env_id)).__file__).parent
    for role in ENGINE:
        tree = ast.parse((folder / f"{role}.py").read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for a in node.names}
        assert "scenarios" not in imported, f"{role}.py imports the scenarios"


def test_a_declaration_takes_only_the_known_text_methods():
    class Bare(smuggle_envs.core.Game):
        env_id = "bare_v0"
        num_actions = 1

        def action_to_string(self, action: int) -> str:
            return "a"

    with pytest.raises(TypeError, match=r"declare\(\) takes no \['render'\]"):
        Bare.declare(state_class=object, build_layout=lambda game: None, render=str)  # type: ignore[arg-type]
    assert "state_class" not in vars(Bare)
