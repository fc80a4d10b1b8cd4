"""The powers that change a basic rule (read where the rule lives, ``state.py`` and ``steps.py``,
and ``powers/modifiers.py``), one scripted position each.

Seats 0, 1, 2 are green (technology), yellow (agriculture) and black (consumer); ships 2p and
2p+1 belong to seat p. Every player starts with 10 credits. Cards used only as containers or to
declare are chosen for their colour and action; their own powers never act here.
"""

import random

import pytest

from smuggle_envs.games.import_export.matching import _match_flow, match, match_pairs
from smuggle_envs.games.import_export.vocab import (
    NUM_TYPES,
    P_CONTRACT_CARD,
    P_FOLLOW,
    P_IMPORT_SHIP,
    P_LEAD,
    P_LOAD_CARD,
    P_LOAD_SHIP,
    P_PIRATE_PLACE,
    P_PIRATE_TAKE,
    P_POWER,
    P_SUPPLY,
)

BANK_TOTAL = 520


def power(t) -> str:
    assert t.phase == P_POWER, t.legal()
    return t.state.ask.context[0]


def ids(t, *keys) -> list[int]:
    return [t.id(k) for k in keys]


def conserved(t) -> None:
    """Every card is in exactly one zone and no credit was made or lost."""
    st = t.state
    zones = st.deck + st.discard + st.island + [st.pending] * (st.pending >= 0)
    for per in (st.hands, st.imports, st.goods, st.shipments, st.contracts, st.cargo, st.played):
        for cards in per:
            zones += cards
    assert sorted(zones) == sorted(t.game.deck_cards)
    assert sum(st.credits) + st.bank + sum(st.passive) == BANK_TOTAL


# ----- matching: exact ----------------------------------------------------------------------------
def brute_match(have, wild, spec, rainbow, capped) -> int:
    """Every assignment of containers to slots; a capped group counts at most ``need`` slots."""
    containers = [t for t in range(NUM_TYPES) for _ in range(have[t])]
    slots = [(t, None) for t in range(NUM_TYPES) for _ in range(spec[t])] + [(None, None)] * rainbow
    for g, (colours, _need) in enumerate(capped):
        slots += [(None, g)] * 4 if colours is None else [(t, g) for t in colours]
    best = 0

    def walk(i, used, filled):
        nonlocal best
        if i == len(containers):
            groups = {}
            total = 0
            for si in used:
                g = slots[si][1]
                if g is None:
                    total += 1
                else:
                    groups[g] = groups.get(g, 0) + 1
            best = max(best, total + sum(min(k, capped[g][1]) for g, k in groups.items()))
            return
        t = containers[i]
        walk(i + 1, used, filled)
        for si, (colour, _) in enumerate(slots):
            if si not in used and (wild[t] or colour is None or colour == t):
                walk(i + 1, used | {si}, filled)

    walk(0, frozenset(), 0)
    return best


def brute_pairs(have, wild, spec, rainbow, capped) -> int:
    best = brute_match(have, wild, spec, rainbow, capped)
    for t in range(1, NUM_TYPES):
        if have[t] >= 2:
            h = list(have)
            h[t] -= 2
            h[0] += 1
            best = max(best, brute_pairs(h, wild, spec, rainbow, capped))
    return best


def random_case(rng, with_capped):
    have = [0] * NUM_TYPES
    for _ in range(rng.randrange(5)):
        have[rng.randrange(NUM_TYPES)] += 1
    wild = [rng.random() < 0.15 for _ in range(NUM_TYPES)]
    spec = [0] * NUM_TYPES
    for _ in range(rng.randrange(4)):
        spec[rng.randrange(NUM_TYPES)] += 1
    rainbow = rng.choice([0, 0, 1, 2])
    capped = []
    if with_capped:
        for _ in range(rng.randrange(1, 3)):
            k = rng.randrange(2, 5)
            colours = None if rng.random() < 0.3 else tuple(rng.randrange(NUM_TYPES) for _ in range(k))
            capped.append((colours, rng.randrange(1, 3)))
    return have, wild, spec, rainbow, capped


def test_matching_is_an_exact_maximum_matching():
    # Wild containers, rainbow slots and Prefab Homes' capped groups, against brute force; the
    # fast formula (no capped group) against the max flow.
    rng = random.Random(5)
    for i in range(600):
        case = random_case(rng, with_capped=i % 2 == 1)
        assert match(*case) == brute_match(*case), case
        if not case[4]:
            assert _match_flow(*case) == match(*case), case


def test_robot_cats_pairing_is_the_best_over_every_pairing():
    rng = random.Random(6)
    for i in range(300):
        have, wild, spec, rainbow, capped = random_case(rng, with_capped=i % 3 == 0)
        wild[0] = wild[1] = wild[2] = wild[3] = wild[4] = False
        best = max(match(have, wild, spec, rainbow, capped), match_pairs(have, wild, spec, rainbow, capped))
        assert best == brute_pairs(have, wild, spec, rainbow, capped), (have, spec, rainbow, capped)


# Ten cards for seats 1 and 2 to draw before a scripted draw (``deck_top=DRAWN + [...]``).
DRAWN = [
    "cologne",
    "velvet_robes",
    "message_tables",
    "small_poodles",
    "teslas",
    "champagne",
    "vintage_wines",
    "gold_toilets",
    "sauna",
    "nice_suits",
]


def load_turn(t, declare="chairs"):
    """Seat 0 leads Load; seats 1 and 2 draw; seat 0 is asked for a container."""
    t.do(declare, "draw", "draw")
    assert t.phase == P_LOAD_CARD and t.decider == 0


