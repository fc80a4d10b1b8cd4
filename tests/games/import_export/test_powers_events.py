"""The passive powers that react to events (``powers/events.py``), one scripted position each.

Seats 0, 1, 2 are green (technology), yellow (agriculture) and black (consumer); ships 2p and
2p+1 belong to seat p. Every player starts with 10 credits. Cards used only as containers or to
declare are chosen for their colour and action; their own powers never act here.
"""

from smuggle_envs.games.import_export.vocab import (
    P_CONTRACT_CARD,
    P_IMPORT_PICK,
    P_IMPORT_ZONE,
    P_LEAD,
    P_LOAD_CARD,
    P_PIRATE_TAKE,
    P_POWER,
)

BANK_TOTAL = 520  # 42 red x 10 + 50 white x 2


def power(t) -> str:
    """The card whose power asks the decision in progress."""
    assert t.phase == P_POWER, t.legal()
    return t.state.ask.context[0]


def conserved(t) -> None:
    """Every card is in exactly one zone and no credit was made or lost."""
    st = t.state
    zones = st.deck + st.discard + st.island + [st.pending] * (st.pending >= 0)
    for per in (st.hands, st.imports, st.goods, st.shipments, st.contracts, st.cargo, st.played):
        for cards in per:
            zones += cards
    assert sorted(zones) == sorted(t.game.deck_cards)
    assert sum(st.credits) + st.bank + sum(st.passive) == BANK_TOTAL


def load_turn(t, declare, container, *, followers=("draw", "draw")):
    """Seat 0 leads Load with ``declare``; the others draw (or follow); seat 0 loads ``container``."""
    t.do(declare, *followers)
    assert t.decider == 0 and t.phase == P_LOAD_CARD
    t.do(container)


def ids(t, *keys):
    return [t.id(k) for k in keys]


# ----- completed ------------------------------------------------------------------------------------
def test_laptops_draws_two_when_a_technology_container_completes_your_shipment(table):
    t = table(
        3,
        hands={0: ["batteries", "playstations"]},
        shipments={0: ["laptops"]},
        ships={0: {"contracts": ["miri_machines"], "cargo": ["telescopes"]}},
    )
    load_turn(t, "batteries", "playstations")
    st = t.state
    assert st.at_sea[0] and sorted(st.cargo[0]) == sorted(ids(t, "telescopes", "playstations"))
    assert len(st.hands[0]) == 2 and st.credits[0] == 10 + 4
    conserved(t)


def test_laptops_does_not_draw_without_a_technology_container(table):
    t = table(
        3, hands={0: ["batteries", "cologne"]}, shipments={0: ["laptops"]}, ships={0: {"contracts": ["velvet_robes"]}}
    )
    load_turn(t, "batteries", "cologne")
    assert t.state.at_sea[0] and t.state.hands[0] == []


def test_bok_choy_pays_2_for_an_agriculture_container_on_a_non_agriculture_shipment(table):
    # Almonds was left on the ship by a discarded contract (R5.8); it sails with the shipment.
    t = table(
        3,
        hands={0: ["batteries", "cologne"]},
        shipments={0: ["bok_choy"]},
        ships={0: {"contracts": ["velvet_robes"], "cargo": ["almonds"]}},
    )
    load_turn(t, "batteries", "cologne")
    assert t.state.at_sea[0]
    assert t.state.credits[0] == 10 + 4 + 2
    conserved(t)


def test_bok_choy_pays_nothing_on_an_agriculture_shipment(table):
    t = table(
        3,
        hands={0: ["batteries", "apples"]},
        shipments={0: ["bok_choy"]},
        ships={0: {"contracts": ["sugar"], "cargo": ["almonds"]}},
    )
    load_turn(t, "batteries", "apples")
    assert t.state.at_sea[0] and t.state.credits[0] == 10 + 4


def test_mouthwash_pays_its_holder_when_anyone_completes_a_consumer_shipment(table):
    t = table(
        3,
        hands={0: ["batteries", "cups"]},
        shipments={1: ["mouthwash"]},
        ships={0: {"contracts": ["cheap_shirts"]}},
        modules=("jutaku",),
    )
    load_turn(t, "batteries", "cups")
    assert t.state.credits[:2] == [10 + 2, 10 + 2]


