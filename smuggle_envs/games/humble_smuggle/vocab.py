"""Humble smuggle's vocabulary: the names that the rules, the encoder, the renderer, the rule bot
and the analytics share (phases, round rules, symbols, Play card effects, the reveal record).

It imports nothing of the game, so every module of the game (and those above it) can import it
without a cycle. The action space has its own module, ``actions.py``; the card data, ``data.py``.
"""

from __future__ import annotations

from typing import NamedTuple

# Decision types, in the order of the ``phase`` observation piece; OVER has no flag there.
DRAFT, SELECT, PLAY, DISCARD, OVER = range(5)
PHASE_NAMES = ("draft", "select a card", "play black cards", "discard black cards", "game over")
NUM_PHASE_FLAGS = 4  # the size of the ``phase`` piece (OVER sets none)

# Round rules: the five icons, Symbol Up split by the symbol it names (9 kinds).
STANDARD, DOUBLE_UP, HIGH_LOW, SYMBOL_UP, SAFE_ZONE = 0, 1, 2, 3, 8
NUM_RULE_KINDS = 9
RULE_FAMILIES = ("Standard", "Double Up", "High & Low", "Symbol Up", "Safe Zone")


def rule_family(rule: int) -> str:
    """The rulebook's name of a round rule's icon, Symbol Up whatever the symbol it names."""
    if SYMBOL_UP <= rule < SAFE_ZONE:
        return "Symbol Up"
    return {STANDARD: "Standard", DOUBLE_UP: "Double Up", HIGH_LOW: "High & Low", SAFE_ZONE: "Safe Zone"}[rule]


NUM_SYMBOLS = 5  # anchor, barrel, compass, skull, key
STAR = NUM_SYMBOLS  # the wild symbol's index in per-seat symbol counts
NO_SYMBOL = -1

# Effects of the Play kinds.
ADD, ZERO, DOUBLE, SHIELD = range(4)
EFFECT_CODES = {"add": ADD, "zero": ZERO, "double": DOUBLE, "shield": SHIELD}


class Reveal(NamedTuple):
    """The last reveal and resolution (``HumbleSmuggleState.last``), public to every seat."""

    cards: list[int]  # each seat's face-down white card
    values: list[int]  # each seat's effective value, Play cards applied
    attached: list[list[tuple[int, int]]]  # per seat's card: (attacher, Play kind)
    discarded: list[int]  # the seats whose card the round's rule discarded
    centre: int  # the centre card left after drafting
    centre_discarded: bool  # whether the rule discarded it too
    rule: int  # the round's rule (STANDARD ... SAFE_ZONE)