# ----- wild containers and rainbow contracts ---------------------------------------------------------
WILD = [  # power, a container of its colour, a one-container contract of another colour (x2)
    ("televisions", "laptops", "fake_dvds", "bubblegum"),
    ("wheat", "almonds", "protractors", "neural_units"),
    ("soap", "beer", "protractors", "neural_units"),
    ("impalas", "cologne", "protractors", "neural_units"),
    ("big_cats", "big_ammunition", "protractors", "neural_units"),
]


@pytest.mark.parametrize("key, container, contract, other", WILD)
def test_wild_containers_fill_any_slot_of_the_holders_shipments(table, key, container, contract, other):
    t = table(
        3,
        hands={0: ["chairs", container]},
        shipments={0: [key]},
        ships={0: {"contracts": [contract]}, 2: {"contracts": [other]}},
    )
    st = t.state
    assert not st.fits(2, t.id(container))  # seat 1's shipment: colour still matters
    load_turn(t)
    t.do(container)  # one ship fits: loaded, and it completes
    assert st.shipments[0] == ids(t, key, contract) and st.cargo[0] == ids(t, container)
    assert st.at_sea[0] and st.credits[0] == 10 + 2
    conserved(t)


def test_wild_containers_also_fit_a_pirated_container(table):
    t = table(
        3,
        hands={0: ["backpacks"]},
        shipments={0: ["big_cats"]},
        island=["big_ammunition"],
        ships={0: {"contracts": ["protractors"]}},
    )
    t.do("backpacks", "draw", "draw")
    assert t.phase == P_PIRATE_TAKE
    t.do("big_ammunition")  # fits ship 0 only: loaded at once
    st = t.state
    assert st.shipments[0] == ids(t, "big_cats", "protractors") and st.credits[0] == 12
    conserved(t)


RAINBOW = [  # power, a contract of its type (x2), a container of another colour
    ("generators", "drones", "cell_phones", "almonds"),
    ("coffee", "sugar", "onions", "laptops"),
    ("candy", "mouthwash", "chaptick", "almonds"),
    ("gold_watches", "leather_coats", "nice_suits", "almonds"),
    ("seeds", "pistols", "cannabis", "almonds"),
]


@pytest.mark.parametrize("key, contract, other, container", RAINBOW)
def test_rainbow_contracts_take_any_colour(table, key, contract, other, container):
    t = table(
        3,
        hands={0: ["chairs", container]},
        shipments={0: [key]},
        ships={0: {"contracts": [contract]}, 2: {"contracts": [other]}},
    )
    st = t.state
    assert not st.fits(2, t.id(container))  # the same type, but not the holder's
    load_turn(t)
    t.do(container)
    assert st.cargo[0] == ids(t, container) and st.contracts[0] == ids(t, contract)
    assert st.matched(0) == 1 and not st.at_sea[0]
    conserved(t)


def test_tortillas_takes_any_colour_as_a_contract_of_anyone(table):
    t = table(
        3,
        hands={0: ["chairs", "big_ammunition"]},
        ships={0: {"contracts": ["tortillas"]}, 2: {"contracts": ["onions"]}},
        modules=("kickstarter",),
    )
    st = t.state
    assert not st.fits(2, t.id("big_ammunition"))
    load_turn(t)
    t.do("big_ammunition")
    assert st.cargo[0] == ids(t, "big_ammunition") and st.matched(0) == 1
    conserved(t)


def test_gaining_a_matching_power_completes_a_waiting_shipment(table):
    # Ship 1 waits with a red container on a consumer contract; completing Candy (ship 0) makes
    # consumer contracts rainbow, so ship 1 completes at once.
    t = table(
        3,
        hands={0: ["chairs", "beer"]},
        ships={
            0: {"contracts": ["candy"], "cargo": ["chaptick"]},
            1: {"contracts": ["rope"], "cargo": ["big_ammunition"]},
        },
    )
    load_turn(t)
    t.do("beer", ("ship", 0))
    st = t.state
    assert st.shipments[0] == ids(t, "candy", "rope")
    assert st.at_sea[0] and st.at_sea[1] and st.credits[0] == 10 + 4 + 2


# ----- Prefab Homes, Robot Cats, Tablets -----------------------------------------------------------
def test_prefab_homes_completes_luxury_shipments_with_half_the_containers(table):
    t = table(
        3,
        hands={0: ["chairs", "cologne", "velvet_robes"]},
        imports={0: ["bok_choy"]},
        shipments={0: ["prefab_homes"]},
        modules=("kickstarter",),
        ships={0: {"contracts": ["diamond_rings"]}},
    )
    st = t.state
    assert st.needed(0) == 2 and st.room(0) == 6 - 2
    load_turn(t)
    t.do("cologne")
    assert st.contracts[0] == ids(t, "diamond_rings") and st.matched(0) == 1
    t.do("velvet_robes")  # the second of 2: complete, paid for 2
    assert st.shipments[0] == ids(t, "prefab_homes", "diamond_rings") and st.credits[0] == 10 + 4
    conserved(t)


def test_prefab_homes_lets_the_holder_choose_which_colours_to_load(table):
    # Ferraris needs blue, blue, blue, red: half is 2, and red + blue will do.
    t = table(
        3,
        hands={0: ["chairs", "big_ammunition", "cologne"]},
        imports={0: ["bok_choy"]},
        shipments={0: ["prefab_homes"]},
        modules=("kickstarter",),
        ships={0: {"contracts": ["ferraris"]}},
    )
    load_turn(t)
    t.do("big_ammunition", "cologne")
    st = t.state
    assert st.shipments[0] == ids(t, "prefab_homes", "ferraris") and st.credits[0] == 14


