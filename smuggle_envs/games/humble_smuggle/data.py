"""Loads and validates Humble smuggle's component data (``data/humble_smuggle.json``).

Almost all of it is proposed, not sourced (``docs/rules/humble_smuggle.md``, "Proposed numbers"); the
loader checks the counts the rulebook does fix (79 white cards numbered 1-79 worth their tens
digit, 40 black cards, an End-of-Game card numbered 80, hands of 3 white and at most 3 black
cards) and the two cells its figure shows (card 4, card 62), plus everything the engine relies on.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from ...core.data import data_error, parsing, read_json

DATA_FILE = "humble_smuggle.json"

RULES = ("standard", "double_up", "high_low", "symbol_up", "safe_zone")
PLAY_NAMES = ("+10", "+20", "-10", "-20", "zero", "double", "shield")
EFFECTS = ("add", "zero", "double", "shield")
NUM_WHITE = 79
NUM_BLACK = 40
PLAYER_COUNTS = (2, 3, 4, 5)


@dataclass(frozen=True)
class WhiteCard:
    value: int
    points: int  # the tens digit
    rule: str  # one of RULES
    rule_symbol: str | None  # the symbol a Symbol Up icon names
    symbol: str | None  # one of the symbols, the wild symbol, or None
    draws: int  # black cards its owner draws when it scores


@dataclass(frozen=True)
class PlayCard:
    name: str
    effect: str  # one of EFFECTS
    amount: int  # for "add"
    count: int


@dataclass(frozen=True)
class HoldCard:
    symbols: tuple[str, ...]  # three symbols; one of them counts at final scoring
    bonus: int


@dataclass(frozen=True)
class HumbleData:
    symbols: tuple[str, ...]
    wild_symbol: str
    white: tuple[WhiteCard, ...]
    end_value: int
    cards_above: dict[int, int]  # player count -> white cards above the End-of-Game card
    play: tuple[PlayCard, ...]
    hold: tuple[HoldCard, ...]
    white_hand: int
    black_deal: int
    black_limit: int
    set_points: dict[int, int]  # set size -> points


def load(text: str | None = None) -> HumbleData:
    """Parse and validate the data; ``text`` overrides the packaged file (for tests)."""
    raw = read_json(__package__, DATA_FILE, text)
    with parsing(DATA_FILE):
        black, setup = raw["black"], raw["setup"]
        data = HumbleData(
            symbols=tuple(raw["symbols"]),
            wild_symbol=raw["wild_symbol"],
            white=tuple(
                WhiteCard(w["value"], w["points"], w["rule"], w.get("rule_symbol"), w["symbol"], w["draws"])
                for w in raw["white"]
            ),
            end_value=raw["end_card"]["value"],
            cards_above={int(k): v for k, v in raw["end_card"]["cards_above"].items()},
            play=tuple(PlayCard(p["name"], p["effect"], p["amount"], p["count"]) for p in black["play"]),
            hold=tuple(HoldCard(tuple(h["symbols"]), h["bonus"]) for h in black["hold"]),
            white_hand=setup["white_hand"],
            black_deal=setup["black_deal"],
            black_limit=setup["black_limit"],
            set_points={int(k): v for k, v in raw["set_points"].items()},
        )
    _validate(data)
    return data


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


Fail = Callable[[str], None]


def _validate(d: HumbleData) -> None:
    """Every check of the card data, in order; the first that fails raises (one line)."""

    def fail(msg: str) -> None:
        raise data_error(DATA_FILE, msg)

    for check in (_check_numbers, _check_symbols, _check_white, _check_end_card, _check_black, _check_setup):
        check(d, fail)


def _check_numbers(d: HumbleData, fail: Fail) -> None:
    """Every number, count and amount is an integer."""
    ints = [
        d.end_value,
        d.white_hand,
        d.black_deal,
        d.black_limit,
        *d.cards_above.values(),
        *d.set_points.values(),
        *(h.bonus for h in d.hold),
        *(p.count for p in d.play),
        *(p.amount for p in d.play),
    ]
    for w in d.white:
        ints += [w.value, w.points, w.draws]
    if not all(_is_int(x) for x in ints):
        fail("every number, count and amount must be an integer")


def _check_symbols(d: HumbleData, fail: Fail) -> None:
    """The five set symbols and the wild one."""
    if len(d.symbols) != 5 or len(set(d.symbols)) != 5 or not all(isinstance(s, str) for s in d.symbols):
        fail(f"expected 5 distinct symbols, got {d.symbols}")
    if d.wild_symbol in d.symbols or not isinstance(d.wild_symbol, str):
        fail("the wild symbol (star) must differ from the 5 set symbols")


def _check_white(d: HumbleData, fail: Fail) -> None:
    """White cards: 79, numbered 1-79, worth their tens digit."""
    if len(d.white) != NUM_WHITE:
        fail(f"there must be {NUM_WHITE} white cards, got {len(d.white)}")
    if [w.value for w in d.white] != list(range(1, NUM_WHITE + 1)):
        fail("white cards must be numbered 1 to 79, in order, once each")
    for w in d.white:
        if w.points != w.value // 10:
            fail(f"white card {w.value}: points must be the tens digit ({w.value // 10}), got {w.points}")
        if w.rule not in RULES:
            fail(f"white card {w.value}: unknown round rule {w.rule!r}; rules are {RULES}")
        if (w.rule == "symbol_up") != (w.rule_symbol is not None):
            fail(f"white card {w.value}: a symbol_up rule names one symbol, other rules none")
        if w.rule_symbol is not None and w.rule_symbol not in d.symbols:
            fail(f"white card {w.value}: symbol_up names {w.rule_symbol!r}, not one of {d.symbols}")
        if w.symbol is not None and w.symbol not in d.symbols and w.symbol != d.wild_symbol:
            fail(f"white card {w.value}: unknown symbol {w.symbol!r}")
        if not 0 <= w.draws <= 3:
            fail(f"white card {w.value}: draws must be 0 to 3, got {w.draws}")
    # the two cells the rulebook's figure 1 shows
    c4, c62 = d.white[3], d.white[61]
    if c4.symbol != d.wild_symbol or c4.rule != "standard":
        fail("card 4 must carry the star symbol and the Standard rule (rulebook figure 1)")
    if c62.points != 6 or c62.draws != 1 or c62.rule != "double_up":
        fail("card 62 must be worth 6 points, draw 1 black card and carry Double Up (rulebook figure 1)")


def _check_end_card(d: HumbleData, fail: Fail) -> None:
    """The End-of-Game card."""
    if d.end_value != NUM_WHITE + 1:
        fail(f"the End-of-Game card is numbered {NUM_WHITE + 1}, got {d.end_value}")
    if sorted(d.cards_above) != list(PLAYER_COUNTS):
        fail(f"the End-of-Game card needs a position for each player count {PLAYER_COUNTS}")
    for players, above in d.cards_above.items():
        low, high = d.white_hand * players, NUM_WHITE - (players + 1)
        if not low <= above <= high:
            fail(
                f"{players} players: {above} cards above the 80 is outside [{low}, {high}] "
                "(the hands must be dealt before it, and a full centre must follow it)"
            )


def _check_black(d: HumbleData, fail: Fail) -> None:
    """Black cards: 40 = Play + Hold."""
    if tuple(p.name for p in d.play) != PLAY_NAMES:
        fail(f"the Play cards must be {PLAY_NAMES} in this order (the action space names them)")
    for p in d.play:
        if p.effect not in EFFECTS:
            fail(f"Play card {p.name}: unknown effect {p.effect!r}")
        if p.count < 1:
            fail(f"Play card {p.name}: count must be positive")
        if (p.effect == "add") != (p.amount != 0):
            fail(f"Play card {p.name}: only 'add' cards carry a non-zero amount")
    if (
        [p.effect for p in d.play].count("shield") != 1
        or [p.effect for p in d.play].count("zero") != 1
        or [p.effect for p in d.play].count("double") != 1
    ):
        fail("there must be one Zero, one Double and one Shield kind of Play card")
    for h in d.hold:
        if len(h.symbols) != 3 or len(set(h.symbols)) != 3 or not set(h.symbols) <= set(d.symbols):
            fail(f"Hold card {h.symbols}: must show 3 different symbols of {d.symbols}")
        if h.bonus < 0:
            fail(f"Hold card {h.symbols}: bonus must not be negative")
    if len(d.hold) != 16:
        fail(f"there must be 16 Hold cards (the action space names each), got {len(d.hold)}")
    if len({(tuple(sorted(h.symbols)), h.bonus) for h in d.hold}) != len(d.hold):
        fail("two Hold cards are identical (each Hold card is its own kind)")
    total = sum(p.count for p in d.play) + len(d.hold)
    if total != NUM_BLACK:
        fail(f"black cards add up to {total}, the game has {NUM_BLACK}")


def _check_setup(d: HumbleData, fail: Fail) -> None:
    """Setup and the hand limit (rulebook: 3 white cards, 2 black cards, at most 3 black cards)."""
    if (d.white_hand, d.black_deal, d.black_limit) != (3, 2, 3):
        fail("the rulebook deals 3 white and 2 black cards and limits black hands to 3")

    # set scoring: 2 -> 2, 3 -> 5, ...; increasing
    sizes = sorted(d.set_points)
    if not sizes or sizes != list(range(2, sizes[-1] + 1)):
        fail("set points must be given for set sizes 2, 3, ... without gaps")
    values = [d.set_points[s] for s in sizes]
    if values[0] <= 0 or any(b <= a for a, b in itertools.pairwise(values)):
        fail("set points must be positive and grow with the set size")
