"""Import / Export's observation: named pieces, seat-relative (the observer is seat 0).

Everything here is public or the observer's own: its hand, every harbor (colour, imports,
goods, completed shipments, ships with their contracts and loaded containers), the ships at sea
and their containers, the supply island, the discard pile, all active credits, the turn's
leader, declared action and who followed or drew, the cards played this turn, the import in
progress (ship, bidders, who has bid, the last revealed bids) and the deck size. Other hands,
the deck's order, sealed bids not yet revealed and the State's RNG never enter.
"""

from __future__ import annotations

import numpy as np

from ...core.layout import ObservationLayout, Piece
from .actions import MAX_CARDS
from .data import ACTIONS, GOOD_TYPES
from .rules import NUM_PHASES, PHASE_NAMES

INF = float("inf")
SEATS = "one-hot, seat-relative (0 = you, then clockwise)"
T, NA = len(GOOD_TYPES), len(ACTIONS)
SHIP_FEATURES = 1 + 2 * T + 1


def build_layout(game) -> ObservationLayout:
    n = game.num_players
    types = ", ".join(GOOD_TYPES)
    acts = ", ".join(ACTIONS)
    card = "per card id (0-127, see data/cards.json)"
    seatwise = "per seat (seat-relative, seat-major)"
    return ObservationLayout(
        [
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
        ]
    )


class ImportExportEncoder:
    def __init__(self, game):
        self.game = game
        self.n = game.num_players
        self.layout = game.observation_layout
        self.off = {p.name: self.layout.slice(p.name).start for p in self.layout.pieces}

    def encode(self, st, player: int) -> np.ndarray:
        n = self.n
        if not 0 <= player < n:
            raise ValueError(f"player must be a seat in [0, {n}), got {player!r}")
        g, o = self.game, self.off
        ctype, caction = g.ctype, g.caction
        idx: list[int] = []
        val: list[float] = []
        ones = idx.append

        def put(i: int, v: float) -> None:
            idx.append(i)
            val.append(v)

        rel = [(q - player) % n for q in range(n)]
        if not st.over:
            ones(o["phase"] + st.ask[0])
            ones(o["decider"] + rel[st.ask[1]])
        ones(o["leader"] + rel[st.leader])
        if st.declared >= 0:
            ones(o["declared"] + st.declared)
        for c in st.hands[player]:
            ones(o["my_hand"] + c)
        for c in st.island:
            ones(o["island"] + c)
        for c in st.discard:
            ones(o["discard"] + c)
        if st.pending >= 0:
            ones(o["pending"] + st.pending)
        if not st.over and st.ask[0] == P_POWER:
            ones(o["power"] + g.ids[st.ask[3][0]])
        if st.import_ship >= 0:
            s = st.import_ship
            ones(o["import_ship"] + 2 * rel[s // 2] + s % 2)
        if st.wind_copy >= 0:
            ones(o["wind_copy"] + st.wind_copy)
        if _from_island(st):
            ones(o["import_island"])
        val.extend([1.0] * len(idx))
        for q in range(n):
            r = rel[q]
            if st.followed[q]:
                put(o["followed"] + 2 * r + st.followed[q] - 1, 1.0)
            put(o["actions_left"] + r, st.actions_left[q] / 4)
            put(o["hand_size"] + r, len(st.hands[q]) / 10)
            put(o["credits"] + r, st.credits[q] / 50)
            if st.passive[q]:
                put(o["passive"] + r, st.passive[q] / 50)
            if st.double_turn[q]:
                put(o["double_turn"] + 2 * r + st.double_turn[q] - 1, 1.0)
            if 0 <= st.act_as[q] < NA:
                put(o["acting_as"] + NA * r + st.act_as[q], 1.0)
            put(o["colour"] + 6 * r + st.colour[q], 1.0)
            for c in st.imports[q]:
                put(o["imports_by_action"] + NA * r + caction[c], 0.25)
                put(o["imports_by_type"] + T * r + ctype[c], 0.25)
            for c in st.goods[q]:
                put(o["goods"] + T * r + ctype[c], 0.25)
            for c in st.shipments[q]:
                put(o["shipments"] + MAX_CARDS * r + c, 1.0)
            for c in st.played[q]:
                put(o["played"] + c, 1.0)
            if st.sold[q]:
                put(o["sold"] + r, 1.0)
            if st.last_bids[q] >= 0:
                put(o["last_bids"] + r, st.last_bids[q] / 25)
            for k in (0, 1):
                self._ship(st, 2 * q + k, o["ships"] + SHIP_FEATURES * (2 * r + k), q == player, put)
        for q in st.bidders:
            if st.ask is not None and st.ask[0] in _BIDDING:
                put(o["bidders"] + rel[q], 1.0)
                if st.bids[q] >= 0:
                    put(o["has_bid"] + rel[q], 1.0)
        if st.bids[player] >= 0:
            put(o["my_bid"], st.bids[player] / 25)
        put(o["deck"], len(st.deck) / 128)
        put(o["turn"], st.turn / g.config.turn_limit)
        # bincount sums repeated indices (counts); plain assignment would keep only one.
        return np.bincount(idx, weights=val, minlength=self.layout.size).astype(np.float32)

    def _ship(self, st, s: int, base: int, mine: bool, put) -> None:
        ctype = self.game.ctype
        o = self.off
        if st.at_sea[s]:
            put(base, 1.0)
            for c in st.cargo[s]:
                put(base + 1 + T + ctype[c], 1 / 6)
                put(o["at_sea"] + c, 1.0)
        else:
            for colour in st.requirement(s):
                put(base + 1 + colour, 1 / 6)
            for c in st.cargo[s]:
                put(base + 1 + T + ctype[c], 1 / 6)
            for c in st.contracts[s]:
                put(o["contracts"] + c, 1.0)
                if mine:
                    put(o["my_contracts"] + c, 1.0)
        if st.cargo[s]:
            put(base + 1 + 2 * T, len(st.cargo[s]) / 8)


from .rules import ISLAND, P_BID, P_IMPORT_PICK, P_IMPORT_SHIP, P_IMPORT_ZONE, P_POWER  # noqa: E402

_BIDDING = (P_IMPORT_SHIP, P_BID, P_IMPORT_PICK, P_IMPORT_ZONE)


def _from_island(st) -> bool:
    """Whether the import in progress is from the supply island (ship -1, Dark Flight Games)."""
    ask = st.ask
    if ask is None:
        return False
    if ask[0] == P_BID:
        return st.import_ship == ISLAND
    return ask[0] in (P_IMPORT_PICK, P_IMPORT_ZONE) and ask[3][1] == ISLAND
