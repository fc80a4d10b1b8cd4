"""The goods cards that score at game end (``powers/end_games.py`` through ``scoring.py``).

Every seat starts at 10 active credits. Shipments used only as fillers are cards whose power is
immediate (it acted when the shipment completed, so it plays no part in scoring): cups, glasses,
pens (consumer), almonds, potatoes, bamboo (agriculture), message_tables, rolls_royce (luxury),
ammunition, dino_bones (illegal). Goods and imports have no powers.
"""

import random


def scores(t):
    return t.state.scores()


# ----- Champagne ---------------------------------------------------------------------------------
def test_champagne_most_completed_shipments_is_worth_8(table):
    t = table(3, shipments={0: ["champagne", "cups"], 1: ["potatoes"], 2: []})
    assert scores(t) == [10 + 8, 10, 10]


def test_champagne_is_worth_nothing_without_the_most_shipments(table):
    t = table(2, shipments={0: ["champagne"], 1: ["potatoes", "almonds"]})
    assert scores(t) == [10, 10]


def test_champagne_tie_for_the_most_shares_it_rounded_up(table):
    t = table(3, shipments={0: ["champagne", "cups"], 1: ["potatoes", "almonds"], 2: ["glasses", "pens"]})
    assert scores(t) == [10 + 3, 10, 10]  # 8 / 3 rounded up


def test_champagne_counts_the_shipments_before_diamond_rings_moves_them(table):
    # The holder resolves his own game-end powers in his best order: Champagne before Diamond Rings.
    t = table(2, shipments={0: ["champagne", "diamond_rings", "cups"], 1: ["potatoes", "almonds"]})
    # Diamond Rings then moves two of them; the best are a luxury card (1 + 8) and Cups
    # (consumer: 1 + 6).
    assert scores(t) == [10 + 8 + 9 + 7, 10]


# ----- Cologne -------------------------------------------------------------------------------------
def test_cologne_4_credits_per_import_of_the_best_action_type(table):
    # laptops and almonds are Supply cards, books an Import card: Supply scores 2 x 4.
    t = table(2, shipments={0: ["cologne", "cups"]}, imports={0: ["laptops", "almonds", "books"]})
    assert scores(t) == [10 + 8, 10]


def test_cologne_without_imports_is_worth_nothing(table):
    t = table(2, shipments={0: ["cologne"]})
    assert scores(t) == [10, 10]


# ----- Diamond Rings -------------------------------------------------------------------------------
def test_diamond_rings_moves_the_two_shipments_that_score_best_into_the_goods(table):
    # Shipments: Diamond Rings (luxury), Cups (consumer), Ammunition (illegal); seat 1 has one
    # consumer good. {rings, cups}: luxury 1 + 8, consumer 1 + 3 (tie) = 13;
    # {rings, ammunition}: 9 + 2 - 6 = 5; {cups, ammunition}: 4 - 4 = 0.
    t = table(2, shipments={0: ["diamond_rings", "cups", "ammunition"]}, goods={1: ["books"]})
    assert scores(t) == [10 + 13, 10 + 1 + 3]


def test_diamond_rings_ignores_the_goods_limit(table):
    # Goods limit 2 x (1 + 2) = 6, already full: both moved cards still count.
    full = ["laptops", "batteries", "drones", "almonds", "bamboo", "bok_choy"]
    t = table(2, shipments={0: ["diamond_rings", "cups"]}, goods={0: full})
    values, majorities = 6, 6 + 6
    assert scores(t) == [10 + values + majorities + 1 + 8 + 1 + 6, 10]


def test_diamond_rings_a_moved_card_loses_its_power(table):
    # Only two shipments: both move, so Leather Coats is no longer a shipment and luxury goods
    # are worth 1 each again: three luxury goods 3 + 8 (with Leather Coats it would be 9 + 8).
    t = table(2, shipments={0: ["diamond_rings", "leather_coats"]}, goods={0: ["jets"]})
    assert scores(t) == [10 + 3 + 8, 10]


