"""Scripted scenarios, one or more per rule of the CIQ rulebook (see docs/rules/ciq.md).

Two players unless said otherwise: P0 plays first, P1 is the target. Scenarios are laid out with
``state.arrange`` (``scenarios.arrange``) (see conftest.py): hands, Tolerance piles (bottom first), Import and Export
piles, and the Stock from the top. Cards are named like "10d", "Qs", "joker".
"""

import pytest

import smuggle_envs
from smuggle_envs.core.errors import ConfigError, IllegalActionError
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

# Stock tops made of cards no scenario holds, so counts are easy to follow.
LOW = ["4c", "4d", "4h", "4s", "5c", "5d", "5h", "5s"] * 2
STOCK = LOW + ["7c", "7d", "7h", "7s", "8c", "8d", "8h", "8s"] * 2  # 32 cards
P1_HAND = ["2s", "3s", "8s", "9c", "9d", "10s", "Js"]


def top(state, count):
    """The next ``count`` cards of the Stock, top first."""
    return state.stock[::-1][:count]


# ----- set-up ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_rule_setup_one_six_per_player_seven_cards_and_the_stock(n):
    game = smuggle_envs.make_game("ciq_v0", num_players=n)
    state = game.new_initial_state(n)
    for p in range(n):
        assert len(state.tol[p]) == 1 and A.card_name(state.tol[p][0])[:-1] == "6"
        assert state.tol_value[p] == 6
        assert state.hand_size[p] == 7
        assert state.imp_size[p] == 0 and state.exp_size[p] == 0
    # one 54-card deck (two Jokers) per player
    assert game.total_cards == 54 * n and game.kind_counts[A.JOKER] == 2 * n
    assert len(state.stock) == 54 * n - n - 7 * n
    assert state.current_player() == 0 and state.phase == MAIN


def test_rule_setup_decks_and_first_player_are_configurable():
    state = smuggle_envs.make_game("ciq_v0", num_players=2, decks=1, first_player=1).new_initial_state(0)
    assert len(state.stock) == 54 - 2 - 14 and state.current_player() == 1
    with pytest.raises(ConfigError, match="decks"):
        smuggle_envs.make_game("ciq_v0", num_players=6, decks=1)  # 6 players, 4 sixes
    for bad in (
        {"num_players": 1},
        {"num_players": 7},
        {"first_player": 2},
        {"hand_size": 0},
        {"turn_limit": 0},
        {"ace_is_face": 1},
        {"decks": 0},
    ):
        with pytest.raises(ConfigError):
            smuggle_envs.make_game("ciq_v0", **{"num_players": 2, **bad})


# ----- start of turn --------------------------------------------------------------------------
def test_rule_start_of_turn_draws_up_to_seven_from_the_stock(table):
    t = table(hands={0: ["3c", "3d", "Kc", "Kd", "Qh", "Ah", "Ad"], 1: P1_HAND}, tolerance={1: ["9s"]}, stock=STOCK)
    s = t.state
    t.ship("3c", "3d").stop()  # transfers 3 + 3 from the Stock
    assert s.current_player() == 1 and t.hand(1) == sorted(P1_HAND)  # already 7: no draw
    nxt = [A.card_name(k) for k in top(s, 3)]
    t.draw()  # P1 draws one: 8 cards
    assert s.hand_size[1] == 8 and nxt[0] in t.hand(1)
    # P0 kept 5 cards and draws the next 2 at the start of its turn
    assert t.hand(0) == sorted(["Kc", "Kd", "Qh", "Ah", "Ad"] + nxt[1:])


def test_rule_stock_running_out_turns_every_import_pile_into_an_export_pile(table):
    t = table(
        3,
        hands={
            0: P1_HAND,
            1: ["2c"] * 2 + ["2d"] * 2 + ["2h", "3h", "4h"],
            2: ["3c", "3d", "5c", "5d", "6c", "7c", "7d"],
        },
        imports={1: ["Kc", "Qd"], 2: ["Ac"]},
        exports={2: ["9h"]},
        stock=["8c"],
    )
    s = t.state
    t.draw()  # P0 takes the last card of the Stock
    assert not s.stock
    assert t.imports(1) == [] and t.exports(1) == ["Kc", "Qd"]
    assert t.imports(2) == [] and t.exports(2) == sorted(["9h", "Ac"])
    assert s.exp_size[2] == 2 and s.imp_size[2] == 0
    # the flipped piles are still public knowledge: everyone saw them go in
    assert s.exp_pub[1][A.card("Kc")] == 1 and s.exp_pub[2][A.card("Ac")] == 1


