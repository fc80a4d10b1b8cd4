"""Import / Export's commitments: the sealed bids of the Import action.

Each bidder of an Import round (two or more of them) puts credits in its fist in secret; the
table hears "player p bids (sealed)" until every bid is in and they are revealed together. No
bid is challenged, so a bid is a commitment (``challenged`` and ``caught`` None):

* ``sealed_bid``: ``truth``: the bid won the ship (highest, or the tie-break's choice: the
  leader, else the tied bidder closest clockwise from him, a Foxes holder first). The round is
  read as the browser app's marks and ``training.analytics.import_export`` read it
  (``training.claims.import_export.bid_round``), from the position before the last bid,
  including bids the engine applies by itself (a bidder with fewer than 2 credits can only bid
  0: no decision, so no row, but its bid counts). ``payoff``: the bidder's
  score change from before its bid until the round's containers are placed (the price paid, the
  goods taken).

The powers' face-down hand-overs (A Small Tank, Shotguns, LED Lights, Rope) are hidden choices
too, but with no truth to read against a claim; they are left out. ``facing``: None everywhere:
nobody calls a claim here.

``questions`` (``training.bluffing.questions``): a bidder deciding its sealed bid after another's
faces that bid (the one just before its own): "P{q}'s sealed bid leads", true when it would win
the ship, with the engine's tie-break, against the bids in so far and nothing (0) from the seat
and the bidders after it, read on the world's sealed bids (``outbids``; ``mine`` other than 0
gives "P{q} outbids a bid of mine"). At the round's last bid, when the seat bids 0, that is the
``sealed_bid`` row's truth for ``q``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from smuggle_envs.core.game import State
from smuggle_envs.games.import_export import ImportExportState
from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.vocab import ISLAND, P_BID, P_IMPORT_PICK, P_IMPORT_ZONE
from training.claims.import_export import bid_round

from .. import Facing
from ._common import Draft, GameClaims, Labeller, heard, no_facing

ENV_ID = "import_export_v0"


def _containers_placed(state: State[Any]) -> bool:
    """No container of a won round is still to be picked or placed."""
    st = cast(ImportExportState, state)
    return st.over or st.ask is None or st.ask.phase not in (P_IMPORT_PICK, P_IMPORT_ZONE)


def _ship_text(st: ImportExportState) -> str:
    s = st.import_ship
    return "the supply island" if s == ISLAND else f"ship {s} (P{s // 2}'s)"


class ImportExportLabeller(Labeller):
    """Drafts every sealed bid a seat decides; the round's last bid (decided or applied by the
    engine) settles them all."""

    def __init__(self) -> None:
        super().__init__()
        self.bids: list[Draft] = []  # the sealed bids of the round in progress

    def start(self, state: State[Any]) -> None:
        # The engine's own decisions (a forced bid may be the round's last) are told here.
        cast(ImportExportState, state).auto_listeners.append(self._auto)

    def _auto(self, state: Any, player: int, action: int) -> None:
        self._read(cast(ImportExportState, state), action)

    def decide(self, state: State[Any], step: int, seat: int, action: int) -> bool:
        st = cast(ImportExportState, state)
        bid = st.ask is not None and st.ask.phase == P_BID
        if bid:
            claim = f"{heard(st, action)} for {_ship_text(st)}"
            d = self.draft(st, step, action, "sealed_bid", "commitment", claim=claim, resolved=_containers_placed)
            d.resolved = lambda s, d=d: d.truth is not None and _containers_placed(s)  # once the bids are open
            self.bids.append(d)
        self._read(st, action)
        return bid

    def _read(self, st: ImportExportState, action: int) -> None:
        """The last bid of a round: every bid is in, the winner known."""
        opened = bid_round(st, action)
        if opened is not None:
            for d in self.bids:
                d.truth = d.seat == opened.winner
            self.bids = []


def outbids(q: int, mine: int = 0) -> Callable[[State[Any]], bool]:
    """In any world at a sealed-bid decision: ``q``'s sealed bid would win the ship against the
    bids in so far, ``mine`` bid steps from the seat to bid and 0 from the bidders after it
    (ties as the engine breaks them, ``steps.r_bid``: a Foxes holder, else the first listed)."""

    def truth(world: State[Any]) -> bool:
        st = cast(ImportExportState, world)
        i = st.ask.context[0] if st.ask is not None else 0
        bids = {b: st.bids[b] if k < i else 0 for k, b in enumerate(st.bidders)}
        bids[st.bidders[i]] = mine
        best = max(bids.values())
        tied = [b for b in st.bidders if bids[b] == best]
        foxes = [b for b in st.holders(st.game.foxes) if b in tied]
        return (foxes[0] if foxes else tied[0]) == q

    return truth


def questions(state: State[Any], seat: int) -> Facing | None:
    """A bidder after the first, at its sealed bid, faces the bid just before its own: "P{q}'s
    sealed bid leads" (None elsewhere)."""
    st = cast(ImportExportState, state)
    ask = st.ask
    if ask is None or ask.phase != P_BID or ask.player != seat or ask.context[0] == 0:
        return None
    q = st.bidders[ask.context[0] - 1]
    # Its bid is the history's last action unless the engine made it (a forced 0: no action).
    last = len(st.history) - 1
    step = last if last >= 0 and A.BID <= st.history[last] < A.TYPE else None
    claim = f"P{q}'s sealed bid leads for {_ship_text(st)}"
    return Facing(seat, "sealed_bid", claim, q, step, outbids(q))


CLAIMS = GameClaims(ImportExportLabeller, no_facing)
"""Import / Export's part of the bluffing kit (``training.bluffing.games.CLAIMS`` files it under ``ENV_ID``)."""

__all__ = ["CLAIMS", "ENV_ID", "ImportExportLabeller", "outbids", "questions"]
