"""CIQ's cards and its flat action space.

A card *kind* is ``suit * 13 + rank`` for the 52 suited cards (suits clubs, diamonds, hearts,
spades; rank 0 = the 2 ... 12 = the Ace), and 52 for the Joker. With one deck per player several
cards share a kind; they are interchangeable, so hands and piles are counts per kind.

| actions    | who                 | meaning                                                          |
|------------|---------------------|------------------------------------------------------------------|
| 0 - 52     | player to move      | ship a card of this kind onto the target's Import pile           |
| 53 - 105   | player to move      | play a card of this kind in a Sabotage (first, then second card) |
| 106 - 158  | player to move      | Hire: this card becomes your new customs worker (Tolerance pile) |
| 159 - 211  | target of a smuggle | Fire your customs worker with this face card                     |
| 212 - 264  | shipper             | transfer this card from your hand (Export and Import piles empty)|
| 265 - 269  | player to move      | choose the opponent 1 ... 5 seats clockwise as the target        |
| 270        | player to move      | STOP: end the shipment (or end the turn after a Sabotage)        |
| 271        | player to move      | draw one card, ending the turn                                   |
| 272        | target of a smuggle | keep the customs worker (do not Fire)                            |
| 273        | player to move      | pass (only when nothing else is legal)                           |
"""

from __future__ import annotations

SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_LETTERS = "cdhs"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NUM_SUITS = 4
NUM_RANKS = 13
JOKER = 52
NUM_KINDS = 53
CARD_BITS = NUM_SUITS + NUM_RANKS  # a suited card as suit one-hot + rank one-hot

SHIP = 0
SABOTAGE = SHIP + NUM_KINDS  # 53
HIRE = SABOTAGE + NUM_KINDS  # 106
FIRE = HIRE + NUM_KINDS  # 159
GIVE = FIRE + NUM_KINDS  # 212
TARGET = GIVE + NUM_KINDS  # 265: TARGET + (offset - 1), offset 1..5 seats clockwise
MAX_OFFSETS = 5
STOP = TARGET + MAX_OFFSETS  # 270
DRAW = STOP + 1  # 271
KEEP = DRAW + 1  # 272
PASS = KEEP + 1  # 273
NUM_ACTIONS = PASS + 1  # 274


def suit_of(kind: int) -> int:
    return kind // NUM_RANKS


def rank_of(kind: int) -> int:
    return kind % NUM_RANKS


def card(name: str | int) -> int:
    """A card kind from a name such as ``"6h"``, ``"10d"``, ``"Qs"``, ``"Ac"`` or ``"joker"``."""
    if isinstance(name, int) and not isinstance(name, bool):
        if not 0 <= name < NUM_KINDS:
            raise ValueError(f"card kind {name} is out of range [0, {NUM_KINDS})")
        return name
    if not isinstance(name, str):
        raise ValueError(f"a card is a name like '10d' or 'joker', got {name!r}")
    text = name.strip()
    if text.lower() in ("joker", "jk", "*"):
        return JOKER
    rank, suit = text[:-1].upper(), text[-1:].lower()
    if rank not in RANK_NAMES or suit not in SUIT_LETTERS or not suit:
        raise ValueError(f"no card {name!r}; cards are named like '2c', '10d', 'Jh', 'As', 'joker'")
    return SUIT_LETTERS.index(suit) * NUM_RANKS + RANK_NAMES.index(rank)


def card_name(kind: int) -> str:
    if kind == JOKER:
        return "joker"
    return RANK_NAMES[rank_of(kind)] + SUIT_LETTERS[suit_of(kind)]


def ship(kind) -> int:
    return SHIP + card(kind)


def sabotage(kind) -> int:
    return SABOTAGE + card(kind)


def hire(kind) -> int:
    return HIRE + card(kind)


def fire(kind) -> int:
    return FIRE + card(kind)


def give(kind) -> int:
    return GIVE + card(kind)


def target(offset: int) -> int:
    """Target the opponent ``offset`` seats clockwise (1 = the next player)."""
    if not 1 <= offset <= MAX_OFFSETS:
        raise ValueError(f"a target is 1 to {MAX_OFFSETS} seats clockwise, got {offset}")
    return TARGET + offset - 1


def action_text(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is out of range [0, {NUM_ACTIONS})")
    if action < SABOTAGE:
        return "ship " + card_name(action - SHIP)
    if action < HIRE:
        return "sabotage with " + card_name(action - SABOTAGE)
    if action < FIRE:
        return "hire " + card_name(action - HIRE)
    if action < GIVE:
        return "fire the customs worker with " + card_name(action - FIRE)
    if action < TARGET:
        return "transfer " + card_name(action - GIVE) + " from hand"
    if action < STOP:
        offset = action - TARGET + 1
        return f"target the player {offset} seat{'s' if offset > 1 else ''} clockwise"
    return {STOP: "stop", DRAW: "draw a card", KEEP: "keep the customs worker", PASS: "pass"}[action]
