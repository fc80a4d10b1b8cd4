"""Import / Export's turn tasks at their limits: how many actions a seat gets (Neural Units,
Playstations), which ships a container or a contract may go to (Robot Cats, Prefab Homes,
Stem Cells with Scotch Whisky, Paprika), and the turn's fields as a turn starts and ends.

Each test pins one line of ``steps.py`` that a one-line bug could move (``benchmarks/mutation.py``
plants such bugs): an action count, a ship offered or not, or a field reset between turns that
the observation shows. Seats 0, 1, 2 are green (technology), yellow (agriculture) and black
(consumer); ships 2p and 2p + 1 belong to seat p; every seat starts with 10 credits. Cards used
only as containers or to declare are chosen for their colour and action.
"""

from smuggle_envs.games.import_export.vocab import (
    LOAD,
    P_CONTRACT_CARD,
    P_CONTRACT_SHIP,
    P_FOLLOW,
    P_LEAD,
    P_LOAD_CARD,
    P_LOAD_SHIP,
    P_PIRATE_PLACE,
    P_POWER,
)


def ids(t, *keys):
    return [t.id(k) for k in keys]


def piece(t, p, name):
    """Seat p's observation, the piece ``name`` (``encoder.build_layout``)."""
    st = t.state
    return list(st.game.observation_layout.get(st.observation(p), name))


# ----- Neural Units: exactly one Load action (plus Playstations) ---------------------------------
def test_neural_units_follower_takes_exactly_one_load_action_not_its_contract_imports(table):
    # NEURAL UNITS: "follow any action with a load action"; the follower carries out exactly one
    # Load action and none of the declared action, not even from its imports (a Contract import
    # here would be one Contract action more).
    t = table(
        3,
        hands={0: ["paper", "bamboo"], 1: ["chairs"]},
        imports={1: ["sugar"]},
        shipments={1: ["neural_units"]},
    )
    t.do("paper", "chairs", "draw")
    st = t.state
    assert t.phase == P_CONTRACT_CARD and t.decider == 0
    assert st.act_as[1] == LOAD and st.actions_left[1] == 1


def test_neural_units_follower_with_playstations_adds_one_load_per_two_technology_goods(table):
    # PLAYSTATIONS: "one extra Load per 2 technology goods", for a Neural Units follower too:
    # 1 + 2 // 2 = 2 Load actions, on a Contract turn.
    t = table(
        3,
        hands={0: ["paper", "bamboo"], 1: ["chairs"]},
        goods={1: ["laptops", "drones"]},
        shipments={1: ["neural_units", "playstations"]},
    )
    t.do("paper", "chairs", "draw")
    st = t.state
    assert t.phase == P_CONTRACT_CARD and t.decider == 0
    assert st.act_as[1] == LOAD and st.actions_left[1] == 1 + 1


def test_playstations_gives_no_load_to_a_holder_with_no_action_exactly_at_zero(table):
    # PLAYSTATIONS: extra Loads "in a turn the holder carries out Load (with at least one
    # action)": seat 1 drew and has no Load import, so its two technology goods give nothing.
    t = table(
        3,
        hands={0: ["chairs"]},
        goods={1: ["laptops", "drones"]},
        shipments={1: ["playstations"]},
    )
    t.do("chairs", "draw", "draw")
    st = t.state
    assert t.phase == P_LOAD_CARD and t.decider == 0
    assert st.actions_left == [1, 0, 0]


# ----- "done" ends a seat's actions ------------------------------------------------------------------
def test_done_ends_the_seats_remaining_actions_at_zero(table):
    # "done" stops a seat's actions: with 2 Load actions (following, plus a Load import) seat 0
    # says done at once and has none left while seat 1 carries out its own.
    t = table(
        3,
        hands={0: ["chairs"], 1: ["cups"]},
        imports={0: ["bok_choy"]},
    )
    t.do("chairs", "cups", "draw")
    st = t.state
    assert t.phase == P_LOAD_CARD and t.decider == 0 and st.actions_left[0] == 2
    t.do("done")
    assert t.phase == P_LOAD_CARD and t.decider == 1
    assert st.actions_left[0] == 0
    assert piece(t, 1, "actions_left")[2] == 0.0  # seat 0 is +2 from seat 1


