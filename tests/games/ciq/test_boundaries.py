"""CIQ's rules at their limits: a value exactly at a rule's boundary, on each side.

Each test pins one comparison, constant or seat of ``steps.py`` (or of ``state.py``'s end and
scores) that a one-line bug could move (``benchmarks/mutation.py`` plants such bugs). Two
players unless said otherwise: P0 plays first, P1 is the target. Cards are named like "10d".
"""

import pytest

from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.steps import shipment_transfers, smuggled_worth
from smuggle_envs.games.ciq.vocab import (
    AFTER_SABOTAGE,
    FIRE_DECISION,
    FLAG_BRIBE,
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
    # four players, P3 to move: offset 1 is P0, 2 is P1, 3 is P2; nothing of P3's is Legal at P1's 2
    hands = {3: ["5c", "Kc", "Kd", "Qc", "Qd", "Jc", "Jd"]}
    tolerance = {0: ["5s"], 1: ["2s"], 2: ["6s"], 3: ["6c"]}
    t = table(4, hands=hands, tolerance=tolerance, stock=STOCK, turn=3)
    assert {a for a in t.legal() if A.TARGET <= a < A.STOP} == {A.target(1), A.target(3)}
    t.target(3)
    assert t.state.target == 2 and t.state.phase == OPEN and t.state.current_player() == 3
    t2 = table(4, hands=hands, tolerance=tolerance, stock=STOCK, turn=3).target(1)
    assert t2.state.target == 0 and t2.legal() == {A.ship("5c"), A.sabotage("5c")}  # 5 at a 5


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
    assert s.phase == OVER and s.winners == [0] and s.scores() == [0.0, -(7 + 3 + 1)]


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


# ----- rules 19, 21, 22: an Ace's transfer counts for a Queen, and its run-out ends the turn ----------
def test_rule19_a_queen_after_an_ace_doubles_the_ace_transfer_too(table):
    t = table(
        hands={0: ["3c", "Ac", "Qc", "2d", "4d", "5d", "7d"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["2h", "3h", "4h", "5h", "7h"], 1: ["Ad"]},
        stock=[],
    )
    s = t.state
    t.ship("3c", "Ac", "Qc").stop()
    # the 3 takes 3 Export cards, the Ace the other 2 (nothing left anywhere but the hand); the
    # Queen owes 3 + 2 = 5, more than the 4 cards in hand: they all go, and P0 has won
    assert s.exp_size[0] == 0 and s.hand_size[0] == 0 and s.imp_size[1] == 3 + 5 + 4
    assert s.phase == OVER and s.winners == [0]


def test_rule22_an_ace_emptying_the_export_pile_with_import_cards_ends_the_turn(table):
    t = table(
        hands={0: ["Ac", "Kc", "2d", "4d", "5d", "7d", "8d"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["2h", "3h"], 1: ["Ad"]},
        imports={0: ["Kh"]},
        stock=[],
    )
    s = t.state
    t.ship("Ac", "Kc").stop()  # the Ace runs the Export pile out: the King moves nothing
    assert t.imports(0) == ["Kh"] and s.imp_size[1] == 2 + 2 and s.current_player() == 1


def test_rule22_an_ace_emptying_the_export_pile_with_an_empty_import_pile_goes_on_from_the_hand(table):
    t = table(
        hands={0: ["Ac", "3c", "2d", "4d", "5d", "7d", "8d"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["2h", "3h"], 1: ["Ad"]},
        stock=[],
    )
    s = t.state
    t.ship("Ac", "3c").stop()  # the Ace takes both Export cards; the 3 is owed from the hand
    assert s.phase == GIVE_FROM_HAND and s.res_pending == 3 and s.imp_size[1] == 2 + 2


# ----- rule 18: a Jack's turned-over card that leaves Export cards lets the turn go on ----------
def test_rule18_a_jack_turning_over_an_export_card_with_import_cards_still_transfers_double(table):
    t = table(
        hands={0: ["Jc", "2d", "4d", "5d", "7d", "8d", "9d"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["2h"] * 5, 1: ["Ad"]},
        imports={0: ["Kh"]},
        stock=[],
    )
    s = t.state
    t.ship("Jc").stop()  # turns over a 2 (4 Export cards left), then transfers 4: run out, the end
    assert s.imp_size[1] == 1 + 1 + 4 and s.exp_size[0] == 0 and t.imports(0) == ["Kh"]
    assert s.current_player() == 1


def test_rule19_a_queen_doubles_transfers_from_the_export_pile(table):
    t = table(
        hands={0: ["3c", "2c", "Qc", "2d", "4d", "5d", "7d"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["4h", "4s", "5h", "5s"] * 3, 1: ["Ad"]},
        stock=[],
    )
    s = t.state
    t.ship("3c", "2c", "Qc").stop()  # 3 and 2 from the Export pile, then the Queen 3 + 2 more
    assert s.imp_size[1] == 3 + 3 + 2 + 5 and s.exp_size[0] == 12 - 10 and s.current_player() == 1


# ----- rule 24: a Fire is shown on the table ------------------------------------------------------
def test_rule24_a_fire_is_remembered_with_its_seat_and_card(table):
    t = table(
        hands={0: ["6h", "10h", "3c", "4c", "5c", "7c", "8c"], 1: ["Qs", "Kd", "3s", "8s", "9c", "9d", "7s"]},
        tolerance={1: ["9s"]},
        stock=STOCK,
    )
    s = t.state
    t.ship("6h", "10h")
    assert s.phase == FIRE_DECISION and s.last_fire is None
    t.fire("Kd")
    assert s.last_fire == (1, A.card("Kd"))
    assert s.imp_size[1] == 2 + 6  # the 6 still transfers; the fired 10 does not


def test_rule19_a_queen_after_a_king_doubles_the_king_transfer_too(table):
    t = table(
        hands={0: ["3c", "Kc", "Qc", "2d", "4d", "5d", "7d"], 1: P1_HAND},
        tolerance={1: []},
        imports={0: ["Ah", "As"]},
        stock=STOCK,
    )
    s = t.state
    t.ship("3c", "Kc", "Qc").stop()  # 3 from the Stock, the King 2 Import cards, the Queen 3 + 2
    assert s.imp_size[1] == 3 + 3 + 2 + 5 and s.imp_size[0] == 0 and len(s.stock) == len(STOCK) - 8


# ----- rule 9: what a pass shows everyone -----------------------------------------------------------
def _dead(tolerance):
    """The suited kinds that alone allow nothing: Illegal at ``tolerance``, no Hire on a spade."""
    return frozenset(k for k in range(A.JOKER) if k // 13 != 3 and k % 13 + 2 > tolerance)


def test_rule9_a_pass_shows_no_playable_card_or_only_jokers_and_two_passes_show_both(table):
    joker = (frozenset({A.JOKER}), frozenset(), 0)
    hands = {0: ["Kd", "Kh"], 1: ["3c", "2s", "8s", "9d", "10s", "Js", "4d"]}
    t = table(hands=hands, tolerance={0: ["6s"], 1: ["9c"]}, stock=[])
    s = t.state
    t.pass_()
    assert s.shown[0] == ((_dead(9), frozenset(), 0), joker)
    t.hire("3c")  # P1's tolerance falls to 3: more kinds are dead alone, but P0's hand met both
    t.pass_()
    assert s.shown[0] == ((_dead(9), frozenset(), 0), joker)


def test_rule22_a_whole_hand_given_counts_with_what_came_before(table):
    t = table(
        hands={0: ["3c", "10c", "5d", "7d"], 1: P1_HAND},
        tolerance={1: ["9s"]},
        exports={0: ["2h", "3h", "4h"], 1: ["Ad"]},
        stock=[],
    )
    s = t.state
    t.ship("3c", "10c")  # the 10 is smuggled: the target decides before any transfer
    assert s.phase == FIRE_DECISION
    # the 3 empties the Export pile (no Import cards: it goes on); the 10 is owed from a hand of 2
    assert shipment_transfers(s) == 3 + 2 and shipment_transfers(s, with_smuggled=False) == 3
    assert smuggled_worth(s) == 2


def test_rule9_a_second_pass_after_a_draw_keeps_only_what_the_hand_can_still_be(table):
    # P0 passes with two dead cards; P1 ships a 4 (Legal at P0's 6, Illegal at P1's 2) and gives 4
    # dead cards; P0 draws all 5 and passes again: the hand still holds its 2 old cards
    hands = {0: ["Kd", "Kh"], 1: ["4d", "Jd", "Qd", "Kc", "Qc", "Jc", "Jh"]}
    t = table(hands=hands, tolerance={0: ["6s"], 1: ["2c"]}, stock=[])
    s = t.state
    t.pass_()
    t.ship("4d").stop().give("Jd", "Qd", "Kc", "Qc")
    assert s.current_player() == 0 and s.hand_size[0] == 7 and list(s.legal_actions()) == [A.PASS]
    t.pass_()
    # its 2 old cards are all dead alone, or both Jokers; an option that counts them in neither is gone
    joker = frozenset({A.JOKER})
    assert s.shown[0] == ((_dead(2), _dead(2), 2), (joker, joker, 2))


def test_rule14_the_table_counts_two_shipped_copies_of_one_card(table):
    t = table(hands={0: ["5h", "5h", "2d", "3d", "4d", "Kd", "Kc"], 1: P1_HAND}, tolerance={1: ["9s"]}, stock=STOCK)
    t.ship("5h", "5h")
    assert t.state.f_ship[A.card("5h")] == 2 and t.state.phase == SHIPPING


# ----- what a move leaves behind: the observation's move fields and the counters -----------------
def test_rule14_a_joker_shows_a_bribe_until_the_next_card_clears_it(table):
    # the bribe flag is on exactly while the Joker's bribe is pending: the next card turns it off
    t = table(hands={0: ["joker", "5h", "6c", "2d", "3d", "Kd", "Kc"], 1: P1_HAND}, tolerance={1: ["9s"]}, stock=STOCK)
    s = t.state
    t.ship("5h", "joker")
    assert s.bribe and s.f_ship_flags[FLAG_BRIBE] == 1
    t.ship("6c")  # any card after a Joker
    assert not s.bribe and s.f_ship_flags[FLAG_BRIBE] == 0 and s.phase == SHIPPING


def test_rule12_a_finished_sabotage_leaves_no_card_shown_as_pending(table):
    t = table(hands={0: ["5h", "5h", "7c", "2d", "Ks", "As", "Qs"], 1: P1_HAND}, tolerance={1: ["9s"]}, stock=STOCK)
    s = t.state
    t.act(A.sabotage("5h"))
    assert s.f_sabotage[A.card("5h")] == 1
    t.act(A.sabotage("5h"))
    assert s.phase == AFTER_SABOTAGE and not any(s.f_sabotage)


def test_rule8_a_turn_ends_with_no_target_shown_also_when_the_turn_limit_ends_the_game(table):
    # the next turn's start clears the target too, but a game drawn at the turn limit has none
    for limit, drawn in ((None, False), (3, True)):
        hands = {0: ["5h", "5h", "7c", "2d", "Ks", "As", "Qs"], 1: P1_HAND}
        t = table(hands=hands, tolerance={1: ["9s"]}, stock=STOCK, turn_limit=limit)
        s = t.state
        s.turns = 2
        t.sabotage("5h", "5h")
        assert s.target == 1 and s.f_target[1] == 1
        t.stop()  # the turn ends: P1 to move, nobody targeted yet (or the game is drawn)
        assert s.target == -1 and not any(s.f_target)
        assert (s.phase == OVER) is drawn


def test_the_turns_counter_saturates_exactly_at_the_limit(table):
    # the encoder's 16-bit turn counter holds 65535 at most; the turn count itself goes on
    t = table(hands={0: ["5h", "5h", "7c", "2d", "Ks", "As", "Qs"], 1: P1_HAND}, tolerance={1: ["9s"]}, stock=STOCK)
    s = t.state
    s.turns = 65535
    t.sabotage("5h", "5h").stop()
    assert s.turns == 65536 and s.counters[1] == 65535


def test_shipment_transfers_outside_a_fire_decision_names_the_phase(table):
    t = table(hands={0: ["5h", "6h", "7c", "2d", "Ks", "As", "Qs"], 1: P1_HAND}, tolerance={1: ["9s"]}, stock=STOCK)
    with pytest.raises(ValueError, match="asks at a Fire decision, not in phase"):
        shipment_transfers(t.state)


# ----- rule 5: drawing up to 7 from the Export pile, rebuilt from the Import pile -----------------
def test_rule5_an_export_pile_emptied_by_the_last_card_drawn_is_rebuilt_at_once_exactly_at_the_limit(table):
    # Six in hand, no Stock, one Export card: the seventh card empties the Export pile, which the
    # Import pile rebuilds at once (not at the next draw, which never comes this turn).
    t = table(
        hands={0: ["5h", "6h", "7c", "2d", "Ks", "As"], 1: P1_HAND},
        exports={0: ["4c"]},
        imports={0: ["2s", "3s"]},
        stock=[],
    )
    s = t.state
    assert s.phase == MAIN and s.hand_size[0] == 7 and "4c" in t.hand(0)
    assert len(t.exports(0)) == 2 and s.imp_size[0] == 0


def test_rule5_an_export_pile_left_with_a_card_is_not_rebuilt_one_before_the_limit(table):
    t = table(
        hands={0: ["5h", "6h", "7c", "2d", "Ks", "As"], 1: P1_HAND},
        exports={0: ["4c", "4d"]},
        imports={0: ["2s"]},
        stock=[],
    )
    s = t.state
    assert s.phase == MAIN and s.hand_size[0] == 7
    assert len(t.exports(0)) == 1 and s.imp_size[0] == 1
