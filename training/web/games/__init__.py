"""The browser app's per-game parts, one module a game: ``training/web/games/<game>.py``.

Each module declares ``ENV_ID`` (its game's env id) and ``WEB``, a :class:`WebGame`: the game's
card zones, decision forms, marks of the truth, rules panel tables and page, badges, outcomes and
engine prompt (``_common.py`` says what each part is). ``GAMES`` (env id -> ``WebGame``) is found
by listing this package (``agents.plugins.PluginRegistry``) on first use, so adding a game to the
browser app is adding its module; modules named ``_...`` are shared code. A game that lives
elsewhere (a test fixture's) adds its module with one line, ``GAMES.register(module)``.

The shared code that draws, asks and marks stays where it was: ``cards.seat_zones``,
``decisions.decision`` and ``engine_prompt``, ``marks.mark``, ``rules.rules_panel`` and
``views`` (badges, outcomes) each look the game up with :func:`web_game`, which names the module
to add for a game without one rather than showing nothing: a generic page (``WebGame()``) is
only ever a game's own declared choice. ``tests/training/web/test_games.py`` checks that every
env in ``smuggle_envs.ENV_IDS`` has a module.

| module               | what it adds to the generic page                                         |
|----------------------|--------------------------------------------------------------------------|
| ``smuggle``          | the declaration form, the search's verdict and the money moved, the     |
|                      | Officer and bag holder; declarations marked true or false               |
| ``ciq``              | card faces by suit and rank; Smuggles marked with the target's Fire     |
| ``illegal``          | the cards' "what it does" from the rules page; hidden answers marked    |
| ``humble_smuggle``   | white and black cards; the reveal of the face-down selections marked    |
| ``import_export``    | the sealed-bid form, the engine's prompt, bidders; the bids marked      |
"""

from __future__ import annotations

from agents.plugins import PluginRegistry

from ._common import WebGame

GAMES: PluginRegistry[WebGame] = PluginRegistry(__name__, "WEB", kind=WebGame)
"""env id -> its ``WebGame``, from the modules of this package."""


def web_game(env_id: str) -> WebGame:
    """The browser app's parts of ``env_id`` (``GAMES.require``): a ``LookupError`` naming the
    module to add for a game without one (never an empty page by default)."""
    return GAMES.require(env_id)


def game_name(env_id: str) -> str:
    """What pages call the game: its module's ``name``, else its env id."""
    return web_game(env_id).name or env_id


__all__ = ["GAMES", "WebGame", "game_name", "web_game"]
