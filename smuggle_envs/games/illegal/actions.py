"""Illegal's cards and its flat action space.

A card *kind* is an index into ``KIND_NAMES`` (the rulebook's order); identical cards are
interchangeable, so hands, tables and the discard pile are counts per kind. A *business* index
``b`` (0-7) is the business kind ``BUSINESS_KINDS[b]`` = kind ``2 + b``. Targets are seat offsets
clockwise from the deciding player: 0 = yourself, 1 = the player on your left, ...

| actions   | who                      | meaning                                                        |
|-----------|--------------------------|----------------------------------------------------------------|
| 0 - 24    | player to move           | play a card of this kind (then choose its target, if any)      |
|           | Magnum holder, off turn  | (24 only) play the Magnum to remove a hassle                   |
| 25 - 49   | player to move           | discard one card of this kind as the turn's play               |
| 50 - 74   | player to move           | discard three identical cards of this kind (extra, any time)   |
| 75 - 80   | player choosing a target | the player 0 (yourself) ... 5 seats clockwise                  |
| 81 - 88   | taker                    | take this business from the target's table                     |
| 89 - 96   | player losing a business | lose this business from your own table                         |
| 97 - 104  | Bribe player             | discard this business card from hand to pay for the Bribe      |
| 105 - 129 | every player, in turn    | pass a card of this kind to the left (after a Paranoia card)   |
| 130 - 154 | player to move (trading) | offer a card of this kind                                      |
| 155 - 179 | player to move (trading) | ask for a card of this kind                                    |
| 180       | player to move           | end the turn (no second legal business)                        |
| 181       | player to move (trading) | no trade this turn                                             |
| 182       | player to move (trading) | the offer (or the request) is complete                         |
| 183 / 184 | trade partner            | accept / decline the trade                                     |
| 185       | Magnum holder, off turn  | let it happen (do not use a Magnum)                            |
| 186       | Magnum holder, off turn  | play the Magnum to stop the takeover                           |
"""

from __future__ import annotations

KIND_NAMES = (
    "market open",
    "day of accounting",
    "gambling",
    "pimps",
    "merchandise",
    "weapons",
    "the coup",
    "tropical fish",
    "brokering",
    "politics",
    "raid",
    "protection money",
    "tax inspection",
    "vacation in sweden",
    "informant",
    "mister zero",
    "white coat",
    "alibi",
    "bribe",
    "death in the family",
    "loan shark",
    "debris and ash",
    "hostile takeover",
    "relatives",
    "magnum",
)
NUM_KINDS = len(KIND_NAMES)  # 25

MARKET, ACCOUNTING = 0, 1
GAMBLING, PIMPS, MERCHANDISE, WEAPONS, COUP = 2, 3, 4, 5, 6
FISH, BROKERING, POLITICS = 7, 8, 9
RAID, PROTECTION, TAX, VACATION = 10, 11, 12, 13
INFORMANT, MISTER_ZERO, WHITE_COAT, ALIBI, BRIBE = 14, 15, 16, 17, 18
DEATH, LOAN_SHARK, DEBRIS = 19, 20, 21
TAKEOVER, RELATIVES = 22, 23
MAGNUM = 24

ILLEGAL_KINDS = (GAMBLING, PIMPS, MERCHANDISE, WEAPONS, COUP)
LEGAL_KINDS = (FISH, BROKERING, POLITICS)
BUSINESS_KINDS = ILLEGAL_KINDS + LEGAL_KINDS
NUM_BUSINESSES = len(BUSINESS_KINDS)  # 8
FIRST_BUSINESS = GAMBLING  # business index b is kind FIRST_BUSINESS + b
NUM_ILLEGAL = len(ILLEGAL_KINDS)  # business indices 0-4 are illegal, 5-7 legal
HASSLE_KINDS = (RAID, PROTECTION, TAX, VACATION)
NUM_HASSLES = len(HASSLE_KINDS)
FIRST_HASSLE = RAID  # hassle index h is kind FIRST_HASSLE + h
SOLUTION_KINDS = (INFORMANT, MISTER_ZERO, WHITE_COAT, ALIBI, BRIBE)
PARANOIA_KINDS = (DEATH, LOAN_SHARK, DEBRIS)

KIND_TYPES = (
    "market",
    "accounting",
    "illegal",
    "illegal",
    "illegal",
    "illegal",
    "illegal",
    "legal",
    "legal",
    "legal",
    "hassle",
    "hassle",
    "hassle",
    "hassle",
    "solution",
    "solution",
    "solution",
    "solution",
    "solution",
    "paranoia",
    "paranoia",
    "paranoia",
    "takeover",
    "relatives",
    "magnum",
)

