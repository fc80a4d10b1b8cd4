"""Illegal's rules at their limits: a value exactly at a rule's boundary, and the seats around it.

Each test pins one comparison, constant or seat of ``steps.py`` that a one-line bug could move
(``benchmarks/mutation.py`` plants such bugs). Four players unless said otherwise; positions as
in ``test_rules.py`` (conftest ``Table``). Seats other than P0 move in several tests, so that a
seat counted from 0 instead of from the player to move, or not wrapped round the table, shows.
"""

import numpy as np

from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import EXTRA, PASS, PLAY, REACT, TRADE_ANSWER, TRADE_PARTNER, TRADE_WANT


def known(t, observer, seat):
    """What ``observer`` knows to be in ``seat``'s hand, per kind."""
    return list(t.state.known[observer][seat])


# ----- Several hands (R4.11): a total of exactly the target ends the game -------------------------
def test_multi_hand_game_ends_at_a_total_of_exactly_the_target_exactly_at_the_limit(table):
    t = table(hands={0: ["day of accounting"], 1: [], 2: [], 3: []}, markets=[0], tables={0: ["the coup"]})
    t2 = table(
        hands={0: ["day of accounting"], 1: [], 2: [], 3: []},
        markets=[0],
        tables={0: ["the coup"]},
        target_score=100_000,
    )
    t.play("day of accounting")
    t2.play("day of accounting")
    assert t.state.is_terminal()  # one hand: over whatever the totals
    assert t2.state.is_terminal() and t2.state.totals == [100_000, 0, 0, 0]
    assert t2.state.scores() == [100_000.0, 0.0, 0.0, 0.0]


def test_multi_hand_game_goes_on_one_below_the_target_one_past_the_limit(table):
    t = table(
        hands={0: ["day of accounting"], 1: [], 2: [], 3: []},
        markets=[0],
        tables={0: ["the coup"]},
        target_score=100_001,
    )
    t.play("day of accounting")
    assert not t.state.is_terminal() and t.state.rounds_played == 1


def test_multi_hand_game_stops_after_exactly_max_hands_exactly_at_the_limit(table):
    t = table(
        hands={0: ["day of accounting"], 1: [], 2: [], 3: []},
        markets=[0],
        target_score=10**9,
        max_hands=1,
    )
    t.play("day of accounting")
    assert t.state.is_terminal() and t.state.rounds_played == 1
    assert t.state.decider == -1 and not any(t.state.f_decider)  # nobody decides any more


def test_next_hand_is_opened_by_the_seat_left_of_the_last_seat_wrapping_round(table):
    # The dealer rotates: with P3 first, the second hand is opened by P0 (seat 4 wraps to 0).
    t = table(
        hands={3: ["day of accounting"], 0: [], 1: [], 2: []},
        markets=[3],
        first_player=3,
        target_score=10**9,
    )
    assert t.state.active == 3
    t.play("day of accounting")
    assert not t.state.is_terminal() and t.state.active == 0 and t.state.phase == PLAY


# ----- R4.4: three identical cards, not two ---------------------------------------------------------
def test_two_identical_cards_are_no_triple_one_below_the_limit(table):
    t = table(hands={0: ["alibi", "alibi", "white coat", "informant"] + ["tax inspection"] * 3})
    assert not t.can(A.triple("alibi")) and t.can(A.triple("tax inspection"))


# ----- R4.9: trades at their limits ---------------------------------------------------------------
def test_trade_offers_exactly_the_cards_held_of_a_kind_exactly_at_the_limit(table):
    # One Gambling in hand, two cards may be offered: the Gambling once, never twice.
    t = table(hands={0: ["gambling", "pimps"]}, trading=True, trade_max=2)
    assert t.can(A.give("gambling"))
    t.act(A.give("gambling"))
    assert not t.can(A.give("gambling")) and t.can(A.give("pimps"))
    # everyone else now knows that one Gambling is in P0's hand
    assert [known(t, o, 0)[A.GAMBLING] for o in (1, 2, 3)] == [1, 1, 1]


def test_trade_offer_of_two_identical_cards_shows_both(table):
    t = table(hands={0: ["gambling", "gambling"]}, trading=True, trade_max=2)
    t.act(A.give("gambling"), A.give("gambling"))
    assert t.state.phase == TRADE_WANT  # the second card reached the limit
    assert [known(t, o, 0)[A.GAMBLING] for o in (1, 2, 3)] == [2, 2, 2]


