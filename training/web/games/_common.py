"""What every game's browser plugin shares: the ``WebGame`` record each one declares, the shapes
of what it returns (cards, zones, forms, marks, tables) and the helpers that build them.

A module whose name starts with ``_`` is shared code, not a game's plugin (see the package
docstring). Nothing here knows any game.

**Cards and zones.** A card is a plain dict the page draws (``static/common.js``): ``name``;
``count`` (copies, 1 for a unique card); ``colour`` (a CSS class: the card's family); ``big`` (the
large mark in its middle: a rank, a number, a name's shortest distinct prefix, ``face_marks``);
``corner`` (a small label: duty and fine, a value); ``text`` (what the card does, shown as a
tooltip and on a click or tap). A zone is ``{"title", "cards", "note"}``; a zone titled
``"Your ..."`` holds a seat's own cards (the full view shows one such zone per seat).

A plugin reads only a seat's **observation** (by piece name, through ``get``) and the game's public
card data for the cards, and a piece stores counts scaled into [0, 1] (``count / copies of the
kind``, ``count / 4``, one bit per card): ``counts`` undoes the scale the layout documents.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]
Card = dict[str, Any]
Zone = dict[str, Any]
Form = dict[str, Any]
Table = dict[str, Any]
Getter = Callable[[str], Array]
"""A seat's observation piece by name (``layout.get(observation, name)``)."""

Settle = Callable[[Any], str | None]
"""Reads the position after the action; returns its mark."""
Mark = str | Settle | None
Marker = Callable[[Any, int], Mark]
"""``marker(state, action)``: the mark of ``action``, about to be taken in ``state``: a string,
None (nothing worth marking), or a ``Settle`` function (a search's verdict is known only once the
cards are open)."""

ZonesHook = Callable[[Any, Getter, int | None], list[Zone]]
FormHook = Callable[[Any, int, tuple[int, ...]], Form | None]
TablesHook = Callable[[Any], list[Table]]
BadgesHook = Callable[[Any, Getter, int, list[list[str]]], None]
OutcomeHook = Callable[[Any, int, int | None], str]
PromptHook = Callable[[Any, int | None], dict[str, Any] | None]
Namer = Callable[[int], str]
"""A seat's name on the page ("P2 Bob"; the viewer's own: "P0 Ann (you)")."""
QuestionHook = Callable[[Any, int, tuple[int, ...], Namer], str | None]
SeatsHook = Callable[[str, int, int, Namer], str]


def no_zones(game: Any, get: Getter, seat: int | None) -> list[Zone]:
    """No cards drawn: the page shows the game's text table, its log and its actions."""
    return []


def no_form(state: Any, seat: int, legal: tuple[int, ...]) -> Form | None:
    """No form of the game's own: the yes/no questions, else one button per legal action."""
    return None


def no_mark(state: Any, action: int) -> Mark:
    """Nothing marked in the full view's log."""
    return None


def no_tables(game: Any) -> list[Table]:
    """No card tables in the side panel (the rules summary only)."""
    return []


def no_badges(state: Any, get: Getter, viewer: int, shown: list[list[str]]) -> None:
    """No badges beyond the declared ``roles`` and ``turn_piece``."""


def no_outcome(state: Any, action: int, seat: int | None) -> str:
    """Nothing said of what came of an action (beyond the money moved, with a ``currency``)."""
    return ""


def no_prompt(state: Any, seat: int | None) -> dict[str, Any] | None:
    """No engine line above the options: the form and the log say it."""
    return None


def no_question(state: Any, seat: int, legal: tuple[int, ...], name: Namer) -> str | None:
    """No question of the game's own: the page asks the generic one."""
    return None


def no_names(text: str, actor: int, n: int, name: Namer) -> str:
    """Action texts name no seat relative to the actor: left as they are."""
    return text


def seat_getter(state: Any, seat: int) -> Getter:
    """``seat``'s own observation, by piece name (what a question may read)."""
    layout = state.game.observation_layout
    obs = state.observation(seat)
    return lambda name: np.asarray(layout.get(obs, name))


def phase_of(get: Getter) -> int | None:
    """The index of the one-hot ``phase`` piece (the decision type), or None (the game is over)."""
    hot = np.flatnonzero(np.asarray(get("phase")) > 0.5)
    return None if len(hot) == 0 else int(hot[0])


# "target the player 2 seats clockwise" (CIQ, Illegal), "player +2" (Import / Export), "the card of
# the player 2 to your left" (Humble smuggle): the engines' seat-relative words for a seat
_CLOCKWISE = re.compile(r"the player (\d+) seats? clockwise")
_PLUS = re.compile(r"\bplayer \+(\d+)")
_LEFT = re.compile(r"the card of the player (\d+) to your left")


