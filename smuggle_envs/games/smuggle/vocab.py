"""Smuggle's vocabulary: the names that the rules, the encoder, the renderer, the rule bot and the
analytics share (phases, search outcomes, the public search record, units of the observation).

It imports nothing of the game, so every module of the game (and those above it) can import it
without a cycle. The action space has its own module, ``actions.py``.
"""

from __future__ import annotations

from typing import NamedTuple

# Decision types, in the order of the ``phase`` observation piece; OVER has no flag there.
DECLARE, OFFICER, RECEIVE, DISCARD, OVER = range(5)
PHASE_NAMES = ("declare", "officer decides", "next player decides", "discard", "game over")
NUM_PHASE_FLAGS = 4  # the size of the ``phase`` piece (OVER sets none)

# Outcomes of a search, in the order of the ``last_reveal_outcome`` piece.
TRUTHFUL, LYING, REAL_BAG = range(3)

# Public record of searches kept for every seat (the ``search_record`` piece), field by field.
SEARCH_RECORD_FIELDS = (
    "searched_by_officer",
    "searched_by_informer",
    "caught_lying",
    "found_truthful",
    "false_bag_claims",
    "officer_searches",
    "officer_catches",
    "informs",
    "informer_catches",
    "next_player_decisions",
)
NUM_SEARCH_RECORDS = len(SEARCH_RECORD_FIELDS)
(
    R_SEARCHED,
    R_INFORMED_ON,
    R_CAUGHT,
    R_TRUTHFUL,
    R_BAG_FALSE,
    R_OFF_SEARCH,
    R_OFF_HIT,
    R_INFORMS,
    R_INFORM_HIT,
    R_NEXT_DECISIONS,
) = range(NUM_SEARCH_RECORDS)

# Units of the observation: counts of declarations and records are stored as count / COUNT_UNIT;
# the mean declared duty per seat is kept in units of DUTY_UNIT (so it fits a byte).
COUNT_UNIT = 20  # about as many declarations as a player makes in a game
DUTY_UNIT = 25


class Reveal(NamedTuple):
    """The last hand laid open by a search (``SmuggleState.last_reveal``)."""

    seat: int  # whose hand it was
    counts: list[int]  # the hand, per card kind
    outcome: int  # TRUTHFUL, LYING or REAL_BAG
    by_informer: bool  # searched by the next player as Informer (else by the Officer)