def test_mouthwash_does_not_pay_for_its_own_shipment(table):
    # "after this one": completing Mouthwash itself (a consumer shipment) pays nothing extra.
    t = table(3, hands={1: ["batteries", "cups"]}, ships={2: {"contracts": ["mouthwash"], "cargo": ["beer"]}}, leader=1)
    t.do("batteries", "draw", "draw", "cups")
    st = t.state
    assert st.has(1, "mouthwash") and st.credits[1] == 10 + 4


def test_onions_pays_for_your_agriculture_shipments_including_its_own(table):
    t = table(3, hands={0: ["batteries", "apples"]}, ships={0: {"contracts": ["onions"], "cargo": ["almonds"]}})
    load_turn(t, "batteries", "apples")
    assert t.state.has(0, "onions") and t.state.credits[0] == 10 + 4 + 2


def test_pistols_makes_another_player_pay_for_an_illegal_shipment(table):
    t = table(
        3,
        hands={0: ["batteries", "ammunition"]},
        shipments={1: ["pistols"]},
        ships={0: {"contracts": ["big_ammunition"]}},
    )
    load_turn(t, "batteries", "ammunition")
    assert t.state.credits[:2] == [10 + 2 - 2, 10 + 2]
    conserved(t)


def test_rare_metals_pays_4_for_a_technology_and_a_consumer_contract_on_one_ship(table):
    t = table(
        3,
        hands={0: ["batteries", "cups"]},
        shipments={0: ["rare_metals"]},
        modules=("jutaku", "kickstarter"),
        ships={0: {"contracts": ["miri_machines", "cheap_shirts"], "cargo": ["telescopes", "segways"]}},
    )
    load_turn(t, "batteries", "cups")
    assert t.state.at_sea[0] and t.state.credits[0] == 10 + 6 + 4


def test_a_small_tank_takes_a_card_of_the_completers_choice(table):
    t = table(
        3,
        hands={0: ["batteries", "cologne", "beer", "cups"]},
        shipments={1: ["a_small_tank"]},
        ships={0: {"contracts": ["velvet_robes"]}},
    )
    load_turn(t, "batteries", "cologne")
    assert power(t) == "a_small_tank" and t.decider == 0
    assert set(t.legal()) == {"card BEER", "card CUPS"}  # a hidden hand: no pass
    t.do("beer")
    st = t.state
    assert st.hands[0] == ids(t, "cups") and t.id("beer") in st.hands[1] and len(st.hands[1]) == 6
    conserved(t)


def test_flash_drives_takes_a_container_into_the_hand_after_the_payout(table):
    t = table(
        3,
        hands={0: ["batteries", "cologne"]},
        shipments={0: ["flash_drives"]},
        ships={0: {"contracts": ["champagne"], "cargo": ["velvet_robes"]}},
    )
    load_turn(t, "batteries", "cologne")
    assert power(t) == "flash_drives" and not t.state.at_sea[0]  # before it sails
    assert t.state.credits[0] == 10 + 4
    t.do("velvet_robes")
    st = t.state
    assert st.hands[0] == ids(t, "velvet_robes")
    assert st.at_sea[0] and st.cargo[0] == ids(t, "cologne")
    conserved(t)


def test_flash_drives_taking_the_only_container_keeps_the_ship_home(table):
    t = table(
        3,
        hands={0: ["batteries", "cologne"]},
        shipments={0: ["flash_drives"]},
        ships={0: {"contracts": ["velvet_robes"]}},
    )
    load_turn(t, "batteries", "cologne")
    t.do("cologne")
    st = t.state
    assert st.hands[0] == ids(t, "cologne") and not st.at_sea[0] and st.cargo[0] == []


def test_jets_takes_a_container_into_the_goods_before_sailing(table):
    t = table(
        3,
        hands={0: ["batteries", "cologne"]},
        shipments={0: ["jets"]},
        ships={0: {"contracts": ["champagne"], "cargo": ["velvet_robes"]}},
    )
    load_turn(t, "batteries", "cologne")
    assert power(t) == "jets"
    t.do("velvet_robes")
    st = t.state
    assert st.goods[0] == ids(t, "velvet_robes") and st.cargo[0] == ids(t, "cologne") and st.at_sea[0]
    conserved(t)


