"""Import / Export's observation: named pieces, seat-relative (the observer is seat 0).

Everything here is public or the observer's own: its hand, every harbor (colour, imports,
goods, completed shipments, ships with their contracts and loaded containers), the ships at sea
and their containers, the supply island, the discard pile, all active credits, the turn's
leader, declared action and who followed or drew, the cards played this turn, the import in
progress (ship, bidders, who has bid, the last revealed bids) and the deck size. Other hands,
the deck's order, sealed bids not yet revealed and the State's RNG never enter.

Why this encoder writes its pieces itself rather than gathering them from piece declarations
(``Piece.source``, ``core.fields.GatherTable``) as the byte-buffer games do: its state is lists of
card ids per zone, not byte fields, and most pieces are made from the cards, not copied from a
count (a ship's required and loaded containers per colour, imports per action and per good type,
flags per card id), so a byte mirror of them would be a second copy of the state to keep in step
on every move of a card, about 2,000 bytes against the other games' few hundred. The pieces are
still declared once (``build_layout``: size, meaning, bounds); the writer finds each one by name
(``_offsets``), and ``tests/games/import_export/_reference_encoder.py`` (a plain writer, piece by
piece) checks it byte for byte.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...core.layout import ObservationLayout, Piece
from .actions import MAX_CARDS
from .data import ACTIONS, GOOD_TYPES
from .game import ImportExportGame
from .state import ImportExportStateBase
from .vocab import (
    BIDDING_PHASES,
    ISLAND,
    NUM_ACTION_TYPES,
    NUM_PHASES,
    NUM_TYPES,
    P_BID,
    P_IMPORT_PICK,
    P_IMPORT_ZONE,
    P_POWER,
    PHASE_NAMES,
    SHIP_FEATURES,
)

INF = float("inf")
SEATS = "one-hot, seat-relative (0 = you, then clockwise)"
T, NA = NUM_TYPES, NUM_ACTION_TYPES


def build_layout(game: ImportExportGame) -> ObservationLayout:
    n = game.num_players
    types = ", ".join(GOOD_TYPES)
    acts = ", ".join(ACTIONS)
    card = "per card id (0-127, see data/cards.json)"
    seatwise = "per seat (seat-relative, seat-major)"
    return ObservationLayout([*_seat_pieces(n, acts, types, card, seatwise), *_table_pieces(n, card)])


def _seat_pieces(n: int, acts: str, types: str, card: str, seatwise: str) -> list[Piece]:
    """The turn and every seat's hand, credits, harbor, goods, shipments and ships."""
    return [
        Piece("phase", NUM_PHASES, "decision in progress: " + "; ".join(PHASE_NAMES)),
        Piece("leader", n, f"the turn's leader, {SEATS}"),
        Piece("decider", n, f"the player deciding now, {SEATS}"),
        Piece("declared", NA, f"the declared action, one-hot ({acts})"),
        Piece("followed", 2 * n, f"{seatwise}: followed, drew"),
        Piece("actions_left", n, "actions each seat still has this turn / 4", 0.0, INF),
        Piece("my_hand", MAX_CARDS, f"your hand, {card}"),
        Piece("hand_size", n, "cards in hand per seat / 10", 0.0, INF),
        Piece("credits", n, "active credits per seat / 50", 0.0, INF),
        Piece("passive", n, "passive credits per seat (Helicopter, paid at the end) / 50", 0.0, INF),
        Piece("double_turn", 2 * n, f"{seatwise}: owes two turns in a row (Delayed Game), is taking them now"),
        Piece(
            "acting_as",
            n * NA,
            f"{seatwise}: the action it carries out this turn when not the declared "
            "one (Neural Units: load; Rice Cookers: its chosen load or contract), one-hot",
        ),
        Piece("colour", 6 * n, f"{seatwise}: harbor colour, one-hot ({types}, grey)"),
        Piece("imports_by_action", n * NA, f"{seatwise}: cards in imports per action ({acts}) / 4", 0.0, INF),
        Piece("imports_by_type", n * T, f"{seatwise}: cards in imports per good type / 4", 0.0, INF),
        Piece("goods", n * T, f"{seatwise}: goods per type ({types}) / 4", 0.0, INF),
        Piece("shipments", n * MAX_CARDS, f"{seatwise}: completed shipments, {card}"),
        Piece(
            "ships",
            2 * n * SHIP_FEATURES,
            f"{seatwise}, two ships each: at sea; required containers per colour / 6; loaded (or, at "
            "sea, carried) containers per colour / 6; containers / 8",
            0.0,
            INF,
        ),
    ]