def test_without_prefab_homes_a_luxury_shipment_needs_every_container(table):
    t = table(
        3,
        ships={2: {"contracts": ["diamond_rings"], "cargo": ["cologne", "velvet_robes"]}},
        shipments={0: ["prefab_homes"]},
        modules=("kickstarter",),
    )
    st = t.state
    assert st.needed(2) == 4 and st.room(2) == 2 and not st.at_sea[2]


def test_robot_cats_loads_two_containers_of_one_type_as_one_technology_container(table):
    t = table(
        3,
        hands={0: ["chairs", "fake_dvds", "cannabis", "almonds"]},
        shipments={0: ["robot_cats"]},
        ships={0: {"contracts": ["protractors"]}},
    )
    load_turn(t)
    assert not t.can("almonds")  # a lone yellow container fits nowhere
    t.do("fake_dvds")
    assert t.phase == P_LOAD_SHIP  # asked: the choice depends on the hand
    t.do(("ship", 0))
    assert power(t) == "robot_cats" and t.legal() == ["card CANNABIS"]
    t.do("cannabis")
    st = t.state
    # One Load action, two containers, and the payout counts both.
    assert st.shipments[0] == ids(t, "robot_cats", "protractors") and st.credits[0] == 10 + 4
    assert sorted(st.cargo[0]) == sorted(ids(t, "fake_dvds", "cannabis")) and st.actions_left[0] == 0
    conserved(t)


def test_robot_cats_secures_a_pair_with_two_pirate_actions(table):
    t = table(
        3,
        hands={0: ["potatoes"]},
        imports={0: ["backpacks"]},
        shipments={0: ["robot_cats"]},
        island=["fake_dvds", "cannabis"],
        ships={0: {"contracts": ["protractors"]}},
    )
    t.do("potatoes", "draw", "draw")
    t.do("fake_dvds")
    assert t.phase == P_PIRATE_PLACE and set(t.legal()) == {"ship 0 (P0's)", "to discard"}
    t.do(("ship", 0))
    st = t.state
    assert st.cargo[0] == ids(t, "fake_dvds") and st.contracts[0] == ids(t, "protractors")
    t.do("cannabis")  # the second half: fits, loaded, complete
    assert st.shipments[0] == ids(t, "robot_cats", "protractors") and st.credits[0] == 14
    conserved(t)


def test_tablets_lets_a_ship_take_8_containers(table):
    six = ["diamond_rings", "laptops"]
    t = table(
        3,
        hands={0: ["bamboo", "cell_phones"]},
        shipments={0: ["tablets"]},
        ships={0: {"contracts": six}, 2: {"contracts": ["leather_coats", "nice_suits", "jets"]}},
    )
    st = t.state
    assert st.room(0) == 2 and st.room(2) == 0
    t.do("bamboo", "draw", "draw")
    assert t.phase == P_CONTRACT_CARD and t.can("cell_phones")
    t.do("cell_phones", ("ship", 0))
    assert st.contracts[0] == ids(t, "diamond_rings", "laptops", "cell_phones")


def test_tablets_pays_18_for_8_containers(table):
    cargo = ["cologne", "velvet_robes", "message_tables", "small_poodles", "neural_units", "playstations", "segways"]
    t = table(
        3,
        hands={0: ["chairs", "telescopes"]},
        shipments={0: ["tablets"]},
        ships={0: {"contracts": ["diamond_rings", "laptops", "cell_phones"], "cargo": cargo}},
    )
    load_turn(t)
    t.do("telescopes")
    st = t.state
    assert st.credits[0] == 10 + 18 and st.at_sea[0] and len(st.cargo[0]) == 8


# ----- Load: Batteries, Cell Phones, Smart Cars, Playstations, Refrigerators ----------------------
def test_batteries_pays_2_for_one_extra_container_once_per_turn(table):
    t = table(
        3,
        hands={0: ["chairs", "laptops", "neural_units"]},
        shipments={0: ["batteries"]},
        ships={0: {"contracts": ["televisions"]}},
    )
    load_turn(t)
    t.do(("option", 0))
    st = t.state
    assert st.credits[0] == 8 and st.actions_left[0] == 2 and st.bank == BANK_TOTAL - 30 + 2
    t.do("laptops")
    assert t.phase == P_LOAD_CARD and not t.can(("option", 0))  # once per turn
    t.do("neural_units")
    assert st.cargo[0] == ids(t, "laptops", "neural_units") and st.contracts[0] == ids(t, "televisions")
    assert t.phase == P_LEAD and st.leader == 1
    conserved(t)


def test_cell_phones_draws_instead_and_must_load_a_card_that_fits(table):
    t = table(
        3,
        hands={0: ["chairs"]},
        shipments={0: ["cell_phones"]},
        deck_top=DRAWN + ["laptops"],
        ships={0: {"contracts": ["protractors"]}},
    )
    load_turn(t)
    assert t.legal() == ["done", "option 1"]
    t.do(("option", 1))
    st = t.state
    assert st.shipments[0] == ids(t, "cell_phones", "protractors") and st.cargo[0] == ids(t, "laptops")
    assert st.credits[0] == 12 and st.hands[0] == []
    conserved(t)


def test_cell_phones_keeps_a_drawn_card_that_fits_nowhere(table):
    t = table(
        3,
        hands={0: ["chairs"]},
        shipments={0: ["cell_phones"]},
        deck_top=DRAWN + ["almonds"],
        ships={0: {"contracts": ["protractors"]}},
    )
    load_turn(t)
    t.do(("option", 1))
    st = t.state
    assert st.hands[0] == ids(t, "almonds") and st.cargo[0] == [] and st.actions_left[0] == 0
    assert t.phase == P_LEAD and st.leader == 1