def test_rule_stock_running_out_while_drawing_up_continues_from_the_new_export_pile(table):
    t = table(hands={0: ["2c", "3c", "4c", "5c", "7c"], 1: P1_HAND}, imports={0: ["9h", "9d", "10h"]}, stock=["Jd"])
    s = t.state
    # P0 needed 2 cards: the Stock's last one, then (Import turned over) one from the Export pile
    assert not s.stock and s.hand_size[0] == 7 and s.imp_size[0] == 0 and s.exp_size[0] == 2
    assert "Jd" in t.hand(0)
    assert sorted(t.hand(0) + t.exports(0)) == sorted(["2c", "3c", "4c", "5c", "7c", "Jd", "9h", "9d", "10h"])


def test_rule_empty_export_is_rebuilt_from_import_at_start_of_turn(table):
    t = table(hands={0: ["2c", "3c", "4c", "5c", "7c", "8c", "9c"], 1: P1_HAND}, imports={0: ["Qh", "Kh"]}, stock=[])
    assert t.imports(0) == [] and t.exports(0) == ["Kh", "Qh"]
    assert t.state.hand_size[0] == 7


def test_rule_export_running_out_while_drawing_is_rebuilt_and_drawing_continues(table):
    t = table(
        hands={0: ["2c", "3c", "4c", "5c", "7c"], 1: P1_HAND},
        exports={0: ["Ah"]},
        imports={0: ["Qh", "Kh", "Jh"]},
        stock=[],
    )
    s = t.state
    assert s.hand_size[0] == 7 and "Ah" in t.hand(0)
    assert s.imp_size[0] == 0 and s.exp_size[0] == 2
    assert sorted(t.hand(0) + t.exports(0)) == sorted(["2c", "3c", "4c", "5c", "7c", "Ah", "Qh", "Kh", "Jh"])


def test_rule_hand_below_seven_only_when_every_source_is_empty(table):
    t = table(hands={0: ["2c", "3c", "4c", "5c"], 1: P1_HAND}, exports={0: ["Ah"]}, stock=[])
    s = t.state
    assert s.hand_size[0] == 5 and s.exp_size[0] == 0 and s.imp_size[0] == 0
    assert s.phase == MAIN and s.current_player() == 0


# ----- the choice of one action -----------------------------------------------------------------
def test_rule_exactly_one_action_hire_or_draw_ends_the_turn(table):
    t = table(
        hands={0: ["2c", "3c", "4c", "5c", "7c", "8c", "9h"], 1: P1_HAND}, tolerance={0: ["6c"], 1: ["9s"]}, stock=STOCK
    )
    s = t.state
    legal = t.legal()
    assert A.DRAW in legal and A.hire("2c") in legal and A.ship("2c") in legal
    assert A.PASS not in legal and A.STOP not in legal
    t.draw()
    assert s.current_player() == 1 and s.turns == 1 and s.hand_size[0] == 8
    t.hire("2s")
    assert s.current_player() == 0 and s.turns == 2


def test_rule_two_players_ship_or_sabotage_without_choosing_a_target(table):
    t = table(hands={0: ["2c", "3c", "4c", "5c", "7c", "8c", "9h"], 1: P1_HAND}, tolerance={1: ["9s"]})
    assert not any(A.TARGET <= a < A.STOP for a in t.legal())
    assert A.ship("2c") in t.legal() and A.sabotage("2c") in t.legal()
    t.ship("2c")
    assert t.state.target == 1 and t.state.phase == SHIPPING


def test_rule_three_or_more_players_choosing_the_opponent_is_part_of_the_move(table):
    t = table(
        3,
        hands={
            0: ["2c", "3c", "4c", "5c", "7c", "8c", "9h"],
            1: P1_HAND,
            2: ["2d", "3d", "4d", "5d", "7d", "8d", "9d"],
        },
        tolerance={1: ["9s"], 2: ["2s"]},
        stock=STOCK,
    )
    s = t.state
    assert {A.target(1), A.target(2)} <= t.legal()
    assert not any(A.SHIP <= a < A.HIRE for a in t.legal())
    t.target(2)
    assert s.target == 2 and s.phase == OPEN and s.current_player() == 0
    assert t.legal() == {A.ship("2c"), A.sabotage("2c")}  # only the 2 is Legal against a 2
    t.ship("2c").stop()
    assert t.imports(2)[:1] and "2c" in t.imports(2) and s.imp_size[2] == 3
    assert s.imp_size[1] == 0 and s.current_player() == 1


