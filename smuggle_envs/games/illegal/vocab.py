"""Illegal's vocabulary: the names the rules, the encoder, the renderer, the bot and the analytics
share (decision phases, card types, hassle indices, loss codes, reaction windows, observation
scales).

Cards and actions have their own module (``actions.py``); this one imports only that, so every
other module of the game can import it without a cycle.
"""

from __future__ import annotations

from .actions import FIRST_HASSLE, PROTECTION, RAID, TAX, VACATION

# Decision types, in the order of the ``phase`` observation piece; OVER has no flag.
(TRADE_GIVE, TRADE_WANT, TRADE_PARTNER, TRADE_ANSWER, PLAY, EXTRA, TARGET, TAKE, PAY, LOSE, PASS, REACT) = range(12)
NUM_PHASES = 12
OVER = NUM_PHASES
PHASE_NAMES = (
    "trade: offer cards",
    "trade: ask for cards",
    "trade: choose the partner",
    "answer a trade",
    "play a card or discard",
    "second legal business, extras or end the turn",
    "choose a target",
    "choose the business to take",
    "choose the business card that pays the Bribe",
    "choose the business to lose",
    "pass a card to the left",
    "Magnum: react or let it happen",
    "game over",
)

# Card types (per kind, ``IllegalGame.types``), for the rules' dispatch.
(
    T_MARKET,
    T_ACCOUNTING,
    T_ILLEGAL,
    T_LEGAL,
    T_HASSLE,
    T_SOLUTION,
    T_BRIBE,
    T_PARANOIA,
    T_TAKEOVER,
    T_RELATIVES,
    T_MAGNUM,
) = range(11)
TYPE_CODES = {
    "market": T_MARKET,
    "accounting": T_ACCOUNTING,
    "illegal": T_ILLEGAL,
    "legal": T_LEGAL,
    "hassle": T_HASSLE,
    "solution": T_SOLUTION,
    "paranoia": T_PARANOIA,
    "takeover": T_TAKEOVER,
    "relatives": T_RELATIVES,
    "magnum": T_MAGNUM,
}

# Hassle indices (``state.hassle[q]``, the ``hassle`` piece): hassle kind - FIRST_HASSLE.
H_RAID, H_PROTECTION, H_TAX, H_VACATION = (k - FIRST_HASSLE for k in (RAID, PROTECTION, TAX, VACATION))

# Business lost at the end of each of the victim's turns (per hassle index).
LOSS_NONE, LOSS_ILLEGAL, LOSS_ANY = 0, 1, 2
LOSS_CODES = {"none": LOSS_NONE, "illegal": LOSS_ILLEGAL, "any": LOSS_ANY}
# What a Paranoia card costs on the table.
LOSES_ONE, LOSES_TOP, LOSES_ALL = 0, 1, 2
LOSES_CODES = {"one": LOSES_ONE, "most expensive": LOSES_TOP, "all": LOSES_ALL}

# Reaction windows (the ``window`` piece).
W_TAKEOVER, W_HASSLE = 0, 1
# What follows a forced business loss.
AFTER_TURN, AFTER_PARANOIA = 0, 1

# Scales of the observation: hand sizes and lost turns are multiplied by theirs, Euros divided
# by ``EUROS`` (the multi-hand totals; also the game's ``score_scale``).
HAND_SCALE = 1 / 7  # hand sizes are about 7
LOST_TURNS_SCALE = 0.5
EUROS = 100_000