def test_smart_cars_puts_a_card_on_the_island_for_2_credits_instead_of_loading(table):
    t = table(3, hands={0: ["chairs", "beer", "cups"]}, imports={0: ["bok_choy"]}, shipments={0: ["smart_cars"]})
    load_turn(t)
    t.do(("option", 2))
    assert power(t) == "smart_cars"
    t.do("beer")
    st = t.state
    assert st.island == ids(t, "beer") and st.credits[0] == 12 and st.actions_left[0] == 1
    assert t.phase == P_LOAD_CARD and not t.can(("option", 2))  # once per turn
    conserved(t)


def test_playstations_adds_a_load_per_two_technology_goods(table):
    t = table(
        3,
        hands={0: ["chairs", "neural_units", "segways"]},
        goods={0: ["laptops", "drones"]},
        shipments={0: ["playstations"]},
        ships={0: {"contracts": ["televisions"]}},
    )
    load_turn(t)
    st = t.state
    assert st.actions_left[0] == 2
    t.do("neural_units", "segways")
    assert st.cargo[0] == ids(t, "neural_units", "segways")


def test_refrigerators_counts_two_technology_goods_as_a_load_import(table):
    # Seat 1 draws instead of following, but its virtual Load import still gives it a Load action.
    t = table(
        3,
        hands={0: ["chairs"], 1: ["laptops"]},
        goods={1: ["drones", "cell_phones"]},
        shipments={1: ["refrigerators"]},
        ships={2: {"contracts": ["protractors"]}},
    )
    t.do("chairs", "draw", "draw", "done")
    assert t.phase == P_LOAD_CARD and t.decider == 1
    t.do("laptops")
    st = t.state
    assert st.shipments[1] == ids(t, "refrigerators", "protractors") and st.credits[1] == 12
    assert st.imports[1] == []


# ----- Contract: Jasmine Tea, Paprika, Flour ----------------------------------------------------------
def test_jasmine_tea_sells_one_card_when_contracting(table):
    t = table(3, hands={0: ["bamboo", "drones", "beer"]}, shipments={0: ["jasmine_tea"]})
    t.do("bamboo", "draw", "draw")
    assert t.phase == P_CONTRACT_CARD and t.can(("option", 0))
    t.do(("option", 0))
    assert power(t) == "jasmine_tea"
    t.do("beer")
    st = t.state
    assert st.island == ids(t, "beer") and st.credits[0] == 12 and st.actions_left[0] == 1
    assert t.phase == P_CONTRACT_CARD and not t.can(("option", 0))
    t.do("drones", ("ship", 0))
    assert st.contracts[0] == ids(t, "drones")
    conserved(t)


def test_paprika_loads_one_container_free_when_contracting(table):
    t = table(3, hands={0: ["bamboo", "drones", "laptops", "almonds"]}, shipments={0: ["paprika"]})
    t.do("bamboo", "draw", "draw", "drones", ("ship", 0))
    assert power(t) == "paprika" and set(t.legal()) == {"done", "card LAPTOPS"}
    t.do("laptops")  # one ship fits: loaded there
    st = t.state
    assert st.contracts[0] == ids(t, "drones") and st.cargo[0] == ids(t, "laptops")
    assert st.hands[0] == ids(t, "almonds") and t.phase == P_LEAD
    conserved(t)


def test_flour_loads_four_containers_as_it_is_contracted(table):
    # Seat 1 (yellow) has tier 3 agriculture: 2 goods and its harbor.
    t = table(
        3,
        leader=1,
        hands={1: ["bamboo", "flour", "bok_choy", "onions", "lumber", "sugar"]},
        goods={1: ["almonds", "potatoes"]},
    )
    t.do("bamboo", "draw", "draw", "flour", ("ship", 2))
    assert power(t) == "flour"
    assert set(t.legal()) == {"done", "card BOK CHOY", "card ONIONS", "card LUMBER", "card SUGAR"}
    t.do("bok_choy")
    assert "done" not in t.legal()  # all 4 at once
    t.do("onions", "lumber", "sugar")
    st = t.state
    assert st.shipments[1] == ids(t, "flour") and st.credits[1] == 10 + 8 and st.hands[1] == []
    conserved(t)


def test_flour_is_not_offered_without_four_containers(table):
    t = table(
        3, leader=1, hands={1: ["bamboo", "flour", "bok_choy", "onions", "laptops"]}, goods={1: ["almonds", "potatoes"]}
    )
    t.do("bamboo", "draw", "draw", "flour", ("ship", 2))
    assert power(t) == "flour" and t.legal() == ["done"]


# ----- Pirate: Drugs, Mini Van, Stem Cells, Cannons ---------------------------------------------
def pirate_turn(t, declare="potatoes"):
    t.do(declare, "draw", "draw")
    assert t.phase == P_PIRATE_TAKE and t.decider == 0


def test_drugs_takes_an_extra_container_from_a_ship_at_sea_once_per_turn(table):
    t = table(
        3,
        hands={0: ["potatoes"]},
        shipments={0: ["drugs"]},
        ships={3: {"at_sea": True, "cargo": ["laptops", "almonds"]}},
    )
    pirate_turn(t)
    assert set(t.legal()) == {"done", "card LAPTOPS", "card ALMONDS", "option 0"}
    t.do(("option", 0))
    assert set(t.legal()) == {"card LAPTOPS", "card ALMONDS"}  # no "done": it was chosen
    t.do("laptops")  # fits nowhere: discarded
    st = t.state
    assert st.actions_left[0] == 1 and st.discard == ids(t, "laptops")
    assert set(t.legal()) == {"done", "card ALMONDS"}  # once per turn
    t.do("almonds")
    assert st.discard[:2] == ids(t, "laptops", "almonds") and not st.at_sea[3] and st.leader == 1
    conserved(t)