def test_jets_may_decline(table):
    t = table(
        3, hands={0: ["batteries", "cologne"]}, shipments={0: ["jets"]}, ships={0: {"contracts": ["velvet_robes"]}}
    )
    load_turn(t, "batteries", "cologne")
    t.do("done")
    assert t.state.goods[0] == [] and t.state.at_sea[0]


def test_paper_imports_a_container_from_sea_without_an_owner_fee_including_its_own_completion(table):
    t = table(
        3,
        hands={0: ["batteries", "cups"]},
        ships={0: {"contracts": ["paper"]}, 3: {"at_sea": True, "cargo": ["velvet_robes", "almonds"]}},
    )
    load_turn(t, "batteries", "cups")
    assert power(t) == "paper" and t.decider == 0
    assert set(t.legal()) == {"done", "ship 3 (P1's)"}
    t.do(("ship", 3), "velvet_robes")
    assert set(t.legal()) == {"to imports", "to goods"}
    t.do(("zone", "goods"))
    st = t.state
    assert st.goods[0] == ids(t, "velvet_robes") and st.cargo[3] == ids(t, "almonds") and st.at_sea[3]
    assert st.credits[:2] == [10 + 2, 10]  # seat 1 owns ship 3: no fee
    conserved(t)


def test_shoes_draws_for_a_shipment_including_its_own(table):
    t = table(3, hands={0: ["batteries", "glasses"]}, ships={0: {"contracts": ["shoes"], "cargo": ["beer", "cups"]}})
    load_turn(t, "batteries", "glasses")
    assert power(t) == "shoes" and t.decider == 0
    t.do("yes")
    assert len(t.state.hands[0]) == 1


def test_satellite_draws_and_loads_when_anyone_completes_a_shipment(table):
    t = table(
        3,
        hands={0: ["batteries", "cologne"], 1: ["cell_phones"], 2: ["playstations"]},
        shipments={2: ["satellite"]},
        deck_top=["sauna", "gold_toilets"],  # sauna seeds the island
        ships={0: {"contracts": ["velvet_robes"]}, 4: {"contracts": ["champagne"]}},
    )
    load_turn(t, "batteries", "cologne", followers=("cell_phones", "playstations"))
    assert power(t) == "satellite" and t.decider == 2
    t.do("yes")
    assert t.state.hands[2] == ids(t, "gold_toilets")
    assert set(t.legal()) == {"done", "card GOLD TOILETS"}  # the only ship is chosen for it
    t.do("gold_toilets")
    st = t.state
    assert st.cargo[4] == ids(t, "gold_toilets") and st.hands[2] == [] and st.credits[2] == 10
    conserved(t)


def test_satellite_load_that_completes_a_ship_triggers_it_once_for_that_ship(table):
    t = table(
        3,
        hands={0: ["batteries", "cologne"], 1: ["cell_phones"], 2: ["playstations"]},
        shipments={2: ["satellite"]},
        deck_top=["sauna", "gold_toilets"],  # sauna seeds the island
        ships={0: {"contracts": ["velvet_robes"]}, 4: {"contracts": ["champagne"], "cargo": ["nice_suits"]}},
    )
    load_turn(t, "batteries", "cologne", followers=("cell_phones", "playstations"))
    t.do("yes", "gold_toilets")  # completes ship 4 (champagne)
    st = t.state
    assert st.has(2, "champagne") and st.credits[2] == 10 + 4
    assert power(t) == "satellite" and t.decider == 2  # once more, for ship 4
    t.do("done")
    assert t.phase == P_LOAD_CARD and t.decider == 1  # back to the followers' load actions
    assert st.at_sea[0] and st.at_sea[4]


