"""A game's rules in brief, for the top of a prompt (or a ``rules`` command).

The rules are written once, in ``docs/rules/<game>.md`` (its "Every rule" table, the rulebook
column). ``scripts/make_briefs.py`` turns that column into a numbered list in
``smuggle_envs/text/briefs/<game>.md``, shipped with the package; the test suite fails when a
brief is stale (``make_briefs.py --check``). ``rules_brief`` reads the file and appends the
card glossary of the game as configured (``game.card_glossary()``, which depends on the config:
Import / Export's modules add cards). A game registered from outside the package (a test
fixture's) ships its brief as ``brief.md`` beside the module of its game class; one without a
brief gets its glossary alone.
"""

from __future__ import annotations

import re
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..registry import game_class, make_game
from .prompt import card_table, game_title

BRIEF_FOLDER = "briefs"


def game_stem(env_id: str) -> str:
    """The game's name in file names: the env id without its version (``smuggle_v0`` ->
    ``smuggle``)."""
    return re.sub(r"_v\d+$", "", env_id)


def brief_text(env_id: str) -> str | None:
    """The packaged rules brief of ``env_id`` (the generated numbered list, its generator's
    comment removed), or None when the package ships none."""
    path: Any = resources.files(__package__ or "smuggle_envs.text") / BRIEF_FOLDER / f"{game_stem(env_id)}.md"
    if not path.is_file():
        path = _beside_game(env_id)
    if path is None or not path.is_file():
        return None
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("<!--")]
    return "\n".join(lines).strip("\n")


def _beside_game(env_id: str) -> Path | None:
    """``brief.md`` in the folder of the module defining ``env_id``'s game class (a game that
    lives outside the package keeps its brief there), or None for an unknown id."""
    try:
        module = sys.modules[game_class(env_id).__module__]
    except (KeyError, ConfigError):
        return None
    return Path(module.__file__).with_name("brief.md") if module.__file__ else None


def rules_brief(env_id: str, **config: Any) -> str:
    """The rules of ``env_id`` in brief, for a prompt: the numbered rules of its brief, then the
    card glossary of the game built with ``config``. A game without a brief gets a short note
    and its glossary, not an error."""
    game = make_game(env_id, **config)
    title = f"{game_title(game)} ({env_id})"
    rules = brief_text(env_id)
    if rules is None:
        head = f"Rules of {title}: no rules brief is packaged for this game; what its cards are:"
    else:
        head = f"Rules of {title}, in brief:\n\n{rules}\n\nThe cards:"
    return f"{head}\n\n{card_table(game)}\n"
