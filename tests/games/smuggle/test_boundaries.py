"""Smuggle's rules at their limits: a value exactly at a rule's boundary, on each side.

Each test pins one comparison, constant or seat of ``steps.py`` that a one-line bug could move
(``benchmarks/mutation.py`` plants such bugs). Four players unless said otherwise: P0 is the
first Customs Officer, P1 declares first, the hand passes P1 -> P2 -> P3 -> P1.
"""

import numpy as np

import smuggle_envs
from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.rules import DECLARE, DISCARD, OFFICER, RECEIVE

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
