"""The immediate (Ⓢ) powers: each runs once, when its shipment completes.

Every scenario completes the shipment the same way: seat 0 leads Load with Playstations, the
others follow with a Load card, and seat 0 loads the last container onto ship 0 (``finish``).
The payout (2 credits per container up to 5, 14 for 6) and the island seed (the first card of
``deck_top``) come before the power.
"""

import pytest

from smuggle_envs.games.import_export.vocab import P_LEAD, P_LOAD_CARD, P_POWER, P_SUPPLY

LEAD = "playstations"  # a Load card (technology)
FOLLOW = ["chairs", "coffee", "leather_coats", "fake_dvds", "batteries"]  # Load cards, seats 1..5
BANK_TOTAL = 520


def finish(table, contract, cargo, last, n=2, *, hand=(), hands=None, ships=None, prepare=None, **kw):
    """Seat 0 completes ``contract`` on ship 0 by loading ``last`` onto ``cargo``."""
    contracts = [contract] if isinstance(contract, str) else list(contract)
    all_hands = {0: [LEAD, last, *hand]}
    for q in range(1, n):
        all_hands[q] = [FOLLOW[q - 1], *(hands or {}).get(q, ())]
    layout = {0: {"contracts": contracts, "cargo": list(cargo)}}
    layout.update(ships or {})
    t = table(n, hands=all_hands, ships=layout, leader=0, **kw)
    if prepare:
        prepare(t.state)
    t.do(LEAD, *FOLLOW[: n - 1], last)
    return t


def end_turn(t):
    """The followers, who have no shipment to load, stop."""
    while t.phase != P_LEAD and not t.state.over:
        t.do("done")


def conserved(t):
    st = t.state
    cards = st.deck + st.discard + st.island + ([st.pending] if st.pending >= 0 else [])
    for p in range(st.n):
        cards += st.hands[p] + st.imports[p] + st.goods[p] + st.shipments[p] + st.played[p]
    for s in range(2 * st.n):
        cards += st.contracts[s] + st.cargo[s]
    assert sorted(cards) == sorted(t.game.deck_cards)
    assert sum(st.credits) + st.bank + sum(st.passive) == BANK_TOTAL


def ids(t, *keys):
    return [t.id(k) for k in keys]


# ----- credits ---------------------------------------------------------------------------------
@pytest.mark.parametrize("start, after", [(14, 18 + 8), (16, 20 + 4)])
def test_almonds_takes_8_at_18_or_less_counting_the_payout_else_4(table, start, after):
    t = finish(table, "almonds", ["sugar"], "onions", credits={0: start})
    assert t.state.credits[0] == after  # payout 4 first: 18 is "18 or less", 20 is not
    conserved(t)


def test_ammunition_takes_2_from_each_other_player_with_an_illegal_good(table):
    t = finish(table, "ammunition", ["pistols"], "drugs", n=3, goods={1: ["seeds"], 2: ["foxes"]})
    assert t.state.credits == [10 + 4 + 2, 8, 10]
    conserved(t)


def test_danger_pets_takes_2_from_every_other_player_as_far_as_they_can_pay(table):
    t = finish(table, "danger_pets", ["pistols", "seeds"], "drugs", n=3, credits={2: 0})
    assert t.state.credits == [10 + 6 + 2, 8, 0]
    conserved(t)


@pytest.mark.parametrize("coin, credits", [(0.1, [10 + 2 + 8, 6, 6]), (0.9, [10 + 2 - 4, 12, 12])])
def test_flamethrowers_flips_a_coin_from_the_state_rng(table, coin, credits):
    def rigged(st):
        st.rng.random = lambda: coin  # heads below 0.5

    t = finish(table, "flamethrowers", [], "seeds", n=3, prepare=rigged)
    assert t.state.credits == credits
    conserved(t)


def test_flamethrowers_coin_comes_from_the_seeded_rng(table):
    outcomes = set()
    for seed in range(12):
        t = finish(table, "flamethrowers", [], "seeds", n=2, seed=seed)
        outcomes.add(t.state.credits[0])
        again = finish(table, "flamethrowers", [], "seeds", n=2, seed=seed)
        assert again.state.credits == t.state.credits
    assert outcomes == {10 + 2 + 4, 10 + 2 - 2}