def test_trade_partner_holding_exactly_the_cards_asked_for_may_accept_exactly_at_the_limit(table):
    # Two asked for: only P1 holds two cards at all, and exactly the two asked for.
    hands = {0: ["gambling", "pimps", "alibi"], 1: ["weapons", "merchandise"], 2: ["tropical fish"], 3: ["brokering"]}
    t = table(hands=hands, trading=True, trade_max=2, fill=False)
    t.act(A.give("gambling"), A.give("pimps"), A.want("weapons"), A.want("merchandise"))
    assert t.state.phase == TRADE_ANSWER and t.state.current_player() == 1
    assert sorted(t.legal()) == ["accept the trade", "decline the trade"]
    t.act(A.ACCEPT)
    assert t.hand(1) == ["gambling", "pimps"] and t.hand(0) == ["alibi", "merchandise", "weapons"]


def test_trade_asking_twice_for_one_kind_asks_for_two(table):
    t = table(hands={0: ["gambling", "pimps"], 1: ["weapons"]}, trading=True, trade_max=2)
    t.act(A.give("gambling"), A.give("pimps"), A.want("weapons"), A.want("weapons"))
    assert t.state.want[A.WEAPONS] == 2 and t.state.phase == TRADE_PARTNER
    t.target(1)
    assert t.legal() == ["decline the trade"]  # P1 holds one Weapons, not two


def test_unequal_trade_may_ask_for_more_than_it_offers_up_to_the_limit(table):
    t = table(hands={0: ["gambling"]}, trading=True, trade_max=2, trade_unequal=True)
    t.act(A.give("gambling"), A.DONE, A.want("weapons"))
    assert t.state.phase == TRADE_WANT and t.can(A.DONE)  # one offered, a second may be asked for
    t.act(A.want("pimps"))
    assert t.state.phase != TRADE_WANT and t.state.n_want == 2  # the limit: asked for in full


def test_trade_nobody_holds_as_many_cards_as_asked_for_ends_it_one_past_the_limit(table):
    # Two asked for, and every other hand holds one card: no partner, the trade is off.
    hands = {0: ["gambling", "pimps", "alibi"], 1: ["weapons"], 2: ["merchandise"], 3: ["brokering"]}
    t = table(hands=hands, trading=True, trade_max=2, fill=False)
    t.act(A.give("gambling"), A.give("pimps"), A.want("weapons"), A.want("merchandise"))
    s = t.state
    assert s.phase == PLAY and s.n_give == s.n_want == 0 and not any(s.give) and not any(s.want)
    assert t.hand(0) == ["alibi", "gambling", "pimps"]


def test_trade_partner_chosen_from_the_seat_to_move_wrapping_round(table):
    # P2 trades: the offset 2 from P2 is P0 (seat 4 wraps to 0), who answers.
    t = table(hands={2: ["gambling"], 0: ["weapons"], 3: ["weapons"]}, active=2, trading=True)
    t.act(A.give("gambling"), A.want("weapons"))
    assert set(t.state.options) == {0, 1, 3}
    t.target(0)
    assert t.state.phase == TRADE_ANSWER and t.state.current_player() == 0 and t.state.partner == 0
    assert list(t.state.f_partner) == [1, 0, 0, 0]
    t.act(A.DECLINE)  # seat 0 is a partner like any other: its flag goes too
    assert t.state.partner == -1 and list(t.state.f_partner) == [0, 0, 0, 0] and t.state.phase == PLAY


# ----- seats: every rule counts from the player to move, round the table -------------------------
def test_hassle_target_is_counted_from_the_player_to_move(table):
    t = table(hands={3: ["raid"]}, tables={1: ["gambling"], 2: ["pimps"]}, markets=[3], active=3)
    t.play("raid", on=1)
    assert t.hassle(1) == "raid" and t.hassle(2) is None


def test_magnum_window_asks_from_the_left_of_the_player_to_move_wrapping_round(table):
    t = table(hands={2: ["hostile takeover"], 1: ["magnum"]}, tables={0: ["gambling"]}, markets=[2], active=2)
    t.play("hostile takeover", on=0)
    assert t.state.phase == REACT and t.state.asked == [3, 0, 1]


def test_open_hand_of_the_player_to_move_holding_the_magnum_asks_nobody(table):
    # The Magnum lies open in the taker's own hand: nobody else can hold it, so no window.
    t = table(hands={0: ["relatives", "magnum"]}, tables={1: ["gambling"]}, hassles={0: "tax inspection"})
    t.play("relatives", on=1)
    assert t.state.phase == EXTRA and t.table(0) == ["gambling"]


