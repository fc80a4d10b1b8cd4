"""CIQ's rules at their limits: a value exactly at a rule's boundary, on each side.

Each test pins one comparison, constant or seat of ``steps.py`` (or of ``state.py``'s end and
scores) that a one-line bug could move (``benchmarks/mutation.py`` plants such bugs). Two
players unless said otherwise: P0 plays first, P1 is the target. Cards are named like "10d".
"""

import smuggle_envs
from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.vocab import (
    AFTER_SABOTAGE,
    FIRE_DECISION,
    GIVE_FROM_HAND,
    MAIN,
    OPEN,
    OVER,
    SABOTAGE2,
    SHIPPING,
)

P1_HAND = ["2s", "3s", "8s", "9c", "9d", "10s", "Js"]
STOCK = ["4c", "4d", "4h", "4s", "5c", "5d", "5h", "5s"] * 4


def firsts(t, base):
    """The card names of the legal actions in ``base`` .. ``base + 52`` (ship or sabotage)."""
    return {A.card_name(a - base) for a in t.legal() if base <= a < base + A.NUM_KINDS}


# ----- rule 10: the Import Tolerance; a card of exactly its value is Legal -----------------------
def test_rule10_a_first_card_of_exactly_the_tolerance_is_legal_exactly_at_the_limit(table):
    t = table(hands={0: ["9h", "10h", "9c", "2d", "3d", "Ks", "As"], 1: P1_HAND}, tolerance={1: ["9s"]})
    assert firsts(t, A.SHIP) == {"9h", "9c", "2d", "3d"}  # 9 against a 9: Legal; the 10: Illegal
    assert firsts(t, A.SABOTAGE) == {"9h", "2d", "3d"}  # a 9 with a card of its suit to follow


def test_rule10_a_target_whose_tolerance_is_exactly_the_lowest_card_is_offered_exactly_at_the_limit(table):
    hands = {0: ["9h", "10h", "Kc", "Kd", "Qh", "Qd", "Jc"], 1: P1_HAND, 2: ["2d", "3d", "4d", "5d", "7d", "8d", "9d"]}
    t = table(3, hands=hands, tolerance={0: ["6s"], 1: ["9s"], 2: ["8s"]}, stock=STOCK)
    assert A.target(1) in t.legal() and A.target(2) not in t.legal()


def test_rule14_a_rank_match_of_exactly_the_tolerance_ships_on_exactly_at_the_limit(table):
    t = table(hands={0: ["9h", "9c", "10c", "10d", "2d", "3d", "Kd"], 1: P1_HAND}, tolerance={1: ["9s"]}, stock=STOCK)
    s = t.state
    t.ship("9h")
    # the same rank, another suit: Legal at 9; a 10 of another suit is not even smuggled
    assert t.legal() == {A.ship("9c"), A.STOP}
    t.ship("9c")
    assert s.phase == SHIPPING and s.smuggled == -1


def test_rule15_a_same_suit_card_of_exactly_the_tolerance_is_not_smuggled_exactly_at_the_limit(table):
    t = table(hands={0: ["5h", "9h", "10h", "2d", "3d", "Kd", "Kc"], 1: P1_HAND}, tolerance={1: ["9s"]}, stock=STOCK)
    s = t.state
    t.ship("5h", "9h")
    assert s.phase == SHIPPING and s.smuggled == -1 and s.current_player() == 0
    t.ship("10h")  # one past: smuggled, the shipment ends and the target decides
    assert s.phase == FIRE_DECISION and s.smuggled == 2 and s.current_player() == 1


# ----- rules 12-13: a Sabotage; a face card of exactly the tolerance does not wipe -----------------
def test_rule13_a_face_card_of_exactly_the_tolerance_raises_it_without_a_wipe_exactly_at_the_limit(table):
    t = table(hands={0: ["5s", "Js", "Qs", "2d", "3d", "4d", "Kd"], 1: P1_HAND}, tolerance={1: ["6h", "Jh"]})
    s = t.state
    t.sabotage("5s", "Js")
    assert s.phase == AFTER_SABOTAGE and t.tolerance(1) == ["6h", "Jh", "5s", "Js"] and s.tol_value[1] == 11
    assert s.exp_size[1] == 0


def test_rule13_a_face_card_one_above_the_tolerance_wipes_one_past_the_limit(table):
    t = table(hands={0: ["5s", "Js", "Qs", "2d", "3d", "4d", "Kd"], 1: P1_HAND}, tolerance={1: ["6h", "Jh"]})
    s = t.state
    t.sabotage("5s", "Qs")
    assert t.tolerance(1) == [] and s.tol_value[1] == 0
    assert t.exports(1) == sorted(["6h", "Jh", "5s", "Qs"])


def test_rule12_a_pair_of_one_kind_is_a_sabotage_a_single_card_is_not_exactly_at_the_limit(table):
    # a first card needs a second of its suit: another copy of itself counts (two in hand), one does not
    t = table(hands={0: ["5h", "5h", "7c", "2d", "Ks", "As", "Qs"], 1: P1_HAND}, tolerance={1: ["9s"]})
    assert firsts(t, A.SABOTAGE) == {"5h"}
    t.act(A.sabotage("5h"))
    assert t.state.phase == SABOTAGE2 and t.legal() == {A.sabotage("5h")}


