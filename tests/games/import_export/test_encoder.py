"""The encoder against a slow, obvious reference written piece by piece from the layout's
descriptions and the State's own lists."""

import itertools
import random

import numpy as np
import pytest

from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export.actions import MAX_CARDS
from smuggle_envs.games.import_export.data import ACTIONS, GOOD_TYPES
from smuggle_envs.games.import_export.vocab import (
    NUM_PHASES,
    P_BID,
    P_IMPORT_PICK,
    P_IMPORT_SHIP,
    P_IMPORT_ZONE,
    P_POWER,
)

ALL_MODULES = ("jutaku", "kickstarter", "captain")
T, NA = len(GOOD_TYPES), len(ACTIONS)


def reference(st, p):
    g, n = st.game, st.n
    seats = [(p + i) % n for i in range(n)]
    rel = {q: (q - p) % n for q in range(n)}
    over = st.is_terminal()

    def one_hot(index, size):
        v = [0.0] * size
        if index is not None and index >= 0:
            v[index] = 1.0
        return v

    def cards(zone):
        v = [0.0] * MAX_CARDS
        for c in zone:
            v[c] += 1.0
        return v

    def counts(zone, key, size, scale):
        v = [0.0] * size
        for c in zone:
            v[key[c]] += scale
        return v

    def ship(s, q):
        at_sea = st.at_sea[s]
        need = [0.0] * T
        if not at_sea:
            for colour in st.requirement(s):
                need[colour] += 1 / 6
        have = counts(st.cargo[s], g.ctype, T, 1 / 6)
        return [float(at_sea)] + need + have + [len(st.cargo[s]) / 8]

    bidding = not over and st.ask.phase in (P_IMPORT_SHIP, P_BID, P_IMPORT_PICK, P_IMPORT_ZONE)
    harbor = [s for s in range(2 * n) if not st.at_sea[s]]
    import_ship = [0.0] * (2 * n)
    if st.import_ship >= 0:
        import_ship[2 * rel[st.import_ship // 2] + st.import_ship % 2] = 1.0
    pieces = {
        "phase": one_hot(None if over else st.ask.phase, NUM_PHASES),
        "leader": one_hot(rel[st.leader], n),
        "decider": one_hot(None if over else rel[st.ask.player], n),
        "declared": one_hot(st.declared, NA),
        "followed": [x for q in seats for x in (st.followed[q] == 1, st.followed[q] == 2)],
        "actions_left": [st.actions_left[q] / 4 for q in seats],
        "my_hand": cards(st.hands[p]),
        "hand_size": [len(st.hands[q]) / 10 for q in seats],
        "credits": [st.credits[q] / 50 for q in seats],
        "passive": [st.passive[q] / 50 for q in seats],
        "double_turn": [x for q in seats for x in (st.double_turn[q] == 1, st.double_turn[q] == 2)],
        "acting_as": [x for q in seats for x in one_hot(st.act_as[q] if st.act_as[q] >= 0 else None, NA)],
        "colour": [x for q in seats for x in one_hot(st.colour[q], 6)],
        "imports_by_action": [x for q in seats for x in counts(st.imports[q], g.caction, NA, 0.25)],
        "imports_by_type": [x for q in seats for x in counts(st.imports[q], g.ctype, T, 0.25)],
        "goods": [x for q in seats for x in counts(st.goods[q], g.ctype, T, 0.25)],
        "shipments": [x for q in seats for x in cards(st.shipments[q])],
        "ships": [x for q in seats for s in (2 * q, 2 * q + 1) for x in ship(s, q)],
        "contracts": cards(c for s in harbor for c in st.contracts[s]),
        "my_contracts": cards(c for s in harbor if s // 2 == p for c in st.contracts[s]),
        "at_sea": cards(c for s in range(2 * n) if st.at_sea[s] for c in st.cargo[s]),
        "island": cards(st.island),
        "discard": cards(st.discard),
        "played": cards(c for q in range(n) for c in st.played[q]),
        "pending": one_hot(st.pending, MAX_CARDS),
        "power": one_hot(g.ids[st.ask.context[0]] if not over and st.ask.phase == P_POWER else None, MAX_CARDS),
        "wind_copy": one_hot(st.wind_copy if st.wind_copy >= 0 else None, MAX_CARDS),
        "import_ship": import_ship,
        "import_island": [
            float(
                not over
                and (
                    (st.ask.phase == P_BID and st.import_ship == -1)
                    or (st.ask.phase in (P_IMPORT_PICK, P_IMPORT_ZONE) and st.ask.context[1] == -1)
                )
            )
        ],
        "bidders": [float(bidding and q in st.bidders) for q in seats],
        "has_bid": [float(bidding and q in st.bidders and st.bids[q] >= 0) for q in seats],
        "my_bid": [2 * st.bids[p] / 50 if st.bids[p] >= 0 else 0.0],
        "last_bids": [2 * st.last_bids[q] / 50 if st.last_bids[q] >= 0 else 0.0 for q in seats],
        "sold": [float(st.sold[q]) for q in seats],
        "deck": [len(st.deck) / 128],
        "turn": [st.turn / g.config.turn_limit],
        "seen_in_hands": [x for q in seats[1:] for x in cards(st.seen_in_hand(p, q))],
    }
    layout = g.observation_layout
    assert list(pieces) == [piece.name for piece in layout.pieces]
    for piece in layout.pieces:
        assert len(pieces[piece.name]) == piece.size, piece.name
    return np.concatenate([np.asarray(v, np.float32) for v in pieces.values()])


@pytest.mark.parametrize("n, modules", [(2, ()), (3, ALL_MODULES), (4, ()), (5, ALL_MODULES), (6, ALL_MODULES)])
def test_encoder_matches_reference(n, modules):
    game = ImportExportGame(num_players=n, modules=modules)
    layout = game.observation_layout
    rng = random.Random(n)
    phases = set()
    for seed in range(2):
        st = game.new_initial_state(seed)
        step = 0
        while True:
            if (
                step % (4 * n) == 0
                or st.is_terminal()
                or st.phase in (P_IMPORT_ZONE, P_POWER)
                or (st.phase == P_BID and step % 3 == 0)
            ):
                phases.add(st.phase)
                for p in range(n):
                    obs = st.observation(p)
                    assert obs.dtype == np.float32 and obs.shape == (layout.size,)
                    assert (obs >= layout.low).all() and (obs <= layout.high).all()
                    np.testing.assert_allclose(obs, reference(st, p), rtol=1e-6, atol=1e-6)
            if st.is_terminal():
                break
            st.apply_action(rng.choice(st.legal_actions()))
            step += 1
    assert {P_BID, P_IMPORT_ZONE, -1} <= phases


def test_encoder_in_a_scripted_import(table):
    t = table(
        3,
        hands={0: ["champagne"], 1: ["jets"], 2: ["vintage_wines"]},
        discard=["lutefisk", "flour"],
        ships={
            1: {"at_sea": True, "cargo": ["laptops", "telescopes"]},
            2: {"contracts": ["miri_machines"], "cargo": ["segways"]},
        },
    )
    t.do("champagne", "jets", "vintage_wines", ("bid", 4))
    st = t.state
    layout = st.game.observation_layout
    for p in range(3):
        np.testing.assert_allclose(st.observation(p), reference(st, p), atol=1e-6)
    seen = layout.split(st.observation(2))  # seat 2 sees seat 0 as +1, seat 1 as +2
    assert seen["bidders"].tolist() == [1, 1, 1] and seen["has_bid"].tolist() == [0, 1, 0]
    assert seen["import_ship"].tolist() == [0, 0, 0, 1, 0, 0]
    assert seen["decider"].tolist() == [0, 0, 1] and seen["leader"].tolist() == [0, 1, 0]
    assert seen["contracts"][t.id("miri_machines")] == 1 and seen["my_contracts"].sum() == 0
    assert layout.get(st.observation(1), "my_contracts")[t.id("miri_machines")] == 1
    ships = seen["ships"].reshape(6, -1)  # seat 2's two ships, then seat 0's, then seat 1's
    assert ships[3][0] == 1 and ships[3][1 + T] == pytest.approx(2 / 6) and ships[3][-1] == pytest.approx(2 / 8)
    assert ships[4][1] == pytest.approx(2 / 6) and ships[4][1 + T] == pytest.approx(1 / 6)


def test_observation_rejects_bad_seats():
    st = ImportExportGame(num_players=3).new_initial_state(0)
    for bad in (-1, 3):
        with pytest.raises(ValueError):
            st.observation(bad)


def test_layout_table_documents_every_piece():
    for n in range(2, 7):
        layout = ImportExportGame(num_players=n).observation_layout
        table = layout.table()
        for piece in layout.pieces:
            assert f"`{piece.name}`" in table and piece.description
        assert f"**{layout.size}**" in table
    sizes = [ImportExportGame(num_players=n).observation_layout.size for n in range(2, 7)]
    assert len({b - a for a, b in itertools.pairwise(sizes)}) == 1  # linear in the player count