def test_paranoia_pass_goes_round_from_the_player_to_move_and_the_last_seat_passes_to_the_first(table):
    hands = {2: ["death in the family", "gambling"], 3: ["weapons"], 0: ["politics"], 1: ["the coup"]}
    t = table(hands=hands, active=2)
    t.play("death in the family")
    assert t.state.phase == PASS and t.state.pass_order == [2, 3, 0, 1]
    t.pass_cards("gambling", "weapons", "politics", "the coup")
    assert "weapons" in t.hand(0) and "the coup" in t.hand(2) and "gambling" in t.hand(3)
    assert known(t, 3, 0)[A.WEAPONS] == 1 and known(t, 1, 2)[A.COUP] == 1


def test_lost_turn_of_the_last_seat_passes_the_turn_to_the_first(table):
    t = table(hands={2: ["alibi"]}, skip={3: 1}, active=2)
    t.idle()
    assert t.state.active == 0 and t.state.skip[3] == 0


# ----- what the observation shows of the turn (the fields the rules keep in step) -----------------
def slots(t):
    return list(t.state.f_slots)


def test_turn_slots_show_the_play_the_extra_business_and_a_free_magnum(table):
    t = table(
        hands={0: ["tropical fish", "gambling", "magnum"]}, hassles={2: "raid"}, tables={0: ["pimps"], 2: ["weapons"]}
    )
    assert slots(t) == [0, 0]
    t.play("tropical fish")  # the legal business first: the extra slot
    assert slots(t) == [0, 1] and t.state.phase == PLAY
    t.play("magnum", on=2)  # free: no slot
    assert slots(t) == [0, 1] and t.state.phase == PLAY and t.state.f_magnum[0] == 0
    t.play("gambling")
    assert slots(t) == [1, 1] and t.state.phase == EXTRA
    t.end_turn()
    assert slots(t) == [0, 0] and t.state.active == 1


def test_discard_as_the_turn_fills_the_play_slot(table):
    t = table(hands={0: ["alibi"]})
    t.discard("alibi")
    assert slots(t) == [1, 0] and t.state.phase == EXTRA


def test_market_open_played_shows_exactly_one_market(table):
    t = table(hands={0: ["market open"]})
    t.play("market open")
    assert list(t.state.market) == [1, 0, 0, 0]


def test_magnum_flag_is_up_only_while_its_target_is_chosen(table):
    t = table(hands={0: ["magnum"]}, hassles={1: "raid", 2: "raid"}, tables={1: ["gambling"], 2: ["pimps"]})
    t.play("magnum")
    assert t.state.f_magnum[0] == 1 and t.state.magnum_actor == 0
    t.target(2)
    assert t.state.f_magnum[0] == 0 and t.state.magnum_actor == -1 and t.hassle(2) is None


def test_reaction_window_flag_names_the_window_and_is_cleared_after(table):
    t = table(hands={0: ["hostile takeover", "raid"]}, tables={1: ["gambling"], 2: ["pimps"]}, markets=[0])
    t.play("hostile takeover", on=1)
    assert t.state.phase == REACT and list(t.state.f_window) == [1, 0]
    t.all_let_pass()
    assert list(t.state.f_window) == [0, 0] and t.state.window == -1
    t.end_turn().idle().idle().idle()
    t.play("raid", on=2)
    assert t.state.phase == REACT and list(t.state.f_window) == [0, 1]
    t.all_let_pass()
    assert list(t.state.f_window) == [0, 0] and t.hassle(2) == "raid"


def test_pending_pass_and_trade_partner_flags_are_cleared_once_done(table):
    t = table(hands={0: ["death in the family", "gambling"], 1: ["weapons"]})
    t.play("death in the family").pass_cards("gambling")
    assert t.state.f_pending[A.GAMBLING] == 1
    t.pass_first()
    assert not any(t.state.f_pending) and list(t.state.pending) == [-1] * 4
    t2 = table(hands={0: ["gambling"], 2: ["weapons"]}, trading=True)
    t2.act(A.give("gambling"), A.want("weapons")).target(2)
    assert list(t2.state.f_partner) == [0, 0, 1, 0]
    t2.act(A.DECLINE)
    assert list(t2.state.f_partner) == [0, 0, 0, 0] and t2.state.partner == -1


def test_hands_played_is_shown_once_the_game_is_over(table):
    t = table(hands={0: ["day of accounting"], 1: [], 2: [], 3: []}, markets=[0])
    t.play("day of accounting")
    assert t.state.f_hands_played[0] == 1


def test_legal_action_mask_is_bytes_of_one_exactly_on_the_legal_actions(table):
    t = table(hands={0: ["market open", "alibi"]})
    for _ in range(2):  # built, then from the cache
        mask = t.state.legal_action_mask()
        assert mask.dtype == np.int8 and mask.shape == (A.NUM_ACTIONS,)
        assert set(np.flatnonzero(mask)) == set(t.state.legal_actions()) and mask.max() == 1