def test_rule12_a_joker_opens_a_sabotage_only_with_a_suited_card_to_follow_exactly_at_the_limit(table):
    # Jokers and one suited card (Illegal): the Joker may open; Jokers alone may not
    t = table(hands={0: ["joker", "joker", "Kd"], 1: P1_HAND}, tolerance={0: ["6c"], 1: ["9s"]}, stock=[])
    assert firsts(t, A.SABOTAGE) == {"joker"}
    t2 = table(hands={0: ["joker", "joker"], 1: P1_HAND}, tolerance={0: ["6c"], 1: ["9s"]}, stock=[])
    assert firsts(t2, A.SABOTAGE) == set() and list(t2.state.legal_actions()) == [A.PASS]


# ----- rule 8: targets, counted clockwise from the player to move ---------------------------------
def test_rule8_target_offsets_count_clockwise_from_the_last_seat_round_to_the_first(table):
    # four players, P3 to move: offset 1 is P0, 2 is P1, 3 is P2; only P1's 2 tolerates a 2
    hands = {3: ["2c", "Kc", "Kd", "Qc", "Qd", "Jc", "Jd"]}
    tolerance = {0: ["2s"], 1: ["6s"], 2: ["2h"], 3: ["6c"]}
    t = table(4, hands=hands, tolerance={**tolerance, 1: []}, stock=STOCK, turn=3)
    assert {a for a in t.legal() if A.TARGET <= a < A.STOP} == {A.target(1), A.target(2), A.target(3)}
    t2 = table(4, hands=hands, tolerance=tolerance, stock=STOCK, turn=3)
    hand = dict.fromkeys(("Kc", "Kd", "Qc", "Qd", "Jc", "Jd"), 0)
    assert not hand or {a for a in t2.legal() if A.TARGET <= a < A.STOP} == {A.target(1), A.target(2), A.target(3)}
    t2.target(2)
    assert t2.state.target == 1 and t2.state.phase == OPEN and t2.state.current_player() == 3


def test_rule8_jokers_alone_offer_no_target_a_joker_and_one_more_card_do_exactly_at_the_limit(table):
    # Jokers and Illegal cards only: a Joker can open a Sabotage only with a suited card to follow
    others = {1: P1_HAND, 2: ["2d", "3d", "4d", "5d", "7d", "8d", "9d"]}
    tolerance = {0: ["6c"], 1: ["2s"], 2: ["2h"]}
    t = table(3, hands={0: ["joker", "Kd"], **others}, tolerance=tolerance, stock=[])
    assert {a for a in t.legal() if A.TARGET <= a < A.STOP} == {A.target(1), A.target(2)}
    t2 = table(3, hands={0: ["joker", "joker"], **others}, tolerance=tolerance, stock=[])
    assert list(t2.state.legal_actions()) == [A.PASS]
    t3 = table(3, hands={0: ["joker"], **others}, tolerance=tolerance, stock=[], joker_opens_shipment=True)
    assert {a for a in t3.legal() if A.TARGET <= a < A.STOP} == {A.target(1), A.target(2)}


# ----- rule 22: the sources of a transfer, each run out exactly -----------------------------------
def test_rule22_a_hand_of_exactly_the_cards_owed_goes_without_a_choice_and_wins_exactly_at_the_limit(table):
    t = table(hands={0: ["2c", "5d", "9h"], 1: P1_HAND}, tolerance={1: []}, exports={1: ["Ad"]}, stock=[])
    s = t.state
    t.ship("2c").stop()  # 2 owed from a hand of exactly 2: both go, nothing to choose
    assert s.hand_size[0] == 0 and t.imports(1) == sorted(["2c", "5d", "9h"])
    assert s.phase == OVER and s.winners == [0] and s.scores() == [0.0, -8.0 - 1.0 - 3.0]


def test_rule22_an_export_pile_of_exactly_the_cards_owed_runs_out_and_ends_the_turn_exactly_at_the_limit(table):
    t = table(
        hands={0: ["2c", "4c", "3c", "7c", "8c", "9c", "10c"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["2d", "3d"], 1: ["Ad"]},
        imports={0: ["Ah"]},
        stock=[],
    )
    s = t.state
    t.ship("2c", "4c").stop()  # the 2 takes both Export cards: run out, Import cards left: the end
    assert s.imp_size[1] == 2 + 2 and s.exp_size[0] == 0 and s.current_player() == 1


def test_rule22_an_export_pile_one_card_over_what_is_owed_goes_on_one_before_the_limit(table):
    t = table(
        hands={0: ["2c", "4c", "3c", "7c", "8c", "9c", "10c"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["2d", "3d", "5d"], 1: ["Ad"]},
        imports={0: ["Ah"]},
        stock=[],
    )
    s = t.state
    t.ship("2c", "4c").stop()  # the 2 takes 2 of 3; the 4 takes the last one and ends the turn
    assert s.imp_size[1] == 2 + 3 and s.exp_size[0] == 0 and s.current_player() == 1


def test_rule22_a_stock_of_one_card_over_what_is_owed_lasts_one_before_the_limit(table):
    t = table(hands={0: ["3c", "2c", "5c", "7c", "8c", "9c", "10c"], 1: P1_HAND}, tolerance={1: []}, stock=STOCK[:4])
    s = t.state
    t.ship("3c", "2c").stop()  # 3 of 4, then the 2 takes the last one (of 2 owed) and ends the turn
    assert not s.stock and s.current_player() == 1 and s.exp_size[1] == 2 + 4 and s.imp_size[1] == 0