def test_several_powers_on_one_completion_are_each_asked_before_the_ship_sails(table):
    t = table(
        3,
        hands={0: ["batteries", "cologne", "beer"]},
        shipments={0: ["flash_drives", "jets"], 1: ["shoes"], 2: ["a_small_tank"]},
        ships={0: {"contracts": ["champagne"], "cargo": ["velvet_robes"]}},
    )
    load_turn(t, "batteries", "cologne")
    asked = []
    while t.phase == P_POWER:
        asked.append((power(t), t.decider))
        assert not t.state.at_sea[0]
        t.do(t.state.legal_actions()[-1])
    assert sorted(asked) == [("a_small_tank", 0), ("flash_drives", 0), ("jets", 0), ("shoes", 1)]
    st = t.state
    # Flash Drives and Jets each took one of the two containers, so the ship stays home.
    assert not st.at_sea[0] and st.cargo[0] == []
    taken = st.goods[0] + st.hands[0] + st.hands[2]
    assert len(st.goods[0]) == 1 and set(ids(t, "cologne", "velvet_robes")) <= set(taken)
    assert len(st.hands[1]) == 6  # drew 5, then 1 with Shoes
    conserved(t)


# ----- contracted -----------------------------------------------------------------------------------
def contract_turn(t, card):
    t.do("bamboo", "draw", "draw")  # Bamboo is a Contract card
    assert t.phase == P_CONTRACT_CARD
    t.do(card, ("ship", 0))


def test_drones_may_draw_on_contracting(table):
    t = table(3, hands={0: ["bamboo", "velvet_robes"]}, shipments={0: ["drones"]})
    contract_turn(t, "velvet_robes")
    assert power(t) == "drones"
    t.do("yes")
    st = t.state
    assert st.contracts[0] == ids(t, "velvet_robes") and len(st.hands[0]) == 1
    conserved(t)


def test_sugar_pays_2_for_contracting_agriculture(table):
    t = table(3, hands={0: ["bamboo", "bok_choy"]}, shipments={0: ["sugar"]})
    contract_turn(t, "bok_choy")
    assert t.state.credits[0] == 12


def test_helicopter_puts_4_passive_credits_from_the_bank_on_any_luxury_contract(table):
    t = table(3, hands={0: ["bamboo", "velvet_robes"]}, shipments={1: ["helicopter"]})
    bank = t.state.bank
    contract_turn(t, "velvet_robes")
    st = t.state
    assert st.passive == [0, 4, 0] and st.bank == bank - 4 and st.credits == [10, 10, 10]
    conserved(t)


# ----- loaded ---------------------------------------------------------------------------------------
def test_fixie_bikes_pays_for_any_container_loaded_by_a_load_action(table):
    t = table(
        3,
        hands={0: ["batteries", "velvet_robes"]},
        shipments={2: ["fixie_bikes"]},
        ships={0: {"contracts": ["champagne"]}},
    )
    load_turn(t, "batteries", "velvet_robes")
    assert t.state.cargo[0] == ids(t, "velvet_robes") and t.state.credits == [10, 10, 12]


def test_fixie_bikes_ignores_a_pirated_container(table):
    t = table(
        3,
        hands={0: ["rope"]},
        shipments={2: ["fixie_bikes"]},
        island=["velvet_robes"],
        ships={0: {"contracts": ["champagne"]}},
    )
    t.do("rope", "draw", "draw", "velvet_robes")
    assert t.state.cargo[0] == ids(t, "velvet_robes") and t.state.credits == [10, 10, 10]


def test_whole_wheat_takes_2_credits_or_2_cards_when_an_agriculture_container_is_loaded(table):
    t = table(
        3,
        hands={0: ["batteries", "almonds", "apples"]},
        shipments={1: ["whole_wheat"]},
        imports={0: ["cell_phones"]},
        ships={0: {"contracts": ["hawaiian_salt"]}},
        modules=("jutaku",),
    )
    load_turn(t, "batteries", "almonds")
    assert power(t) == "whole_wheat" and t.decider == 1
    t.do(("option", 0))
    assert t.state.credits[1] == 12
    t.do("apples")  # the Load import's second action
    hand = len(t.state.hands[1])
    t.do(("option", 1))
    st = t.state
    assert len(st.hands[1]) == hand + 2 and st.credits[1] == 12
    conserved(t)


# ----- goods, credits -------------------------------------------------------------------------------
def import_alone(t, declare, *picks):
    """Seat 0 leads Import with ``declare``; the others draw, so it takes the containers free."""
    t.do(declare, "draw", "draw", *picks)


