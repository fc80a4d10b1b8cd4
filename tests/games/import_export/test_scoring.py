"""The rulebook's SCORING section and END GAME BONUS, scripted (``scoring.final_scores``).

Every position starts each seat at 10 active credits unless ``credits`` says otherwise. Good types:
technology (laptops, batteries, drones, generators), agriculture (almonds, bamboo, bok_choy,
coffee), consumer (books, cups, chairs, candy), luxury (jets, impalas, gold_watches,
message_tables), illegal (fake_dvds, cannabis, pistols, drugs, seeds).
"""

import random

from smuggle_envs.games.import_export.scoring import split


def scores(t):
    return t.state.scores()


def test_scoring_credits_and_containers_on_shipments_still_in_the_harbor(table):
    # "Each container that has been loaded onto a shipment that remains in your harbor ... is worth
    # 2 credits"; containers on a ship at sea score nothing; containers left on a ship whose
    # contract was discarded stay loaded and score too (R5.8).
    t = table(
        3,
        credits={0: 20, 1: 14, 2: 8},
        ships={
            0: {"contracts": ["miri_machines"], "cargo": ["laptops"]},
            3: {"at_sea": True, "cargo": ["batteries", "drones"]},
            4: {"cargo": ["almonds", "bamboo"]},
        },
    )
    assert scores(t) == [20 + 2, 14, 8 + 2 * 2]


def test_scoring_nothing_but_credits_when_nobody_has_goods(table):
    # A majority needs at least one good of the type: with no goods nobody gets or pays a bonus.
    t = table(4, credits={0: 12, 1: 10, 2: 6, 3: 30})
    assert scores(t) == [12, 10, 6, 30]


def test_scoring_rulebook_example_most_agriculture_gets_6_most_illegal_pays_6(table):
    # "The player with the most agriculture goods will receive 6 credits, the player with the
    # most illegal goods must pay 6 credits to the bank"; each good is worth 1, illegal 2.
    t = table(3, goods={0: ["almonds", "bamboo"], 1: ["bok_choy", "fake_dvds", "cannabis"], 2: ["pistols"]})
    assert scores(t) == [10 + 2 + 6, 10 + 1 + 2 * 2 - 6, 10 + 2]


def test_scoring_majority_bonuses_technology_consumer_6_luxury_8(table):
    t = table(3, goods={0: ["laptops", "batteries"], 1: ["books", "cups"], 2: ["jets", "drones"]})
    # seat 0: 2 tech (most: +6); seat 1: 2 consumer (+6); seat 2: 1 luxury (+8) and 1 tech.
    assert scores(t) == [10 + 2 + 6, 10 + 2 + 6, 10 + 2 + 8]


def test_scoring_one_of_each_type_is_worth_10(table):
    # Seat 0 has one of each type; seat 1 the same but no illegal good. Ties split (R5.13).
    t = table(
        2,
        goods={0: ["laptops", "almonds", "books", "jets", "fake_dvds"], 1: ["batteries", "bamboo", "cups", "impalas"]},
    )
    majorities = 3 + 3 + 3 + 4  # tech, agri, consumer 6 / 2; luxury 8 / 2
    assert scores(t) == [10 + 6 + majorities - 6 + 10, 10 + 4 + majorities]


def test_scoring_ties_split_the_bonus_rounded_up():
    # "In a tie for the most of a good type, players split the bonus rounded up (in the case of
    # Illegal goods rounded up toward 0)" (R5.13).
    assert [split(6, k) for k in range(1, 7)] == [6, 3, 2, 2, 2, 1]
    assert [split(8, k) for k in range(1, 7)] == [8, 4, 3, 2, 2, 2]
    assert [split(-6, k) for k in range(1, 7)] == [-6, -3, -2, -1, -1, -1]


def test_scoring_three_way_luxury_tie_gets_3_each(table):
    t = table(3, goods={0: ["jets"], 1: ["impalas"], 2: ["gold_watches"]})
    assert scores(t) == [10 + 1 + 3] * 3  # 8 / 3 = 2.67, rounded up


def test_scoring_four_way_ties_round_the_bonus_up_and_the_penalty_toward_zero(table):
    t = table(
        4,
        goods={
            0: ["laptops", "fake_dvds"],
            1: ["batteries", "cannabis"],
            2: ["drones", "pistols"],
            3: ["generators", "drugs"],
        },
    )
    # technology: 6 / 4 = 1.5 -> 2 each; illegal: -6 / 4 = -1.5 -> -1 each.
    assert scores(t) == [10 + 1 + 2 + 2 - 1] * 4


def test_scoring_only_the_most_counts(table):
    t = table(3, goods={0: ["laptops", "batteries"], 1: ["drones"], 2: []})
    assert scores(t) == [10 + 2 + 6, 10 + 1, 10]


def test_scoring_passive_credits_count_at_the_end(table):
    # Helicopter's credits are kept apart from the active credits and paid at the end.
    t = table(2, shipments={0: ["helicopter"]})
    st = t.state
    st.bank -= 8
    st.passive[0] += 8
    assert st.credits == [10, 10]
    assert scores(t) == [10 + 8, 10]


def test_scoring_an_outright_win_ranks_the_winner_first(table):
    # A power that wins the game outright (st.win): the winner's score is raised to 1 credit
    # above every other player's, so every reward mode ranks him first.
    t = table(3, credits={0: 40, 1: 10, 2: 24}, goods={2: ["jets"]})
    st = t.state
    assert scores(t) == [40, 10, 24 + 1 + 8]
    st.win(1, "test")
    assert st.is_terminal()
    assert scores(t) == [40, 41, 33]
    assert st.returns("win_loss") == [-1.0, 1.0, -1.0]
    assert st.returns("rank") == [0.0, 1.0, -1.0]


def test_scoring_an_outright_winner_already_ahead_keeps_his_score(table):
    t = table(2, credits={0: 30, 1: 10})
    t.state.win(0, "test")
    assert scores(t) == [30, 10]


def test_scoring_uses_public_information_only(table):
    # The running score is a dense reward: redrawing what a player cannot see (other hands, the
    # deck) changes nothing, Velvet Robes (hand size) included.
    t = table(
        3,
        hands={0: ["laptops", "almonds"], 1: ["books", "cups", "chairs"], 2: ["pistols"]},
        shipments={1: ["velvet_robes"]},
        goods={2: ["jets"]},
    )
    st = t.state
    before = st.scores()
    for seat in range(3):
        assert st.resample(seat, random.Random(seat)).scores() == before


def test_scoring_does_not_change_the_state(table):
    # Scoring computes the game-end moves (Diamond Rings, Cheap Shirts) without making them.
    t = table(
        2,
        modules=("jutaku",),
        shipments={0: ["diamond_rings", "cups", "cheap_shirts"]},
        imports={0: ["books", "fake_dvds"]},
        goods={0: ["jets"]},
    )
    st = t.state
    zones = (st.shipments, st.imports, st.goods, st.credits, st.bank, st.owner)
    snapshot = repr(zones)
    st.scores()
    assert repr(zones) == snapshot