def test_diamond_rings_keeps_a_scoring_power_when_moving_another_card_is_better(table):
    # Moving Diamond Rings and Cups keeps Leather Coats: luxury 2 x 3 + 8, consumer 1 + 6 = 21;
    # moving Leather Coats instead would give at most 3 x 1 + 8 = 11.
    t = table(2, shipments={0: ["diamond_rings", "leather_coats", "cups"]}, goods={0: ["jets"]})
    assert scores(t) == [10 + 21, 10]


# ----- Gold Toilets --------------------------------------------------------------------------------
def test_gold_toilets_6_per_completed_luxury_shipment_itself_included(table):
    t = table(2, shipments={0: ["gold_toilets", "message_tables", "cups"]})
    assert scores(t) == [10 + 12, 10]


# ----- Nice Suits ----------------------------------------------------------------------------------
def test_nice_suits_most_containers_on_your_ships_at_sea_included(table):
    # Seat 0: 2 containers on its ship in the harbor (2 credits each at the end) and 2 at sea = 4;
    # seat 1: 3 at sea.
    t = table(
        2,
        shipments={0: ["nice_suits"]},
        ships={
            0: {"contracts": ["diamond_rings"], "cargo": ["jets", "impalas"]},
            1: {"at_sea": True, "cargo": ["books", "cups"]},
            3: {"at_sea": True, "cargo": ["laptops", "almonds", "pistols"]},
        },
    )
    assert scores(t) == [10 + 2 * 2 + 16, 10]


def test_nice_suits_tie_shares_and_fewer_gets_nothing(table):
    tie = table(
        2,
        shipments={0: ["nice_suits"]},
        ships={1: {"at_sea": True, "cargo": ["books", "cups"]}, 3: {"at_sea": True, "cargo": ["jets", "chairs"]}},
    )
    assert scores(tie) == [10 + 8, 10]
    behind = table(
        2,
        shipments={0: ["nice_suits"]},
        ships={1: {"at_sea": True, "cargo": ["books"]}, 3: {"at_sea": True, "cargo": ["jets", "chairs"]}},
    )
    assert scores(behind) == [10, 10]
    empty = table(2, shipments={0: ["nice_suits"]})
    assert scores(empty) == [10, 10]


# ----- Sauna ---------------------------------------------------------------------------------------
def test_sauna_doubles_the_majority_bonus_and_the_illegal_penalty(table):
    t = table(2, shipments={0: ["sauna"]}, goods={0: ["almonds", "bamboo", "fake_dvds"], 1: ["bok_choy"]})
    # Agriculture: +12 instead of +6; illegal: -12 instead of -6.
    assert scores(t) == [10 + 2 + 2 + 12 - 12, 10 + 1]


def test_sauna_doubles_a_shared_bonus(table):
    t = table(2, shipments={0: ["sauna"]}, goods={0: ["laptops"], 1: ["batteries"]})
    assert scores(t) == [10 + 1 + 2 * 3, 10 + 1 + 3]


# ----- Teslas --------------------------------------------------------------------------------------
def test_teslas_supply_imports_count_as_goods_of_the_best_types(table):
    # Supply imports laptops and almonds are wild goods; books (an Import card) is not. Named
    # technology and agriculture they complete one of each type and tie seat 1's majorities:
    # values 6, majorities 3 + 3 + 6 + 8 - 6, one of each 10.
    t = table(
        2,
        shipments={0: ["teslas", "cups"]},
        imports={0: ["laptops", "almonds", "books"]},
        goods={0: ["glasses", "jets", "fake_dvds"], 1: ["batteries", "bamboo"]},
    )
    assert scores(t) == [10 + 6 + 14 + 10, 10 + 2 + 3 + 3]


