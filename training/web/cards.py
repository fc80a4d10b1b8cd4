"""Cards to draw: what a seat's observation says it holds, turned into card faces.

Everything here reads an **observation** (``state.observation(seat)``, the seat's own view, by
piece name through the game's layout) and the game's public card data, never the state: a
browser is only ever shown cards its seat may see. Each game's faces and zones are its plugin's
(``training/web/games/<game>.py``, ``WebGame.zones``); the card and zone shapes and the helpers
they share (``card``, ``zone``, ``counts``, ``seat_of``, ``face_marks``) are in
``games/_common.py``.

A card is a plain dict the page draws (``static/common.js``): ``name``; ``count`` (copies, 1 for a
unique card); ``colour`` (a CSS class: the card's family); ``big`` (the large mark in its middle:
a rank, a number, a name's shortest distinct prefix, ``face_marks``); ``corner`` (a small label:
duty and fine, a value); ``text`` (what the card does, shown as a tooltip and on a click or tap).
A zone is ``{"title", "cards", "note"}``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .games import web_game
from .games._common import Card, Zone, face_marks, seat_of

__all__ = ["Card", "Zone", "face_marks", "seat_of", "seat_zones"]


def seat_zones(game: Any, observation: np.ndarray, seat: int | None = None) -> list[Zone]:
    """The card zones drawn for ``seat``, whose observation this is (its own hand first); the
    seat turns the observation's seat-relative pieces into seat numbers. A game without a plugin
    module is a ``LookupError`` naming the module to add, not an empty table."""
    layout = game.observation_layout
    return web_game(game.env_id).zones(game, lambda name: layout.get(observation, name), seat)