def test_bubblegum_and_chaptick_pay_when_a_consumer_good_is_added(table):
    t = table(
        3,
        hands={0: ["books"]},
        shipments={1: ["bubblegum"], 2: ["chaptick"]},
        ships={3: {"at_sea": True, "cargo": ["cups", "almonds"]}},
    )
    import_alone(t, "books", "cups", ("zone", "goods"))
    st = t.state
    assert st.credits == [10, 10 + 2 + 4, 10 + 2]  # seat 1 also owns the ship
    t.do(("zone", "goods"))  # almonds: not a consumer good
    assert st.credits == [10, 16, 12]
    conserved(t)


def test_fake_dvds_pays_when_another_player_spends_4_or_more(table):
    t = table(
        3,
        hands={0: ["books"], 1: ["glasses"]},
        shipments={1: ["fake_dvds"]},
        ships={5: {"at_sea": True, "cargo": ["cups", "almonds"]}},
    )
    t.do("books", "glasses", "draw", ("bid", 4), ("bid", 2))
    st = t.state
    assert st.credits == [10 - 4, 10 + 2, 10 + 2]  # seat 2 owns the ship
    conserved(t)


def test_fake_dvds_ignores_smaller_payments(table):
    t = table(
        3,
        hands={0: ["books"], 1: ["glasses"]},
        shipments={1: ["fake_dvds"]},
        ships={5: {"at_sea": True, "cargo": ["cups", "almonds"]}},
    )
    t.do("books", "glasses", "draw", ("bid", 2), ("bid", 0))
    assert t.state.credits == [8, 10, 12]


# ----- the turn's action ----------------------------------------------------------------------------
def test_books_pays_2_when_you_lead_import_and_someone_follows(table):
    t = table(
        3,
        hands={0: ["glasses"], 1: ["pants"]},
        shipments={0: ["books"]},
        ships={5: {"at_sea": True, "cargo": ["cups"]}},
    )
    t.do("glasses", "pants", "draw")
    assert t.state.credits[0] == 12  # before the bidding
    t.do(("bid", 0), ("bid", 0))
    assert t.state.credits == [12, 10, 12]


def test_books_pays_nothing_when_nobody_follows(table):
    t = table(3, hands={0: ["glasses"]}, shipments={0: ["books"]}, ships={5: {"at_sea": True, "cargo": ["cups"]}})
    import_alone(t, "glasses")
    assert t.state.credits == [10, 10, 12]


def test_dragon_fruit_draws_2_or_takes_2_when_leading_pirate(table):
    t = table(3, hands={0: ["rope"]}, shipments={0: ["dragon_fruit"]}, modules=("kickstarter",), island=["beer"])
    t.do("rope", "draw", "draw")
    assert power(t) == "dragon_fruit" and set(t.legal()) == {"option 0", "option 1"}
    t.do(("option", 1))
    assert t.state.credits[0] == 12 and t.phase == P_PIRATE_TAKE


def test_dragon_fruit_draw_option(table):
    t = table(3, hands={0: ["rope"]}, shipments={0: ["dragon_fruit"]}, modules=("kickstarter",))
    t.do("rope", "draw", "draw", ("option", 0))
    assert len(t.state.hands[0]) == 2 and t.state.credits[0] == 10


# ----- imports --------------------------------------------------------------------------------------
def test_cannabis_charges_an_importer_of_red_containers_once_per_import(table):
    t = table(
        3,
        hands={0: ["books"]},
        shipments={1: ["cannabis"]},
        ships={5: {"at_sea": True, "cargo": ["ammunition", "danger_pets"]}},
    )
    import_alone(t, "books", "ammunition", ("zone", "goods"), ("zone", "goods"))
    st = t.state
    assert sorted(st.goods[0]) == sorted(ids(t, "ammunition", "danger_pets"))
    assert st.credits == [10 - 2, 10 + 2, 10 + 2]
    conserved(t)