def test_rule_a_target_is_offered_only_when_something_can_be_played_on_it(table):
    t = table(
        3,
        hands={
            0: ["Kc", "Kd", "Kh", "Qc", "Qd", "Qh", "Ac"],
            1: P1_HAND,
            2: ["2d", "3d", "4d", "5d", "7d", "8d", "9d"],
        },
        tolerance={0: ["6s"], 1: ["9s"], 2: []},
        stock=STOCK,
    )
    assert A.target(1) not in t.legal() and A.target(2) in t.legal()


def test_rule_pass_only_when_nothing_else_is_legal(table):
    t = table(hands={0: ["Kd", "Kh"], 1: P1_HAND}, tolerance={0: ["6s"], 1: ["2c"]}, stock=[])
    assert list(t.state.legal_actions()) == [A.PASS]
    t.pass_()
    assert t.state.current_player() == 1 and t.state.turns == 1
    # anything legal rules passing out
    t2 = table(hands={0: ["Kd", "Kh", "3s"], 1: P1_HAND}, tolerance={0: ["6s"], 1: ["2c"]}, stock=[])
    assert list(t2.state.legal_actions()) == [A.hire("3s")]


# ----- Import Tolerance ---------------------------------------------------------------------------
def test_rule_import_tolerance_legal_and_illegal_cards(table):
    t = table(hands={0: ["9h", "10h", "Jh", "2c", "Ac", "5d", "joker"], 1: P1_HAND}, tolerance={1: ["6s", "9s"]})
    firsts = {a - A.SHIP for a in t.legal() if a < A.SABOTAGE}
    # the top card (9) is the Import Tolerance: 9 or lower is Legal, higher is Illegal
    assert {A.card_name(k) for k in firsts} == {"9h", "2c", "5d"}


def test_rule_no_import_tolerance_makes_every_card_legal(table):
    t = table(hands={0: ["9h", "10h", "Jh", "2c", "Ac", "5d", "joker"], 1: P1_HAND}, tolerance={1: []})
    firsts = {A.card_name(a - A.SHIP) for a in t.legal() if a < A.SABOTAGE}
    assert firsts == {"9h", "10h", "Jh", "2c", "Ac", "5d"}  # a Joker is never Legal
    assert not any(A.SABOTAGE <= a < A.HIRE for a in t.legal())  # nothing to sabotage


# ----- Bribing -----------------------------------------------------------------------------------
def test_rule_joker_bribes_the_next_card_in_the_middle_of_a_shipment(table):
    t = table(
        hands={0: ["3c", "joker", "Kd", "4d", "Qd", "Kh", "joker"], 1: P1_HAND}, tolerance={1: ["5s"]}, stock=STOCK
    )
    s = t.state
    t.ship("3c")
    assert A.ship("joker") in t.legal()  # a Joker may be played on any card
    t.ship("joker")
    assert s.bribe and t.legal() == {A.ship(c) for c in ("Kd", "4d", "Qd", "Kh", "joker")} | {A.STOP}
    t.ship("Kd")  # Illegal by value, but bribed
    assert s.phase == SHIPPING and s.smuggled == -1
    # after the bribed card: Legal cards matching it, or one smuggled card of its suit
    assert t.legal() == {A.ship("4d"), A.ship("Qd"), A.ship("joker"), A.STOP}
    t.stop()
    assert s.current_player() == 1, "a bribed card gives no chance to Fire"
    # transfers: 3, the Joker nothing, the King P0's (empty) Import pile
    assert s.imp_size[1] == 3 + 3


def test_rule_joker_does_not_open_a_shipment_unless_configured(table):
    hands = {0: ["joker", "Kh", "Kd", "Qh", "Qd", "Jh", "Jd"], 1: P1_HAND}
    t = table(hands=hands, tolerance={1: ["5s"]})
    assert A.ship("joker") not in t.legal() and A.sabotage("joker") in t.legal()
    t2 = table(hands=hands, tolerance={1: ["5s"]}, joker_opens_shipment=True)
    assert A.ship("joker") in t2.legal()
    t2.ship("joker", "Kh").stop()
    assert t2.state.imp_size[1] == 2  # K: P0's Import pile is empty


