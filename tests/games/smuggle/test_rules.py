"""Scripted scenarios, one or more per rule of the Smuggle rulebook (see docs/rules/smuggle.md).

Four players unless said otherwise: P0 is the first Customs Officer, P1 declares first, the
hand passes P1 -> P2 -> P3 -> P1 (skipping the Officer). Everyone starts with 3000.
"""

import pytest

import smuggle_envs
from smuggle_envs.core.errors import ConfigError, IllegalActionError
from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.vocab import DECLARE, DISCARD, OFFICER, RECEIVE

START = 3000
LUG = "luggage"


# ----- rule 1: dividing the money ---------------------------------------------------------
def test_rule1_money_divided_equally_per_player_default():
    for n in (3, 4, 5, 6):
        state = smuggle_envs.make_game("smuggle_v0", num_players=n).new_initial_state(0)
        assert state.money == [START] * n


def test_rule1_pot_remainder_is_out_of_the_game():
    # Contraband's 10,000 among 6: 1,665 each in whole 5-notes; 10 is put aside.
    game = smuggle_envs.make_game("smuggle_v0", num_players=6, pot=10_000)
    assert game.new_initial_state(0).money == [1665] * 6


def test_rule1_bad_money_config_is_refused():
    with pytest.raises(ConfigError):
        smuggle_envs.make_game("smuggle_v0", pot=10_000, money_per_player=100)
    with pytest.raises(ConfigError):
        smuggle_envs.make_game("smuggle_v0", money_per_player=-5)


# ----- rules 2, 3: roles and the opening draw ------------------------------------------------
def test_rule3_player_left_of_officer_draws_four_and_declares(table):
    t = table(["wine", "cigars", LUG, LUG])
    s = t.state
    assert s.officer == 0 and s.holder == 1 and s.current_player() == 1
    assert s.phase == DECLARE and t.hand() == ["cigars", LUG, LUG, "wine"]
    assert len(s.deck) == 56 - 4


def test_rule2_officer_never_holds_or_passes_cards(table):
    t = table()
    s = t.state
    t.declare().let_pass()
    assert s.receiver == 2
    t.accept().discard(s.hand_cards()[0]).declare().let_pass()
    assert s.receiver == 3
    t.accept().discard(s.hand_cards()[0]).declare().let_pass()
    # R2.6: the player on the Officer's right passes to the player on his left.
    assert s.holder == 3 and s.receiver == 1


def test_first_officer_is_configurable():
    state = smuggle_envs.make_game("smuggle_v0", first_officer=2).new_initial_state(0)
    assert state.officer == 2 and state.holder == 3


# ----- rules 4, 5: declaring and being believed ---------------------------------------------
def test_rule4_every_multiset_of_up_to_four_items_and_the_bag_claim_is_declarable(table):
    s = table().state
    assert len(s.legal_actions()) == A.NUM_DECLARATIONS + 1 == 496
    assert A.declare([4, 0, 0, 0, 0, 0, 0, 0]) in s.legal_actions()
    with pytest.raises(ValueError):
        A.declare([5, 0, 0, 0, 0, 0, 0, 0])  # a hand has only four cards


def test_rule5_believed_declaration_pays_declared_duty_to_officer_and_passes(table):
    t = table(["wine", "cigars", LUG, LUG]).declare("wine", "cigars").let_pass()
    assert t.money == [START + 75, START - 75, START, START]
    assert t.state.phase == RECEIVE and t.state.current_player() == 2


# ----- rules 6, 7, 8: searching a liar -------------------------------------------------------
def test_rule7_rulebook_example_wine_cigars_declared_watch_found(table):
    # "declared wine and cigars ... you had some wine, cigars, and a watch ... £50 + £100 + £300"
    t = table(["wine", "cigars", "watch", LUG]).declare("wine", "cigars").search()
    assert t.money == [START + 450, START - 450, START, START]


def test_rule7_fines_cover_declared_items_too_and_no_duty_on_top(table):
    t = table(["camera", "camera", "necklace", LUG]).declare("camera").search()
    assert t.money[1] == START - (400 + 400 + 500)


def test_rule8_over_declaring_is_untruthful_and_pays_fines_on_what_is_held(table):
    # Declared perfume and wine, holding only wine: no compensation, the wine's fine is due.
    t = table(["wine", LUG, LUG, LUG]).declare("perfume", "wine").search()
    assert t.money == [START + 50, START - 50, START, START]