def test_cannabis_charges_again_for_a_second_import_round(table):
    # Seat 0 has two Import actions (Glasses in its imports): two rounds, two ships won alone.
    t = table(
        3,
        hands={0: ["books"]},
        imports={0: ["glasses"]},
        shipments={1: ["cannabis"]},
        ships={3: {"at_sea": True, "cargo": ["ammunition"]}, 5: {"at_sea": True, "cargo": ["danger_pets"]}},
    )
    import_alone(t, "books", ("ship", 3))  # the rest is forced: one ship left, imports full
    st = t.state
    assert sorted(st.goods[0]) == sorted(ids(t, "ammunition", "danger_pets"))
    assert st.credits == [10 - 4, 10 + 2 + 4, 10 + 2]
    conserved(t)


def test_protractors_imports_a_container_left_on_the_ship_for_free(table):
    t = table(
        3,
        hands={0: ["books"]},
        shipments={2: ["protractors"]},
        ships={3: {"at_sea": True, "cargo": ["velvet_robes", "almonds", "cologne"]}},
    )
    import_alone(t, "books", "velvet_robes", ("zone", "goods"), "almonds", ("zone", "goods"))
    assert power(t) == "protractors" and t.decider == 2
    t.do("yes")  # Cologne, the only container, is taken
    assert t.phase == P_IMPORT_ZONE and t.decider == 2
    t.do(("zone", "goods"))
    st = t.state
    assert st.goods[2] == ids(t, "cologne") and not st.at_sea[3] and st.cargo[3] == []
    assert st.credits == [10, 12, 10]  # one owner fee: seat 0's import only
    conserved(t)


def test_protractors_answers_an_import_made_by_paper(table):
    t = table(
        3,
        hands={0: ["batteries", "cups"]},
        shipments={2: ["protractors"]},
        ships={0: {"contracts": ["paper"]}, 3: {"at_sea": True, "cargo": ["velvet_robes", "almonds"]}},
    )
    load_turn(t, "batteries", "cups")
    t.do(("ship", 3), "velvet_robes", ("zone", "imports"))
    assert power(t) == "protractors" and t.decider == 2
    t.do("yes", ("zone", "imports"))
    st = t.state
    assert st.imports[0] == ids(t, "velvet_robes") and st.imports[2] == ids(t, "almonds")
    assert not st.at_sea[3] and st.credits == [12, 10, 10]
    conserved(t)


def test_aeroponics_brings_a_pirated_ship_home_with_its_last_container(table):
    t = table(
        3,
        hands={0: ["rope"]},
        shipments={1: ["aeroponics"]},
        modules=("kickstarter",),
        ships={3: {"at_sea": True, "cargo": ["velvet_robes", "cologne"]}},
    )
    t.do("rope", "draw", "draw", "velvet_robes")
    st = t.state
    assert not st.at_sea[3] and st.cargo[3] == ids(t, "cologne")
    assert t.id("velvet_robes") in st.discard  # seat 0 had no ship to load it on
    conserved(t)


def test_aeroponics_waits_until_the_importer_is_done(table):
    t = table(
        3,
        hands={0: ["books"]},
        shipments={1: ["aeroponics"]},
        modules=("kickstarter",),
        ships={3: {"at_sea": True, "cargo": ["velvet_robes", "almonds", "cologne"]}},
    )
    import_alone(t, "books", "velvet_robes", ("zone", "goods"))
    assert t.state.at_sea[3] and t.phase == P_IMPORT_PICK  # the second pick is still from sea
    t.do("almonds", ("zone", "goods"))
    st = t.state
    assert sorted(st.goods[0]) == sorted(ids(t, "velvet_robes", "almonds"))
    assert not st.at_sea[3] and st.cargo[3] == ids(t, "cologne")


def test_aeroponics_ship_home_counts_toward_a_later_contract(table):
    # Its last container fits a later contract at once (R5.8), so the contract completes.
    t = table(
        3,
        hands={0: ["rope"], 1: ["bamboo", "velvet_robes"]},
        shipments={1: ["aeroponics"]},
        modules=("kickstarter",),
        ships={3: {"at_sea": True, "cargo": ["champagne", "cologne"]}},
    )
    t.do("rope", "draw", "draw", "champagne")
    assert t.state.leader == 1 and t.phase == P_LEAD
    t.do("bamboo", "draw", "draw", "velvet_robes", ("ship", 3))
    st = t.state
    assert st.has(1, "velvet_robes") and st.credits[1] == 10 + 2
    assert st.at_sea[3] and st.cargo[3] == ids(t, "cologne")
    conserved(t)


