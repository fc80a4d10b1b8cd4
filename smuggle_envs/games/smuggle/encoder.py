"""Smuggle's observation: named pieces, seat-relative (the observer is seat 0, then clockwise).

Everything here is public or known to the observer: its own live hand, the cards it passed on
(minus those seen discarded since), money, roles, the current declaration, the open suitcase
(discard pile), the last hand laid open and every seat's public record of declarations and
searches. The deck order, other players' hands and the State's RNG never enter.

Speed: the state keeps its small-integer facts in one byte buffer (``SmuggleGame.fields``), in
absolute seat order. An observation is one numpy gather from that buffer (a precomputed index per
observer does the seat rotation and picks the observer's private fields) and one multiply by a
per-position scale; money, the one piece that is not a small integer, is written afterwards.
"""

from __future__ import annotations

import numpy as np

from ...core.fields import GatherTable
from ...core.layout import ObservationLayout, Piece
from .actions import NUM_ITEMS, NUM_KINDS
from .game import SmuggleGame
from .state import SmuggleStateBase
from .vocab import COUNT_UNIT, DUTY_UNIT, NUM_PHASE_FLAGS, NUM_SEARCH_RECORDS, SEARCH_RECORD_FIELDS

INF = float("inf")
SEATS = "one-hot, seat-relative (0 = you, then clockwise)"
COUNT_SCALE = 1 / COUNT_UNIT
QUARTER = 0.25  # a hand holds 4 cards
NOT_HOLDER, HOLDER = 0, 1  # the variants of the gather table: does the observer hold the live hand?


def build_layout(game: SmuggleGame) -> ObservationLayout:
    """The pieces, each declared once: its meaning and bounds, and where it is gathered from (the
    byte field, the seat rotation, the scale); the state's byte fields are made from them."""
    n, pack = game.num_players, len(game.deck_template)
    kinds = "per card kind: " + ", ".join(game.kind_names)
    return ObservationLayout([*_roles(n), *_hand(game, kinds), *_table(game, n, pack), *_records(game, n)])


def _roles(n: int) -> list[Piece]:
    return [
        Piece(
            "phase",
            NUM_PHASE_FLAGS,
            "decision in progress: declare, officer decides, next player decides, discard",
            source="phase",
        ),
        Piece(
            "my_role",
            3,
            "you are: the Customs Officer, the holder of the live hand, the next player deciding",
            source=("officer", "holder", "receiver"),
            seats="own_flags",
        ),
        Piece("officer", n, f"the Customs Officer, {SEATS}", source="officer", seats="rotated"),
        Piece("holder", n, f"the player holding / declaring the live hand, {SEATS}", source="holder", seats="rotated"),
        Piece(
            "receiver", n, f"the next player deciding to accept or inform, {SEATS}", source="receiver", seats="rotated"
        ),
        Piece("active", n, "1 if the seat is still in the game (seat-relative)", source="active", seats="rotated"),
        Piece(
            "officer_done",
            n,
            "1 if the seat has been Officer (the round in play counts once it ends)",
            source="officer_done",
            seats="rotated",
        ),
        # written as floats after the gather: money is not a small integer
        Piece("money", n, "money / starting money per seat (negative: borrowed)", -INF, INF),
    ]


def _hand(game: SmuggleGame, kinds: str) -> list[Piece]:
    return [
        Piece(
            "my_hand",
            NUM_KINDS,
            f"the live hand if you hold it, count / 4, {kinds}",
            source="hand",
            scale=QUARTER,
            variant=HOLDER,
        ),
        Piece(
            "known_in_hand",
            NUM_KINDS,
            "cards of the live hand you passed on and have not seen discarded since, count / 4",
            source="known",
            seats="own",
            scale=QUARTER,
            variant=NOT_HOLDER,
        ),
        Piece(
            "declaration",
            NUM_ITEMS,
            "the live hand's declaration (while discarding: the one it was passed with), count / 4 per item",
            source="declaration",
            scale=QUARTER,
        ),
        Piece("bag_claim", 1, "1 if that declaration is a Diplomatic Bag claim", source="bag_claim"),
        Piece("duty_paid", 1, "1 if the Officer let the live hand pass (duty was paid)", source="duty_paid"),
    ]


def _table(game: SmuggleGame, n: int, pack: int) -> list[Piece]:
    return [
        Piece(
            "suitcase",
            NUM_KINDS,
            "the open suitcase (face-up discards this round), count / cards of that kind",
            source="suitcase",
            scale=tuple(1.0 / c for c in game.kind_counts),
        ),
        Piece(
            "last_reveal",
            NUM_KINDS,
            "the last hand laid open by a search, count / 4",
            source="last_reveal",
            scale=QUARTER,
        ),
        Piece("last_reveal_seat", n, f"whose hand that was, {SEATS}", source="last_reveal_seat", seats="rotated"),
        Piece(
            "last_reveal_outcome",
            4,
            "that search: truthful, lying, real Bag, searched by an Informer",
            source="last_reveal_outcome",
        ),
        Piece("deck", 1, f"cards left in the pack / {pack}", source="deck", scale=1.0 / pack),
        Piece("round", 1, "rounds finished / number of players", source="round", scale=1.0 / n),
    ]


def _records(game: SmuggleGame, n: int) -> list[Piece]:
    count = f"/ {COUNT_UNIT}"
    return [
        Piece(
            "declarations", n, f"declarations made per seat {count}", 0.0, INF, "declarations", "rotated", COUNT_SCALE
        ),
        Piece(
            "bag_claims", n, f"Diplomatic Bag claims per seat {count}", 0.0, INF, "bag_claims", "rotated", COUNT_SCALE
        ),
        Piece(
            "mean_declared_duty",
            n,
            f"mean duty per declaration (in {DUTY_UNIT}s) / the largest declarable duty, per seat",
            source="mean_declared_duty",
            seats="rotated",
            scale=DUTY_UNIT / max(game.declared_duty),
        ),
        Piece(
            "search_record",
            n * NUM_SEARCH_RECORDS,
            f"per seat (seat-relative, seat-major), counts {count} of: " + ", ".join(SEARCH_RECORD_FIELDS),
            0.0,
            INF,
            "search_record",
            "rotated_rows",
            COUNT_SCALE,
        ),
        Piece(
            "received_from",
            n,
            f"private: hands you accepted from each seat {count} (seat-relative)",
            0.0,
            INF,
            "received_from",
            "own_rotated",
            COUNT_SCALE,
        ),
        Piece(
            "received_lies",
            n,
            f"private: of those, hands you saw did not match their declaration {count}",
            0.0,
            INF,
            "received_lies",
            "own_rotated",
            COUNT_SCALE,
        ),
    ]


class SmuggleEncoder:
    """The gather table of the pieces' declarations for one game (one player count), in two
    variants: the observer holds the live hand, or not; money is written after the gather."""

    def __init__(self, game: SmuggleGame):
        n = self.n = game.num_players
        layout = game.observation_layout
        self.money_slice = layout.slice("money")
        self.inv_money = 1.0 / game.starting_money
        table = GatherTable(layout, game.fields, n)
        self.scale = table.scale
        self._by_seat = [[table.row(p, NOT_HOLDER), table.row(p, HOLDER)] for p in range(n)]  # fast lookup

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