def _table_pieces(n: int, card: str) -> list[Piece]:
    """The cards on the table, the decision's cards, the bids, the deck and what you saw."""
    return [
        Piece("contracts", MAX_CARDS, f"contracts on any ship in a harbor, {card}"),
        Piece("my_contracts", MAX_CARDS, f"contracts on your own ships, {card}"),
        Piece("at_sea", MAX_CARDS, f"containers on ships at sea, {card}"),
        Piece("island", MAX_CARDS, f"the supply island, {card}"),
        Piece("discard", MAX_CARDS, f"the discard pile, {card}"),
        Piece("played", MAX_CARDS, f"cards played this turn to declare or follow, {card}"),
        Piece("pending", MAX_CARDS, "the card being placed now (one-hot)"),
        Piece("power", MAX_CARDS, "the card whose power asks the decision in progress (one-hot)"),
        Piece("wind_copy", MAX_CARDS, "the completed shipment whose power Wind Turbines copies (one-hot)"),
        Piece("import_ship", 2 * n, "the ship being imported from, seat-relative ship order"),
        Piece("import_island", 1, "1 while the supply island is being imported from (Dark Flight Games)"),
        Piece("bidders", n, "seats in the current import round"),
        Piece("has_bid", n, "seats that have made their sealed bid this round"),
        Piece("my_bid", 1, "your sealed bid this round / 50", 0.0, INF),
        Piece("last_bids", n, "the last revealed bids / 50 (0 if none)", 0.0, INF),
        Piece("sold", n, "seats that sold to the island this turn"),
        Piece("deck", 1, "cards in the draw deck / 128", 0.0, INF),
        Piece("turn", 1, "turns played / turn_limit"),
        Piece(
            "seen_in_hands",
            (n - 1) * MAX_CARDS,
            "each other seat (seat-relative 1..n-1): the cards you saw go into its hand and have not "
            f"seen leave it (a Hawaiian Salt reveal, a card taken from a public place, a card you gave it), {card}",
        ),
    ]


# The pieces ``ImportExportEncoder.encode`` writes at by offset, in its order (the other pieces
# are written through ``_scalar_at`` and the cached harbors).
_ENCODED = (
    "phase",
    "leader",
    "decider",
    "declared",
    "followed",
    "my_hand",
    "double_turn",
    "acting_as",
    "island",
    "discard",
    "played",
    "pending",
    "power",
    "wind_copy",
    "import_ship",
    "import_island",
    "bidders",
    "has_bid",
    "my_bid",
    "sold",
    "deck",
    "turn",
    "seen_in_hands",
)
# positions in ``_ENCODED`` (and in the encoder's ``_offsets``)
(
    _PHASE,
    _LEADER,
    _DECIDER,
    _DECLARED,
    _FOLLOWED,
    _MY_HAND,
    _DOUBLE_TURN,
    _ACTING_AS,
    _ISLAND,
    _DISCARD,
    _PLAYED,
    _PENDING,
    _POWER,
    _WIND_COPY,
    _IMPORT_SHIP,
    _IMPORT_ISLAND,
    _BIDDERS,
    _HAS_BID,
    _MY_BID,
    _SOLD,
    _DECK,
    _TURN,
    _SEEN,
) = range(len(_ENCODED))