# ----- pirate ---------------------------------------------------------------------------------------
def test_big_ammunition_takes_a_random_card_from_the_pirated_ships_owner(table):
    t = table(
        3,
        hands={0: ["rope"], 1: ["potatoes", "beer"]},
        shipments={0: ["big_ammunition"]},
        ships={3: {"at_sea": True, "cargo": ["velvet_robes", "cologne"]}},
    )
    t.do("rope", "potatoes", "draw", "velvet_robes")
    st = t.state
    assert st.hands[0] == ids(t, "beer") and st.hands[1] == []
    conserved(t)


def test_big_ammunition_ignores_the_supply_island(table):
    t = table(
        3, hands={0: ["rope"], 1: ["potatoes", "beer"]}, shipments={0: ["big_ammunition"]}, island=["velvet_robes"]
    )
    t.do("rope", "potatoes", "draw", "velvet_robes")
    assert t.state.hands[1] == ids(t, "beer")


def test_poison_bottles_charges_a_pirate_once_a_turn(table):
    t = table(
        3, hands={0: ["potatoes"]}, imports={0: ["rope"]}, shipments={2: ["poison_bottles"]}, island=["beer", "cups"]
    )
    t.do("potatoes", "draw", "draw", "beer", "cups")
    st = t.state
    assert set(ids(t, "beer", "cups")) <= set(st.discard)
    assert st.credits == [8, 10, 12]
    conserved(t)


def test_stolen_rice_pays_for_pirating_agriculture(table):
    t = table(
        3,
        hands={0: ["potatoes"]},
        imports={0: ["rope"]},
        shipments={0: ["stolen_rice"]},
        island=["almonds", "beer"],
        modules=("kickstarter",),
    )
    t.do("potatoes", "draw", "draw", "almonds", "beer")
    assert t.state.credits[0] == 12


def test_stolen_tires_draws_and_seeds_the_island_on_each_pirate(table):
    t = table(
        3, hands={0: ["rope"]}, shipments={0: ["stolen_tires"]}, island=["beer", "cups"], modules=("kickstarter",)
    )
    t.do("rope", "draw", "draw")
    deck = len(t.state.deck)
    t.do("beer")
    st = t.state
    assert len(st.hands[0]) == 1 and len(st.island) == 2 and t.id("beer") not in st.island
    assert len(st.deck) == deck - 2
    conserved(t)


def test_shotguns_players_who_pirate_before_you_give_2_credits_or_2_cards(table):
    t = table(
        3,
        hands={0: ["potatoes", "beer"], 1: ["rope", "cups", "cologne", "almonds"], 2: ["chicken_feed"]},
        shipments={2: ["shotguns"]},
        island=["velvet_robes", "apples", "glasses"],
    )
    t.do("potatoes", "rope", "chicken_feed")
    t.do("velvet_robes")  # seat 0 pirates first
    assert power(t) == "shotguns" and t.decider == 0
    assert set(t.legal()) == {"option 0", "option 1"}
    t.do(("option", 0))
    assert t.state.credits == [8, 10, 12]
    assert t.phase == P_PIRATE_TAKE and t.decider == 1
    t.do("apples", ("option", 1))
    assert set(t.legal()) == {"card CUPS", "card COLOGNE", "card ALMONDS"}
    t.do("cups", "cologne")
    st = t.state
    assert st.hands[1] == ids(t, "almonds") and sorted(st.hands[2]) == sorted(ids(t, "cups", "cologne"))
    assert t.phase == P_PIRATE_TAKE and t.decider == 2
    t.do("glasses")  # the holder pirates: nobody to pay
    assert st.credits == [8, 10, 12] and st.leader == 1
    conserved(t)


def test_shotguns_holder_who_leads_collects_nothing(table):
    t = table(
        3, hands={0: ["potatoes"], 1: ["rope", "cups"]}, shipments={0: ["shotguns"]}, island=["velvet_robes", "apples"]
    )
    t.do("potatoes", "rope", "draw", "velvet_robes", "apples")
    assert t.state.credits == [10, 10, 10] and t.state.leader == 1


