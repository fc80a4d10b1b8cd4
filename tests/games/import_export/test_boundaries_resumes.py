"""Import / Export's decisions as they resume the turn: what each answer leaves behind for the
next decision (the sealed bids after the reveal, the forced zone of a card with no room, the seat
a power asks, how a container came onto a ship).

Each test pins one value that a ``r_*`` function of ``steps.py`` hands on and that a one-line bug
could change without breaking the turn (``benchmarks/mutation.py`` plants such bugs). Seats start
at 10 active credits; cards as in ``test_rules.py`` and ``test_powers_rules.py``: Flour and
Lutefisk, the two hand powers, wait in the discard pile.
"""

from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.vocab import P_IMPORT_PICK, P_IMPORT_ZONE, P_LEAD, P_POWER


def ids(t, *keys):
    return [t.id(k) for k in keys]


# ----- the reveal: no sealed bid is left over --------------------------------------------------------
def test_sealed_bids_are_cleared_at_the_reveal_while_the_winner_picks(table):
    # "Each player secretly bids ... then all bids are revealed": once revealed, a bid is a last
    # bid, no longer a sealed one. While the winner picks, no seat's observation shows a bid of
    # its own (my_bid) or a seat that has bid (has_bid); the revealed bids are last_bids.
    t = table(
        2,
        hands={0: ["champagne"], 1: ["jets"]},
        ships={1: {"at_sea": True, "cargo": ["laptops", "telescopes"]}},
        discard=["lutefisk", "flour"],
    )
    st, layout = t.state, t.game.observation_layout
    t.do("champagne", "jets", ("bid", 4))  # one ship at sea: the engine picks it
    assert layout.get(st.observation(0), "my_bid")[0] == 2 / 25  # sealed: seat 0 sees its own bid
    t.do(("bid", 2))
    assert (t.phase, t.decider) == (P_IMPORT_PICK, 0) and st.last_bids == [2, 1]
    for p in (0, 1):
        obs = st.observation(p)
        assert layout.get(obs, "my_bid")[0] == 0
        assert not layout.get(obs, "has_bid").any()
    assert list(layout.get(st.observation(0), "last_bids")) == [2 / 25, 1 / 25]


# ----- import: a card with no room is discarded -------------------------------------------------------
def test_imported_cards_go_to_the_discard_zone_with_imports_and_goods_exactly_at_their_limits(table):
    # "up to one card in their imports, and/or up to two cards in their goods", capacity
    # permitting; FAQ: a card with no room is discarded. Seat 0 (no shipments) holds 1 import and
    # 2 goods, exactly its limits: each card it imports has one place left, the discard pile, and
    # the engine puts it there as the forced "to discard" decision (told to auto_listeners).
    t = table(
        2,
        hands={0: ["champagne"], 1: []},
        imports={0: ["beer"]},
        goods={0: ["cups", "glasses"]},
        ships={3: {"at_sea": True, "cargo": ["laptops", "telescopes"]}},
        discard=["lutefisk", "flour"],
    )
    st = t.state
    forced = []
    st.auto_listeners.append(lambda state, p, action: forced.append((state.phase, p, action)))
    t.do("champagne", "draw")  # seat 0 imports alone: free
    assert (t.phase, t.decider) == (P_IMPORT_PICK, 0)
    t.do("laptops")  # then Telescopes, the only card left, is picked by the engine
    zones = [(p, action) for phase, p, action in forced if phase == P_IMPORT_ZONE]
    assert zones == [(0, A.ZONE + A.DISCARD)] * 2
    assert st.imports[0] == ids(t, "beer") and st.goods[0] == ids(t, "cups", "glasses")
    assert set(ids(t, "laptops", "telescopes")) <= set(st.discard)
    assert t.phase == P_LEAD and st.leader == 1


# ----- Rice Cookers: the leader names the action of his Load card -------------------------------------
def test_rice_cookers_asks_the_leader_himself_to_declare_with_a_load_card(table):
    # RICE COOKERS: "Load and Contract actions are interchangeable for you": leading a Load card,
    # its holder (the leader, seat 0) is the seat asked which of the two he declares.
    t = table(3, hands={0: ["chairs", "drones"]}, shipments={0: ["rice_cookers"]}, modules=("jutaku",))
    t.do("chairs")
    assert t.phase == P_POWER and t.state.ask.context[0] == "rice_cookers"
    assert t.decider == 0 and set(t.legal()) == {"action contract", "action load"}
    assert t.game.observation_layout.get(t.state.observation(0), "decider")[0] == 1  # "you"


# ----- loading: a power's free load is no load action ------------------------------------------------
def test_paprika_free_load_is_not_a_load_action_for_fixie_bikes(table):
    # PAPRIKA: "When contracting a new shipment, you can also load 1 container if able for free";
    # FIXIE BIKES: "Whenever a container is loaded from a load action (not pirate), take 2
    # credits". Paprika's container comes from a power, not a Load action: seat 1 takes nothing.
    t = table(
        3,
        hands={0: ["bamboo", "drones", "laptops", "almonds"]},
        shipments={0: ["paprika"], 1: ["fixie_bikes"]},
    )
    t.do("bamboo", "draw", "draw", "drones", ("ship", 0))
    assert t.phase == P_POWER and t.state.ask.context[0] == "paprika"
    t.do("laptops")  # one ship fits: loaded there
    st = t.state
    assert st.contracts[0] == ids(t, "drones") and st.cargo[0] == ids(t, "laptops")
    assert st.credits == [10, 10, 10] and t.phase == P_LEAD