def test_fluffy_pillows_takes_2_per_completed_shipment_itself_included(table):
    t = finish(table, "fluffy_pillows", ["candy", "mouthwash", "paper"], "champagne", shipments={0: ["cups", "beer"]})
    assert t.state.credits[0] == 10 + 8 + 2 * 3
    conserved(t)


def test_honey_takes_2_per_agriculture_good_in_every_players_goods(table):
    t = finish(
        table,
        "honey",
        ["wheat", "iceland_water", "jasmine_tea"],
        "mouthwash",
        n=3,
        goods={0: ["sugar"], 1: ["onions", "lumber"], 2: ["candy"]},
        imports={2: ["paprika"]},
    )
    assert t.state.credits[0] == 10 + 8 + 2 * 3  # the agriculture import does not count
    conserved(t)


def test_pens_takes_2_per_consumer_good_in_every_players_goods(table):
    t = finish(
        table,
        "pens",
        ["soap", "fixie_bikes", "rope"],
        "champagne",
        n=3,
        goods={0: ["candy"], 1: ["paper", "shoes"], 2: ["sugar"]},
        imports={1: ["backpacks"]},
    )
    assert t.state.credits[0] == 10 + 8 + 2 * 3
    conserved(t)


def test_rice_takes_2_per_agriculture_shipment_itself_included(table):
    t = finish(table, "rice", ["wheat", "sugar"], "onions", shipments={0: ["potatoes", "cups"]})
    assert t.state.credits[0] == 10 + 6 + 2 * 2  # Rice and Potatoes, not Cups
    conserved(t)


def test_delayed_game_fines_the_others_10_and_gives_two_turns_in_a_row(table):
    t = finish(
        table,
        "delayed_game",
        ["candy", "mouthwash", "paper"],
        "champagne",
        n=3,
        credits={1: 20, 2: 6},
        modules=("kickstarter",),
    )
    st = t.state
    assert st.credits == [10 + 8, 10, 0] and st.double_turn[0] == 1
    conserved(t)
    end_turn(t)
    leaders = []
    for _ in range(5):
        leaders.append(st.leader)
        t.do("draw")
    assert leaders == [1, 2, 0, 0, 1]


# ----- cards -----------------------------------------------------------------------------------
def test_cups_draws_five_cards(table):
    drawn = ["sugar", "candy", "foxes", "seeds", "laptops"]
    t = finish(table, "cups", [], "mouthwash", deck_top=["onions", *drawn])
    assert sorted(t.state.hands[0]) == sorted(ids(t, *drawn))
    assert t.id("onions") in t.state.island  # the seed came first
    conserved(t)


def test_potatoes_takes_2_credits_and_draws_2(table):
    t = finish(table, "potatoes", [], "sugar", deck_top=["onions", "candy", "foxes"])
    assert t.state.credits[0] == 10 + 2 + 2
    assert sorted(t.state.hands[0]) == sorted(ids(t, "candy", "foxes"))
    conserved(t)


def test_hawaiian_salt_takes_every_agriculture_card_from_the_other_hands(table):
    t = finish(
        table,
        "hawaiian_salt",
        ["wheat", "iceland_water"],
        "jasmine_tea",
        n=3,
        hands={1: ["sugar", "candy"], 2: ["onions", "lumber", "foxes"]},
    )
    st = t.state
    assert sorted(st.hands[0]) == sorted(ids(t, "sugar", "onions", "lumber"))
    assert st.hands[1] == ids(t, "candy") and st.hands[2] == ids(t, "foxes")
    assert st.credits[0] == 10 + 6 + 2 * 3
    conserved(t)


def test_massage_tables_draws_until_two_of_a_type_and_takes_the_count_rounded_up(table):
    t = finish(table, "message_tables", [], "foxes", deck_top=["onions", "candy", "sugar", "shoes", "seeds"])
    st = t.state
    assert sorted(st.hands[0]) == sorted(ids(t, "candy", "sugar", "shoes"))
    assert st.deck[-1] == t.id("seeds")  # the fourth card stays on the deck
    assert st.credits[0] == 10 + 2 + 4  # 3 cards, rounded up to 4
    conserved(t)


def test_massage_tables_pays_an_even_count_as_is(table):
    t = finish(table, "message_tables", [], "foxes", deck_top=["onions", "candy", "shoes"])
    assert sorted(t.state.hands[0]) == sorted(ids(t, "candy", "shoes"))
    assert t.state.credits[0] == 10 + 2 + 2
    conserved(t)