def test_mini_van_pirates_a_container_from_another_players_ship_in_harbor(table):
    t = table(
        3,
        hands={0: ["potatoes"]},
        shipments={0: ["mini_van"]},
        ships={0: {"contracts": ["neural_units"]}, 2: {"contracts": ["drones"], "cargo": ["laptops"]}},
    )
    pirate_turn(t)
    assert {"card LAPTOPS", "option 1", "option 2"} <= set(t.legal())
    t.do("laptops")
    st = t.state
    assert st.cargo[2] == [] and st.contracts[2] == ids(t, "drones")
    assert st.shipments[0] == ids(t, "mini_van", "neural_units") and st.credits[0] == 12
    conserved(t)


def test_mini_van_pirates_the_top_of_the_draw_deck(table):
    t = table(
        3,
        hands={0: ["potatoes"]},
        shipments={0: ["mini_van"]},
        deck_top=DRAWN + ["laptops"],
        ships={0: {"contracts": ["neural_units"]}},
    )
    pirate_turn(t)
    t.do(("option", 1))
    st = t.state
    assert st.shipments[0] == ids(t, "mini_van", "neural_units") and st.cargo[0] == ids(t, "laptops")
    conserved(t)


def test_mini_van_pirates_a_random_card_from_another_players_hand(table):
    t = table(
        3,
        hands={0: ["potatoes"], 1: ["apples", "laptops"]},
        shipments={0: ["mini_van"]},
        ships={0: {"contracts": ["neural_units"]}},
    )
    t.do("potatoes", "apples", "draw")  # seat 1 follows: its hand is LAPTOPS alone
    t.do(("option", 2))
    assert power(t) == "mini_van" and set(t.legal()) == {"player +1", "player +2"}
    t.do(("seat", 1))
    st = t.state
    assert st.hands[1] == [] and st.cargo[0] == ids(t, "laptops") and st.credits[0] == 12
    conserved(t)


def test_stem_cells_pays_2_to_put_the_pirated_container_in_the_goods(table):
    t = table(3, hands={0: ["potatoes"]}, shipments={0: ["stem_cells"]}, island=["laptops"], modules=("jutaku",))
    pirate_turn(t)
    t.do("laptops")
    assert t.phase == P_PIRATE_PLACE and set(t.legal()) == {"to goods", "to discard"}
    t.do(("zone", "goods"))
    st = t.state
    assert st.goods[0] == ids(t, "laptops") and st.credits[0] == 8
    conserved(t)


def test_cannons_counts_other_players_pirate_imports(table):
    t = table(
        3,
        hands={0: ["potatoes"]},
        shipments={0: ["cannons"]},
        island=["almonds"],
        imports={1: ["backpacks"], 2: ["apples"], 0: ["laptops"]},
    )
    pirate_turn(t)
    st = t.state
    assert st.actions_left == [3, 1, 1]
    assert st.imports[1] == ids(t, "backpacks")  # the cards stay where they are


# ----- Import: Foxes, Pants, Shampoo, Dark Flight Games -------------------------------------------
def test_foxes_wins_a_tied_import_bid(table):
    t = table(
        3,
        hands={0: ["champagne"], 1: ["jets"], 2: ["vintage_wines"]},
        shipments={2: ["foxes"]},
        ships={1: {"at_sea": True, "cargo": ["laptops", "telescopes"]}},
    )
    t.do("champagne", "jets", "vintage_wines", ("bid", 4), ("bid", 4), ("bid", 4))
    st = t.state
    assert t.decider == 2 and st.credits == [10 + 2, 10, 10 - 4]  # the leader would have won
    conserved(t)


def test_pants_pays_the_ship_owner_4_for_an_import(table):
    t = table(
        3,
        leader=1,
        hands={1: ["jets"]},
        shipments={0: ["pants"]},
        ships={1: {"at_sea": True, "cargo": ["laptops", "telescopes"]}},
    )
    t.do("jets", "draw", "draw")  # seat 1 imports alone, for free
    st = t.state
    assert st.credits == [10 + 4, 10, 10]
    conserved(t)


def test_shampoo_takes_three_containers(table):
    t = table(
        3,
        hands={0: ["champagne"]},
        shipments={0: ["shampoo"]},
        ships={3: {"at_sea": True, "cargo": ["laptops", "telescopes", "almonds"]}},
    )
    t.do("champagne", "draw", "draw")
    t.do("laptops", ("zone", "goods"), "telescopes", ("zone", "goods"))
    assert t.legal() == ["to imports", "to goods"]  # the third, ALMONDS, is picked
    t.do(("zone", "imports"))
    st = t.state
    assert st.goods[0] == ids(t, "laptops", "telescopes") and st.imports[0] == ids(t, "almonds")
    assert st.cargo[3] == [] and not st.at_sea[3] and st.credits == [10, 12, 10]
    conserved(t)


def test_dark_flight_games_imports_from_the_island_and_keeps_the_bid(table):
    t = table(
        3,
        hands={0: ["champagne"], 1: ["jets"]},
        shipments={0: ["dark_flight_games"]},
        island=["laptops", "almonds"],
        modules=("captain",),
        ships={3: {"at_sea": True, "cargo": ["telescopes"]}},
    )
    t.do("champagne", "jets", "draw")
    assert t.phase == P_IMPORT_SHIP and set(t.legal()) == {"ship 3 (P1's)", "option 0"}
    t.do(("option", 0), ("bid", 2), ("bid", 4))
    st = t.state
    assert st.credits == [10 + 4, 10 - 4, 10] and st.bank == BANK_TOTAL - 30  # no owner fee
    t.do("laptops", ("zone", "goods"), ("zone", "goods"))  # ALMONDS, the last, is picked
    assert st.island == [] and st.goods[1] == ids(t, "laptops", "almonds")
    conserved(t)