# ----- Robot Cats: the ships for a container ----------------------------------------------------------
def test_robot_cats_pirated_half_pair_may_go_onto_the_second_ship(table):
    # ROBOT CATS, pirating: "half a pair may be loaded and wait", onto whichever ship it pairs on
    # (here seat 0's second ship, 1).
    t = table(
        3,
        hands={0: ["potatoes"]},
        imports={0: ["backpacks"]},
        shipments={0: ["robot_cats"]},
        island=["fake_dvds", "cannabis"],
        ships={1: {"contracts": ["protractors"]}},
    )
    t.do("potatoes", "draw", "draw")
    t.do("fake_dvds")
    assert t.phase == P_PIRATE_PLACE and set(t.legal()) == {"ship 1 (P0's)", "to discard"}
    t.do(("ship", 1))
    assert t.state.cargo[1] == ids(t, "fake_dvds")


def test_robot_cats_load_offers_only_ships_the_pair_fits(table):
    # ROBOT CATS: a pair is "offered only where neither fits alone" and the pair fills a slot;
    # seat 0's other ship (1, no contract) takes neither.
    t = table(
        3,
        hands={0: ["chairs", "fake_dvds", "cannabis"]},
        shipments={0: ["robot_cats"]},
        ships={0: {"contracts": ["protractors"]}},
    )
    t.do("chairs", "draw", "draw")
    t.do("fake_dvds")
    assert t.phase == P_LOAD_SHIP and t.legal() == ["ship 0 (P0's)"]


def test_robot_cats_pairs_only_on_a_load_action_not_on_paprikas_free_load(table):
    # ROBOT CATS pairs "with one Load action"; Paprika's free container is no Load action, so it
    # goes only where it fits alone (ship 0), automatically, though its partner could pair on
    # ship 1.
    t = table(
        3,
        hands={0: ["paper", "bubblegum", "fake_dvds", "cannabis"]},
        shipments={0: ["robot_cats", "paprika"]},
        ships={1: {"contracts": ["protractors"]}},
    )
    t.do("paper", "draw", "draw")
    t.do("bubblegum", ("ship", 0))
    assert t.phase == P_POWER and t.state.ask.context[0] == "paprika"
    t.do("fake_dvds")
    st = t.state
    assert st.contracts[1] == ids(t, "protractors") and st.cargo[1] == []
    assert st.shipments[0] == ids(t, "robot_cats", "paprika", "bubblegum")
    assert t.id("fake_dvds") in st.cargo[0]


# ----- Prefab Homes: a luxury contract needs half its containers of room ------------------------------
def test_prefab_homes_contract_fits_a_ship_with_room_exactly_for_half(table):
    # PREFAB HOMES: "the ship capacity counts these needed containers": Champagne (2 containers)
    # needs 1, and ship 0 has room for exactly 1 (6 - 5); ship 1 is at sea.
    t = table(
        3,
        modules=("kickstarter",),
        hands={0: ["paper", "champagne"]},
        goods={0: ["cologne"]},
        shipments={0: ["prefab_homes"]},
        ships={0: {"contracts": ["pens", "bamboo"]}, 1: {"at_sea": True, "cargo": ["cups"]}},
    )
    st = t.state
    assert st.room(0) == 1
    t.do("paper", "draw", "draw")
    assert t.phase == P_CONTRACT_CARD and t.can("champagne")
    t.do("champagne")
    assert st.contracts[0] == ids(t, "pens", "bamboo", "champagne")