@pytest.mark.parametrize("named, credits", [("luxury", 10 + 4 + 8), ("technology", 10 + 4)])
def test_shower_heads_names_a_type_and_takes_8_if_either_drawn_card_matches(table, named, credits):
    t = finish(table, "shower_heads", ["candy"], "mouthwash", deck_top=["onions", "sugar", "foxes"])
    assert t.phase == P_POWER and t.decider == 0
    t.do(("type", named))
    assert t.state.credits[0] == credits
    assert sorted(t.state.hands[0]) == sorted(ids(t, "sugar", "foxes"))
    conserved(t)


@pytest.mark.parametrize("named, credits", [("luxury", 40 + 6 - 30 + 50), ("illegal", 40 + 6 - 30)])
def test_exclusive_cards_stakes_30_and_wins_50_on_the_named_type(table, named, credits):
    t = finish(
        table,
        "exclusive_cards",
        ["foxes", "jets"],
        "sauna",
        credits={0: 40},
        deck_top=["onions", "champagne"],
        modules=("captain",),
    )
    assert t.state.credits[0] == 40 + 6 - 30  # paid before naming
    t.do(("type", named))
    assert t.state.credits[0] == credits and t.id("champagne") in t.state.hands[0]
    conserved(t)


def test_rolls_royce_wins_outright_when_the_named_card_is_drawn(table):
    t = finish(table, "rolls_royce", ["foxes", "jets", "sauna"], "seeds", deck_top=["onions", "candy"])
    assert t.can("laptops") and t.can("rolls_royce")  # any good card may be named
    t.do("candy")
    st = t.state
    assert st.over and st.instant_winner == 0 and "Rolls Royce" in st.end_reason
    conserved(t)


def test_rolls_royce_draws_the_card_and_plays_on_when_it_does_not_match(table):
    t = finish(table, "rolls_royce", ["foxes", "jets", "sauna"], "seeds", deck_top=["onions", "candy"])
    t.do("laptops")
    st = t.state
    assert not st.over and st.instant_winner == -1 and st.hands[0] == ids(t, "candy")
    conserved(t)


# ----- shipments -------------------------------------------------------------------------------
def test_apples_adds_an_agriculture_card_from_hand_and_runs_its_power(table):
    t = finish(
        table, "apples", ["wheat", "sugar"], "onions", hand=["potatoes", "candy"], deck_top=["lumber", "foxes", "seeds"]
    )
    st = t.state
    assert t.phase == P_POWER and sorted(st.legal_actions()) == [4 + t.id("potatoes")]
    t.do("potatoes")
    assert st.shipments[0] == ids(t, "apples", "potatoes")
    assert st.credits[0] == 10 + 6 + 2  # Potatoes: take 2 and draw 2
    assert sorted(st.hands[0]) == sorted(ids(t, "candy", "foxes", "seeds"))
    conserved(t)


def test_apples_asks_even_without_an_agriculture_card(table):
    t = finish(table, "apples", ["wheat", "sugar"], "onions", hand=["candy"])
    assert t.phase == P_POWER and t.decider == 0 and t.legal() == ["done"]
    t.do("done")
    assert t.state.shipments[0] == ids(t, "apples") and t.state.hands[0] == ids(t, "candy")


def test_bamboo_may_be_contracted_again_on_an_available_ship(table):
    t = finish(table, "bamboo", [], "sugar")
    st = t.state
    assert t.legal() == ["done", "ship 1 (P0's)"]  # ship 0 is sailing
    t.do(("ship", 1))
    assert st.contracts[1] == ids(t, "bamboo") and st.shipments[0] == []
    assert st.at_sea[0] and st.credits[0] == 12
    conserved(t)


def test_bamboo_on_a_ship_with_left_containers_completes_again(table):
    t = finish(table, "bamboo", [], "sugar", ships={1: {"cargo": ["onions"]}})
    st = t.state
    t.do(("ship", 1))
    # Ship 1 already holds a yellow container: it completes (2 more credits), no ship is left.
    assert st.shipments[0] == ids(t, "bamboo") and st.at_sea[0] and st.at_sea[1]
    assert st.credits[0] == 10 + 2 + 2 and t.phase == P_LOAD_CARD and t.decider == 1
    conserved(t)