# ----- the action ranges: the first card kind (Market Open) at each range's start ----------------
def test_market_open_discarded_as_the_turn_is_the_first_discard_action(table):
    t = table(hands={0: ["market open", "alibi"]}, markets=[1])
    assert t.can(A.discard("market open")) and A.discard("market open") == A.DISCARD
    t.discard("market open")
    assert t.discarded("market open") == 1 and t.state.market[0] == 0 and t.state.phase == EXTRA


def test_three_market_opens_discarded_are_the_first_triple_action(table):
    t = table(hands={0: ["market open"] * 3 + ["alibi"]})
    assert A.triple("market open") == A.TRIPLE
    t.triple("market open")
    assert t.discarded("market open") == 3 and t.state.phase == PLAY and t.hand(0).count("market open") == 0


# ----- who can be hassled or taken from ---------------------------------------------------------------
def test_a_market_under_a_raid_is_no_target_for_another_hassle(table):
    # Raid is hassle index 0: a covered market is covered whichever hassle covers it.
    t = table(hands={0: ["protection money"]}, tables={1: ["gambling"]}, hassles={1: "raid"}, markets=[0])
    assert not t.can_play("protection money")
    t2 = table(hands={0: ["protection money"]}, tables={1: ["gambling"]}, markets=[0])
    assert t2.can_play("protection money")


def test_own_businesses_are_nothing_to_take_over(table):
    t = table(hands={0: ["hostile takeover", "relatives"]}, tables={0: ["gambling"]}, markets=[1, 2, 3])
    assert not t.can_play("hostile takeover") and not t.can_play("relatives")


def test_bribe_and_magnum_reach_a_raid_the_hassle_of_index_zero(table):
    t = table(hands={0: ["bribe", "gambling"]}, tables={1: ["pimps"]}, hassles={1: "raid"})
    assert t.can_play("bribe")
    t.play("bribe", pay="gambling")
    assert t.hassle(1) is None and t.discarded("raid") == 1 and t.discarded("bribe") == 1
    t2 = table(hands={0: ["magnum"]}, tables={1: ["pimps"]}, hassles={1: "raid"})
    t2.play("magnum")
    assert t2.hassle(1) is None and t2.discarded("magnum") == 1


# ----- the second card: one legal business, once ---------------------------------------------------
def test_one_legal_business_after_the_play_and_no_second_one(table):
    t = table(hands={0: ["gambling", "tropical fish", "brokering"]}, markets=[0])
    t.play("gambling")
    assert t.can_play("tropical fish") and t.can_play("brokering")
    t.play("tropical fish")
    assert not t.can_play("brokering") and t.can(A.END_TURN)


def test_refill_after_two_cards_draws_exactly_two(table):
    t = table(hands={0: ["gambling", "tropical fish"]}, markets=[0], stock=["politics", "weapons", "pimps"])
    deck = len(t.state.deck)
    t.play("gambling").play("tropical fish").end_turn()
    assert len(t.hand(0)) == 7 and len(t.state.deck) == deck - 2
    assert "politics" in t.hand(0) and "weapons" in t.hand(0) and "pimps" not in t.hand(0)


# ----- losses at the last business index of each kind ------------------------------------------------
def test_raid_takes_the_coup_the_last_illegal_business_and_never_a_legal_one(table):
    t = table(hands={1: ["raid"]}, tables={0: ["the coup", "politics"]}, markets=[1], active=1)
    t.play("raid", on=0).all_let_pass().end_turn()
    t.idle().idle().idle()  # P2, P3, then P0, whose turn ends with one illegal business lost
    assert t.table(0) == ["politics"] and t.hassle(0) is None and t.discarded("the coup") == 1


def test_protection_money_takes_politics_the_last_business_index(table):
    t = table(hands={1: ["protection money"]}, tables={0: ["politics"]}, markets=[1], active=1)
    t.play("protection money", on=0).all_let_pass().end_turn()
    t.idle().idle().idle()  # P2, P3, P0
    assert t.table(0) == [] and t.hassle(0) is None and t.discarded("politics") == 1


def test_debris_and_ash_discards_two_identical_businesses(table):
    t = table(hands={0: ["debris and ash"]}, tables={0: ["gambling", "gambling", "politics"]})
    t.play("debris and ash")
    assert t.table(0) == [] and t.discarded("gambling") == 2 and t.discarded("politics") == 1