def test_rule8_bluffed_declaration_pays_its_duty_when_believed(table):
    t = table([LUG, LUG, LUG, LUG]).declare("necklace").let_pass()
    assert t.money[1] == START - 250


# ----- rule 9: a truthful searched player ---------------------------------------------------
def test_rule9_truthful_searched_player_pays_duty_and_gets_200(table):
    t = table(["brandy", "perfume", LUG, LUG]).declare("perfume", "brandy").search()
    assert t.money == [START + 175 - 200, START - 175 + 200, START, START]


def test_rule9_declaring_nothing_truthfully_earns_200(table):
    t = table([LUG, LUG, LUG, "diplomatic bag"]).declare().search()
    assert t.money == [START - 200, START + 200, START, START]


# ----- rule 10: the open suitcase and the fresh hand -----------------------------------------
def test_rule10_searched_cards_go_face_up_and_next_player_draws_four(table):
    t = table(["wine", "wine", LUG, LUG, "watch", "watch", "crown", LUG]).declare("wine").search()
    s = t.state
    assert t.suitcase("wine") == 2 and t.suitcase(LUG) == 2
    assert s.holder == 2 and s.phase == DECLARE
    assert t.hand() == ["crown", LUG, "watch", "watch"]
    assert s.last_reveal[0] == 1


# ----- rule 11A: accepting ---------------------------------------------------------------------
def test_rule11a_accepting_costs_nothing_then_discard_one_and_draw_one(table):
    t = table(["wine", "cigars", LUG, LUG, "necklace"]).declare("wine", "cigars").let_pass()
    before = t.money
    t.accept()
    s = t.state
    assert t.money == before and s.phase == DISCARD and s.current_player() == 2
    # the receiver may discard any card it holds, and only those
    assert set(s.legal_actions()) == {A.discard(t.game.kind(k)) for k in ("wine", "cigars", LUG)}
    t.discard("cigars")
    assert t.suitcase("cigars") == 1
    assert t.hand() == [LUG, LUG, "necklace", "wine"] and s.phase == DECLARE and s.holder == 2


# ----- rule 11B: the Informer -----------------------------------------------------------------
def test_rule11b_informer_exposes_liar(table):
    t = table(["wine", "watch", LUG, LUG, "crown", LUG, LUG, LUG]).declare("wine").let_pass()
    assert t.money == [START + 25, START - 25, START, START]
    t.inform()
    # liar: all fines (50 + 300) to the Officer; duty not refunded; Officer pays the Informer 100
    assert t.money == [START + 25 + 350 - 100, START - 25 - 350, START + 100, START]
    s = t.state
    assert s.holder == 2 and s.phase == DECLARE and t.hand() == ["crown", LUG, LUG, LUG]


def test_rule11b_informer_pays_truthful_passer_200(table):
    t = table(["wine", LUG, LUG, LUG]).declare("wine").let_pass().inform()
    assert t.money == [START + 25, START - 25 + 200, START - 200, START]
    assert t.state.holder == 2 and t.suitcase("wine") == 1


# ----- rule 13: who cannot pay -----------------------------------------------------------------
def test_rule13_loan_lets_a_balance_go_negative(table):
    t = table(["crown", "necklace", "necklace", "necklace"], money_per_player=1000)
    t.declare().search()
    assert t.money[1] == 1000 - 2500 and t.money[0] == 1000 + 2500


def test_rule13_eliminate_puts_a_player_who_cannot_pay_out(table):
    t = table(["crown", "necklace", "necklace", "necklace"], money_per_player=1000, bankruptcy="eliminate")
    t.declare().search()
    s = t.state
    assert t.money == [2000, 0, 1000, 1000] and not s.active[1]
    assert s.holder == 2
    # the out player is skipped: P3 passes straight to P2
    t.declare().let_pass()
    assert s.receiver == 3
    t.accept().discard(s.hand_cards()[0]).declare().let_pass()
    assert s.receiver == 2