# ----- Following: Neural Units, 3D Printers, Rice Cookers -----------------------------------------
def test_neural_units_follows_any_action_with_a_load(table):
    t = table(
        3,
        hands={0: ["champagne"], 1: ["chairs", "beer"]},
        shipments={1: ["neural_units"]},
        ships={2: {"contracts": ["rope"]}, 5: {"at_sea": True, "cargo": ["laptops"]}},
    )
    t.do("champagne")
    assert t.can("chairs")  # a Load card follows Import
    t.do("chairs", "draw")
    st = t.state
    assert st.bidders == [0]  # seat 1 does not import
    t.do(("zone", "goods"))  # LAPTOPS, the only container, is picked
    assert st.goods[0] == ids(t, "laptops") and t.phase == P_LOAD_CARD and t.decider == 1
    t.do("beer")
    assert st.shipments[1] == ids(t, "neural_units", "rope") and st.credits == [10, 12, 12]
    conserved(t)


def test_3d_printers_follows_with_any_card(table):
    t = table(
        3, hands={0: ["laptops"], 1: ["chairs", "beer"]}, shipments={1: ["3d_printers"]}, modules=("kickstarter",)
    )
    t.do("laptops")
    assert t.can("chairs") and t.can("beer")
    t.do("chairs", "draw", "done")
    assert t.phase == P_SUPPLY and t.decider == 1
    t.do("beer")
    st = t.state
    assert st.island == ids(t, "beer") and st.credits[1] == 14
    conserved(t)


def test_rice_cookers_declares_contract_with_a_load_card(table):
    t = table(3, hands={0: ["chairs", "drones"]}, shipments={0: ["rice_cookers"]}, modules=("jutaku",))
    t.do("chairs")
    assert power(t) == "rice_cookers" and set(t.legal()) == {"action contract", "action load"}
    t.do(("action", "contract"))
    st = t.state
    assert st.declared == 0 and t.phase == P_FOLLOW
    t.do("draw", "draw")
    assert power(t) == "rice_cookers"  # all Load or all Contract this turn
    t.do(("action", "contract"), "drones", ("ship", 0))
    assert st.contracts[0] == ids(t, "drones")


def test_rice_cookers_follows_contract_with_a_load_card_and_counts_load_imports(table):
    t = table(
        3,
        hands={0: ["bamboo"], 1: ["chairs", "almonds", "onions"]},
        imports={1: ["cups"]},
        shipments={1: ["rice_cookers"]},
        modules=("jutaku",),
        ships={2: {"contracts": ["sugar"]}},
    )
    t.do("bamboo", "chairs", "draw", "done")
    st = t.state
    assert st.actions_left[1] == 2 and power(t) == "rice_cookers"
    t.do(("action", "load"), "almonds", "onions")
    assert st.shipments[1] == ids(t, "rice_cookers", "sugar")
    conserved(t)


# ----- "any time" powers -------------------------------------------------------------------------
def test_iceland_water_sells_agriculture_cards_at_any_decision(table):
    t = table(3, hands={0: ["almonds", "laptops"]}, shipments={0: ["iceland_water"]})
    assert t.phase == P_LEAD and t.can(("card", "iceland_water"))
    t.do(("card", "iceland_water"))
    assert power(t) == "iceland_water" and t.legal() == ["card ALMONDS"]
    t.do("almonds")
    st = t.state
    assert st.island == ids(t, "almonds") and st.credits[0] == 12 and st.hands[0] == ids(t, "laptops")
    assert t.phase == P_LEAD and not t.can(("card", "iceland_water"))  # no agriculture card left
    conserved(t)


def test_telescopes_trades_technology_goods_for_4_credits_when_following(table):
    t = table(3, hands={0: ["laptops"]}, goods={1: ["drones", "cell_phones"]}, shipments={1: ["telescopes"]})
    t.do("laptops")
    assert t.phase == P_FOLLOW and t.decider == 1
    t.do(("card", "telescopes"), "drones")
    st = t.state
    assert st.goods[1] == ids(t, "cell_phones") and st.discard == ids(t, "drones") and st.credits[1] == 14
    assert t.phase == P_FOLLOW and t.decider == 1 and t.can(("card", "telescopes"))
    conserved(t)


def test_segways_moves_from_the_shipments_to_the_goods(table):
    t = table(3, hands={0: ["laptops"]}, shipments={0: ["segways"]})
    t.do(("card", "segways"))
    assert power(t) == "segways" and set(t.legal()) == {"to imports", "to goods"}
    t.do(("zone", "goods"))
    st = t.state
    assert st.goods[0] == ids(t, "segways") and st.shipments[0] == [] and st.owner[t.id("segways")] == -1
    assert t.phase == P_LEAD and not t.can(("card", "segways"))
    conserved(t)


def test_segways_loads_itself_as_a_container(table):
    t = table(
        3,
        hands={0: ["laptops"]},
        shipments={0: ["segways"]},
        imports={0: ["almonds"]},
        goods={0: ["beer", "cups"]},
        ships={0: {"contracts": ["protractors"]}},
    )
    # Without Segways among the shipments the limits are 1 import and 2 goods: both are full.
    t.do(("card", "segways"))
    st = t.state
    assert st.shipments[0] == ids(t, "protractors") and st.credits[0] == 12
    assert st.cargo[0] == ids(t, "segways") and st.at_sea[0]
    conserved(t)