def test_relatives_discard_a_raid_the_hassle_of_index_zero(table):
    t = table(hands={0: ["relatives"]}, tables={0: ["gambling"], 3: ["merchandise"]}, hassles={0: "raid"})
    t.play("relatives", on=3).all_let_pass()
    assert t.table(0) == ["gambling", "merchandise"] and t.hassle(0) is None and t.discarded("raid") == 1


def test_a_closed_hand_stays_unknown_when_its_hassle_is_solved(table):
    # Only a hand open under Tax Inspection is remembered once its hassle goes (R4.6, White Coat).
    t = table(hands={0: ["informant"]}, tables={1: ["gambling"]}, hassles={1: "raid"})
    t.play("informant", on=1)
    assert t.hassle(1) is None and not any(known(t, 0, 1)) and not any(known(t, 2, 1))
    assert t.state.hassle == [-1] * 4 and not t.state.any_hassle  # -1: no hassle


def test_an_open_hand_off_seat_zero_is_remembered_when_tax_inspection_goes(table):
    t = table(
        hands={0: ["white coat"], 2: ["gambling", "pimps"]}, tables={2: ["politics"]}, hassles={2: "tax inspection"}
    )
    hand = list(t.state.hands[2])
    t.play("white coat", on=2)
    assert t.hassle(2) is None and not t.state.is_open(2)
    assert known(t, 0, 2) == hand and known(t, 3, 2) == hand and not any(known(t, 0, 1))


def test_magnum_of_seat_zero_off_turn_is_aimed_by_seat_zero(table):
    # P2 raids P1; P0 answers with the Magnum and, two hassles being out, chooses which goes.
    t = table(
        hands={2: ["raid"], 0: ["magnum"]},
        tables={1: ["gambling"], 3: ["pimps"]},
        hassles={3: "vacation in sweden"},
        markets=[2],
        active=2,
    )
    t.play("raid", on=1).react_until(0).play("magnum")
    assert t.state.decider == 0 and t.state.f_magnum[0] == 1 and t.state.magnum_actor == 0
    t.target(3)
    assert t.hassle(3) is None and t.hassle(1) == "raid" and t.state.decider == 2


def test_magnum_in_a_closed_hand_beside_an_open_one_keeps_everyone_asked(table):
    t = table(
        hands={0: ["hostile takeover"], 3: ["magnum"]},
        tables={1: ["gambling"]},
        hassles={2: "tax inspection"},
        markets=[0],
    )
    t.play("hostile takeover", on=1)
    assert t.state.asked == [1, 3]


# ----- what a resolved card leaves behind, and what a pass teaches ------------------------------
def test_a_resolved_takeover_leaves_no_card_target_or_business_shown(table):
    # during the takeover all three are set; back at the player's turn none is (-1, no flag)
    t = table(hands={0: ["relatives"]}, tables={3: ["merchandise"]}, hassles={0: "vacation in sweden"})
    s = t.state
    t.play("relatives", on=3)
    assert s.phase == REACT and s.card == A.RELATIVES and s.target == 3 and s.biz >= 0
    t.all_let_pass()
    assert s.phase == EXTRA and s.card == s.target == s.biz == -1
    assert not any(s.f_card) and not any(s.f_target) and not any(s.f_business)


def test_a_pass_between_two_players_keeps_count_of_the_known_cards_on_both_sides(table):
    # P1 knew two of P0's three Gamblings, P0 knew P1's one; P0 passes a Gambling to P1, P1 a
    # Weapons to P0: P1 now knows one Gambling left in P0's hand, P0 knows two in P1's.
    t = table(2, hands={0: ["death in the family", "gambling", "gambling", "gambling"], 1: ["gambling", "weapons"]})
    s = t.state
    s.known[1][0][A.GAMBLING], s.known[0][1][A.GAMBLING] = 2, 1
    t.play("death in the family")
    t.pass_cards("gambling", "weapons")
    assert s.hands[0][A.GAMBLING] == 2 and s.hands[1][A.GAMBLING] == 2
    assert known(t, 1, 0)[A.GAMBLING] == 1 and known(t, 0, 1)[A.GAMBLING] == 2
    assert known(t, 0, 1)[A.WEAPONS] == 0 and known(t, 1, 0)[A.WEAPONS] == 1


def test_a_paranoia_card_adds_its_lost_turns_to_those_already_owed(table):
    t = table(hands={0: ["death in the family"]})
    t.state.skip[0] = 1  # owed from before, to be skipped at P0's next turn
    lost = t.game.lost_turns[A.DEATH]
    assert lost >= 1
    t.play("death in the family")
    assert t.state.skip[0] == 1 + lost