# ----- Sabotage -----------------------------------------------------------------------------------
def test_rule_sabotage_legal_card_then_one_of_its_suit_raises_the_tolerance(table):
    t = table(hands={0: ["5h", "10h", "2c", "3d", "4d", "Ks", "Kd"], 1: P1_HAND}, tolerance={1: ["6s", "9s"]})
    s = t.state
    assert A.sabotage("5h") in t.legal() and A.sabotage("10h") not in t.legal()  # first must be Legal
    assert A.sabotage("2c") not in t.legal()  # no second club to follow it
    t.act(A.sabotage("5h"))
    assert s.phase == SABOTAGE2 and t.legal() == {A.sabotage("10h")}
    t.act(A.sabotage("10h"))
    assert t.tolerance(1) == ["6s", "9s", "5h", "10h"] and s.tol_value[1] == 10
    assert s.phase == AFTER_SABOTAGE and A.STOP in t.legal()
    # shipping after the sabotage is judged against the new tolerance (10)
    assert A.ship("3d") in t.legal() and A.ship("Ks") not in t.legal()
    t.stop()
    assert s.current_player() == 1 and s.imp_size[1] == 0


def test_rule_sabotage_illegal_face_card_wipes_the_tolerance_pile_to_the_export_pile(table):
    t = table(
        hands={0: ["5h", "Kh", "Ks", "Ac", "2d", "3d", "4d"], 1: P1_HAND}, tolerance={1: ["6s", "9s"]}, stock=STOCK
    )
    s = t.state
    t.sabotage("5h", "Kh")
    assert s.tol[1] == [] and s.tol_value[1] == 0
    assert t.exports(1) == sorted(["6s", "9s", "5h", "Kh"])
    # wide open: every card is Legal now, so the Ace may open a shipment
    assert A.ship("Ac") in t.legal() and A.ship("Ks") in t.legal()
    t.ship("2d", "3d").stop()
    assert s.imp_size[1] == 2 + 2 + 3
    # while the Stock lasts that Export pile is not drawn from (P1 holds 7 anyway)
    assert s.exp_size[1] == 4


def test_rule_sabotage_judges_both_cards_against_the_tolerance_before_it(table):
    # Against a Queen, J is Legal (no wipe) although it is higher than the first card played.
    t = table(hands={0: ["2h", "Jh", "2c", "3c", "4c", "5c", "7c"], 1: P1_HAND}, tolerance={1: ["Qs"]})
    t.sabotage("2h", "Jh")
    assert t.tolerance(1) == ["Qs", "2h", "Jh"] and t.state.tol_value[1] == 11


def test_rule_sabotage_with_a_joker_then_any_card(table):
    t = table(hands={0: ["joker", "Qd", "Ks", "Ac", "Kc", "Kd", "Kh"], 1: P1_HAND}, tolerance={1: ["2s"]})
    assert {a for a in t.legal() if A.SABOTAGE <= a < A.HIRE} == {A.sabotage("joker")}
    t.act(A.sabotage("joker"))
    assert A.sabotage("joker") not in t.legal() and A.sabotage("Ac") in t.legal()
    t.act(A.sabotage("Ac"))  # not a face card: no wipe, tolerance 14
    assert t.tolerance(1) == ["2s", "joker", "Ac"] and t.state.tol_value[1] == 14


def test_rule_sabotage_bribed_face_card_wipes_unless_configured(table):
    hands = {0: ["joker", "Qd", "Ks", "Ac", "Kc", "Kd", "Kh"], 1: P1_HAND}
    t = table(hands=hands, tolerance={1: ["2s"]})
    t.sabotage("joker", "Qd")
    assert t.state.tol[1] == [] and t.exports(1) == sorted(["2s", "joker", "Qd"])
    t2 = table(hands=hands, tolerance={1: ["2s"]}, bribed_face_wipes=False)
    t2.sabotage("joker", "Qd")
    assert t2.tolerance(1) == ["2s", "joker", "Qd"]


def test_rule_sabotage_needs_a_tolerance_pile(table):
    t = table(hands={0: ["2h", "3h", "2c", "3c", "4c", "5c", "7c"], 1: P1_HAND}, tolerance={1: []})
    assert not any(A.SABOTAGE <= a < A.HIRE for a in t.legal())


