"""Import / Export's flat action space: every decision is one of these atomic choices.

Card ids are unique across the whole game (every goods card is a different card), so "choose
card c" needs no location: the decision in progress says whether c is picked from the hand, the
supply island, a ship's cargo or one's own contracts. Seats are relative (0 = you, then
clockwise); ships are absolute (``2 * seat + k``, the two ships of a seat).
"""

from __future__ import annotations

from collections.abc import Sequence

from .data import ACTIONS, GOOD_TYPES

MAX_CARDS = 128  # base 100 + jutaku 10 + kickstarter 15 + captain 3
MAX_SEATS = 6
NUM_SHIPS = 2 * MAX_SEATS
MAX_BID_STEPS = 50  # bids of 0, 2, ..., 100 credits

DONE = 0  # stop / skip the remaining actions / decline
YES = 1  # accept an optional power
DRAW = 2  # draw instead of declaring or following
WILD = 3  # declare or follow with two cards of the same colour
CARD = 4  # CARD + c: choose card c
ACTION = CARD + MAX_CARDS  # ACTION + a: the action type a (a two-card wild)
SHIP = ACTION + len(ACTIONS)  # SHIP + s: choose ship s
BID = SHIP + NUM_SHIPS  # BID + k: a sealed bid of 2k credits
TYPE = BID + MAX_BID_STEPS + 1  # TYPE + t: name the good type t
SEAT = TYPE + len(GOOD_TYPES)  # SEAT + r: the player r seats clockwise from you
ZONE = SEAT + MAX_SEATS  # ZONE + z: put a card into one of ZONES
ZONES = ("imports", "goods", "hand", "discard")
IMPORTS, GOODS, HAND, DISCARD = range(len(ZONES))
OPTION = ZONE + len(ZONES)  # OPTION + i: a numbered choice a power offers
NUM_OPTIONS = 4
NUM_ACTIONS = OPTION + NUM_OPTIONS


def to_string(action: int, card_names: Sequence[str] | None = None) -> str:
    if action == DONE:
        return "done"
    if action == YES:
        return "yes"
    if action == DRAW:
        return "draw"
    if action == WILD:
        return "two-card wild"
    if CARD <= action < ACTION:
        c = action - CARD
        return f"card {card_names[c] if card_names and c < len(card_names) else c}"
    if ACTION <= action < SHIP:
        return f"action {ACTIONS[action - ACTION]}"
    if SHIP <= action < BID:
        s = action - SHIP
        return f"ship {s} (P{s // 2}'s)"  # the default seat name (``Game.seat_name``)
    if BID <= action < TYPE:
        return f"bid {2 * (action - BID)}"
    if TYPE <= action < SEAT:
        return f"good type {GOOD_TYPES[action - TYPE]}"
    if SEAT <= action < ZONE:
        return f"player +{action - SEAT}"
    if ZONE <= action < OPTION:
        return f"to {ZONES[action - ZONE]}"
    if OPTION <= action < NUM_ACTIONS:
        return f"option {action - OPTION}"
    raise ValueError(f"action {action} is out of range [0, {NUM_ACTIONS})")
