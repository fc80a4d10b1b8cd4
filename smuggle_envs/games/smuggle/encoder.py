"""Smuggle's observation: named pieces, seat-relative (the observer is seat 0, then clockwise).

Everything here is public or known to the observer: its own live hand, the cards it passed on
(minus those seen discarded since), money, roles, the current declaration, the open suitcase
(discard pile), the last hand laid open and every seat's public record of declarations and
searches. The deck order, other players' hands and the State's RNG never enter.

Speed: the state keeps its small-integer facts in one byte buffer (``SmuggleGameBase.fields``), in
absolute seat order. An observation is one numpy gather from that buffer (a precomputed index per
observer does the seat rotation and picks the observer's private fields) and one multiply by a
per-position scale; money, the one piece that is not a small integer, is written afterwards.
"""

from __future__ import annotations

import numpy as np

from ...core.fields import ByteFields
from ...core.layout import ObservationLayout, Piece
from .actions import NUM_ITEMS, NUM_KINDS
from .game import SmuggleGameBase
from .state import SmuggleStateBase
from .vocab import COUNT_UNIT, DUTY_UNIT, NUM_PHASE_FLAGS, NUM_SEARCH_RECORDS, SEARCH_RECORD_FIELDS

INF = float("inf")
SEATS = "one-hot, seat-relative (0 = you, then clockwise)"
COUNT_SCALE = 1 / COUNT_UNIT


def build_layout(game: SmuggleGameBase) -> ObservationLayout:
    n = game.num_players
    kinds = "per card kind: " + ", ".join(game.kind_names)
    return ObservationLayout(
        [
            Piece(
                "phase", NUM_PHASE_FLAGS, "decision in progress: declare, officer decides, next player decides, discard"
            ),
            Piece("my_role", 3, "you are: the Customs Officer, the holder of the live hand, the next player deciding"),
            Piece("officer", n, f"the Customs Officer, {SEATS}"),
            Piece("holder", n, f"the player holding / declaring the live hand, {SEATS}"),
            Piece("receiver", n, f"the next player deciding to accept or inform, {SEATS}"),
            Piece("active", n, "1 if the seat is still in the game (seat-relative)"),
            Piece("officer_done", n, "1 if the seat has been Officer (the round in play counts once it ends)"),
            Piece("money", n, "money / starting money per seat (negative: borrowed)", -INF, INF),
            Piece("my_hand", NUM_KINDS, f"the live hand if you hold it, count / 4, {kinds}"),
            Piece(
                "known_in_hand",
                NUM_KINDS,
                "cards of the live hand you passed on and have not seen discarded since, count / 4",
            ),
            Piece(
                "declaration",
                NUM_ITEMS,
                "the live hand's declaration (while discarding: the one it was passed with), count / 4 per item",
            ),
            Piece("bag_claim", 1, "1 if that declaration is a Diplomatic Bag claim"),
            Piece("duty_paid", 1, "1 if the Officer let the live hand pass (duty was paid)"),
            Piece("suitcase", NUM_KINDS, "the open suitcase (face-up discards this round), count / cards of that kind"),
            Piece("last_reveal", NUM_KINDS, "the last hand laid open by a search, count / 4"),
            Piece("last_reveal_seat", n, f"whose hand that was, {SEATS}"),
            Piece("last_reveal_outcome", 4, "that search: truthful, lying, real Bag, searched by an Informer"),
            Piece("deck", 1, "cards left in the pack / 56"),
            Piece("round", 1, "rounds finished / number of players"),
            Piece("declarations", n, "declarations made per seat / 20", 0.0, INF),
            Piece("bag_claims", n, "Diplomatic Bag claims per seat / 20", 0.0, INF),
            Piece(
                "mean_declared_duty", n, "mean duty per declaration (in 25s) / the largest declarable duty, per seat"
            ),
            Piece(
                "search_record",
                n * NUM_SEARCH_RECORDS,
                "per seat (seat-relative, seat-major), counts / 20 of: " + ", ".join(SEARCH_RECORD_FIELDS),
                0.0,
                INF,
            ),
            Piece("received_from", n, "private: hands you accepted from each seat / 20 (seat-relative)", 0.0, INF),
            Piece(
                "received_lies", n, "private: of those, hands you saw did not match their declaration / 20", 0.0, INF
            ),
        ]
    )


# Pieces holding one value per seat, rotated so the observer comes first.
_PER_SEAT = {
    "officer",
    "holder",
    "receiver",
    "active",
    "officer_done",
    "last_reveal_seat",
    "declarations",
    "bag_claims",
    "mean_declared_duty",
}


class SmuggleEncoder:
    """Precomputed gather indices and scales for one game (one player count)."""

    def __init__(self, game: SmuggleGameBase):
        n = self.n = game.num_players
        layout, fields = game.observation_layout, game.fields
        self.money_slice = layout.slice("money")
        self.inv_money = 1.0 / game.starting_money
        # gather[p, h]: indices for observer p, h = 1 when p holds the live hand.
        self.gather = np.full((n, 2, layout.size), fields.zero, np.intp)
        self.scale = np.ones(layout.size, np.float32)
        for piece in layout.pieces:
            sl = layout.slice(piece.name)
            self.scale[sl] = _scale(piece.name, game, n)
            for p in range(n):
                for is_holder in (0, 1):
                    self.gather[p, is_holder, sl] = self._source(piece, fields, p, is_holder)
        self._by_seat = [[self.gather[p, 0], self.gather[p, 1]] for p in range(n)]  # fast lookup

    def _source(self, piece: Piece, fields: ByteFields, p: int, is_holder: int) -> list[int]:
        n, name, zero = self.n, piece.name, fields.zero
        if name == "money":
            return [zero] * n  # written as floats after the gather
        if name == "my_role":
            return [fields.start("officer") + p, fields.start("holder") + p, fields.start("receiver") + p]
        if name == "my_hand":
            start = fields.start("hand")
            return [start + k if is_holder else zero for k in range(piece.size)]
        if name == "known_in_hand":
            start = fields.start("known") + p * NUM_KINDS
            return [zero if is_holder else start + k for k in range(piece.size)]
        start = fields.start(name)
        if name in _PER_SEAT:
            return [start + (p + i) % n for i in range(n)]
        if name in ("received_from", "received_lies"):
            return [start + p * n + (p + i) % n for i in range(n)]
        if name == "search_record":
            r = NUM_SEARCH_RECORDS
            return [start + ((p + i // r) % n) * r + i % r for i in range(piece.size)]
        return list(range(start, start + piece.size))

    def encode(self, state: SmuggleStateBase, player: int) -> np.ndarray:
        n = self.n
        if not 0 <= player < n:
            raise ValueError(f"player must be a seat in [0, {n}), got {player!r}")
        obs: np.ndarray = state.np_buf[self._by_seat[player][player == state.holder]] * self.scale
        inv, money = self.inv_money, state.money
        # one element at a time: cheaper than building a list for numpy to convert
        for i, m in enumerate(money[player:] + money[:player], self.money_slice.start):
            obs[i] = m * inv
        return obs


def _scale(name: str, game: SmuggleGameBase, n: int) -> float | list[float]:
    if name in ("my_hand", "known_in_hand", "declaration", "last_reveal"):
        return 0.25
    if name == "suitcase":
        return [1.0 / c for c in game.kind_counts]
    if name == "deck":
        return 1.0 / 56
    if name == "round":
        return 1.0 / n
    if name in ("declarations", "bag_claims", "search_record", "received_from", "received_lies"):
        return COUNT_SCALE
    if name == "mean_declared_duty":
        return DUTY_UNIT / max(game.declared_duty)
    return 1.0
