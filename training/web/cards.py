"""Cards to draw: what a seat's observation says it holds, turned into card faces.

Everything here reads an **observation** (``state.observation(seat)``, the seat's own view, by
piece name through the game's layout) and the game's public card data, never the state: a
browser is only ever shown cards its seat may see. A piece stores counts scaled into [0, 1]
(``count / copies of the kind``, ``count / 4``, one bit per card); each reader undoes the scale
the layout documents.

A card is a plain dict the page draws (``static/app.js``): ``name``; ``count`` (copies, 1 for a
unique card); ``colour`` (a CSS class: the card's family); ``big`` (the large mark in its middle:
a rank, a number, a symbol); ``corner`` (a small label: duty and fine, a value); ``text`` (what
the card does, shown under the name and as a tooltip). A zone is ``{"title", "cards", "note"}``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

Card = dict[str, Any]
Zone = dict[str, Any]

SUIT_GLYPHS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}


def _card(name: str, count: int = 1, colour: str = "", big: str = "", corner: str = "", text: str = "") -> Card:
    return {"name": name, "count": int(count), "colour": colour, "big": big, "corner": corner, "text": text}


def _counts(piece: np.ndarray, scale: Sequence[float] | float) -> list[int]:
    """Undo a piece's ``count / scale`` (rounded: the encoder wrote exact fractions)."""
    return [int(c) for c in np.rint(np.asarray(piece, np.float64) * np.asarray(scale, np.float64))]


def _zone(title: str, cards: list[Card], note: str = "") -> Zone:
    return {"title": title, "cards": cards, "note": note}


# ----- Smuggle ---------------------------------------------------------------------------------------
def _smuggle_face(game: Any, kind: int, count: int) -> Card:
    names = game.kind_names
    items = len(game.data.duties)
    if kind < items:
        duty, fine = game.data.duties[kind], game.data.fines[kind]
        return _card(
            names[kind], count, "good", names[kind][:1].upper(), f"£{duty}/£{fine}", f"duty £{duty}, fine £{fine}"
        )
    if names[kind] == "diplomatic bag":
        return _card("Diplomatic Bag", count, "bag", "DB", "", "claim immunity: no duty, no fine")
    return _card(names[kind], count, "plain", names[kind][:1].upper(), "", "no duty")


def _smuggle_cards(game: Any, piece: np.ndarray, scale: Sequence[float] | float) -> list[Card]:
    return [_smuggle_face(game, k, c) for k, c in enumerate(_counts(piece, scale)) if c > 0]


def smuggle_zones(game: Any, get: Callable[[str], np.ndarray]) -> list[Zone]:
    hand = game.data.hand_size
    zones = [_zone("Your hand", _smuggle_cards(game, get("my_hand"), hand), "the live hand, if you hold it")]
    known = _smuggle_cards(game, get("known_in_hand"), hand)
    if known:
        zones.append(_zone("Cards you passed on", known, "still in the live hand, as far as you know"))
    declared = _smuggle_cards(game, get("declaration"), hand)
    if get("bag_claim")[0] > 0.5:
        declared = [_smuggle_face(game, game.kind_names.index("diplomatic bag"), 1)]
    if declared or get("phase")[1:3].any():  # while the Officer or the next player decides
        zones.append(_zone("Declared", declared, "the live hand's declaration"))
    zones.append(_zone("Open suitcase", _smuggle_cards(game, get("suitcase"), game.kind_counts), "face-up discards"))
    reveal = _smuggle_cards(game, get("last_reveal"), hand)
    if reveal:
        zones.append(_zone("Last search", reveal, "the last hand laid open"))
    return zones


# ----- CIQ ----------------------------------------------------------------------------------------------
def _ciq_face(game: Any, kind: int, count: int) -> Card:
    from smuggle_envs.games.ciq import actions as A

    if kind == A.JOKER:
        return _card("Joker", count, "joker", "🃏", "", "wild")
    suit = A.SUITS[A.suit_of(kind)]
    rank = A.RANK_NAMES[A.rank_of(kind)]
    colour = "red" if suit in ("hearts", "diamonds") else "black"
    effect = game.data.effects[A.rank_of(kind)]
    return _card(f"{rank} of {suit}", count, colour, f"{rank}{SUIT_GLYPHS[suit]}", rank, effect)


def _ciq_cards(game: Any, piece: np.ndarray) -> list[Card]:
    return [_ciq_face(game, k, c) for k, c in enumerate(_counts(piece, game.kind_counts)) if c > 0]


def ciq_zones(game: Any, get: Callable[[str], np.ndarray]) -> list[Zone]:
    kinds = len(game.kind_counts)
    zones = [_zone("Your hand", _ciq_cards(game, get("my_hand")))]
    zones.append(_zone("Your Export pile", _ciq_cards(game, get("export_cards")[:kinds])))
    zones.append(_zone("Your Import pile", _ciq_cards(game, get("import_cards")[:kinds])))
    shipment = _ciq_cards(game, get("shipment"))
    if shipment:
        zones.append(_zone("Shipment this turn", shipment))
    return zones


