"""Smuggle's rules at their limits: a value exactly at a rule's boundary, on each side.

Each test pins one comparison, constant or seat of ``steps.py`` that a one-line bug could move
(``benchmarks/mutation.py`` plants such bugs). Four players unless said otherwise: P0 is the
first Customs Officer, P1 declares first, the hand passes P1 -> P2 -> P3 -> P1.
"""

import numpy as np

import smuggle_envs
from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.vocab import DECLARE, DISCARD, OFFICER, RECEIVE, SEARCH_RECORD_FIELDS

LUG = "luggage"
CROWN = ["crown", LUG, LUG, LUG]  # fine 1000, duty 500


# ----- rule 13 (eliminate): paying exactly everything one has is paying ------------------------
def test_rule13_fined_exactly_all_his_money_stays_in_exactly_at_the_limit(table):
    # Rule 13: out only if he "cannot pay"; 1000 of fines from 1000 is paid, down to 0.
    t = table(CROWN, money_per_player=1000, bankruptcy="eliminate").declare().search()
    s = t.state
    assert t.money == [2000, 0, 1000, 1000] and list(s.active) == [1, 1, 1, 1]
    assert s.holder == 2 and s.phase == DECLARE
    # still in: the hand goes round to him again (P3 passes to P1)
    t.declare().let_pass().accept().discard(t.state.hand_cards()[0]).declare().let_pass()
    assert s.holder == 3 and s.receiver == 1


def test_rule13_fined_one_more_than_his_money_is_out_one_past_the_limit(table):
    t = table(CROWN, money_per_player=995, bankruptcy="eliminate").declare().search()
    assert t.money == [1990, 0, 995, 995] and list(t.state.active) == [1, 0, 1, 1]


def test_rule13_duty_of_exactly_all_his_money_is_paid_and_he_passes_exactly_at_the_limit(table):
    # Crown declared and believed: 500 of duty from 500 leaves him at 0, still in, cards passed.
    t = table(CROWN, money_per_player=500, bankruptcy="eliminate").declare("crown").let_pass()
    s = t.state
    assert t.money == [1000, 0, 500, 500] and list(s.active) == [1, 1, 1, 1]
    assert s.receiver == 2


def test_rule13_a_player_at_zero_owing_duty_is_out_and_stays_at_zero_one_past_the_limit(table):
    # Fined to exactly 0 he stays in; owing 25 more at 0 he cannot pay: out, never below 0.
    t = table(CROWN + ["wine", LUG, LUG, LUG], money_per_player=1000, bankruptcy="eliminate")
    t.declare().search()  # P1 to 0, still in
    t.declare().let_pass().accept().discard(LUG).declare().let_pass().accept()  # P2, P3; back to P1
    assert t.state.holder == 1
    t.discard(t.state.hand_cards()[0]).declare("wine", "wine", "wine", "wine").let_pass()
    assert t.money[1] == 0 and list(t.state.active) == [1, 0, 1, 1]


# ----- R2.8: a draw that can just be made is made ------------------------------------------------
def _to_declare_with_pack(t, size):
    """Everyone declares nothing and is believed; each accepted hand draws one, down to ``size``."""
    s = t.state
    while not (s.phase == DECLARE and len(s.deck) == size):
        if s.phase == DECLARE:
            t.declare()
        elif s.phase == OFFICER:
            t.let_pass()
        elif s.phase == RECEIVE:
            t.accept()
        else:
            s.apply_action(s.legal_actions()[0])  # discard
    return s


def test_fresh_hand_drawn_from_exactly_four_cards_exactly_at_the_limit(table):
    t = table()
    s = _to_declare_with_pack(t, 4)
    t.declare().search()  # the next player needs four fresh cards: the last four
    assert s.rounds_played == 0 and s.officer == 0 and len(s.deck) == 0 and s.hand_size == 4