@pytest.mark.parametrize("choice", ["yes", "done"])
def test_beer_may_go_to_the_island_for_6_instead_of_the_shipments(table, choice):
    t = finish(table, "beer", [], "candy")
    assert t.phase == P_POWER and t.decider == 0 and t.legal() == ["done", "yes"]
    t.do(choice)
    st = t.state
    if choice == "yes":
        assert t.id("beer") in st.island and st.shipments[0] == [] and st.credits[0] == 10 + 2 + 6
    else:
        assert st.shipments[0] == ids(t, "beer") and st.credits[0] == 10 + 2
    conserved(t)


def test_chicken_feed_is_offered_clockwise_to_players_who_can_pay_6(table):
    t = finish(table, "chicken_feed", [], "sugar", n=4, credits={1: 4})
    st = t.state
    assert t.phase == P_POWER and t.decider == 2  # seat 1 cannot pay 6
    t.do("done")
    assert t.decider == 3
    t.do("yes")
    assert st.shipments[0] == [] and st.shipments[3] == ids(t, "chicken_feed")
    assert st.owner[t.id("chicken_feed")] == 3
    assert st.credits == [10 + 2 + 6, 4, 10, 4]
    assert t.phase == P_LOAD_CARD  # nobody else is asked
    conserved(t)


def test_chicken_feed_stays_when_nobody_buys(table):
    t = finish(table, "chicken_feed", [], "sugar", n=3)
    assert t.phase == P_POWER and t.decider == 1
    t.do("done")
    assert t.phase == P_POWER and t.decider == 2
    t.do("done")
    assert t.state.shipments[0] == ids(t, "chicken_feed") and t.state.credits == [12, 10, 10]


def test_small_poodles_moves_to_goods(table):
    t = finish(table, "small_poodles", [], "foxes")
    st = t.state
    assert st.goods[0] == ids(t, "small_poodles") and st.shipments[0] == []
    assert st.owner[t.id("small_poodles")] == -1
    conserved(t)


def test_small_poodles_stays_a_shipment_when_goods_are_full(table):
    t = finish(table, "small_poodles", [], "foxes", goods={0: ["sugar", "candy"]})
    st = t.state
    assert st.shipments[0] == ids(t, "small_poodles") and len(st.goods[0]) == 2


def test_stolen_research_swaps_itself_for_another_players_technology_shipment(table):
    t = finish(
        table, "stolen_research", ["pistols", "seeds"], "drugs", n=3, shipments={1: ["laptops", "cups"], 2: ["drones"]}
    )
    st = t.state
    assert sorted(st.legal_actions()) == sorted([4 + t.id("laptops"), 4 + t.id("drones")])
    t.do("drones")
    assert st.shipments[0] == ids(t, "drones") and st.shipments[2] == ids(t, "stolen_research")
    assert st.owner[t.id("drones")] == 0 and st.owner[t.id("stolen_research")] == 2
    conserved(t)


def test_stolen_research_runs_the_stolen_cards_immediate_power(table):
    t = finish(
        table,
        "stolen_research",
        ["pistols", "seeds"],
        "drugs",
        n=2,
        shipments={1: ["dyson_vacuums"]},
        hands={1: ["sugar"]},
        modules=("jutaku",),
    )
    st = t.state  # one technology shipment to steal: chosen automatically
    # Dyson Vacuums, now seat 0's: seat 1 has no luxury good, so gives its hand.
    assert st.hands[0] == ids(t, "sugar") and st.hands[1] == []
    assert st.shipments[1] == ids(t, "stolen_research")
    conserved(t)


def test_wind_turbines_copies_an_immediate_power_and_runs_it(table):
    t = finish(
        table,
        "wind_turbines",
        ["laptops", "drones"],
        "generators",
        shipments={1: ["potatoes", "miri_machines", "apples"]},
        deck_top=["onions", "candy", "foxes"],
    )
    st = t.state
    # Tier 1 or lower only: Potatoes (0) and MIRI Machines (1), not Apples (2).
    assert sorted(st.legal_actions()) == sorted([4 + t.id("potatoes"), 4 + t.id("miri_machines")])
    t.do("potatoes")
    assert st.wind_copy == t.id("potatoes")
    assert st.credits[0] == 10 + 6 + 2 and sorted(st.hands[0]) == sorted(ids(t, "candy", "foxes"))
    conserved(t)


def test_wind_turbines_records_a_passive_copy(table):
    t = finish(table, "wind_turbines", ["laptops", "drones"], "generators", shipments={1: ["miri_machines"]})
    st = t.state
    assert st.wind_copy == t.id("miri_machines") and st.credits[0] == 10 + 6
    assert st.shipments[0] == ids(t, "wind_turbines")


