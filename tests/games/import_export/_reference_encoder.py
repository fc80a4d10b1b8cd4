"""Import / Export's observation encoder as it was before it was made faster (issue 15), kept
unchanged as the reference the fast encoder must match byte for byte (``test_encoder_fast.py``)."""

import numpy as np

from smuggle_envs.games.import_export.actions import MAX_CARDS
from smuggle_envs.games.import_export.vocab import (
    BIDDING_PHASES,
    ISLAND,
    NUM_ACTION_TYPES,
    NUM_TYPES,
    P_BID,
    P_IMPORT_PICK,
    P_IMPORT_ZONE,
    P_POWER,
    SHIP_FEATURES,
)

T, NA = NUM_TYPES, NUM_ACTION_TYPES

_PIECES = (
    "phase",
    "leader",
    "decider",
    "declared",
    "followed",
    "actions_left",
    "my_hand",
    "hand_size",
    "credits",
    "passive",
    "double_turn",
    "acting_as",
    "colour",
    "imports_by_action",
    "imports_by_type",
    "goods",
    "shipments",
    "ships",
    "contracts",
    "my_contracts",
    "at_sea",
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
    "last_bids",
    "sold",
    "deck",
    "turn",
    "seen_in_hands",
)


class ReferenceEncoder:
    """The encoder as it was before the harbor and pile caches (kept verbatim as the reference).

    It collects the indices of the flags and card ids (value 1, each set once), the indices of
    the counts (cards per type or action, a quarter each; containers per colour, a sixth each)
    and the entries with a value of their own, then writes them into a zero vector with two
    numpy assignments: a few list-to-array conversions per observation, no per-entry calls.
    """

    def __init__(self, game):
        self.game = game
        self.n = game.num_players
        self.layout = game.observation_layout
        self.size = self.layout.size
        self.off = {p.name: self.layout.slice(p.name).start for p in self.layout.pieces}
        self._offsets = tuple(self.off[name] for name in _PIECES)

    def encode(self, st, player):
        n = self.n
        if not 0 <= player < n:
            raise ValueError(f"player must be a seat in [0, {n}), got {player!r}")
        g = self.game
        ctype, caction, cload = g.ctype, g.caction, g.cload
        (
            o_phase,
            o_leader,
            o_decider,
            o_declared,
            o_followed,
            o_actions_left,
            o_my_hand,
            o_hand_size,
            o_credits,
            o_passive,
            o_double_turn,
            o_acting_as,
            o_colour,
            o_imports_by_action,
            o_imports_by_type,
            o_goods,
            o_shipments,
            o_ships,
            o_contracts,
            o_my_contracts,
            o_at_sea,
            o_island,
            o_discard,
            o_played,
            o_pending,
            o_power,
            o_wind_copy,
            o_import_ship,
            o_import_island,
            o_bidders,
            o_has_bid,
            o_my_bid,
            o_last_bids,
            o_sold,
            o_deck,
            o_turn,
            o_seen,
        ) = self._offsets
        ones: list[int] = []  # weight 1 (one-hot flags, card ids)
        quarters: list[int] = []  # weight 1/4 (imports per action and type, goods per type)
        sixths: list[int] = []  # weight 1/6 (containers per colour on a ship)
        at: list[int] = []  # entries with their own value, each written once
        value: list[float] = []
        one, quarter, sixth = ones.append, quarters.append, sixths.append

        rel = [(q - player) % n for q in range(n)]
        ask = None if st.over else st.ask  # a decision is stated whenever the game is not over
        if ask is not None:
            one(o_phase + ask.phase)
            one(o_decider + rel[ask.player])
            if ask.phase == P_POWER:
                one(o_power + g.ids[ask.context[0]])
        one(o_leader + rel[st.leader])
        if st.declared >= 0:
            one(o_declared + st.declared)
        # the long card lists (the discard pile grows to most of the deck) are added in C
        ones += map(o_my_hand.__add__, st.hands[player])
        ones += map(o_island.__add__, st.island)
        ones += map(o_discard.__add__, st.discard)
        if st.pending >= 0:
            one(o_pending + st.pending)
        if st.import_ship >= 0:
            s = st.import_ship
            one(o_import_ship + 2 * rel[s // 2] + s % 2)
        if st.wind_copy >= 0:
            one(o_wind_copy + st.wind_copy)
        if _from_island(st):
            one(o_import_island)
        followed, actions_left, hands, credits, passive = st.followed, st.actions_left, st.hands, st.credits, st.passive
        double_turn, act_as, colour, imports, goods = st.double_turn, st.act_as, st.colour, st.imports, st.goods
        shipments, played, sold, last_bids = st.shipments, st.played, st.sold, st.last_bids
        at_sea, cargo, contracts = st.at_sea, st.cargo, st.contracts
        for q in range(n):
            r = rel[q]
            if followed[q]:
                one(o_followed + 2 * r + followed[q] - 1)
            at += (o_actions_left + r, o_hand_size + r, o_credits + r)
            value += (actions_left[q] / 4, len(hands[q]) / 10, credits[q] / 50)
            if passive[q]:
                at.append(o_passive + r)
                value.append(passive[q] / 50)
            if double_turn[q]:
                one(o_double_turn + 2 * r + double_turn[q] - 1)
            if 0 <= act_as[q] < NA:
                one(o_acting_as + NA * r + act_as[q])
            one(o_colour + 6 * r + colour[q])
            if imports[q]:
                base_a, base_t = o_imports_by_action + NA * r, o_imports_by_type + T * r
                for c in imports[q]:
                    quarter(base_a + caction[c])
                    quarter(base_t + ctype[c])
            if goods[q]:
                base_g = o_goods + T * r
                for c in goods[q]:
                    quarter(base_g + ctype[c])
            if shipments[q]:
                base_s = o_shipments + MAX_CARDS * r
                for c in shipments[q]:
                    one(base_s + c)
            for c in played[q]:
                one(o_played + c)
            if sold[q]:
                one(o_sold + r)
            if last_bids[q] >= 0:
                at.append(o_last_bids + r)
                value.append(last_bids[q] / 25)
            for k in (0, 1):
                s = 2 * q + k
                base = o_ships + SHIP_FEATURES * (2 * r + k)
                loaded = cargo[s]
                if at_sea[s]:
                    one(base)
                    for c in loaded:
                        one(o_at_sea + c)
                else:
                    for c in contracts[s]:
                        for x in cload[c]:  # the required containers per colour (``State.requirement``)
                            sixth(base + 1 + x)
                        one(o_contracts + c)
                        if q == player:
                            one(o_my_contracts + c)
                if loaded:
                    base += 1 + T
                    for c in loaded:
                        sixth(base + ctype[c])
                    at.append(base + T)
                    value.append(len(loaded) / 8)
        if st.bidders and st.ask is not None and st.ask.phase in BIDDING_PHASES:  # ``ask`` even if over
            for q in st.bidders:
                one(o_bidders + rel[q])
                if st.bids[q] >= 0:
                    one(o_has_bid + rel[q])
        if st.bids[player] >= 0:
            at.append(o_my_bid)
            value.append(st.bids[player] / 25)
        at += (o_deck, o_turn)
        for q in range(n):
            if q != player and st.seen[player * n + q]:
                base_seen = o_seen + (rel[q] - 1) * MAX_CARDS
                ones += [base_seen + c for c in st.seen_in_hand(player, q)]
        value += (len(st.deck) / 128, st.turn / g.config.turn_limit)
        # Cards counted per type or action add up, a quarter each, as containers per colour do, a
        # sixth each, added one by one in float64 (what the float64 sum of the entries gave).
        if quarters:
            quarters.sort()
            last = -1
            for i in quarters:
                if i == last:
                    value[-1] += 0.25
                else:
                    at.append(i)
                    value.append(0.25)
                    last = i
        if sixths:
            sixths.sort()
            last = -1
            for i in sixths:
                if i == last:
                    value[-1] += 1 / 6
                else:
                    at.append(i)
                    value.append(1 / 6)
                    last = i
        out = np.zeros(self.size, np.float32)
        out[ones] = 1.0  # every flag and card id is set once (a card is in one place)
        out[at] = value  # each index once; float64 values, rounded to float32 on the way in
        return out


def _from_island(st):
    """Whether the import in progress is from the supply island (ship -1, Dark Flight Games)."""
    ask = st.ask
    if ask is None:
        return False
    if ask.phase == P_BID:
        return st.import_ship == ISLAND
    return ask.phase in (P_IMPORT_PICK, P_IMPORT_ZONE) and ask.context[1] == ISLAND
