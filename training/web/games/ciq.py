"""CIQ in the browser: playing cards by suit and rank, and the Smuggles marked with the Fire.

* **Cards**: the seat's hand, its Export and Import piles, and the shipment of the turn.
* **Marks**: CIQ has no declarations: shipped cards are face up, so a Smuggle is public. Hidden is
  whether the target holds a face card to Fire its customs worker with (it is always asked).
  The Smuggled card is marked with that; the Fire decision ``caught`` (Fired) or ``not caught``,
  with whether a face card was held (read from the legal actions, as ``smuggle analyze`` does).
* **Badges**: the target of a Smuggle, and whose turn it is while the target answers.
* **Questions**: each step in words naming the target ("Shipping to P2 Bob: ship another card,
  or stop"); the target buttons name the people, not "the player 1 seat clockwise".
"""

from __future__ import annotations

from typing import Any

from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.vocab import AFTER_SABOTAGE, FIRE_DECISION, GIVE_FROM_HAND, MAIN, OPEN, SABOTAGE2, SHIPPING
from training.claims.ciq import is_fire, may_fire, smuggled

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
    seat_of,
    zone,
)

ENV_ID = "ciq_v0"

SUIT_GLYPHS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}


# ----- cards -----------------------------------------------------------------------------------------
def _face(game: Any, kind: int, count: int) -> Card:
    if kind == A.JOKER:
        return card("Joker", count, "joker", "🃏", "", "wild")
    suit = A.SUITS[A.suit_of(kind)]
    rank = A.RANK_NAMES[A.rank_of(kind)]
    colour = "red" if suit in ("hearts", "diamonds") else "black"
    effect = game.data.effects[A.rank_of(kind)]
    return card(f"{rank} of {suit}", count, colour, f"{rank}{SUIT_GLYPHS[suit]}", rank, effect)


def _cards(game: Any, piece: Array) -> list[Card]:
    return [_face(game, k, c) for k, c in enumerate(counts(piece, game.kind_counts)) if c > 0]


def zones(game: Any, get: Getter, seat: int | None) -> list[Zone]:
    """The seat's hand, Export and Import piles, and the shipment of the turn."""
    kinds = len(game.kind_counts)
    shown = [zone("Your hand", _cards(game, get("my_hand")))]
    shown.append(zone("Your Export pile", _cards(game, get("export_cards")[:kinds])))
    shown.append(zone("Your Import pile", _cards(game, get("import_cards")[:kinds])))
    shipment = _cards(game, get("shipment"))
    if shipment:
        shown.append(zone("Shipment this turn", shipment))
    return shown


# ----- marks -----------------------------------------------------------------------------------------
def mark(state: Any, action: int) -> Mark:
    """A Smuggle marked with whether the target can Fire; the Fire decision caught or not."""
    if state.phase == FIRE_DECISION:
        if is_fire(action):
            return "caught"
        return "not caught: held a face card" if may_fire(state) else "not caught: no face card"
    if A.SHIP <= action < A.SABOTAGE:
        return _smuggled
    return None


def _smuggled(state: Any) -> str | None:
    if not smuggled(state):
        return None
    return "smuggled: target holds a face card" if may_fire(state) else "smuggled: target has no face card"


# ----- the side panel --------------------------------------------------------------------------------
def tables(game: Any) -> list[Table]:
    """The ranks: value and effect."""
    d = game.data
    rows = [[rank, value, effect] for rank, value, effect in zip(d.rank_names, d.values, d.effects)]
    rows.append(["Joker", "-", "wild"])
    return [{"title": "Ranks", "columns": ["rank", "value", "effect"], "rows": rows}]


# ----- the question of each step ---------------------------------------------------------------------
_QUESTIONS = {
    MAIN: "Your turn: pick the opponent to ship to or sabotage, hire a new customs worker, or draw a card",
    OPEN: "Against {target}: ship a first card onto their Import pile, or start a Sabotage of their Tolerance pile",
    SABOTAGE2: "Sabotage of {target}: the second card, of the first card's suit",
    AFTER_SABOTAGE: "After the Sabotage: ship cards to {target}, or stop",
    SHIPPING: "Shipping to {target}: ship another card, or stop",
    FIRE_DECISION: "{turn} smuggled an Illegal card to you: Fire your customs worker with a face card, or keep them",
    GIVE_FROM_HAND: "Your Export and Import piles are empty: choose a card from your hand to transfer to {target}",
}


def question(state: Any, seat: int, legal: tuple[int, ...], name: Namer) -> str | None:
    """The step, naming the target and the player whose turn it is (public pieces)."""
    get = seat_getter(state, seat)
    n = state.game.num_players
    phase = phase_of(get)
    if phase is None:
        return None
    if legal == (A.PASS,):
        return "Nothing else is legal: pass"
    target, turn = seat_of(get("target"), seat, n), seat_of(get("turn"), seat, n)
    words = _QUESTIONS.get(phase, "Your move")
    return words.format(
        target="the target" if target is None else name(target),
        turn="the shipper" if turn is None else name(turn),
    )


WEB = WebGame(
    name="CIQ",
    zones=zones,
    mark=mark,
    tables=tables,
    roles=(("target", "target"),),
    turn_piece="turn",
    question=question,
    name_seats=name_seats,
    score_note="a score is the cards a player still has to get rid of (hand, Import and Export piles): "
    "the first with none left wins",
)
"""CIQ's parts of the browser app (``training.web.games.GAMES`` files it under ``ENV_ID``)."""
