"""The rule registry (``agents.rule``): one bot module a game, found by listing the package, and
every env in ``smuggle_envs.ENV_IDS`` has one."""

from __future__ import annotations

import importlib
import sys
import types

import pytest

from agents import AGENT_KINDS, make_agent
from agents.plugins import PluginError, PluginRegistry
from agents.rule import RULE_AGENTS
from smuggle_envs import ENV_IDS, make_game


def test_every_game_has_a_rule_bot():
    assert not RULE_AGENTS.missing(ENV_IDS), RULE_AGENTS.describe_missing(ENV_IDS)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_each_bot_module_declares_its_game_and_class(env_id):
    module = RULE_AGENTS.modules()[env_id]
    assert module.__name__ == f"agents.rule.{env_id.rsplit('_v', 1)[0]}"
    assert module.AGENT.env_id == module.ENV_ID == env_id
    assert RULE_AGENTS[env_id] == f"{module.__name__}:{module.AGENT.__name__}"
    assert AGENT_KINDS["rule"][env_id] == RULE_AGENTS[env_id]
    assert type(make_agent("rule", make_game(env_id), seed=0)) is module.AGENT


def test_a_missing_game_is_named_with_the_file_to_add():
    text = RULE_AGENTS.describe_missing([*ENV_IDS, "dice_v0"])
    assert text == "dice_v0 lacks a module in agents.rule: add agents/rule/dice.py defining ENV_ID and AGENT"
    assert RULE_AGENTS.describe_missing(ENV_IDS) == ""


def _fake_package(monkeypatch, tmp_path, name: str, files: dict[str, str]) -> str:
    """A throwaway plugin package ``name`` on ``sys.path`` (each test its own name: the modules
    imported stay in ``sys.modules``)."""
    package = tmp_path / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    for file, text in files.items():
        (package / file).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    return name


def test_a_module_without_its_declarations_or_a_second_one_for_a_game_is_refused(monkeypatch, tmp_path):
    name = _fake_package(
        monkeypatch,
        tmp_path,
        "fake_plugins",
        {"_shared.py": "X = 1\n", "dice.py": "ENV_ID = 'dice_v0'\nAGENT = 1\n", "oops.py": "AGENT = 2\n"},
    )
    with pytest.raises(PluginError, match=r"fake_plugins\.oops .* must define ENV_ID"):
        PluginRegistry(name, "AGENT").modules()
    (tmp_path / name / "oops.py").write_text("ENV_ID = 'dice_v0'\nAGENT = 2\n")
    monkeypatch.delitem(sys.modules, f"{name}.oops", raising=False)
    with pytest.raises(PluginError, match="two modules of fake_plugins serve dice_v0"):
        PluginRegistry(name, "AGENT").modules()


def test_the_registry_is_read_on_first_use_and_skips_shared_modules(monkeypatch, tmp_path):
    name = _fake_package(
        monkeypatch,
        tmp_path,
        "fake_lazy_plugins",
        {"_shared.py": "raise RuntimeError\n", "dice.py": "ENV_ID = 'dice_v0'\nAGENT = 7\n"},
    )
    registry = PluginRegistry(name, "AGENT")
    assert "not listed yet" in repr(registry)
    assert dict(registry) == {"dice_v0": 7} and isinstance(registry.modules()["dice_v0"], types.ModuleType)


def test_a_game_that_lives_elsewhere_registers_its_module(monkeypatch, tmp_path):
    name = _fake_package(monkeypatch, tmp_path, "fake_register_plugins", {"dice.py": "ENV_ID = 'dice_v0'\nAGENT = 7\n"})
    registry = PluginRegistry(name, "AGENT")
    assert dict(registry) == {"dice_v0": 7} and registry.missing(["dice_v0", "coins_v0"]) == ["coins_v0"]
    fixture = types.ModuleType("tests.fixture_games.coins")
    fixture.ENV_ID, fixture.AGENT = "coins_v0", 8
    registry.register(fixture)
    assert dict(registry) == {"dice_v0": 7, "coins_v0": 8} and not registry.missing(["dice_v0", "coins_v0"])
    with pytest.raises(PluginError, match="two modules of fake_register_plugins serve coins_v0"):
        registry.register(fixture)


def test_require_is_the_one_typed_lookup(monkeypatch, tmp_path):
    files = {"dice.py": "ENV_ID = 'dice_v0'\nAGENT = 7\n", "coins.py": "ENV_ID = 'coins_v0'\nAGENT = 'eight'\n"}
    name = _fake_package(monkeypatch, tmp_path, "fake_require_plugins", files)
    registry: PluginRegistry[int] = PluginRegistry(name, "AGENT", kind=int)
    assert registry.require("dice_v0") == 7
    with pytest.raises(LookupError, match=rf"^cards_v0 lacks a module in {name}: add {name}/cards\.py defining"):
        registry.require("cards_v0")
    with pytest.raises(PluginError, match=rf"^{name}\.coins\.AGENT must be a int, not str$"):
        registry.require("coins_v0")
    assert PluginRegistry(name, "AGENT").require("coins_v0") == "eight"  # no kind: no check


def test_the_layers_lookups_are_require():
    from training.bluffing.games import CLAIMS, GameClaims, plugin
    from training.web.games import GAMES, WebGame, web_game

    assert CLAIMS.kind is GameClaims and GAMES.kind is WebGame
    assert plugin("ciq_v0") is CLAIMS.require("ciq_v0") and web_game("ciq_v0") is GAMES.require("ciq_v0")
    for lookup in (plugin, web_game):
        with pytest.raises(LookupError, match="dice_v0 lacks a module"):
            lookup("dice_v0")