def test_wind_turbines_copying_beer_sends_wind_turbines_to_the_island(table):
    t = finish(table, "wind_turbines", ["laptops", "drones"], "generators", shipments={1: ["beer"]})
    st = t.state
    t.do("yes")
    assert t.id("wind_turbines") in st.island and st.shipments[0] == [] and st.shipments[1] == ids(t, "beer")
    assert st.credits[0] == 10 + 6 + 6
    conserved(t)


def test_wind_turbines_without_a_low_tier_shipment_does_nothing(table):
    t = finish(table, "wind_turbines", ["laptops", "drones"], "generators", shipments={1: ["apples"]})
    assert t.phase == P_LOAD_CARD and t.decider == 1 and getattr(t.state, "wind_copy", -1) == -1


# ----- goods -----------------------------------------------------------------------------------
def test_soy_sauce_moves_every_contract_import_to_goods_for_2_each_discarding_overflow(table):
    t = finish(
        table,
        "soy_sauce",
        ["wheat", "iceland_water", "jasmine_tea"],
        "shoes",
        imports={0: ["candy", "potatoes", "paper"]},
        goods={0: ["foxes", "jets", "sauna"]},
    )
    st = t.state
    t.do("yes")
    # Goods limit 4 after this shipment: Candy fits, Paper is discarded; Potatoes is a Pirate card.
    assert st.imports[0] == ids(t, "potatoes")
    assert st.goods[0] == ids(t, "foxes", "jets", "sauna", "candy") and t.id("paper") in st.discard
    assert st.credits[0] == 10 + 8 + 2 * 2
    conserved(t)


def test_soy_sauce_may_be_declined(table):
    t = finish(table, "soy_sauce", ["wheat", "iceland_water", "jasmine_tea"], "shoes", imports={0: ["candy"]})
    assert t.phase == P_POWER and t.decider == 0 and t.legal() == ["done", "yes"]
    t.do("done")
    assert t.state.imports[0] == ids(t, "candy") and t.state.credits[0] == 18


def test_dino_bones_everyone_gives_a_good_to_the_island_then_take_two(table):
    t = finish(
        table,
        "dino_bones",
        [],
        "seeds",
        n=3,
        island=["pistols"],
        deck_top=["onions"],
        goods={0: ["foxes"], 1: ["sugar", "candy"]},
    )
    st = t.state
    # Seat 0's only good goes automatically; seat 1 chooses; seat 2 has none.
    assert t.decider == 1 and t.id("foxes") in st.island
    t.do("candy")
    assert sorted(st.island) == sorted(ids(t, "pistols", "onions", "foxes", "candy"))
    assert t.decider == 0
    t.do("foxes", "candy")
    assert st.goods[0] == ids(t, "foxes", "candy") and st.goods[1] == ids(t, "sugar")
    assert sorted(st.island) == sorted(ids(t, "pistols", "onions"))
    conserved(t)


# ----- other players give --------------------------------------------------------------------
def test_railguns_every_other_player_gives_credits_a_shipment_or_two_goods(table):
    t = finish(
        table,
        "railguns",
        ["pistols", "seeds", "laptops"],
        "drugs",
        n=4,
        credits={3: 0},
        shipments={2: ["cups", "beer"]},
        goods={3: ["sugar", "candy", "foxes"]},
    )
    st = t.state
    # Seat 1 can only pay: done automatically. Seat 2 chooses.
    assert st.credits[1] == 6 and t.decider == 2
    assert sorted(t.legal()) == ["option 0", "option 1"]
    t.do(("option", 1), "beer")
    assert st.shipments[2] == ids(t, "cups") and st.shipments[0] == ids(t, "railguns", "beer")
    assert st.owner[t.id("beer")] == 0
    # Seat 3 has no credits and no shipment: two goods, its choice.
    assert t.decider == 3
    t.do("sugar", "foxes")
    assert st.goods[0] == ids(t, "sugar", "foxes") and st.goods[3] == ids(t, "candy")
    assert st.credits[0] == 10 + 8 + 4
    conserved(t)


