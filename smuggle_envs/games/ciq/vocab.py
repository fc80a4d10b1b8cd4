"""CIQ's vocabulary: the names the rules, the encoder, the renderer, the bot and the analytics
share (decision phases, card effects, rank indices, record-field indices, observation scales).

Cards and actions have their own module (``actions.py``); this one imports nothing, so every
other module of the game can import it without a cycle.
"""

from __future__ import annotations

# Decision types, in the order of the ``phase`` observation piece; OVER has no flag.
MAIN, OPEN, SABOTAGE2, AFTER_SABOTAGE, SHIPPING, FIRE_DECISION, GIVE_FROM_HAND, OVER = range(8)
NUM_PHASES = 7
PHASE_NAMES = (
    "choose an action",
    "open a sabotage or shipment",
    "second sabotage card",
    "ship after the sabotage, or stop",
    "shipping",
    "fire or keep the customs worker",
    "transfer cards from hand",
    "game over",
)

# Card effects when shipped (per card kind in ``CIQGame.effects``).
NUMBER, JACK, QUEEN, KING, ACE, NO_EFFECT = range(6)
EFFECT_CODES = {"number": NUMBER, "jack": JACK, "queen": QUEEN, "king": KING, "ace": ACE}

# Rank indices (``kind % NUM_RANKS``) of the face cards and the Ace.
JACK_RANK, QUEEN_RANK, KING_RANK, ACE_RANK = 9, 10, 11, 12

# The ``shipment_flags`` field: one byte per flag, in this order.
SHIP_FLAGS = 3
FLAG_BRIBE, FLAG_SMUGGLED, FLAG_FIRED = range(SHIP_FLAGS)

# Scales of the pile-size pieces of the observation (size / scale); the bot reads them back.
HAND_SCALE = 7
PILE_SCALE = 54  # one deck
TOLERANCE_SCALE = 10
