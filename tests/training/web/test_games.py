"""The browser app's game registry (``training.web.games.GAMES``): one plugin module a game, found by
listing the package, and every env in ``smuggle_envs.ENV_IDS`` has one; a game without one is
named with the file to add, never drawn as an empty table."""

from __future__ import annotations

import types

import pytest

import smuggle_envs
from agents.plugins import PluginError, PluginRegistry
from training.web import cards, decisions, marks, rules, views
from training.web.games import GAMES, WebGame, web_game


def test_every_game_has_a_web_module():
    """The completeness test: it names the file a registered game lacks."""
    env_ids = smuggle_envs.ENV_IDS  # read now: a game registered from outside counts too
    assert not GAMES.missing(env_ids), GAMES.describe_missing(env_ids)


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_each_module_declares_its_game_and_its_parts(env_id):
    """``ENV_ID`` and a ``WebGame``; a built-in game draws its cards and has card tables."""
    module = GAMES.modules()[env_id]
    if module.__name__.startswith("training.web."):  # else a game's module registered from outside
        assert module.__name__ == f"training.web.games.{env_id.rsplit('_v', 1)[0]}"
    assert env_id == module.ENV_ID and isinstance(module.WEB, WebGame) and web_game(env_id) is module.WEB
    state = smuggle_envs.make_game(env_id, num_players=3).new_initial_state(0)
    zones = cards.seat_zones(state.game, state.observation(0), 0)
    assert zones and zones[0]["title"] == "Your hand"  # every built-in game draws its cards
    assert rules.rules_panel(env_id)["tables"], "every built-in game has card tables"


def test_a_game_without_a_module_is_named_with_the_file_to_add_everywhere():
    """Every shared entry point refuses a game without a module, naming the file to add."""
    message = "dice_v0 lacks a module in training.web.games: add training/web/games/dice.py defining ENV_ID and WEB"
    assert GAMES.describe_missing([*smuggle_envs.ENV_IDS, "dice_v0"]) == message
    with pytest.raises(LookupError) as err:
        web_game("dice_v0")
    assert str(err.value) == message
    game = types.SimpleNamespace(env_id="dice_v0", observation_layout=None)
    state = types.SimpleNamespace(game=game, legal_actions=lambda: (0, 1), action_to_string=lambda a, s: str(a))
    for show in (
        lambda: cards.seat_zones(game, None, 0),
        lambda: decisions.decision(state, 0),
        lambda: decisions.engine_prompt(state, 0),
        lambda: marks.mark(state, 0),
        lambda: views.money_moved("dice_v0", [0.0], [1.0]),
    ):
        with pytest.raises(LookupError, match=r"training/web/games/dice\.py"):
            show()


def test_the_generic_page_is_a_declared_choice(monkeypatch):
    """``WebGame()`` shows the text table, the log and one button per action; a module must
    declare it (``WEB = WebGame()``) to get it."""
    registry: PluginRegistry[WebGame] = PluginRegistry("training.web.games", "WEB", kind=WebGame)
    monkeypatch.setattr("training.web.games.GAMES", registry)
    plain = types.ModuleType("elsewhere.dice")
    plain.ENV_ID, plain.WEB = "dice_v0", WebGame()  # type: ignore[attr-defined]
    registry.register(plain)
    assert web_game("dice_v0") == WebGame()
    game = types.SimpleNamespace(env_id="dice_v0", observation_layout=None, num_players=2)
    state = types.SimpleNamespace(game=game, legal_actions=lambda: (0, 1), action_to_string=lambda a, s: f"a{a}")
    assert cards.seat_zones(game, None, 0) == []
    assert decisions.decision(state, 0) == {
        "kind": "choice",
        "question": "Your move: one of 2 actions",  # the generic page's question
        "legal": [0, 1],
        "actions": [{"id": 0, "text": "a0"}, {"id": 1, "text": "a1"}],
    }
    assert decisions.engine_prompt(state, 0) is None and marks.mark(state, 0) is None
    assert views.money_moved("dice_v0", [0.0], [1.0]) == ""
    wrong = types.ModuleType("elsewhere.coins")
    wrong.ENV_ID, wrong.WEB = "coins_v0", {"zones": None}  # type: ignore[attr-defined]
    registry.register(wrong)
    with pytest.raises(TypeError, match=r"elsewhere\.coins\.WEB must be a WebGame"):
        web_game("coins_v0")
    with pytest.raises(PluginError, match="two modules of training.web.games serve dice_v0"):
        registry.register(plain)


def test_a_yes_no_question_needs_exactly_its_two_actions():
    """The shared yes/no form."""
    questions = ((5, 6, "Search?"), (7, 8, "Inform?"))
    assert decisions.yes_no(questions, (6, 5)) == {"kind": "yesno", "question": "Search?", "yes": 5, "no": 6}
    assert decisions.yes_no(questions, (7, 8))["question"] == "Inform?"
    assert decisions.yes_no(questions, (5, 7)) is None and decisions.yes_no(questions, (5, 6, 7)) is None