def test_railguns_a_player_who_can_give_none_of_the_three_pays_what_it_has(table):
    t = finish(table, "railguns", ["pistols", "seeds", "laptops"], "drugs", credits={1: 2}, goods={1: ["sugar"]})
    st = t.state
    assert st.credits == [10 + 8 + 2, 0] and st.goods[1] == ids(t, "sugar")
    conserved(t)


def test_dyson_vacuums_every_other_player_gives_its_hand_or_a_luxury_good(table):
    t = finish(
        table,
        "dyson_vacuums",
        ["laptops", "drones"],
        "generators",
        n=3,
        hands={1: ["sugar", "candy"], 2: ["seeds"]},
        goods={1: ["foxes"], 2: ["jets", "onions"]},
        modules=("jutaku",),
    )
    st = t.state
    assert t.decider == 1 and sorted(t.legal()) == ["card FOXES", "option 0"]
    t.do(("option", 0))
    assert sorted(st.hands[0]) == sorted(ids(t, "sugar", "candy")) and st.hands[1] == []
    assert t.decider == 2
    t.do("jets")
    assert st.goods[0] == ids(t, "jets") and st.goods[2] == ids(t, "onions") and st.hands[2] == ids(t, "seeds")
    conserved(t)


# ----- containers from other ships -----------------------------------------------------------
def test_printed_money_takes_a_container_from_each_opponent_to_load_or_keep(table):
    t = finish(
        table,
        "printed_money",
        ["pistols", "seeds", "satellite"],
        "drugs",
        n=3,
        ships={
            1: {"contracts": ["generators"]},
            2: {"contracts": ["mouthwash"], "cargo": ["soap"]},
            3: {"at_sea": True, "cargo": ["candy"]},
            4: {"contracts": ["drones"], "cargo": ["laptops"]},
        },
    )
    st = t.state
    assert t.decider == 0 and sorted(st.legal_actions()) == sorted([4 + t.id("soap"), 4 + t.id("candy")])
    t.do("candy")
    # Ship 3 is emptied and comes home; Candy fits no ship of seat 0, so it is kept in hand.
    assert not st.at_sea[3] and t.id("candy") in st.hands[0]
    # Seat 2's only container is taken; it fits ship 1's Generators: load it or keep it.
    assert sorted(t.legal()) == ["ship 1 (P0's)", "to hand"]
    t.do(("ship", 1))
    assert st.cargo[1] == ids(t, "laptops") and st.cargo[4] == [] and st.cargo[2] == ids(t, "soap")
    conserved(t)


def test_pocky_takes_2_draws_2_and_imports_1_container_paying_the_owner(table):
    t = finish(
        table,
        "pocky",
        ["candy"],
        "mouthwash",
        ships={3: {"at_sea": True, "cargo": ["sugar", "foxes"]}},
        deck_top=["onions", "seeds", "shoes"],
        modules=("jutaku",),
    )
    st = t.state
    t.do("foxes", ("zone", "goods"))
    assert st.goods[0] == ids(t, "foxes") and st.cargo[3] == ids(t, "sugar")
    assert sorted(st.hands[0]) == sorted(ids(t, "seeds", "shoes"))
    assert st.credits == [10 + 4 + 2, 10 + 2]
    conserved(t)


# ----- actions by yourself -------------------------------------------------------------------
def test_glasses_is_a_free_import_action_alone_the_owner_still_paid(table):
    t = finish(table, "glasses", [], "candy", ships={3: {"at_sea": True, "cargo": ["sugar", "foxes", "seeds"]}})
    st = t.state
    t.do("sugar", ("zone", "imports"), "foxes")  # one import taken: Foxes can only go to goods
    assert st.imports[0] == ids(t, "sugar") and st.goods[0] == ids(t, "foxes") and st.cargo[3] == ids(t, "seeds")
    assert st.credits == [10 + 2, 10 + 2]
    assert t.phase == P_LOAD_CARD and t.decider == 1
    conserved(t)