MAX_SEATS = 6

PLAY = 0
DISCARD = PLAY + NUM_KINDS  # 25
TRIPLE = DISCARD + NUM_KINDS  # 50
TARGET = TRIPLE + NUM_KINDS  # 75: TARGET + offset, offset 0 (yourself) .. 5
TAKE = TARGET + MAX_SEATS  # 81
LOSE = TAKE + NUM_BUSINESSES  # 89
PAY = LOSE + NUM_BUSINESSES  # 97
PASS_CARD = PAY + NUM_BUSINESSES  # 105
GIVE = PASS_CARD + NUM_KINDS  # 130
WANT = GIVE + NUM_KINDS  # 155
END_TURN = WANT + NUM_KINDS  # 180
NO_TRADE = END_TURN + 1  # 181
DONE = NO_TRADE + 1  # 182
ACCEPT = DONE + 1  # 183
DECLINE = ACCEPT + 1  # 184
LET_PASS = DECLINE + 1  # 185
CANCEL = LET_PASS + 1  # 186
NUM_ACTIONS = CANCEL + 1  # 187


def kind(card: str | int) -> int:
    """A card kind from its index or its name ("magnum", "Tax Inspection", ...)."""
    if isinstance(card, bool):
        raise ValueError(f"not a card: {card!r}")
    if isinstance(card, int):
        if not 0 <= card < NUM_KINDS:
            raise ValueError(f"card kind {card} is out of range [0, {NUM_KINDS})")
        return card
    if isinstance(card, str):
        name = " ".join(card.lower().replace("&", "and").split())
        aliases = {
            "pimp": PIMPS,
            "coup": COUP,
            "loan sharks": LOAN_SHARK,
            "debris & ash": DEBRIS,
            "protection": PROTECTION,
            "vacation": VACATION,
            "takeover": TAKEOVER,
            "market": MARKET,
            "accounting": ACCOUNTING,
            "fish": FISH,
        }
        if name in KIND_NAMES:
            return KIND_NAMES.index(name)
        if name in aliases:
            return aliases[name]
    raise ValueError(f"no card {card!r}; cards are {list(KIND_NAMES)}")


def business(card: str | int) -> int:
    """The business index (0-7) of a business card."""
    k = kind(card)
    if k not in BUSINESS_KINDS:
        raise ValueError(f"{KIND_NAMES[k]!r} is not a business")
    return k - FIRST_BUSINESS


def play(card) -> int:
    return PLAY + kind(card)


def discard(card) -> int:
    return DISCARD + kind(card)


def triple(card) -> int:
    return TRIPLE + kind(card)


def target(offset: int) -> int:
    """Target the player ``offset`` seats clockwise (0 = yourself)."""
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset < MAX_SEATS:
        raise ValueError(f"a target is 0 to {MAX_SEATS - 1} seats clockwise, got {offset!r}")
    return TARGET + offset


def take(card) -> int:
    return TAKE + business(card)


def lose(card) -> int:
    return LOSE + business(card)


def pay(card) -> int:
    return PAY + business(card)


def pass_card(card) -> int:
    return PASS_CARD + kind(card)


def give(card) -> int:
    return GIVE + kind(card)


def want(card) -> int:
    return WANT + kind(card)


def action_text(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is out of range [0, {NUM_ACTIONS})")
    for base, size, verb in (
        (PLAY, NUM_KINDS, "play"),
        (DISCARD, NUM_KINDS, "discard"),
        (TRIPLE, NUM_KINDS, "discard three"),
        (PASS_CARD, NUM_KINDS, "pass left:"),
        (GIVE, NUM_KINDS, "trade: offer"),
        (WANT, NUM_KINDS, "trade: ask for"),
    ):
        if base <= action < base + size:
            return f"{verb} {KIND_NAMES[action - base]}"
    for base, verb in ((TAKE, "take"), (LOSE, "lose"), (PAY, "pay the Bribe with")):
        if base <= action < base + NUM_BUSINESSES:
            return f"{verb} {KIND_NAMES[FIRST_BUSINESS + action - base]}"
    if TARGET <= action < TAKE:
        offset = action - TARGET
        if offset == 0:
            return "target yourself"
        return f"target the player {offset} seat{'s' if offset > 1 else ''} clockwise"
    return {
        END_TURN: "end the turn",
        NO_TRADE: "no trade",
        DONE: "trade: that is all",
        ACCEPT: "accept the trade",
        DECLINE: "decline the trade",
        LET_PASS: "let it happen",
        CANCEL: "Magnum: stop the takeover",
    }[action]