def test_fresh_hand_from_three_cards_ends_the_round_one_past_the_limit(table):
    t = table()
    s = _to_declare_with_pack(t, 3)
    t.declare().search()
    assert s.rounds_played == 1 and s.officer == 1


def test_accepted_hand_draws_the_last_card_exactly_at_the_limit(table):
    t = table()
    s = _to_declare_with_pack(t, 1)
    t.declare().let_pass().accept()
    s.apply_action(s.legal_actions()[0])  # discard one, draw the last card: play goes on
    assert s.rounds_played == 0 and len(s.deck) == 0 and s.phase == DECLARE and s.hand_size == 4
    t.declare().let_pass().accept()
    s.apply_action(s.legal_actions()[0])  # no card to draw: the round ends
    assert s.rounds_played == 1 and s.officer == 1


# ----- rule 13 / R2.9: a round needs three players still in -------------------------------------
def test_out_while_paying_duty_three_left_play_restarts_exactly_at_the_limit(table):
    t = table(CROWN + ["wine", LUG, LUG, LUG], money_per_player=400, bankruptcy="eliminate")
    t.declare("crown").let_pass()  # 500 of duty from 400: out, his hand laid open
    s = t.state
    assert list(s.active) == [1, 0, 1, 1] and t.money == [800, 0, 400, 400]
    assert not s.is_terminal() and s.holder == 2 and s.phase == DECLARE
    assert t.suitcase("crown") == 1 and t.hand() == [LUG, LUG, LUG, "wine"]


def test_out_while_paying_duty_two_left_the_game_ends_one_past_the_limit(table):
    t = table(CROWN, num_players=3, money_per_player=400, bankruptcy="eliminate")
    t.declare("crown").let_pass()
    s = t.state
    assert s.is_terminal() and t.money == [800, 0, 400]
    # over: nobody holds a hand or decides on one, in the state and in every seat's view
    assert s.holder == -1 and s.receiver == -1 and s.current_player() < 0
    layout = s.game.observation_layout
    for seat in range(3):
        obs = s.observation(seat)
        assert not layout.get(obs, "holder").any() and not layout.get(obs, "receiver").any()


# ----- the legal moves an agent is shown ------------------------------------------------------------
def test_mask_is_exactly_the_legal_actions_in_every_phase(table):
    t = table(["diplomatic bag", "wine", LUG, LUG])
    s = t.state
    seen = set()
    for move in (t.claim_bag, t.let_pass, t.accept, lambda: t.discard("diplomatic bag"), t.declare, t.search):
        mask, legal = s.legal_action_mask(), set(s.legal_actions())
        assert mask.dtype == np.int8 and mask.tolist() == [int(a in legal) for a in range(s.game.num_actions)]
        assert all(s._is_legal(a) == bool(mask[a]) for a in range(len(mask)))  # apply_action checks it
        seen.add(s.phase)
        move()
    assert seen == {DECLARE, OFFICER, RECEIVE, DISCARD}


# ----- rule 17: who has been Officer, as a seat sees it ----------------------------------------------
def test_officer_done_is_exactly_one_for_the_seat_whose_round_ended(table):
    t = table()
    s = _to_declare_with_pack(t, 3)
    t.declare().search()  # three cards cannot make a fresh hand: P0's round ends
    layout = s.game.observation_layout
    for seat in range(4):  # seat-relative: P0 is (0 - seat) % 4 places on
        expected = [1.0 if rel == -seat % 4 else 0.0 for rel in range(4)]
        assert layout.get(s.observation(seat), "officer_done").tolist() == expected