# ----- Shipping -----------------------------------------------------------------------------------
def test_rule_shipping_legal_first_then_matching_suit_or_rank(table):
    t = table(hands={0: ["6h", "2h", "2d", "7c", "9s", "10s", "Qh"], 1: P1_HAND}, tolerance={1: ["9s"]}, stock=STOCK)
    s = t.state
    assert A.ship("10s") not in t.legal() and A.ship("Qh") not in t.legal()  # Illegal first cards
    t.ship("6h")
    # suit (hearts) or rank (6) and Legal; the Qh is the one Illegal card of the same suit
    assert t.legal() == {A.ship("2h"), A.ship("Qh"), A.STOP}
    t.ship("2h")
    assert t.legal() == {A.ship("2d"), A.ship("Qh"), A.STOP}
    t.ship("2d")
    assert t.legal() == {A.STOP}  # no diamond, no other 2 left
    t.stop()
    assert s.imp_size[1] == 3 + 6 + 2 + 2 and s.current_player() == 1


def test_rule_shipping_an_illegal_card_must_match_the_suit_and_ends_the_shipment(table):
    t = table(hands={0: ["9h", "9d", "10d", "10h", "Kd", "2c", "3c"], 1: P1_HAND}, tolerance={1: ["9s"]})
    s = t.state
    t.ship("9h")
    assert A.ship("10h") in t.legal()  # same suit: may be smuggled
    assert A.ship("10d") not in t.legal()  # Illegal, not the previous card's suit
    t.ship("9d")
    assert A.ship("10d") in t.legal() and A.ship("Kd") in t.legal() and A.ship("10h") not in t.legal()
    t.ship("Kd")
    assert s.smuggled == 2 and s.phase == FIRE_DECISION and s.current_player() == 1


def test_rule_rulebook_example_6h_2h_2d_10d_against_9s_transfers_20(table):
    # "if an opponent's Import Tolerance is a 9 of spades, you could Ship 6h-2h-2d-10d. The 10 would
    # end the Shipment since it is higher than 9 ... This Shipment would allow you to transfer 20."
    t = table(
        hands={0: ["6h", "2h", "2d", "10d", "3c", "4c", "5c"], 1: ["2s", "3s", "8s", "9c", "9d", "8d", "7s"]},
        tolerance={1: ["9s"]},
        stock=STOCK,
    )
    s = t.state
    t.ship("6h", "2h", "2d", "10d")
    assert s.smuggled == 3 and A.card_name(s.ship[s.smuggled]) == "10d"
    assert s.phase == FIRE_DECISION and t.legal() == {A.KEEP}  # P1 holds no face card
    expected = top(s, 20)
    t.keep()
    assert s.imp_size[1] == 4 + 20 and len(s.stock) == len(STOCK) - 20
    assert sorted(t.imports(1)) == sorted(["6h", "2h", "2d", "10d"] + [A.card_name(k) for k in expected])


# ----- Transfers ------------------------------------------------------------------------------------
# Without a Stock, P1 is given an Export pile so that its Import pile (the shipment) is not turned
# over at the start of its turn, where these tests look at it.
def test_rule_transfer_number_cards_move_their_value_from_the_stock(table):
    t = table(hands={0: ["3c", "4c", "5c", "7c", "8c", "9c", "10c"], 1: P1_HAND}, tolerance={1: []}, stock=STOCK)
    moved = top(t.state, 7)
    t.ship("7c").stop()
    assert t.imports(1) == sorted(["7c"] + [A.card_name(k) for k in moved])


def test_rule_transfer_jack_turns_over_the_top_card_and_moves_double(table):
    t = table(
        hands={0: ["Jc", "4c", "5c", "7c", "8c", "9c", "10c"], 1: P1_HAND}, tolerance={1: []}, stock=["3d"] + STOCK
    )
    s = t.state
    t.ship("Jc").stop()
    assert "3d" in t.imports(1)
    assert s.imp_size[1] == 1 + 1 + 6  # the Jack, the 3 on it, 2 x 3 transferred


def test_rule_transfer_jack_turning_over_a_face_card_moves_nothing_more(table):
    t = table(
        hands={0: ["Jc", "4c", "5c", "7c", "8c", "9c", "10c"], 1: P1_HAND}, tolerance={1: []}, stock=["Qd"] + STOCK
    )
    t.ship("Jc").stop()
    assert t.state.imp_size[1] == 2


