"""Illegal in the browser: the cards with what they do (from the rules page), the hidden answers.

* **Cards**: the seat's hand, its businesses on the table, the card it passes left, and the cards
  offered in a trade. Each card's "what it does" is the rules page's **The cards** table.
* **Forms**: "Accept the trade?" and "Play your Magnum and stop it?" as yes/no questions.
* **Marks**: Illegal has neither declarations nor searches (a Tax Inspection opens a hand but
  judges nothing). Its hidden answers are marked: letting a Takeover or a hassle pass while
  holding the Magnum or without it (everyone who might hold it is asked), and declining a trade
  while holding the cards asked for or without them (config ``trading``).
* **Badges**: the target, and the active player while another seat answers.
* **Questions**: each step in words naming the card and the people ("Choose whom to play raid
  on"); the target buttons name the people, not "the player 1 seat clockwise".
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import (
    EXTRA,
    LOSE,
    PASS,
    PAY,
    PLAY,
    REACT,
    TAKE,
    TARGET,
    TRADE_ANSWER,
    TRADE_GIVE,
    TRADE_PARTNER,
    TRADE_WANT,
    TYPE_CODES,
)
from training.claims.illegal import could_accept, holds_magnum

from ..rules import column, md_tables, page
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
    face_marks,
    name_seats,
    phase_of,
    seat_getter,
    seat_of,
    zone,
)

ENV_ID = "illegal_v0"


@cache
def card_texts() -> dict[str, str]:
    """Illegal card name (lower case) -> "what it does", from the page's The cards table."""
    texts: dict[str, str] = {}
    for header, rows in md_tables(page(ENV_ID) or "", "The cards"):
        name, what = column(header, "card"), column(header, "what it does")
        if name is None or what is None:
            continue
        for row in rows:
            if max(name, what) < len(row):
                texts[row[name].lower()] = row[what]
    return texts


# ----- cards -----------------------------------------------------------------------------------------
def _face(game: Any, kind: int, count: int) -> Card:
    name = game.kind_names[kind]
    family = {code: type_name for type_name, code in TYPE_CODES.items()}.get(game.types[kind], "card")
    value = game.data.values[kind] or game.data.penalties[kind]
    corner = f"{value // 1000}k" if value else ""
    big = face_marks(tuple(game.kind_names))[name]
    return card(name, count, "il-" + family, big, corner, card_texts().get(name.lower(), family))


def zones(game: Any, get: Getter, seat: int | None) -> list[Zone]:
    """The seat's hand, businesses, the card it passes left and the cards offered in a trade."""
    kinds = game.kind_counts

    def cards(piece: Array, scale: Any = kinds) -> list[Card]:
        return [_face(game, k, c) for k, c in enumerate(counts(piece, scale)) if c > 0]

    shown = [zone("Your hand", cards(get("my_hand")))]
    table = counts(get("table")[: A.NUM_BUSINESSES], [kinds[A.FIRST_BUSINESS + b] for b in range(A.NUM_BUSINESSES)])
    mine = [_face(game, A.FIRST_BUSINESS + b, c) for b, c in enumerate(table) if c > 0]
    shown.append(zone("Your businesses", mine))
    passing = cards(get("my_pass"), 1)
    if passing:
        shown.append(zone("Card you pass left", passing))
    offer = cards(get("trade_give"))
    if offer:
        shown.append(zone("Trade: cards offered", offer))
    return shown


# ----- marks -----------------------------------------------------------------------------------------
def mark(state: Any, action: int) -> Mark:
    """What a seat held when it let a Magnum window pass or declined a trade."""
    phase = state.phase
    if phase == REACT and action == A.LET_PASS:
        return "let pass: held the Magnum" if holds_magnum(state, state.decider) else "let pass: no Magnum"
    if phase == TRADE_ANSWER and action == A.DECLINE:
        return "declined: held the cards" if could_accept(state) else "declined: lacked the cards"
    return None


# ----- the side panel --------------------------------------------------------------------------------
def tables(game: Any) -> list[Table]:
    """Every card: count, value or cost, and what it does."""
    d = game.data
    texts = card_texts()
    rows = [
        [name, count, f"{(value or penalty):,}" if (value or penalty) else "", texts.get(name.lower(), "")]
        for name, count, value, penalty in zip(d.names, d.counts, d.values, d.penalties)
    ]
    return [{"title": "The cards", "columns": ["card", "count", "value / cost", "what it does"], "rows": rows}]


# ----- the question of each step ---------------------------------------------------------------------
_QUESTIONS = {
    TRADE_GIVE: "Trade with the active player: choose a card to offer, or no trade",
    TRADE_WANT: "Trade: choose a card to ask for",
    TRADE_PARTNER: "Trade: choose whom to trade with",
    TRADE_ANSWER: "{active} offers you a trade: accept or decline",
    PLAY: "Your turn: play a card, or discard one",
    EXTRA: "Play a second legal business, discard three of a kind, or end the turn",
    TARGET: "Choose whom to play {card} on",
    TAKE: "Choose the business to take from {target}",
    PAY: "Choose the business card from your hand that pays the Bribe",
    LOSE: "Choose the business you lose",
    PASS: "Paranoia: choose a card to pass face down to {left}",
    REACT: "{active} plays {card}: stop it with the Magnum, or let it happen",
}
_NO_MAGNUM = "{active} plays {card}: without a Magnum you can only let it happen"


def question(state: Any, seat: int, legal: tuple[int, ...], name: Namer) -> str | None:
    """The step, naming the card played (the public ``card`` piece) and the people."""
    get = seat_getter(state, seat)
    game, n = state.game, state.game.num_players
    phase = phase_of(get)
    if phase is None:
        return None
    played = np.flatnonzero(get("card") > 0.5)
    active, target = seat_of(get("active"), seat, n), seat_of(get("target"), seat, n)
    words = _NO_MAGNUM if phase == REACT and len(legal) == 1 else _QUESTIONS.get(phase, "Your move")
    return words.format(
        card=game.kind_names[int(played[0])] if len(played) else "the card",
        active="the active player" if active is None else name(active),
        target="the target" if target is None else name(target),
        left=name((seat + 1) % n),
    )


WEB = WebGame(
    name="Illegal",
    zones=zones,
    yes_no=(
        (A.ACCEPT, A.DECLINE, "Accept the trade?"),
        (A.CANCEL, A.LET_PASS, "Play your Magnum and stop it?"),
    ),
    mark=mark,
    tables=tables,
    roles=(("target", "target"),),
    turn_piece="active",
    question=question,
    name_seats=name_seats,
    score_note="a score is money (euros): the businesses on the table at the end, less Paranoia cards "
    "and the dearest business left in hand",
)
"""Illegal's parts of the browser app (``training.web.games.GAMES`` files it under ``ENV_ID``)."""