def test_prefab_homes_contract_offers_every_ship_with_room_for_half(table):
    # Both ships have room for Champagne's halved need (1): ship 0 exactly, ship 1 (empty) more.
    t = table(
        3,
        modules=("kickstarter",),
        hands={0: ["paper", "champagne"]},
        goods={0: ["cologne"]},
        shipments={0: ["prefab_homes"]},
        ships={0: {"contracts": ["pens", "bamboo"]}},
    )
    t.do("paper", "draw", "draw", "champagne")
    assert t.phase == P_CONTRACT_SHIP and t.legal() == ["ship 0 (P0's)", "ship 1 (P0's)"]


# ----- Stem Cells: the goods limit, with Scotch Whisky -----------------------------------------------
def test_stem_cells_goods_limit_counts_scotch_whiskys_luxury_pairs_exactly_at_the_limit(table):
    # STEM CELLS: "pay 2 to put the container in your goods" when the goods limit allows;
    # SCOTCH WHISKY counts every 2 luxury goods as 1. Limit 2 * (1 + 2) = 6; six goods, one of
    # them luxury, plus a pirated luxury count 7 - 1 = 6: exactly at the limit.
    t = table(
        3,
        modules=("jutaku", "kickstarter"),
        hands={0: ["potatoes"]},
        goods={0: ["cologne", "laptops", "drones", "bamboo", "cups", "glasses"]},
        shipments={0: ["stem_cells", "scotch_whisky"]},
        island=["velvet_robes"],
    )
    t.do("potatoes", "draw", "draw", "velvet_robes")
    assert t.phase == P_PIRATE_PLACE and t.can(("zone", "goods"))
    t.do(("zone", "goods"))
    st = t.state
    assert st.goods[0][-1] == t.id("velvet_robes") and st.credits[0] == 10 - 2


# ----- the turn's fields as a turn starts and ends --------------------------------------------------
def test_a_new_turn_starts_with_no_follower_decided(table):
    # Step 2: after the leader declares, each other player in turn follows or draws; until he
    # does he is undecided (neither followed nor drew), in the state and in every observation.
    t = table(3, hands={0: ["chairs"]})
    t.do("chairs")
    st = t.state
    assert t.phase == P_FOLLOW and t.decider == 1
    assert st.followed == [1, 0, 0]
    assert piece(t, 1, "followed") == [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]  # seats 1, 2, 0
    seats = [line for line in st.render().splitlines() if line.startswith(("P1 (", "P2 ("))]
    assert len(seats) == 2 and not any("[followed]" in line or "[drew]" in line for line in seats)


def test_a_new_turn_starts_with_no_sealed_bid_and_no_import_ship(table):
    # A turn starts with no import in progress: no ship being imported from and no sealed bid,
    # also after a turn in which a ship was imported from.
    t = table(3, hands={0: ["jets"]}, ships={3: {"at_sea": True, "cargo": ["cups"]}})
    for p in range(3):
        assert piece(t, p, "my_bid") == [0.0]
        assert piece(t, p, "import_ship") == [0.0] * 6
    t.do("jets", "draw", "draw", ("zone", "goods"))  # seat 0 imports alone, free
    st = t.state
    assert t.phase == P_LEAD and st.leader == 1 and st.goods[0] == ids(t, "cups")
    for p in range(3):
        assert piece(t, p, "my_bid") == [0.0]
        assert piece(t, p, "import_ship") == [0.0] * 6


def test_the_last_turn_ends_with_no_action_declared(table):
    # Step 5: the played cards are discarded and the declared action is over; the game ending
    # at the turn cap shows no declared action.
    t = table(3, hands={0: ["chairs"]})
    st = t.state
    st.turn = t.game.config.turn_limit - 1
    t.do("chairs", "draw", "draw", "done")
    assert st.over and st.truncated
    assert st.declared < 0
    assert piece(t, 0, "declared") == [0.0] * 5
    assert "declared" not in st.render().splitlines()[0]