def test_seat_zero_is_the_last_officer_when_seat_one_began_exactly_at_the_limit():
    # Rule 17: everyone is Officer once, clockwise; the last Officer can be seat 0 (the lowest seat).
    state = smuggle_envs.make_game("smuggle_v0", num_players=4, first_officer=1).new_initial_state(0)
    officers = []
    while not state.is_terminal():
        if not officers or officers[-1] != state.officer:
            officers.append(state.officer)
        moves = {DECLARE: A.declare([0] * A.NUM_ITEMS), OFFICER: A.LET_PASS, RECEIVE: A.ACCEPT}
        state.apply_action(moves.get(state.phase, state.legal_actions()[0]))  # or the first discard
    assert officers == [1, 2, 3, 0] and state.rounds_played == 4


def _accept_and_discard(t):
    t.accept().state.apply_action(t.state.legal_actions()[0])  # the first legal discard
    return t


# ----- what the table remembers of a seat's declarations ----------------------------------------------
def test_mean_declared_duty_rounds_a_half_unit_up_exactly_at_the_limit(table):
    # In units of 25, rounded half up: wine (25) then nothing is 12.5 a declaration -> 1 unit.
    t = table(["wine", LUG, LUG, LUG])
    s = t.state
    t.declare("wine").let_pass()
    assert s.mean_declared_duty[1] == 1
    for _ in range(2):  # P2 and P3 accept, discard one and declare nothing, believed
        _accept_and_discard(t).declare().let_pass()
    _accept_and_discard(t).declare()  # P1's second declaration: nothing
    assert s.declarations[1] == 2 and s.mean_declared_duty[1] == 1
    t.let_pass()
    for _ in range(2):
        _accept_and_discard(t).declare().let_pass()
    _accept_and_discard(t).declare()  # a third: 25 / 3 = 8.3 a declaration -> 0 units
    assert s.declarations[1] == 3 and s.mean_declared_duty[1] == 0


def _records(state, seat):
    n = len(SEARCH_RECORD_FIELDS)
    row = list(state.search_record[seat * n : (seat + 1) * n])
    return {name: count for name, count in zip(SEARCH_RECORD_FIELDS, row) if count}


def test_search_records_count_every_search_on_the_right_seat(table):
    false_bag = ["wine", LUG, LUG, LUG]
    t = table([*CROWN, *false_bag, LUG, LUG, LUG, LUG, LUG, LUG, LUG, LUG, *false_bag])
    s = t.state
    t.declare().search()  # P1 caught with the Crown
    assert _records(s, 1) == {"searched_by_officer": 1, "caught_lying": 1}
    assert _records(s, 0) == {"officer_searches": 1, "officer_catches": 1}
    t.claim_bag().search()  # P2: no Bag
    layout = s.game.observation_layout
    for seat in range(4):  # only the last hand searched is shown: P2's, seat-relative
        expected = [1.0 if rel == (2 - seat) % 4 else 0.0 for rel in range(4)]
        assert layout.get(s.observation(seat), "last_reveal_seat").tolist() == expected
    t.declare().search()  # P3: luggage only, truthful
    t.declare().search()  # P1: luggage only, truthful
    assert _records(s, 1) == {"searched_by_officer": 2, "caught_lying": 1, "found_truthful": 1}
    assert _records(s, 3) == {"searched_by_officer": 1, "found_truthful": 1}
    t.claim_bag().search()  # P2's second false claim
    assert _records(s, 2) == {"searched_by_officer": 2, "caught_lying": 2, "false_bag_claims": 2}
    assert _records(s, 0) == {"officer_searches": 5, "officer_catches": 3}


# ----- rule 9 / 11B with eliminate: the Officer and the Informer pay too ------------------------------
ALL_LUGGAGE = [LUG] * 4


def test_officer_paying_exactly_all_his_money_for_defamation_stays_officer_exactly_at_the_limit(table):
    t = table(ALL_LUGGAGE, money_per_player=200, bankruptcy="eliminate").declare().search()
    s = t.state
    assert t.money == [0, 400, 200, 200] and list(s.active) == [1, 1, 1, 1]
    assert s.officer == 0 and s.rounds_played == 0 and s.holder == 2