# ----- drawing --------------------------------------------------------------------------------------
def test_lumber_may_draw_when_another_player_draws(table):
    t = table(3, shipments={1: ["lumber"]})
    t.do("draw")
    assert power(t) == "lumber" and t.decider == 1
    t.do("yes")
    st = t.state
    assert len(st.hands[0]) == 5 and len(st.hands[1]) == 1
    assert t.phase == P_LEAD and t.decider == 1
    t.do("draw")  # its own draw: no Lumber
    assert t.phase == P_LEAD and t.decider == 2
    conserved(t)


def test_nanobots_free_load_action_when_drawing(table):
    # Fixie Bikes shows the free load is a load action.
    t = table(
        3,
        shipments={0: ["nanobots", "fixie_bikes"]},
        ships={0: {"contracts": ["champagne"]}},
        deck_top=["velvet_robes", "cups", "beer", "almonds", "apples"],
    )
    t.do("draw")
    assert power(t) == "nanobots" and set(t.legal()) == {"done", "card VELVET ROBES"}
    t.do("velvet_robes")
    st = t.state
    assert st.cargo[0] == ids(t, "velvet_robes") and len(st.hands[0]) == 4 and st.credits[0] == 12
    assert t.phase == P_LEAD and st.leader == 1
    conserved(t)


def test_nanobots_is_asked_even_when_no_card_fits(table):
    # Whether a card fits depends on the hidden hand, so the holder is asked (and can only pass).
    t = table(
        3,
        shipments={0: ["nanobots"]},
        ships={0: {"contracts": ["champagne"]}},
        deck_top=["cups", "beer", "almonds", "apples", "glasses"],
    )
    t.do("draw")
    assert power(t) == "nanobots" and t.legal() == ["done"]
    t.do("done")
    assert t.phase == P_LEAD and t.state.leader == 1 and t.state.cargo[0] == []


def test_chairs_may_discard_when_another_player_draws(table):
    t = table(3, hands={1: ["cups", "beer"]}, shipments={1: ["chairs"]})
    t.do("draw")
    assert power(t) == "chairs" and set(t.legal()) == {"done", "card CUPS", "card BEER"}
    t.do("beer")
    st = t.state
    assert st.hands[1] == ids(t, "cups") and st.discard[-1] == t.id("beer")
    assert t.phase == P_LEAD and st.leader == 1
    conserved(t)


def test_lumber_and_chairs_both_answer_a_leaders_draw_before_the_next_turn(table):
    t = table(3, hands={2: ["cups"]}, shipments={1: ["lumber"], 2: ["chairs"]})
    t.do("draw")
    assert power(t) == "lumber" and t.decider == 1
    t.do("yes")
    assert power(t) == "chairs" and t.decider == 2
    t.do("cups")
    st = t.state
    assert st.hands[2] == [] and st.discard == ids(t, "cups") and len(st.hands[1]) == 1
    assert t.phase == P_LEAD and st.leader == 1 and st.stack == []


def test_lumber_and_chairs_both_answer_a_followers_draw_before_the_turn_goes_on(table):
    t = table(
        3,
        hands={0: ["rope", "beer"], 1: ["potatoes"]},
        shipments={0: ["chairs"], 1: ["lumber"]},
        island=["velvet_robes"],
    )
    t.do("rope", "potatoes", "draw")  # seat 2 draws
    assert power(t) == "lumber" and t.decider == 1
    t.do("yes")
    assert power(t) == "chairs" and t.decider == 0
    t.do("beer")
    st = t.state
    assert st.hands[0] == [] and st.hands[1] != [] and t.id("beer") in st.discard
    assert t.phase == P_PIRATE_TAKE and t.decider == 0


def test_backpacks_may_draw_when_any_ship_returns_from_sea(table):
    t = table(
        3, hands={0: ["rope"]}, shipments={1: ["backpacks"]}, ships={5: {"at_sea": True, "cargo": ["velvet_robes"]}}
    )
    t.do("rope", "draw", "draw")
    hand = len(t.state.hands[1])
    t.do("velvet_robes")
    assert power(t) == "backpacks" and t.decider == 1
    t.do("yes")
    st = t.state
    assert not st.at_sea[5] and len(st.hands[1]) == hand + 1
    conserved(t)