# ----- Illegal ------------------------------------------------------------------------------------------
def _illegal_face(game: Any, kind: int, count: int, texts: dict[str, str]) -> Card:
    from smuggle_envs.games.illegal.vocab import TYPE_CODES

    name = game.kind_names[kind]
    family = {code: type_name for type_name, code in TYPE_CODES.items()}.get(game.types[kind], "card")
    value = game.data.values[kind] or game.data.penalties[kind]
    corner = f"{value // 1000}k" if value else ""
    return _card(name, count, "il-" + family, name[:1].upper(), corner, texts.get(name.lower(), family))


def illegal_zones(game: Any, get: Callable[[str], np.ndarray], texts: dict[str, str]) -> list[Zone]:
    counts = game.kind_counts

    def cards(piece: np.ndarray, scale: Sequence[float] | float = counts) -> list[Card]:
        return [_illegal_face(game, k, c, texts) for k, c in enumerate(_counts(piece, scale)) if c > 0]

    from smuggle_envs.games.illegal import actions as A

    zones = [_zone("Your hand", cards(get("my_hand")))]
    table = _counts(get("table")[: A.NUM_BUSINESSES], [counts[A.FIRST_BUSINESS + b] for b in range(A.NUM_BUSINESSES)])
    mine = [_illegal_face(game, A.FIRST_BUSINESS + b, c, texts) for b, c in enumerate(table) if c > 0]
    zones.append(_zone("Your businesses", mine))
    passing = cards(get("my_pass"), 1)
    if passing:
        zones.append(_zone("Card you pass left", passing))
    offer = cards(get("trade_give"))
    if offer:
        zones.append(_zone("Trade: cards offered", offer))
    return zones


# ----- Humble smuggle -----------------------------------------------------------------------------------
def _white_face(game: Any, value: int) -> Card:
    card = game.data.white[value - 1]
    rule = game.rule_names[game.rule_of[value]] if 0 <= game.rule_of[value] < len(game.rule_names) else card.rule
    extra = f", draw {card.draws} black" if card.draws else ""
    text = f"{value // 10} pts; round rule {rule}; symbol {card.symbol or 'none'}{extra}"
    return _card(rule, 1, "white", str(value), card.symbol or "", text)


def _white_cards(game: Any, piece: np.ndarray) -> list[Card]:
    return [_white_face(game, int(i) + 1) for i in np.flatnonzero(piece > 0.5)]


def _black_face(name: str, count: int) -> Card:
    """A black card: "play +10" shows +10; "hold anchor/barrel/key +1" its bonus and symbols."""
    verb, _, rest = name.partition(" ")
    if verb == "hold":
        symbols, _, bonus = rest.rpartition(" ")
        return _card(symbols.replace("/", " "), count, "black-card", bonus, "hold", f"hold: {symbols} score {bonus}")
    return _card(f"play {rest}", count, "black-card", rest, "play", f"play {rest} on a face-down card")


def humble_zones(game: Any, get: Callable[[str], np.ndarray]) -> list[Zone]:
    zones = [_zone("Your hand", _white_cards(game, get("my_hand")))]
    zones.append(_zone("Your face-down card", _white_cards(game, get("my_selection"))))
    zones.append(_zone("Centre", _white_cards(game, get("centre"))))
    limit = game.data.black_limit
    black = [_black_face(game.black_names[k], c) for k, c in enumerate(_counts(get("my_black"), limit)) if c > 0]
    zones.append(_zone("Your black cards", black))
    return zones


# ----- Import / Export ----------------------------------------------------------------------------------
IE_COLOURS = ("green", "yellow", "black", "blue", "red")


def ie_face(game: Any, card_id: int, count: int = 1) -> Card:
    from smuggle_envs.games.import_export.data import ACTIONS, GOOD_TYPES

    card = game.data.cards[card_id]
    return _card(
        card.name.title(),
        count,
        "ie-" + IE_COLOURS[card.type],
        ACTIONS[card.action][:1].upper(),
        f"{GOOD_TYPES[card.type]}, {ACTIONS[card.action]}",
        card.power,
    )


def import_export_zones(game: Any, get: Callable[[str], np.ndarray]) -> list[Zone]:
    ids = lambda piece: [int(i) for i in np.flatnonzero(piece > 0.5)]
    cards = len(game.data.cards)
    zones = [_zone("Your hand", [ie_face(game, i) for i in ids(get("my_hand"))])]
    zones.append(_zone("Your shipments", [ie_face(game, i) for i in ids(get("shipments")[:cards])], "their powers"))
    zones.append(_zone("Contracts on your ships", [ie_face(game, i) for i in ids(get("my_contracts"))]))
    return zones


# ----- entry point --------------------------------------------------------------------------------------
def seat_zones(game: Any, observation: np.ndarray, texts: dict[str, str] | None = None) -> list[Zone]:
    """The card zones drawn for the seat whose observation this is (its own hand first)."""
    layout = game.observation_layout
    get = lambda name: layout.get(observation, name)
    env_id = game.env_id
    if env_id == "smuggle_v0":
        return smuggle_zones(game, get)
    if env_id == "ciq_v0":
        return ciq_zones(game, get)
    if env_id == "illegal_v0":
        return illegal_zones(game, get, texts or {})
    if env_id == "humble_smuggle_v0":
        return humble_zones(game, get)
    if env_id == "import_export_v0":
        return import_export_zones(game, get)
    return []  # a new game: the page still shows its text table and its actions