def test_officer_who_cannot_pay_defamation_is_out_and_his_round_ends_one_past_the_limit(table):
    t = table(ALL_LUGGAGE, money_per_player=195, bankruptcy="eliminate").declare().search()
    s = t.state
    assert t.money == [0, 390, 195, 195] and list(s.active) == [0, 1, 1, 1]
    assert s.rounds_played == 1 and s.officer == 1 and s.holder == 2


def test_informer_paying_exactly_all_his_money_restarts_play_himself_exactly_at_the_limit(table):
    t = table(ALL_LUGGAGE, money_per_player=200, bankruptcy="eliminate").declare().let_pass().inform()
    s = t.state
    assert t.money == [200, 400, 0, 200] and list(s.active) == [1, 1, 1, 1] and s.holder == 2


def test_informer_who_cannot_pay_is_out_and_the_next_player_restarts_one_past_the_limit(table):
    t = table(ALL_LUGGAGE, money_per_player=195, bankruptcy="eliminate").declare().let_pass().inform()
    s = t.state
    assert t.money == [195, 390, 0, 195] and list(s.active) == [1, 1, 0, 1]
    assert s.holder == 3 and s.phase == DECLARE


def test_search_records_of_an_informer_and_of_an_accepted_hand(table):
    t = table([*CROWN, LUG, LUG, LUG, LUG])
    s = t.state
    t.declare().let_pass().inform()  # P2 informs on P1, who hid the Crown
    assert _records(s, 1) == {"searched_by_informer": 1, "caught_lying": 1}
    assert _records(s, 2) == {"informs": 1, "informer_catches": 1, "next_player_decisions": 1}
    assert _records(s, 0) == {}
    t.declare().let_pass().accept()  # P3 accepts P2's luggage
    assert _records(s, 3) == {"next_player_decisions": 1}
    assert _records(s, 2) == {"informs": 1, "informer_catches": 1, "next_player_decisions": 1}


def test_search_records_count_a_seats_decisions_as_next_player_across_accepting_and_informing(table):
    t = table()
    s = t.state
    t.declare().let_pass()
    for _ in range(4):  # P2, P3, P1, P2 accept, discard, declare nothing and are believed
        _accept_and_discard(t).declare().let_pass()
        assert s.receiver >= 0
    assert s.holder == 2 and _records(s, 2)["next_player_decisions"] == 2  # accepted twice
    t.inform()  # P3 decides as next player a second time
    assert _records(s, 3)["next_player_decisions"] == 2 and _records(s, 3)["informs"] == 1


def test_an_accepted_hand_has_no_receiver_until_it_is_passed_on(table):
    t = table().declare().let_pass().accept()
    assert t.state.phase == DISCARD and t.state.receiver == -1
    t.state.apply_action(t.state.legal_actions()[0])  # discarded and drawn: his declaration is due
    assert t.state.phase == DECLARE and t.state.receiver == -1


def test_bag_claims_and_the_duty_paid_flag_are_counted_exactly(table):
    t = table(["diplomatic bag", "wine", LUG, LUG])
    s = t.state
    layout = s.game.observation_layout
    t.claim_bag()
    assert layout.get(s.observation(0), "bag_claim").tolist() == [1.0]
    t.let_pass()  # an unchallenged claim passes: nothing to pay, the hand goes on
    assert layout.get(s.observation(0), "duty_paid").tolist() == [1.0]
    t.accept().discard("diplomatic bag")  # P2 must discard it (rule 15); a new declaration is due
    assert layout.get(s.observation(0), "bag_claim").tolist() == [0.0]
    assert layout.get(s.observation(0), "duty_paid").tolist() == [0.0]
    t.declare().let_pass()
    _accept_and_discard(t).declare().let_pass()  # P3
    _accept_and_discard(t).claim_bag().search()  # P1 claims again, falsely: the Bag is gone
    assert list(s.bag_claims) == [0, 2, 0, 0]