def name_seats(text: str, actor: int, n: int, name: Namer) -> str:
    """``text``, an action of ``actor``, with each seat it names relative to the actor (N seats
    clockwise, N to the left, +N: the same seat, ``(actor + N) % n``) named as the page names it:
    "target the player 1 seat clockwise" -> "target P1 Bob". Read from the text alone, so it says
    nothing the text did not."""

    def seat(found: re.Match[str]) -> str:
        return name((actor + int(found.group(1))) % n)

    text = _CLOCKWISE.sub(seat, text)
    text = _PLUS.sub(seat, text)
    text = _LEFT.sub(lambda found: f"the card of {seat(found)}", text)
    return text.replace("target yourself", f"target {name(actor)}")


@dataclass(frozen=True)
class WebGame:
    """What the browser app knows of one game, declared by its module as ``WEB``.

    Every part has a default that shows nothing of its kind, so ``WebGame()`` is the generic page
    (the text table, the log and one button per legal action): a game gets it only by declaring
    it. Each hook reads what the seat may know: its own observation, its table text, the public
    scores and the legal actions when it is to move (``tests/training/web/test_no_leak.py``).

    * ``name``: what pages call the game (its env id if empty);
    * ``zones(game, get, seat)``: the card zones drawn for ``seat`` from its observation
      (``get(piece)``), its own hand first (``cards.seat_zones``);
    * ``form(state, seat, legal)``: the game's own form for the decision, or None
      (``decisions.decision``); ``yes_no``: ``(yes action, no action, question)`` for decisions
      whose legal actions are exactly those two;
    * ``mark(state, action)``: the full view's mark of the truth (``marks.mark``);
    * ``tables(game)``: the side panel's card tables from the game's data; ``rules_page``: the
      page whose **Every rule** table is the rules summary (default ``docs/rules/<game>.md``);
    * ``roles``: ``(seat-relative one-hot piece, badge)`` of the public roles; ``turn_piece``: the
      piece naming whose turn it is (badge "their turn" while another seat answers);
      ``badges(state, get, viewer, shown)``: any other badge, appended to ``shown`` per seat;
    * ``outcome(state, action, seat)``: what came of ``action`` (just applied) in ``seat``'s words;
      ``currency``: the unit of scores that are money changing hands (the log says who paid whom);
    * ``prompt(state, seat)``: the engine's line for the decision in progress
      (``decisions.engine_prompt``);
    * ``question(state, seat, legal, name)``: the step the seat is asked to take, in words naming
      the people (``name(p)``: "P1 Bob"), above its options (``decisions.decision``);
      ``name_seats(text, actor, n, name)``: an action's text with the seats it names relative to
      its actor named as the page names them (buttons and log);
    * ``score_note``: what a score means, under the scores (the terminal's ``game.score_text``
      writes each one).
    """

    name: str = ""  # what pages call the game (default: its env id)
    zones: ZonesHook = no_zones
    form: FormHook = no_form
    yes_no: tuple[tuple[int, int, str], ...] = ()
    mark: Marker = no_mark
    tables: TablesHook = no_tables
    rules_page: Path | None = None
    roles: tuple[tuple[str, str], ...] = ()
    turn_piece: str | None = None
    badges: BadgesHook = no_badges
    outcome: OutcomeHook = no_outcome
    currency: str | None = None
    prompt: PromptHook = no_prompt
    question: QuestionHook = no_question
    name_seats: SeatsHook = no_names
    score_note: str = ""


# ----- cards ------------------------------------------------------------------------------------------
def card(name: str, count: int = 1, colour: str = "", big: str = "", corner: str = "", text: str = "") -> Card:
    """A card face (see the module docstring)."""
    return {"name": name, "count": int(count), "colour": colour, "big": big, "corner": corner, "text": text}


def counts(piece: Array, scale: Sequence[float] | float) -> list[int]:
    """Undo a piece's ``count / scale`` (rounded: the encoder wrote exact fractions)."""
    return [int(c) for c in np.rint(np.asarray(piece, np.float64) * np.asarray(scale, np.float64))]


def zone(title: str, cards: list[Card], note: str = "") -> Zone:
    """A titled group of cards, with an optional note under it."""
    return {"title": title, "cards": cards, "note": note}


def seat_of(piece: Array, viewer: int, n: int) -> int | None:
    """The seat a seat-relative one-hot piece names (index 0 = ``viewer``, then clockwise), or
    ``None`` when it names nobody."""
    hot = np.flatnonzero(np.asarray(piece) > 0.5)
    return None if len(hot) == 0 else (viewer + int(hot[0])) % n


@cache
def face_marks(names: tuple[str, ...]) -> dict[str, str]:
    """The big mark of each card name: its shortest prefix no other name starts with, so cards
    whose initials collide (Smuggle's wine and watch; cigars, camera and crown) are told apart
    on the face ("Wi", "Wa"; "Ci", "Ca", "Cr"; a name with a unique initial keeps one letter)."""
    marks = {}
    for name in names:
        letters = "".join(c for c in name if c.isalnum())
        others = ["".join(c for c in o if c.isalnum()) for o in names if o != name]
        k = 1
        while k < len(letters) and any(o[:k].lower() == letters[:k].lower() for o in others):
            k += 1
        marks[name] = letters[:k].capitalize()
    return marks