def test_teslas_wild_goods_take_a_majority_from_another_player(table):
    # Seat 1 has two of every type but technology. Seat 0's one wild good (Almonds, a supply
    # import) named technology breaks the technology tie: 6 credits (anything else scores less).
    t = table(
        2,
        shipments={0: ["teslas"]},
        imports={0: ["almonds"]},
        goods={
            0: ["laptops"],
            1: ["batteries", "bamboo", "bok_choy", "books", "cups", "impalas", "gold_watches", "pistols", "drugs"],
        },
    )
    seat1 = 1 + 2 + 2 + 2 + 4 + (6 + 6 + 8 - 6) + 10
    assert scores(t) == [10 + 2 + 6, 10 + seat1]


# ----- Velvet Robes --------------------------------------------------------------------------------
def test_velvet_robes_1_credit_per_card_in_hand(table):
    t = table(2, shipments={0: ["velvet_robes"]}, hands={0: ["laptops", "books", "pistols"], 1: ["jets"]})
    assert scores(t) == [10 + 3, 10]


# ----- Vintage Wines -------------------------------------------------------------------------------
TWO_OF_EACH = [
    "laptops",
    "batteries",
    "almonds",
    "bamboo",
    "books",
    "chairs",
    "jets",
    "impalas",
    "fake_dvds",
    "pistols",
]


def test_vintage_wines_20_for_two_of_every_type(table):
    t = table(2, shipments={0: ["vintage_wines"]}, goods={0: TWO_OF_EACH})
    values, majorities, one_of_each = 12, 6 + 6 + 6 + 8 - 6, 10
    assert scores(t) == [10 + values + majorities + one_of_each + 20, 10]


def test_vintage_wines_nothing_when_one_type_has_only_one(table):
    t = table(2, shipments={0: ["vintage_wines"]}, goods={0: TWO_OF_EACH[:-1]})
    values, majorities, one_of_each = 10, 6 + 6 + 6 + 8 - 6, 10
    assert scores(t) == [10 + values + majorities + one_of_each, 10]


# ----- Leather Coats -------------------------------------------------------------------------------
def test_leather_coats_luxury_goods_are_worth_3(table):
    t = table(2, shipments={0: ["leather_coats"]}, goods={0: ["jets", "impalas"], 1: ["gold_watches"]})
    assert scores(t) == [10 + 2 * 3 + 8, 10 + 1]


# ----- Ferraris ------------------------------------------------------------------------------------
def test_ferraris_one_virtual_good_of_every_type(table):
    # Counts as a good of each type in every way but the limit: values 6, majorities (technology
    # tied with seat 1: 3), the illegal penalty, and one of each type.
    t = table(2, shipments={0: ["ferraris"]}, goods={1: ["batteries"]})
    assert scores(t) == [10 + 6 + (3 + 6 + 6 + 8 - 6) + 10, 10 + 1 + 3]


# ----- Helicopter ----------------------------------------------------------------------------------
def test_helicopter_passive_credits_are_paid_at_the_end(table):
    t = table(2, shipments={0: ["helicopter"]})
    st = t.state
    st.bank -= 12
    st.passive[0] = 12
    assert scores(t) == [10 + 12, 10]
    assert st.credits[0] == 10  # passive credits are not active credits


# ----- Foxes (its part in scoring) -----------------------------------------------------------------
def test_foxes_breaks_a_majority_tie_in_its_holders_favour(table):
    # Technology tie: the holder takes all 6. Illegal tie: he steps out and the other pays 6.
    t = table(2, shipments={0: ["foxes"]}, goods={0: ["laptops", "fake_dvds"], 1: ["batteries", "pistols"]})
    assert scores(t) == [10 + 3 + 6, 10 + 3 - 6]


def test_foxes_breaks_a_tie_for_first_place(table):
    t = table(3, shipments={0: ["foxes"]}, credits={0: 20, 1: 20, 2: 12})
    st = t.state
    assert scores(t) == [20.5, 20, 12]
    assert st.returns("win_loss") == [1.0, -1.0, -1.0]