def test_platinum_rings_runs_the_action_of_every_card_in_hand_alone(table):
    t = finish(
        table,
        "platinum_rings",
        ["foxes", "jets"],
        "sauna",
        island=["wheat"],
        hand=["bamboo", "paper", "jasmine_tea", "shoes", "rope", "glasses"],
        deck_top=["onions", "sugar", "candy", "lumber"],
    )
    st = t.state
    # The ship has sailed before the power's actions; the hand was drawn up to 8.
    assert st.at_sea[0] and len(st.hands[0]) == 8 and t.phase == P_POWER
    t.do("paper")  # Contract: tier 0 only (no tier skipping)
    assert not t.can("sugar") and t.can("bamboo")
    t.do("bamboo")  # onto ship 1, the only ship in harbor
    assert st.contracts[1] == ids(t, "bamboo")
    t.do("rope", "wheat")  # Pirate: Wheat loads onto Bamboo and completes it
    assert st.shipments[0] == ids(t, "platinum_rings", "bamboo") and st.at_sea[1]
    t.do("shoes", "sugar")  # Supply: sell Sugar
    t.do("jasmine_tea")  # Supply again: no second sale
    assert t.phase == P_SUPPLY and not t.can("candy")
    t.do("sugar")  # take it back from the island to imports
    t.do("glasses", ("ship", 0), "foxes", ("zone", "goods"), "jets", ("zone", "goods"))
    assert st.goods[0] == ids(t, "foxes", "jets")
    t.do("done")
    assert st.imports[0] == ids(t, "sugar")
    assert st.credits[0] == 10 + 6 + 2 + 4  # payout, Bamboo's payout, the sale
    assert set(ids(t, "paper", "rope", "shoes", "jasmine_tea", "glasses")) <= set(st.played[0])
    # The turn goes on as it was: Load, seat 0 has no action left, seat 1 loads.
    assert st.declared == 1 and st.actions_left[0] == 0 and not st.sold[0]
    assert t.phase == P_LOAD_CARD and t.decider == 1
    conserved(t)


def test_platinum_rings_asks_its_cards_privately(table):
    t = finish(table, "platinum_rings", ["foxes", "jets"], "sauna", hand=["candy"])
    st = t.state
    assert t.phase == P_POWER and not st.ask.public and len(st.hands[0]) == 8
    assert sorted(st.legal_actions()) == sorted([0] + [4 + c for c in st.hands[0]])


def test_stretch_goals_everyone_draws_takes_2_imports_1_then_two_free_actions(table):
    t = finish(
        table,
        "stretch_goals",
        ["paper", "shoes", "rope"],
        "sauna",
        ships={3: {"at_sea": True, "cargo": ["sugar", "candy", "foxes", "jets"]}},
        deck_top=["onions", "seeds", "lumber"],
        modules=("kickstarter",),
    )
    st = t.state
    assert st.hands == [ids(t, "seeds"), ids(t, "lumber")]
    assert st.credits == [10 + 8 + 2, 10 + 2]
    t.do(("ship", 3), "foxes", ("zone", "goods"))  # seat 0 imports one card
    t.do(("ship", 3), "sugar", ("zone", "imports"))  # seat 1 (the sailed ship 0 is at sea too)
    assert st.goods[0] == ids(t, "foxes") and st.imports[1] == ids(t, "sugar")
    t.do(("action", "import"), ("ship", 3), "candy", ("zone", "imports"))  # Jets, the last, follows
    t.do(("action", "supply"), "seeds")  # sell
    assert st.imports[0] == ids(t, "candy") and st.goods[0] == ids(t, "foxes", "jets")
    assert st.credits == [10 + 8 + 2 + 4, 10 + 2]  # the ship's owner takes nothing
    assert st.declared == 1 and t.phase == P_LOAD_CARD and t.decider == 1
    conserved(t)


@pytest.mark.parametrize(
    "key, cargo, last, hand",
    [
        ("apples", ["wheat", "sugar"], "onions", ["potatoes", "candy"]),
        ("platinum_rings", ["foxes", "jets"], "sauna", ["candy"]),
    ],
)
def test_hand_asks_can_be_asked_again_from_a_redrawn_hand(table, key, cargo, last, hand):
    from smuggle_envs.games.import_export.powers import HAND_REASKS

    t = finish(table, key, cargo, last, hand=hand)
    st = t.state
    phase, _player, _options, ctx, public = st.ask
    assert phase == P_POWER and ctx[0] in HAND_REASKS and not public
    redrawn = ids(t, "lumber", "laptops")  # as if resampled for seat 1
    for c in redrawn:
        st.deck.remove(c)
    st.deck += st.hands[0]
    st.hands[0] = redrawn
    conserved(t)
    HAND_REASKS[ctx[0]](st, ctx[1:])
    expected = {"apples": [4 + t.id("lumber")], "platinum_rings": [0] + sorted(4 + c for c in st.hands[0])}
    assert list(st.legal_actions()) == expected[key]
