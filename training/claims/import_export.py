"""Import / Export's truths: the sealed bids of an Import round, read on the bid that completes it.

The round is read as ``training.analytics.import_export`` reads it (``decision_note``, from the
position before the last bid), so the marks, the labels and the analytics name the same winner.
The last bid may be one the engine applies by itself (a bidder with fewer than 2 credits can only
bid 0): a reader follows those through the state's ``auto_listeners``.
"""

from __future__ import annotations

from typing import NamedTuple

from smuggle_envs.games.import_export import ImportExportState
from training.analytics.import_export import decision_note

__all__ = ["BidRound", "bid_round"]


class BidRound(NamedTuple):
    """A round of sealed bids, opened: the bidders (from the leader), each one's bid in credits,
    the winner (the engine's tie-break) and the bidders tied at the highest bid."""

    bidders: list[int]
    bids: dict[int, int]
    winner: int
    tied: list[int]


def bid_round(state: ImportExportState, action: int) -> BidRound | None:
    """The round's bids if ``action`` (about to be taken in ``state``, by a seat or the engine) is
    its last bid (None: any other decision)."""
    note = decision_note(state, action)
    if note is None or note[0] != "bids":
        return None
    _, _ship, bidders, bids, _credits, (winner, _price, tied, *_) = note
    return BidRound(list(bidders), dict(bids), int(winner), list(tied))