def test_foxes_wins_a_tie_for_champagne(table):
    t = table(2, shipments={0: ["champagne", "foxes"], 1: ["potatoes", "almonds"]})
    assert scores(t) == [10 + 8, 10]


# ----- Apple Watch (Jutaku) ------------------------------------------------------------------------
def test_apple_watch_6_per_pair_of_luxury_and_consumer_goods(table):
    t = table(
        2,
        modules=("jutaku",),
        shipments={0: ["apple_watch"]},
        goods={0: ["jets", "impalas", "books", "cups", "gold_watches"]},
    )
    values, majorities = 5, 8 + 6
    assert scores(t) == [10 + values + majorities + 2 * 6, 10]


# ----- Cheap Shirts (Jutaku) -----------------------------------------------------------------------
def test_cheap_shirts_moves_all_imports_into_the_goods(table):
    t = table(2, modules=("jutaku",), shipments={0: ["cheap_shirts", "cups"]}, imports={0: ["books", "jets"]})
    assert scores(t) == [10 + 1 + 6 + 1 + 8, 10]


def test_cheap_shirts_respects_the_goods_limit_and_moves_the_best_imports(table):
    # Limit 2 x (1 + 1) = 4 with 3 goods: one import fits. Glasses (consumer: 1 + 6) beats
    # Fake DVDs (illegal: 2 - 6).
    t = table(
        2,
        modules=("jutaku",),
        shipments={0: ["cheap_shirts"]},
        goods={0: ["jets", "impalas", "gold_watches"]},
        imports={0: ["fake_dvds", "glasses"]},
    )
    assert scores(t) == [10 + 3 + 8 + 1 + 6, 10]


def test_cheap_shirts_moves_only_as_many_as_fit(table):
    # Limit 4 with 3 goods: one of the two consumer imports moves, not both.
    t = table(
        2,
        modules=("jutaku",),
        shipments={0: ["cheap_shirts"]},
        goods={0: ["jets", "impalas", "gold_watches"]},
        imports={0: ["glasses", "books"]},
    )
    assert scores(t) == [10 + 3 + 8 + 1 + 6, 10]


def test_cheap_shirts_must_move_an_import_that_fits_even_when_it_costs(table):
    # "move all of your imports": the illegal import moves and brings the illegal penalty.
    t = table(2, modules=("jutaku",), shipments={0: ["cheap_shirts", "cups"]}, imports={0: ["fake_dvds"]})
    assert scores(t) == [10 + 2 - 6, 10]


def test_cheap_shirts_leaves_supply_imports_wild_for_teslas(table):
    # Limit 2 x (1 + 3) = 8 with 7 goods: one of the two imports fits. Moving Books (consumer)
    # and keeping Almonds (a supply import) as Teslas' wild good, named illegal (2 credits; the
    # penalty is paid anyway), beats moving Almonds (agriculture: 1 credit).
    goods = ["laptops", "batteries", "bamboo", "bok_choy", "chairs", "fake_dvds", "jets"]
    t = table(
        2,
        modules=("jutaku",),
        shipments={0: ["cheap_shirts", "teslas", "potatoes"]},
        goods={0: goods},
        imports={0: ["almonds", "books"]},
    )
    values = 2 + 2 + 2 + 1 + 2 * 2
    assert scores(t) == [10 + values + (6 + 6 + 6 + 8 - 6) + 10, 10]


def test_cheap_shirts_counts_the_limit_with_scotch_whisky(table):
    # Limit 2 x (1 + 2) = 6. Four luxury goods count as two with Scotch Whisky, so with Laptops
    # and Almonds 4 of 6 are used and both imports fit (without Scotch Whisky neither would).
    t = table(
        2,
        modules=("jutaku", "kickstarter"),
        shipments={0: ["cheap_shirts", "scotch_whisky"]},
        goods={0: ["jets", "impalas", "gold_watches", "message_tables", "laptops", "almonds"]},
        imports={0: ["books", "chairs"]},
    )
    values, majorities = 4 + 1 + 1 + 2, 8 + 6 + 6 + 6
    assert scores(t) == [10 + values + majorities, 10]


