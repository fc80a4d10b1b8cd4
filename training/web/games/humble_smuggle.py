"""Humble smuggle in the browser: white cards by value and round rule, black cards, the reveal.

* **Cards**: the seat's hand, its face-down card, the centre and its black cards.
* **Marks**: Humble smuggle has no searches: the face-down selections are revealed together and
  the round's rule alone discards. The action that reveals them (the last pass of the black-card
  play) is marked with the rule and each seat's card, discarded or scored.
* **Badges**: the first player.
* **Questions**: each step in words; "select 38" reads "lay 38 face down", and a Play card's
  target seat is named as the page names it.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.vocab import DISCARD, DRAFT, PLAY, SELECT, Reveal, rule_family
from training.claims.humble_smuggle import fits_rule, new_reveal

from ._common import (
    Array,
    Card,
    Getter,
    Mark,
    Namer,
    Table,
    WebGame,
    Zone,
    card,
    counts,
    name_seats,
    phase_of,
    seat_getter,
    zone,
)

ENV_ID = "humble_smuggle_v0"


# ----- cards -----------------------------------------------------------------------------------------
def _white_face(game: Any, value: int) -> Card:
    white = game.data.white[value - 1]
    rule = game.rule_names[game.rule_of[value]] if 0 <= game.rule_of[value] < len(game.rule_names) else white.rule
    extra = f", draw {white.draws} black" if white.draws else ""
    text = f"{value // 10} pts; round rule {rule}; symbol {white.symbol or 'none'}{extra}"
    return card(rule, 1, "white", str(value), white.symbol or "", text)


def _white_cards(game: Any, piece: Array) -> list[Card]:
    return [_white_face(game, int(i) + 1) for i in np.flatnonzero(piece > 0.5)]


def _black_face(name: str, count: int) -> Card:
    """A black card: "play +10" shows +10; "hold anchor/barrel/key +1" its bonus and symbols."""
    verb, _, rest = name.partition(" ")
    if verb == "hold":
        symbols, _, bonus = rest.rpartition(" ")
        return card(symbols.replace("/", " "), count, "black-card", bonus, "hold", f"hold: {symbols} score {bonus}")
    return card(f"play {rest}", count, "black-card", rest, "play", f"play {rest} on a face-down card")


def zones(game: Any, get: Getter, seat: int | None) -> list[Zone]:
    """The seat's hand, face-down card and black cards, and the centre."""
    shown = [zone("Your hand", _white_cards(game, get("my_hand")))]
    shown.append(zone("Your face-down card", _white_cards(game, get("my_selection"))))
    shown.append(zone("Centre", _white_cards(game, get("centre"))))
    limit = game.data.black_limit
    black = [_black_face(game.black_names[k], c) for k, c in enumerate(counts(get("my_black"), limit)) if c > 0]
    shown.append(zone("Your black cards", black))
    return shown


# ----- marks -----------------------------------------------------------------------------------------
def mark(state: Any, action: int) -> Mark:
    """The reveal of the face-down selections, on the pass that ends the black-card play."""
    if state.phase != PLAY or action != A.PASS:
        return None
    before = state.last

    def revealed(after: Any) -> str | None:
        last = new_reveal(after, before)
        return None if last is None else _reveal_text(last)

    return revealed


def _reveal_text(last: Reveal) -> str:
    def shown(s: int) -> str:
        v, value = last.cards[s], last.values[s]
        return f"P{s} {v}" + (f" ({value})" if value != v else "")  # the value with Play cards

    seats = range(len(last.cards))
    discarded = [shown(s) for s in seats if not fits_rule(last, s)]
    if last.centre_discarded:
        discarded.append(f"centre {last.centre}")
    scored = [shown(s) for s in seats if fits_rule(last, s)]
    return (
        f"reveal ({rule_family(last.rule)}): discarded {', '.join(discarded) or 'none'}; "
        f"scored {', '.join(scored) or 'none'}"
    )


# ----- the side panel --------------------------------------------------------------------------------
def tables(game: Any) -> list[Table]:
    """The white cards, the black cards and the set points."""
    d = game.data
    white = [[c.value, c.points, c.rule.replace("_", " "), c.symbol or "", c.draws] for c in d.white]
    black = [[name, count] for name, count in zip(game.black_names, game.black_kind_counts)]
    return [
        {"title": "White cards", "columns": ["card", "points", "round rule", "symbol", "black draws"], "rows": white},
        {"title": "Black cards", "columns": ["card", "copies"], "rows": black},
        {"title": "Set points", "columns": ["set size", "points"], "rows": [[k, v] for k, v in d.set_points.items()]},
    ]


# ----- the question of each step ---------------------------------------------------------------------
_QUESTIONS = {
    DRAFT: "Draft a white card from the centre (the card left there sets the round rule)",
    SELECT: "Choose the white card to lay face down: it scores unless the round rule discards it",
    PLAY: "Play a black card on a face-down card, or pass (the cards are revealed once everyone passes in a row)",
    DISCARD: "Over the black-card limit: choose a black card to discard face down",
}
_SELECT = re.compile(r"^select (\d+)$")


def question(state: Any, seat: int, legal: tuple[int, ...], name: Namer) -> str | None:
    """The step (the public ``phase`` piece)."""
    phase = phase_of(seat_getter(state, seat))
    return None if phase is None else _QUESTIONS.get(phase)


def names(text: str, actor: int, n: int, name: Namer) -> str:
    """ "select 38" says "lay 38 face down"; a Play card's target seat named as the page names it."""
    return name_seats(_SELECT.sub(r"lay \1 face down", text), actor, n, name)


WEB = WebGame(
    name="Humble smuggle",
    zones=zones,
    mark=mark,
    tables=tables,
    roles=(("first_player", "first player"),),
    question=question,
    name_seats=names,
    score_note="a score is points; the scored white cards break a tie on points (the tie-break)",
)
"""Humble smuggle's parts of the browser app (``training.web.games.GAMES`` files it under ``ENV_ID``)."""