def test_lutefisk_is_contracted_from_the_hand_without_an_action(table):
    t = table(3, hands={0: ["laptops", "lutefisk"]})
    assert not t.can(("option", 3))  # seat 0 (green) lacks the agriculture tier
    t = table(3, hands={0: ["laptops"], 1: ["lutefisk", "almonds"]})
    t.do("laptops")
    assert t.decider == 1 and t.can(("option", 3))
    t.do(("option", 3))
    assert power(t) == "lutefisk"
    t.do(("ship", 2))
    st = t.state
    assert st.contracts[2] == ids(t, "lutefisk") and st.hands[1] == ids(t, "almonds")
    assert t.phase == P_FOLLOW and t.decider == 1 and not t.can(("option", 3))
    conserved(t)


def test_oysters_contracts_a_luxury_card_without_an_action(table):
    t = table(
        3,
        hands={0: ["jets", "laptops"]},
        goods={0: ["cologne"]},
        shipments={0: ["oysters"]},
        modules=("jutaku",),
        ships={1: {"at_sea": True, "cargo": ["beer"]}},
    )
    t.do(("card", "oysters"))
    assert power(t) == "oysters" and t.legal() == ["card JETS"]
    t.do("jets")  # one ship in harbor: chosen
    st = t.state
    assert st.contracts[0] == ids(t, "jets") and st.hands[0] == ids(t, "laptops") and t.phase == P_LEAD
    conserved(t)


def test_led_lights_swaps_two_hand_cards_for_one_island_card_when_leading(table):
    t = table(
        3,
        hands={0: ["beer", "cups", "almonds"], 1: ["laptops"]},
        shipments={0: ["led_lights"]},
        island=["drones"],
        modules=("jutaku",),
    )
    t.do(("card", "led_lights"))  # the island card: only one, chosen
    assert power(t) == "led_lights"
    t.do("beer", "cups")
    st = t.state
    assert sorted(st.hands[0]) == sorted(ids(t, "almonds", "drones")) and st.island == ids(t, "beer", "cups")
    assert t.phase == P_LEAD
    t.do(("card", "led_lights"), "beer", "almonds", "drones")  # again: each use shrinks the hand
    assert st.hands[0] == ids(t, "beer") and t.phase == P_LEAD and not t.can(("card", "led_lights"))
    conserved(t)


def test_led_lights_is_not_offered_to_a_follower(table):
    t = table(
        3,
        hands={0: ["laptops"], 1: ["beer", "cups"]},
        shipments={1: ["led_lights"]},
        island=["drones"],
        modules=("jutaku",),
    )
    t.do("laptops")
    assert t.decider == 1 and not t.can(("card", "led_lights"))


def test_rope_swaps_an_island_card_once_per_turn_when_leading(table):
    t = table(3, hands={0: ["beer", "laptops"]}, shipments={0: ["rope"]}, island=["drones", "almonds"])
    t.do(("card", "rope"))
    assert power(t) == "rope" and set(t.legal()) == {"card DRONES", "card ALMONDS"}
    t.do("almonds", "beer")
    st = t.state
    assert sorted(st.hands[0]) == sorted(ids(t, "laptops", "almonds"))
    assert sorted(st.island) == sorted(ids(t, "drones", "beer"))
    assert t.phase == P_LEAD and not t.can(("card", "rope"))
    conserved(t)


# ----- the end of the game: MIRI Machines, Can Openers --------------------------------------------
def sell_turn(t, seller=0):
    """Seat 0 leads Supply; seat ``seller`` sells BEER; everyone else draws or passes."""
    t.do("laptops")
    for p in (1, 2):
        t.do("chaptick" if p == seller else "draw")
    for p in (0, 1, 2):
        if t.decider == p and t.phase == P_SUPPLY:
            t.do("beer" if p == seller else "done")


@pytest.mark.parametrize(
    "shipments, credits, ends",
    [
        ({}, 48, True),  # 52 >= 50: the game ends after the turn
        ({1: ["miri_machines"]}, 48, False),  # anyone holds MIRI Machines: 70 needed
        ({1: ["miri_machines"]}, 66, True),
    ],
)
def test_miri_machines_raises_the_end_to_70_active_credits(table, shipments, credits, ends):
    t = table(3, hands={0: ["laptops", "beer"]}, shipments=shipments, credits={0: credits})
    sell_turn(t)
    st = t.state
    assert st.credits[0] == credits + 4 and st.over == ends


def test_can_openers_cannot_trigger_the_end_but_others_still_can(table):
    t = table(
        3,
        hands={0: ["laptops", "beer"], 1: ["chaptick"]},
        shipments={0: ["can_openers"]},
        credits={0: 48, 1: 48},
        modules=("kickstarter",),
    )
    sell_turn(t)
    st = t.state
    assert st.credits[0] == 52 and not st.over and st.leader == 1


def test_can_openers_holder_does_not_stop_another_player_ending_the_game(table):
    t = table(
        3,
        hands={0: ["laptops"], 1: ["chaptick", "beer"]},
        shipments={0: ["can_openers"]},
        credits={1: 48},
        modules=("kickstarter",),
    )
    sell_turn(t, seller=1)
    assert t.state.credits[1] == 52 and t.state.over


def test_can_openers_holder_drawing_the_final_card_does_not_end_the_game(table):
    t = table(3, shipments={0: ["can_openers"]}, modules=("kickstarter",))
    st = t.state
    st.island += st.deck[:-1]  # one card left, none in the discard pile
    del st.deck[:-1]
    assert st.draw(0) == 1 and st.end_reason == ""
    assert st.draw(1) == 0 and st.end_reason == "the draw deck and the discard pile are empty"