# ----- Ceramics and Ivory (Kickstarter) ------------------------------------------------------------
def test_ceramics_one_virtual_luxury_per_two_consumer_goods(table):
    t = table(
        2,
        modules=("kickstarter",),
        shipments={0: ["ceramics"]},
        goods={0: ["books", "cups", "chairs", "candy", "glasses"], 1: ["jets"]},
    )
    # 5 consumer goods -> 2 virtual luxury: luxury 2 against seat 1's 1 takes the 8.
    assert scores(t) == [10 + 5 + 2 + 6 + 8, 10 + 1]


def test_ivory_takes_the_illegal_penalty_as_credits(table):
    t = table(2, modules=("kickstarter",), shipments={0: ["ivory"]}, goods={0: ["fake_dvds", "pistols"], 1: ["drugs"]})
    assert scores(t) == [10 + 4 + 6, 10 + 2]


def test_ivory_with_a_tie_takes_the_share_it_would_have_paid(table):
    t = table(2, modules=("kickstarter",), shipments={0: ["ivory"]}, goods={0: ["fake_dvds"], 1: ["drugs"]})
    assert scores(t) == [10 + 2 + 3, 10 + 2 - 3]


def test_ivory_and_sauna_take_12(table):
    t = table(2, modules=("kickstarter",), shipments={0: ["ivory", "sauna"]}, goods={0: ["fake_dvds"]})
    assert scores(t) == [10 + 2 + 12, 10]


# ----- declarations, one player at a time ----------------------------------------------------------
def test_game_end_choices_are_declared_clockwise_from_the_last_leader(table):
    # Seat 0 holds Teslas (Almonds: one wild good), seat 1 Diamond Rings (with Pens, consumer,
    # and Ammunition, illegal). Each declares seeing only the declarations made before his.
    layout = {"shipments": {0: ["teslas"], 1: ["diamond_rings", "pens", "ammunition"]}, "imports": {0: ["almonds"]}}
    # Seat 1 first: it moves Diamond Rings and Pens (luxury 1 + 8, consumer 1 + 6); seat 0 then
    # names technology (1 + 6), luxury would only tie.
    assert scores(table(2, leader=1, **layout)) == [10 + 7, 10 + 16]
    # Seat 0 first: it names luxury (1 + 8); seat 1 still moves Diamond Rings and Pens, now
    # tying luxury (1 + 4, consumer 1 + 6), and seat 0 keeps half the luxury bonus.
    assert scores(table(2, leader=0, **layout)) == [10 + 1 + 4, 10 + 12]


def test_scores_with_game_end_powers_use_public_information_only(table):
    t = table(
        3,
        modules=("jutaku",),
        hands={0: ["laptops"], 1: ["books", "cups"], 2: ["pistols"]},
        shipments={0: ["velvet_robes", "teslas"], 1: ["diamond_rings", "glasses"], 2: ["cheap_shirts"]},
        imports={0: ["almonds"], 2: ["chairs"]},
        goods={1: ["jets"]},
    )
    st = t.state
    before = st.scores()
    for seat in range(3):
        assert st.resample(seat, random.Random(seat)).scores() == before


def test_every_game_end_card_is_scored():
    from smuggle_envs.games.import_export.data import load
    from smuggle_envs.games.import_export.powers import END_GAME
    from smuggle_envs.games.import_export.powers.end_games import HARBOR_POWERS

    end_game_cards = {c.key for c in load().cards if c.timing == "end_game"}
    # Helicopter's credits are accrued during play (st.passive) and paid in step 1.
    assert end_game_cards - {"helicopter"} <= set(END_GAME) | set(HARBOR_POWERS)