def test_rule13_eliminated_players_officer_round_is_skipped_and_game_ends_below_three():
    # 4 players; P1 goes bankrupt in round 1 (fines 2500 > 2000): the game goes on with
    # Officers P2, P3 and skips P1. Everyone else declares nothing and is never searched.
    game = smuggle_envs.make_game("smuggle_v0", money_per_player=2000, bankruptcy="eliminate")
    state = game.new_initial_state(0)
    state.arrange(["crown", "necklace", "necklace", "necklace"])
    state.apply_action(A.declare([0] * 8))
    state.apply_action(A.SEARCH)
    assert not state.active[1]
    officers = [state.officer]
    while not state.is_terminal():
        if state.officer != officers[-1]:
            officers.append(state.officer)
        if state.current_player() == state.officer:
            state.apply_action(A.LET_PASS)
        elif state.phase == RECEIVE:
            state.apply_action(A.ACCEPT)
        elif state.phase == DISCARD:
            state.apply_action(state.legal_actions()[0])
        else:
            state.apply_action(A.declare([0] * 8))
    assert officers == [0, 2, 3]
    assert state.money == [4000, 0, 2000, 2000]


def test_rule13_game_ends_when_fewer_than_three_players_remain(table):
    t = table(
        ["crown", "necklace", "necklace", "necklace"], num_players=3, money_per_player=1000, bankruptcy="eliminate"
    )
    t.declare().search()
    assert t.state.is_terminal() and t.money == [2000, 0, 1000]
    assert t.state.returns() == [1.0, -1.0, -1.0]


# ----- rule 14: the Diplomatic Bag -------------------------------------------------------------
def test_rule14_officer_challenges_a_real_bag(table):
    t = table(["diplomatic bag", "crown", "necklace", LUG, "wine", LUG, LUG, LUG]).claim_bag().search()
    assert t.money == [START - 200, START + 200, START, START]  # no duty or fine on the rest
    assert t.suitcase("diplomatic bag") == 1 and t.suitcase("crown") == 1
    assert t.state.holder == 2 and t.hand() == [LUG, LUG, LUG, "wine"]


def test_rule14_false_bag_claim_pays_200_plus_all_fines(table):
    t = table(["crown", "wine", LUG, LUG]).claim_bag().search()
    assert t.money == [START + 200 + 1000 + 50, START - 1250, START, START]


def test_rule14_unchallenged_bag_claim_pays_nothing_and_passes(table):
    t = table(["diplomatic bag", "crown", LUG, LUG]).claim_bag().let_pass()
    assert t.money == [START] * 4 and t.state.phase == RECEIVE


def test_rule14_next_player_challenges_a_real_bag_and_pays_200(table):
    t = table(["diplomatic bag", "crown", LUG, LUG]).claim_bag().let_pass().inform()
    assert t.money == [START, START + 200, START - 200, START]
    assert t.state.holder == 2 and t.state.phase == DECLARE


def test_rule14_next_player_challenge_of_real_bag_can_be_free_by_config(table):
    t = table(["diplomatic bag", LUG, LUG, LUG], informer_pays_real_bag=False)
    t.claim_bag().let_pass().inform()
    assert t.money == [START] * 4


def test_rule14_next_player_exposes_false_bag_claim(table):
    t = table(["crown", LUG, LUG, LUG]).claim_bag().let_pass().inform()
    assert t.money == [START + 1200 - 100, START - 1200, START + 100, START]


# ----- rule 15: a passed-on Bag must be discarded ----------------------------------------------
def test_rule15_receiver_must_discard_the_bag(table):
    t = table(["diplomatic bag", "wine", LUG, LUG]).claim_bag().let_pass().accept()
    s = t.state
    assert list(s.legal_actions()) == [A.discard(t.game.kind("diplomatic bag"))]
    with pytest.raises(IllegalActionError):
        t.discard("wine")
    t.discard("diplomatic bag")
    assert t.suitcase("diplomatic bag") == 1


def test_rule15_bag_held_without_a_claim_must_still_be_discarded(table):
    t = table(["diplomatic bag", "wine", LUG, LUG]).declare("wine").let_pass().accept()
    assert list(t.state.legal_actions()) == [A.discard(t.game.kind("diplomatic bag"))]


# ----- rule 16: the Crown ----------------------------------------------------------------------
def test_rule16_crown_duty_500(table):
    t = table(["crown", LUG, LUG, LUG]).declare("crown").let_pass()
    assert t.money[1] == START - 500


def test_rule16_crown_fine_1000(table):
    t = table(["crown", LUG, LUG, LUG]).declare().search()
    assert t.money[1] == START - 1000