class ImportExportEncoder:
    """Writes a seat's observation of a state (``Game.encoder``).

    It lists the indices of the flags and card ids (value 1, each set once) and the entries with
    a value of their own, then writes them into a zero vector with a few numpy assignments.

    Speed (issue 15): the harbors (each seat's colour, imports, goods, shipments and two ships
    with their contracts and containers) are most of the observation and change on about one
    decision in ten, so their entries are cached, keyed by everything they are made of: a pure
    function of the key, shared by every state of the game, clones and resampled worlds included,
    and right whatever changed the lists in place. They are made once in absolute seat order and
    turned round to each observer by a precomputed permutation (``_turn``). The per-seat numbers
    go to precomputed per-observer positions (``_scalar_at``). ``encode`` stays one function on purpose: it runs every decision,
    and each extra call would cost more than its body saves.
    """

    cache_size = 1024  # keys each cache keeps before it is emptied (a few MB at most)

    def __init__(self, game: ImportExportGame) -> None:
        self.game = game
        n = self.n = game.num_players
        self.layout = layout = game.observation_layout
        self.size = layout.size
        off = self.off = {p.name: layout.slice(p.name).start for p in layout.pieces}
        self._offsets = tuple(off[name] for name in _ENCODED)
        self._ids, self._turn_limit = game.ids, game.config.turn_limit
        # _rel[p][q]: seat q as seen from seat p (0 = p, then clockwise)
        rel = self._rel = tuple(tuple((q - p) % n for q in range(n)) for p in range(n))
        # _turn[p][i]: where entry i of the absolute-seat-order vector goes in p's observation
        turn = np.tile(np.arange(self.size, dtype=np.intp), (n, 1))
        for name, block in _SEAT_BLOCKS.items():
            start = off[name]
            for p in range(n):
                for q in range(n):
                    a, b = start + q * block, start + rel[p][q] * block
                    turn[p, a : a + block] = np.arange(b, b + block)
        self._turn = turn
        # per observer: where actions left, hand sizes, credits, passive credits and the last
        # revealed bids of seats 0..n-1 go (the order of ``encode``'s values)
        scalars = ("actions_left", "hand_size", "credits", "passive", "last_bids")
        self._scalar_at = tuple(tuple(off[name] + rel[p][q] for name in scalars for q in range(n)) for p in range(n))
        self._harbors: dict[tuple[Any, ...], _Harbors] = {}
        self._seats: dict[tuple[Any, ...], _Seat] = {}

    def encode(self, st: ImportExportStateBase, player: int) -> np.ndarray:
        n = self.n
        if not 0 <= player < n:
            raise ValueError(f"player must be a seat in [0, {n}), got {player!r}")
        o = self._offsets
        rel = self._rel[player]
        ones: list[int] = []  # weight 1 (one-hot flags, card ids)
        self._decision(st, player, rel, o, ones)
        self._seat_flags(st, player, rel, o, ones)
        at, value = self._scalars(st, player, o)
        key = (
            tuple(st.colour),
            tuple(st.at_sea),
            tuple(map(tuple, st.imports + st.goods + st.shipments + st.cargo + st.contracts)),
        )
        harbors = self._harbors.get(key)
        if harbors is None:
            harbors = self._new_harbors(key)
        ones += harbors.my_contracts[player]
        ones += map(o[_ISLAND].__add__, st.island)
        ones += map(o[_DISCARD].__add__, st.discard)  # it grows to most of the deck: added in C
        out = np.zeros(self.size, np.float32)
        out[harbors.indices[player]] = harbors.values
        # every flag and card id is set once (a card is in one place); ``fromiter`` and ``put``
        # convert the lists faster than indexing with them does
        out[np.fromiter(ones, np.intp, len(ones))] = 1.0
        out.put(at, value)  # each index once; float64 values, rounded to float32 on the way in
        return out

    def _decision(
        self, st: ImportExportStateBase, player: int, rel: tuple[int, ...], o: tuple[int, ...], ones: list[int]
    ) -> None:
        """The decision asked, the leader, the declared action, the seat's hand and the cards on
        the table (played, pending, the ship or island auctioned, the Wind's copy)."""
        one = ones.append
        ask = None if st.over else st.ask  # a decision is stated whenever the game is not over
        if ask is not None:
            one(o[_PHASE] + ask.phase)
            one(o[_DECIDER] + rel[ask.player])
            if ask.phase == P_POWER:
                one(o[_POWER] + self._ids[ask.context[0]])
        one(o[_LEADER] + rel[st.leader])
        if st.declared >= 0:
            one(o[_DECLARED] + st.declared)
        # the card lists (the discard pile grows to most of the deck) are added in C
        ones += map(o[_MY_HAND].__add__, st.hands[player])
        for cards in st.played:  # cards played this turn: few, by few seats
            if cards:
                ones += map(o[_PLAYED].__add__, cards)
        if st.pending >= 0:
            one(o[_PENDING] + st.pending)
        if st.import_ship >= 0:
            s = st.import_ship
            one(o[_IMPORT_SHIP] + 2 * rel[s // 2] + s % 2)
        if st.wind_copy >= 0:
            one(o[_WIND_COPY] + st.wind_copy)
        if _from_island(st):
            one(o[_IMPORT_ISLAND])

    def _seat_flags(
        self, st: ImportExportStateBase, player: int, rel: tuple[int, ...], o: tuple[int, ...], ones: list[int]
    ) -> None:
        """Every seat's turn flags, the bidders of a sealed auction, and the cards ``player`` has
        seen in other hands."""
        one = ones.append
        n = self.n
        followed, double_turn, act_as, sold = st.followed, st.double_turn, st.act_as, st.sold
        o_followed, o_double_turn, o_acting_as, o_sold = o[_FOLLOWED], o[_DOUBLE_TURN], o[_ACTING_AS], o[_SOLD]
        for q in range(n):  # flags: few are set
            if followed[q]:
                one(o_followed + 2 * rel[q] + followed[q] - 1)
            if double_turn[q]:
                one(o_double_turn + 2 * rel[q] + double_turn[q] - 1)
            if 0 <= act_as[q] < NA:
                one(o_acting_as + NA * rel[q] + act_as[q])
            if sold[q]:
                one(o_sold + rel[q])
        if st.bidders and st.ask is not None and st.ask.phase in BIDDING_PHASES:  # ``ask`` even if over
            for q in st.bidders:
                one(o[_BIDDERS] + rel[q])
                if st.bids[q] >= 0:
                    one(o[_HAS_BID] + rel[q])
        seen = st.seen
        for q in range(n):
            if q != player and seen[player * n + q]:
                ones += map((o[_SEEN] + (rel[q] - 1) * MAX_CARDS).__add__, st.seen_in_hand(player, q))

    def _scalars(self, st: ImportExportStateBase, player: int, o: tuple[int, ...]) -> tuple[list[int], list[float]]:
        """Where the numbers go and their values: seats 0..n-1 in ``_scalar_at`` order (a zero or
        unrevealed (-1) entry reads 0.0 either way), the seat's own bid, the deck and the turn."""
        at = list(self._scalar_at[player])
        value = (
            [a / 4 for a in st.actions_left]
            + [len(hand) / 10 for hand in st.hands]
            + [c / 50 for c in st.credits]
            + [c / 50 for c in st.passive]
            + [b / 25 if b > 0 else 0.0 for b in st.last_bids]
        )
        if st.bids[player] >= 0:
            at.append(o[_MY_BID])
            value.append(st.bids[player] / 25)
        at += (o[_DECK], o[_TURN])
        value += (len(st.deck) / 128, st.turn / self._turn_limit)
        return at, value

    def _new_harbors(self, key: tuple[Any, ...]) -> _Harbors:
        """The harbor entries made of ``key`` alone (see ``encode``), cached. Usually one seat's
        harbor changed: each seat's entries are cached too (``_seat``), keyed by its part of ``key``."""
        colour, at_sea, lists = key
        n, seats = self.n, self._seats
        indices: list[int] = []
        values: list[float] = []
        my_contracts: list[tuple[int, ...]] = []
        for q in range(n):
            s = 2 * q
            part = (q, colour[q], at_sea[s], at_sea[s + 1])
            part += lists[q::n][:3] + lists[3 * n + s : 3 * n + s + 2] + lists[5 * n + s : 5 * n + s + 2]
            entries = seats.get(part)
            if entries is None:
                entries = self._seat(part)
            indices += entries[0]
            values += entries[1]
            my_contracts.append(entries[2])
        absolute = np.array(indices, np.intp)
        harbors = _Harbors(
            tuple(turn[absolute] for turn in self._turn),  # turned round to each observer
            np.array(values, np.float32),
            tuple(my_contracts),
        )
        if len(self._harbors) >= self.cache_size:
            self._harbors.clear()
        self._harbors[key] = harbors
        return harbors

    def _seat(self, part: tuple[Any, ...]) -> _Seat:
        """Seat q's harbor entries in absolute seat order, made of ``part`` alone, cached:
        ``(q, colour, at sea (two ships), imports, goods, shipments, cargo (two ships), contracts
        (two ships))``.

        Cards counted per type or action add up, a quarter each, as containers per colour do, a
        sixth each, added one by one in float64 (what the float64 sum of the entries gave)."""
        q, colour, sea0, sea1, imports, goods, shipments, cargo0, cargo1, contracts0, contracts1 = part
        o, ctype, caction, cload = self.off, self.game.ctype, self.game.caction, self.game.cload
        ones = [o["colour"] + 6 * q + colour]
        quarters: list[int] = []
        sixths: list[int] = []
        at: list[int] = []
        value: list[float] = []
        base_a, base_t = o["imports_by_action"] + NA * q, o["imports_by_type"] + T * q
        for c in imports:
            quarters += (base_a + caction[c], base_t + ctype[c])
        quarters += [o["goods"] + T * q + ctype[c] for c in goods]
        ones += [o["shipments"] + MAX_CARDS * q + c for c in shipments]
        own: list[int] = []
        for k, (sea, loaded, contracts) in enumerate(((sea0, cargo0, contracts0), (sea1, cargo1, contracts1))):
            base = o["ships"] + SHIP_FEATURES * (2 * q + k)
            if sea:
                ones.append(base)
                ones += [o["at_sea"] + c for c in loaded]
            else:
                for c in contracts:
                    sixths += [base + 1 + x for x in cload[c]]  # the required containers per colour
                    ones.append(o["contracts"] + c)
                    own.append(o["my_contracts"] + c)
            if loaded:
                base += 1 + T
                sixths += [base + ctype[c] for c in loaded]
                at.append(base + T)
                value.append(len(loaded) / 8)
        for indices, weight in ((quarters, 0.25), (sixths, 1 / 6)):
            last = -1
            for i in sorted(indices):
                if i == last:
                    value[-1] += weight
                else:
                    at.append(i)
                    value.append(weight)
                    last = i
        entries = (ones + at, [1.0] * len(ones) + value, tuple(own))
        if len(self._seats) >= self.cache_size:
            self._seats.clear()
        self._seats[part] = entries
        return entries


# One seat's harbor entries: indices (absolute seat order), their values, its ``my_contracts``.
_Seat = tuple[list[int], list[float], tuple[int, ...]]


class _Harbors(NamedTuple):
    """Every harbor's entries (one cache entry of ``ImportExportEncoder``)."""

    indices: tuple[np.ndarray, ...]  # per observer: where the values go in its observation
    values: np.ndarray  # float32, one per index
    my_contracts: tuple[tuple[int, ...], ...]  # per observer: its ``my_contracts`` entries


# Per-seat pieces (seat-relative, seat-major) and the size of one seat's block in each.
_SEAT_BLOCKS = {
    "colour": 6,
    "imports_by_action": NA,
    "imports_by_type": T,
    "goods": T,
    "shipments": MAX_CARDS,
    "ships": 2 * SHIP_FEATURES,
}


def _from_island(st: ImportExportStateBase) -> bool:
    """Whether the import in progress is from the supply island (ship -1, Dark Flight Games)."""
    ask = st.ask
    if ask is None:
        return False
    if ask.phase == P_BID:
        return st.import_ship == ISLAND
    return ask.phase in (P_IMPORT_PICK, P_IMPORT_ZONE) and ask.context[1] == ISLAND