# ----- limits and tiers: Board Games, Scotch Whisky, Ferraris ---------------------------------------
FIVE_TYPES = ["board_games", "protractors", "bok_choy", "foxes", "fake_dvds"]


def test_board_games_lifts_the_imports_limit_with_every_type_shipped(table):
    imports = ["laptops", "drones", "almonds", "onions", "beer", "cups"]
    t = table(
        3,
        hands={0: ["telescopes"]},
        shipments={0: FIVE_TYPES},
        imports={0: imports},
        island=["cologne"],
        modules=("kickstarter",),
    )
    t.do("telescopes", "draw", "draw", "cologne")  # the seventh import
    st = t.state
    assert st.imports[0] == ids(t, *imports, "cologne")


def test_board_games_without_every_type_keeps_the_limit(table):
    t = table(3, shipments={0: FIVE_TYPES[:4] + ["rope"]}, modules=("kickstarter",))
    assert t.state.imports_cap(0) == 6


def test_scotch_whisky_counts_two_luxury_goods_as_one(table):
    goods = ["cologne", "velvet_robes", "message_tables", "small_poodles"]
    t = table(
        3,
        hands={0: ["champagne"]},
        goods={0: goods},
        shipments={0: ["scotch_whisky"]},
        imports={0: ["almonds", "onions"]},
        modules=("kickstarter",),
        ships={3: {"at_sea": True, "cargo": ["laptops", "drones"]}},
    )
    st = t.state
    assert st.goods_counted(0) == 2 and st.goods_cap(0) == 4
    t.do("champagne", "draw", "draw", "laptops")  # imports are full: to the goods, then DRONES
    assert st.goods[0] == ids(t, *goods, "laptops", "drones") and st.goods_counted(0) == 4
    conserved(t)


def test_ferraris_counts_as_a_good_of_every_type_for_tiers(table):
    # Seat 0 (green) has no agriculture: SUGAR (tier 1) needs Ferraris' virtual good.
    t = table(3, hands={0: ["bamboo", "sugar"]}, shipments={0: ["ferraris"]})
    st = t.state
    assert st.virtual_goods(0) == 1 and st.virtual_goods(1) == 0
    assert [st.tier(0, k) for k in range(NUM_TYPES)] == [2, 1, 1, 1, 1] and st.goods_cap(0) == 4
    t.do("bamboo", "draw", "draw")
    t.do("sugar", ("ship", 0))
    assert st.contracts[0] == ids(t, "sugar")


# ----- outright wins -------------------------------------------------------------------------------------
ILLEGAL7 = ["a_small_tank", "ammunition", "bubblegum", "big_ammunition", "cannabis", "fake_dvds", "pistols"]


def test_the_mother_load_wins_with_8_illegal_goods(table):
    t = table(
        3,
        hands={0: ["champagne"]},
        goods={0: ILLEGAL7},
        imports={0: ["almonds", "onions", "beer"]},
        shipments={0: ["the_mother_load", "rope", "neural_units"]},
        ships={3: {"at_sea": True, "cargo": ["seeds"]}},
    )
    st = t.state
    assert not st.over
    t.do("champagne", "draw", "draw", ("zone", "goods"))  # SEEDS, taken free
    assert st.over and st.instant_winner == 0 and st.goods[0][-1] == t.id("seeds")


def test_graphics_cards_wins_with_the_most_of_4_good_types(table):
    t = table(
        3,
        hands={0: ["champagne"]},
        goods={0: ["laptops", "almonds", "beer"], 1: ["fake_dvds"]},
        shipments={0: ["graphics_cards", "rope"]},
        imports={0: ["onions", "cups"]},
        modules=("jutaku",),
        ships={3: {"at_sea": True, "cargo": ["cologne"]}},
    )
    st = t.state
    assert not st.over
    t.do("champagne", "draw", "draw", ("zone", "imports"))
    assert not st.over
    t = table(
        3,
        hands={0: ["champagne"]},
        goods={0: ["laptops", "almonds", "beer"], 1: ["fake_dvds"]},
        shipments={0: ["graphics_cards", "rope"]},
        imports={0: ["onions", "cups"]},
        modules=("jutaku",),
        ships={3: {"at_sea": True, "cargo": ["cologne"]}},
    )
    t.do("champagne", "draw", "draw", ("zone", "goods"))
    assert t.state.over and t.state.instant_winner == 0


def test_graphics_cards_needs_foxes_to_win_a_tie(table):
    common = {0: ["laptops", "almonds", "beer", "cologne"], 1: ["drones", "onions", "cups", "velvet_robes"]}
    shipments = {0: ["graphics_cards", "rope"], 1: ["neural_units", "segways"]}
    t = table(3, goods=common, shipments=shipments, modules=("jutaku",))
    assert not t.state.over
    t = table(3, goods=common, shipments={0: shipments[0] + ["foxes"], 1: shipments[1]}, modules=("jutaku",))
    assert t.state.over and t.state.instant_winner == 0


def test_exotic_fish_wins_with_twice_everyones_credits_and_the_most_goods(table):
    t = table(
        3,
        hands={0: ["laptops", "beer"]},
        goods={0: ["almonds"]},
        shipments={0: ["exotic_fish"]},
        credits={0: 18},
        modules=("captain",),
    )
    st = t.state
    assert not st.over  # 18 < 2 x 10
    sell_turn(t)
    assert st.over and st.instant_winner == 0 and st.credits[0] == 22