def test_rule_transfer_jack_with_no_stock_turns_over_an_export_card(table):
    t = table(
        hands={0: ["Jc", "4c", "5c", "7c", "8c", "9c", "10c"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["2d", "2h", "2s", "2c"], 1: ["Ad"]},
        stock=[],
    )
    s = t.state
    t.ship("Jc").stop()
    # a 2 is turned over and moves 4: the 3 Export cards left, then (no Import pile) 1 from hand
    assert A.card_name(s.flipped[0])[0] == "2"
    assert s.exp_size[0] == 0 and s.phase == GIVE_FROM_HAND
    t.give("10c")
    assert s.imp_size[1] == 1 + 1 + 3 + 1 and s.current_player() == 1


def test_rule_transfer_queen_doubles_everything_before_it(table):
    t = table(hands={0: ["3c", "3d", "Qd", "Qc", "4h", "5h", "7h"], 1: P1_HAND}, tolerance={1: []}, stock=STOCK)
    t.ship("3c", "3d", "Qd").stop()
    assert t.state.imp_size[1] == 3 + (3 + 3) * 2


def test_rule_transfer_two_queens_compound(table):
    t = table(hands={0: ["3c", "Qc", "Qd", "4h", "5h", "7h", "8h"], 1: P1_HAND}, tolerance={1: []}, stock=STOCK)
    t.ship("3c", "Qc", "Qd").stop()
    assert t.state.imp_size[1] == 3 + 3 * 4  # 3, doubled to 6, doubled to 12


def test_rule_transfer_king_moves_the_import_pile(table):
    t = table(
        hands={0: ["Kc", "4c", "5c", "7c", "8c", "9c", "10c"], 1: P1_HAND},
        tolerance={1: []},
        imports={0: ["2d", "3d", "Ah"], 1: ["9h"]},
        stock=STOCK,
    )
    s = t.state
    t.ship("Kc").stop()
    assert s.imp_size[0] == 0 and t.imports(1) == sorted(["Kc", "9h", "2d", "3d", "Ah"])


def test_rule_transfer_ace_moves_nothing_while_the_stock_remains(table):
    t = table(
        hands={0: ["Ac", "4c", "5c", "7c", "8c", "9c", "10c"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["2d", "3d"]},
        stock=STOCK,
    )
    t.ship("Ac").stop()
    assert t.state.imp_size[1] == 1 and t.state.exp_size[0] == 2


def test_rule_transfer_ace_moves_the_export_pile_once_the_stock_is_gone(table):
    t = table(
        hands={0: ["Ac", "4c", "5c", "7c", "8c", "9c", "10c"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["2d", "3d", "Jh"], 1: ["Ad"]},
        stock=[],
    )
    s = t.state
    t.ship("Ac").stop()
    assert s.exp_size[0] == 0 and t.imports(1) == sorted(["Ac", "2d", "3d", "Jh"])
    assert s.current_player() == 1


def test_rule_sources_after_the_stock_come_from_the_export_pile(table):
    t = table(
        hands={0: ["3c", "4c", "5c", "7c", "8c", "9c", "10c"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["2d", "3d", "Jh", "Qh", "Kh"], 1: ["Ad"]},
        stock=[],
    )
    s = t.state
    t.ship("3c").stop()
    assert s.exp_size[0] == 2 and s.imp_size[1] == 4 and s.hand_size[0] == 6


def test_rule_sources_export_running_out_with_import_cards_ends_the_turn(table):
    t = table(
        hands={0: ["5c", "4c", "3c", "7c", "8c", "9c", "10c"], 1: P1_HAND},
        tolerance={1: []},
        exports={0: ["2d", "3d"], 1: ["Ad"]},
        imports={0: ["Ah"]},
        stock=[],
    )
    s = t.state
    t.ship("5c", "4c").stop()
    # the 5 empties the Export pile after 2 cards; the Import pile holds a card: the turn ends
    # and the 4 transfers nothing
    assert s.imp_size[1] == 2 + 2 and s.hand_size[0] == 5 and s.current_player() == 1
    assert t.imports(0) == ["Ah"]


def test_rule_sources_hand_only_when_the_import_pile_is_empty(table):
    t = table(hands={0: ["2c", "5c", "9d", "Kh", "4s"], 1: P1_HAND}, tolerance={1: []}, exports={1: ["Ad"]}, stock=[])
    s = t.state
    t.ship("2c").stop()
    # no Stock, no Export, no Import: the shipper picks the 2 cards from hand
    assert s.phase == GIVE_FROM_HAND and s.current_player() == 0
    assert t.legal() == {A.give(c) for c in ("5c", "9d", "Kh", "4s")}
    t.give("9d", "Kh")
    assert t.hand(0) == sorted(["5c", "4s"]) and t.imports(1) == sorted(["2c", "9d", "Kh"])
    assert s.current_player() == 1


def test_rule_sources_stock_running_out_while_transferring_ends_the_turn(table):
    t = table(
        hands={0: ["3c", "Ac", "5c", "7c", "8c", "9c", "10c"], 1: P1_HAND},
        tolerance={1: []},
        imports={0: ["Kh"]},
        exports={0: ["2d"]},
        stock=["4d", "4h", "4s"],
    )
    s = t.state
    t.ship("3c", "Ac").stop()
    # the 3 takes the last 3 Stock cards: the turn ends there, the Ace moves nothing, and every
    # Import pile is turned over
    assert not s.stock and s.current_player() == 1
    assert s.imp_size[1] == 0 and s.exp_size[1] == 2 + 3
    assert sorted(t.exports(0)) == sorted(["2d", "Kh"])


# ----- Firing the customs worker ---------------------------------------------------------------
def test_rule_fire_target_decides_before_transfers_and_stops_the_illegal_card(table):
    t = table(
        hands={0: ["6h", "2h", "2d", "10d", "3c", "4c", "5c"], 1: ["Qs", "Kd", "3s", "8s", "9c", "9d", "7s"]},
        tolerance={1: ["6s", "9s"]},
        stock=STOCK,
    )
    s = t.state
    t.ship("6h", "2h", "2d", "10d")
    assert s.current_player() == 1 and s.phase == FIRE_DECISION
    assert s.imp_size[1] == 4  # nothing transferred yet
    assert t.legal() == {A.fire("Qs"), A.fire("Kd"), A.KEEP}
    t.fire("Kd")
    assert s.tol[1] == [] and t.exports(1) == sorted(["6s", "9s", "Kd"])
    assert s.imp_size[1] == 4 + 6 + 2 + 2  # the 10 is still played but moves nothing
    assert s.current_player() == 1 and s.turn == 1  # P0's turn is over


def test_rule_fire_only_for_an_illegal_card(table):
    t = table(
        hands={0: ["6h", "2h", "2d", "3c", "4c", "5c", "7c"], 1: ["Qs", "Kd", "3s", "8s", "9c", "9d", "7s"]},
        tolerance={1: ["9s"]},
        stock=STOCK,
    )
    t.ship("6h", "2h").stop()
    assert t.state.turn == 1 and t.state.phase == MAIN


def test_rule_fire_ace_counts_as_a_face_card_only_by_config(table):
    hands = {0: ["6h", "10h", "3c", "4c", "5c", "7c", "8c"], 1: ["As", "3s", "8s", "9c", "9d", "7s", "2s"]}
    t = table(hands=hands, tolerance={1: ["9s"]}, stock=STOCK)
    t.ship("6h", "10h")
    assert t.legal() == {A.KEEP}
    t2 = table(hands=hands, tolerance={1: ["9s"]}, stock=STOCK, ace_is_face=True)
    t2.ship("6h", "10h")
    assert t2.legal() == {A.fire("As"), A.KEEP}


# ----- Hiring -------------------------------------------------------------------------------------
def test_rule_hire_same_suit_replaces_the_pile_which_goes_to_the_export_pile(table):
    t = table(
        hands={0: ["2s", "Ks", "2c", "3c", "4d", "joker", "9h"], 1: P1_HAND}, tolerance={0: ["6s", "8s"]}, stock=STOCK
    )
    s = t.state
    assert {a for a in t.legal() if A.HIRE <= a < A.FIRE} == {A.hire("2s"), A.hire("Ks")}
    t.hire("2s")
    assert t.tolerance(0) == ["2s"] and s.tol_value[0] == 2
    assert t.exports(0) == sorted(["6s", "8s"]) and s.current_player() == 1


def test_rule_hire_any_card_without_a_tolerance_pile(table):
    t = table(hands={0: ["2s", "Ks", "2c", "3c", "4d", "joker", "9h"], 1: P1_HAND}, tolerance={0: []})
    hires = {A.card_name(a - A.HIRE) for a in t.legal() if A.HIRE <= a < A.FIRE}
    assert hires == {"2s", "Ks", "2c", "3c", "4d", "9h"}  # not a Joker: it has no value


# ----- the end of the game ----------------------------------------------------------------------
def test_rule_win_first_to_empty_hand_import_and_export_by_shipping(table):
    t = table(hands={0: ["3c", "5c"], 1: P1_HAND}, tolerance={1: []}, stock=[])
    s = t.state
    t.ship("3c").stop()
    assert s.is_terminal() and s.winners == [0]
    assert s.returns() == [1.0, -1.0]
    assert s.scores() == [0.0, -float(7 + 2)]  # P1: 7 in hand, the 3 and 5 shipped to it


def test_rule_win_when_a_sabotage_or_a_hire_plays_the_last_cards(table):
    # "by means of Shipping" describes the usual way; playing the last cards otherwise also wins
    t = table(hands={0: ["5h", "10h"], 1: P1_HAND}, tolerance={1: ["9s"]}, stock=[])
    t.sabotage("5h", "10h")
    assert t.legal() == {A.STOP}
    t.stop()
    assert t.state.winners == [0]
    t2 = table(hands={0: ["2c"], 1: P1_HAND}, tolerance={0: []}, stock=[])
    t2.hire("2c")
    assert t2.state.winners == [0] and t2.tolerance(0) == ["2c"]


def test_rule_no_win_while_the_stock_remains(table):
    t = table(hands={0: ["3c", "3d"], 1: P1_HAND}, tolerance={1: []}, stock=STOCK)
    s = t.state
    assert s.hand_size[0] == 7  # drew up to 7 first
    t2 = table(hands={0: ["3c"] * 2 + ["3d"] * 2 + ["3h"] * 2 + ["3s"], 1: P1_HAND}, tolerance={1: []}, stock=STOCK)
    t2.ship("3c", "3c", "3d", "3d", "3h", "3h", "3s").stop()
    s2 = t2.state
    assert s2.hand_size[0] == 0 and not s2.is_terminal() and s2.current_player() == 1
    t2.draw()
    assert s2.hand_size[0] == 7  # back to 7 from the Stock


def test_rule_win_with_an_empty_table_when_the_stock_runs_out(table):
    # P0 emptied everything while a Stock remained; when P1 takes its last card, P0 has won.
    t = table(hands={0: [], 1: P1_HAND}, stock=["2d"], turn=1)
    s = t.state
    assert s.hand_size[0] == 0 and not s.is_terminal()
    t.draw()
    assert s.is_terminal() and s.winners == [0]


def test_rule_turn_limit_ends_the_game_as_a_draw():
    game = smuggle_envs.make_game("ciq_v0", num_players=3, turn_limit=4)
    state = game.new_initial_state(0)
    while not state.is_terminal():
        state.apply_action(A.DRAW)
    assert state.turns == 4 and state.drawn_game and state.winners == []
    for mode in ("win_loss", "rank", "score"):
        assert state.returns(mode) == [0.0, 0.0, 0.0]
    with pytest.raises(IllegalActionError):
        state.apply_action(A.DRAW)


def test_rule_illegal_sequences_are_refused_without_change(table):
    t = table(hands={0: ["6h", "2h", "2d", "10d", "3c", "4c", "5c"], 1: P1_HAND}, tolerance={1: ["9s"]})
    t.ship("6h")
    before = (bytes(t.state.buf), list(t.state.ship))
    for bad in (A.ship("10d"), A.DRAW, A.hire("2h"), A.sabotage("2h"), A.PASS, A.KEEP):
        with pytest.raises(IllegalActionError):
            t.state.apply_action(bad)
    assert (bytes(t.state.buf), list(t.state.ship)) == before


def test_phase_names_cover_every_decision():
    assert {MAIN, OPEN, SABOTAGE2, AFTER_SABOTAGE, SHIPPING, FIRE_DECISION, GIVE_FROM_HAND} == set(range(7))
    assert OVER == 7


def test_rule_export_pile_is_inert_while_the_stock_lasts(table):
    # R1.4: a Tolerance pile sent to the Export pile early stays there; hands are filled and
    # single draws are made from the Stock until it is gone.
    t = table(hands={0: ["2s", "3c", "4c", "5c", "7c", "8c", "9c"], 1: P1_HAND}, tolerance={0: ["6s"]}, stock=STOCK)
    s = t.state
    t.hire("2s")  # the 6s goes to P0's Export pile
    assert t.exports(0) == ["6s"] and s.hand_size[0] == 6
    nxt = A.card_name(top(s, 1)[0])
    t.draw()  # P1's single draw comes from the Stock
    assert nxt in t.hand(1)
    assert s.hand_size[0] == 7 and t.exports(0) == ["6s"]  # P0 refilled from the Stock too