# ----- rule 17: rounds and the end --------------------------------------------------------------
def _play_round_honestly(state):
    officer = state.officer
    while state.officer == officer and not state.is_terminal():
        if state.phase == DECLARE:
            state.apply_action(A.declare(list(state.hand.tolist()[:8])))
        elif state.phase == OFFICER:
            state.apply_action(A.LET_PASS)
        elif state.phase == RECEIVE:
            state.apply_action(A.ACCEPT)
        else:
            state.apply_action(state.legal_actions()[0])


def test_rule17_every_player_is_officer_once_then_the_game_ends():
    for n in (3, 4, 5, 6):
        state = smuggle_envs.make_game("smuggle_v0", num_players=n).new_initial_state(n)
        officers = []
        while not state.is_terminal():
            officers.append(state.officer)
            _play_round_honestly(state)
        assert officers == list(range(n))
        assert state.rounds_played == n and all(state.officer_done)


def test_round_ends_when_a_draw_cannot_be_made_and_the_pack_is_reshuffled(table):
    # R2.8: accepting players draw one card each; the round ends when the pack is empty.
    t = table()
    s = t.state
    _play_round_honestly(s)
    assert s.officer == 1 and s.rounds_played == 1
    assert len(s.deck) == 52 and sum(s.suitcase) == 0 and s.holder == 2


def test_round_ends_when_fewer_than_four_cards_remain_for_a_fresh_hand(table):
    t = table()
    s = t.state
    while len(s.deck) > 5:  # accept-and-draw until the pack is nearly empty
        if s.phase == DECLARE:
            s.apply_action(A.declare([0] * 8))
        elif s.phase == OFFICER:
            s.apply_action(A.LET_PASS)
        elif s.phase == RECEIVE:
            s.apply_action(A.ACCEPT)
        else:
            s.apply_action(s.legal_actions()[0])
    while s.phase != DECLARE:
        s.apply_action(s.legal_actions()[0] if s.phase == DISCARD else A.LET_PASS if s.phase == OFFICER else A.ACCEPT)
    remaining = len(s.deck)
    assert remaining < 8
    s.apply_action(A.declare([0] * 8))
    s.apply_action(A.SEARCH)  # searched: the next player needs 4 fresh cards
    if remaining < 4:
        assert s.rounds_played == 1 and s.officer == 1
    else:
        assert s.rounds_played == 0 and len(s.deck) == remaining - 4


# ----- rule 18: the winner ---------------------------------------------------------------------
def test_rule18_most_money_wins_and_ties_share():
    state = smuggle_envs.make_game("smuggle_v0").new_initial_state(0)
    state.money[:] = [100, 900, 900, 300]
    assert state.returns() == [-1.0, 1.0, 1.0, -1.0]
    assert state.returns("rank") == [-1.0, pytest.approx(2 / 3), pytest.approx(2 / 3), pytest.approx(-1 / 3)]


# ----- rule 6: a search shows the cards to everyone ---------------------------------------------
def test_rule6_searched_hand_is_shown_to_every_player(table):
    t = table(["wine", "cigars", "watch", LUG]).declare("wine", "cigars").search()
    layout = t.game.observation_layout
    for p in range(4):
        obs = t.state.observation(p)
        shown = (layout.get(obs, "last_reveal") * 4).round().astype(int).tolist()
        assert shown == [1, 1, 0, 0, 1, 0, 0, 0, 0, 1]
        assert layout.get(obs, "last_reveal_outcome").tolist() == [0, 1, 0, 0]  # caught lying
        assert layout.get(obs, "last_reveal_seat")[(1 - p) % 4] == 1


# ----- rule 12: the Officer collects, nothing else moves money --------------------------------
def test_rule12_play_continues_and_only_payments_move_money(table):
    t = table(["wine", LUG, LUG, LUG, "cigars"]).declare("wine").let_pass().accept()
    t.discard(LUG).declare("wine", "cigars").let_pass()
    assert t.money == [START + 25 + 75, START - 25, START - 75, START]
    assert sum(t.money) == 4 * START


def test_a_stacked_state_refuses_to_make_a_replay_of_another_game(table):
    t = table(["wine", LUG, LUG, LUG]).declare("wine")
    with pytest.raises(ValueError, match="arrange"):
        t.state.to_replay()
    assert smuggle_envs.make_game("smuggle_v0").new_initial_state(0).to_replay().seed == 0
