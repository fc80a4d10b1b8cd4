"""Scripted scenarios, one or more per card and per rule of Illegal (see docs/rules/illegal.md).

Four players unless said otherwise; P0 is to move; turns go clockwise P0 -> P1 -> P2 -> P3.
Positions are laid out with ``state.arrange`` (``scenarios.arrange``) (conftest ``Table``); every card comes from
the 106, so conservation holds in every scenario.
"""

import numpy as np
import pytest

from smuggle_envs.core.errors import ConfigError, IllegalActionError
from smuggle_envs.games.illegal import IllegalGame
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import (
    EXTRA,
    LOSE,
    OVER,
    PASS,
    PAY,
    PLAY,
    REACT,
    TAKE,
    TARGET,
    TRADE_ANSWER,
    TRADE_GIVE,
    TRADE_PARTNER,
    TRADE_WANT,
)


def obs_piece(t, seat, name):
    layout = t.game.observation_layout
    return layout.get(t.state.observation(seat), name)


# ----- setting up ----------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_rule_setup_deals_seven_each_and_the_player_left_of_the_dealer_starts(n):
    game = IllegalGame(num_players=n)
    state = game.new_initial_state(0)
    assert list(state.hsize) == [7] * n
    assert len(state.deck) == 106 - 7 * n
    assert state.current_player() == 0 and state.phase == PLAY
    assert IllegalGame(num_players=n, first_player=n - 1).new_initial_state(0).current_player() == n - 1


def test_rule_setup_bad_config_is_refused():
    for bad in (
        {"num_players": 1},
        {"num_players": 7},
        {"first_player": 4},
        {"refill": "two"},
        {"discard": "never"},
        {"takeover": "largest"},
        {"stock_out": "reshuffle"},
        {"trading": 1},
        {"trade_max": 0},
        {"target_score": -5},
        {"max_hands": 0},
        {"hand_size": 16},
        {"players": 3},
    ):
        with pytest.raises(ConfigError):
            IllegalGame(**bad)


# ----- a turn: one card, then refill to seven ---------------------------------------------------
def test_rule_turn_one_card_then_refill_to_seven_and_the_turn_passes_left(table):
    t = table(
        hands={0: ["market open", "gambling", "pimps", "alibi", "raid", "bribe", "relatives"]},
        stock=["politics", "weapons"],
    )
    t.play("market open")
    assert t.state.phase == EXTRA
    assert not t.can_play("gambling")  # only one card per turn ...
    assert t.legal() == ["end the turn"]
    t.end_turn()
    assert len(t.hand(0)) == 7 and "politics" in t.hand(0)  # ... then draw back up to 7
    assert t.state.current_player() == 1 and t.state.active == 1
    assert len(t.state.deck) == 106 - 28 - 1


def test_rule_refill_one_card_a_turn_variant(table):
    t = table(
        hands={0: ["gambling", "tropical fish", "pimps", "alibi", "raid", "bribe", "relatives"]},
        markets=[0],
        stock=["politics"],
        refill="one",
    )
    t.play("gambling").play("tropical fish").end_turn()
    assert len(t.hand(0)) == 6 and "politics" in t.hand(0)


# ----- Market Open -------------------------------------------------------------------------------
def test_rule_market_open_is_needed_for_businesses_takeovers_relatives_and_accounting(table):
    t = table(
        hands={
            0: [
                "gambling",
                "tropical fish",
                "hostile takeover",
                "relatives",
                "day of accounting",
                "death in the family",
                "market open",
            ]
        },
        tables={1: ["weapons"]},
    )
    playable = {A.KIND_NAMES[a] for a in t.state.legal_actions() if a < A.DISCARD}
    assert playable == {"market open", "death in the family"}
    t.play("market open").end_turn()
    t2 = table(
        hands={
            0: ["gambling", "tropical fish", "hostile takeover", "relatives", "day of accounting", "alibi", "alibi"]
        },
        tables={1: ["weapons"]},
        markets=[0],
    )
    for card in ("gambling", "tropical fish", "hostile takeover", "relatives", "day of accounting"):
        assert t2.can_play(card)


def test_rule_market_open_is_played_once(table):
    t = table(hands={0: ["market open", "market open"]}, markets=[0])
    assert not t.can_play("market open")
    assert t.can(A.discard("market open"))


def test_rule_nobody_is_taken_over_without_a_market_open(table):
    # P1 has a business on the table but (arranged) no market: it cannot be a target.
    t = table(hands={0: ["hostile takeover"]}, tables={2: ["gambling"]}, markets=[0])
    t.state.market[2] = 0
    t.state._legal = None
    assert not t.can_play("hostile takeover")


# ----- businesses --------------------------------------------------------------------------------
def test_rule_illegal_business_needs_an_uncovered_market(table):
    t = table(hands={0: ["gambling", "tropical fish"]}, hassles={0: "tax inspection"})
    assert not t.can_play("gambling") and t.can_play("tropical fish")


def test_rule_legal_business_may_be_played_as_a_second_card(table):
    t = table(hands={0: ["gambling", "tropical fish", "brokering"]}, markets=[0])
    t.play("gambling")
    assert t.state.phase == EXTRA and t.can_play("tropical fish")
    t.play("tropical fish")
    assert t.state.phase == EXTRA and not t.can_play("brokering")  # one extra, not two
    assert t.table(0) == ["gambling", "tropical fish"]


def test_rule_legal_business_first_then_any_card(table):
    t = table(hands={0: ["gambling", "tropical fish", "brokering"]}, markets=[0])
    t.play("tropical fish")
    assert t.state.phase == PLAY and t.state.bonus_used  # the play is still to make
    t.play("brokering")  # a legal business as the play
    assert t.state.phase == EXTRA and not t.can_play("gambling")
    assert t.table(0) == ["brokering", "tropical fish"]


@pytest.mark.parametrize(
    "card, value",
    [
        ("gambling", 5000),
        ("pimps", 5000),
        ("merchandise", 25000),
        ("weapons", 50000),
        ("the coup", 100000),
        ("tropical fish", 1000),
        ("brokering", 3000),
        ("politics", 10000),
    ],
)
def test_rule_every_business_card_goes_to_the_table_for_its_value(table, card, value):
    t = table(hands={0: [card]}, markets=[0])
    t.play(card)
    assert t.table(0) == [card] and t.state.table_value(0) == value and t.state.scores()[0] == value
    assert card not in t.hand(0)


def test_rule_businesses_score_their_printed_value(table):
    values = {
        "gambling": 5000,
        "pimps": 5000,
        "merchandise": 25000,
        "weapons": 50000,
        "the coup": 100000,
        "tropical fish": 1000,
        "brokering": 3000,
        "politics": 10000,
    }
    t = table(tables={1: list(values)}, hands={0: ["day of accounting"], 1: [], 2: [], 3: []}, markets=[0])
    assert t.state.table_value(1) == sum(values.values())
    t.play("day of accounting")
    assert t.state.scores()[1] == sum(values.values())


# ----- hassles -----------------------------------------------------------------------------------
def test_rule_hassles_go_on_other_players_with_an_open_market_and_no_hassle(table):
    t = table(hands={0: ["tax inspection"]}, markets=[0, 1, 3], hassles={2: "vacation in sweden"})
    t.play("tax inspection")
    assert t.state.phase == TARGET
    assert sorted(t.legal()) == ["target the player 1 seat clockwise", "target the player 3 seats clockwise"]


def test_rule_no_hassle_against_a_player_without_market(table):
    t = table(hands={0: ["raid"]}, markets=[0])
    assert not t.can_play("raid")


def test_rule_a_hassle_blocks_takeover_and_accounting(table):
    t = table(
        hands={0: ["hostile takeover", "day of accounting", "relatives"]},
        tables={1: ["weapons"]},
        hassles={0: "tax inspection"},
    )
    assert not t.can_play("hostile takeover") and not t.can_play("day of accounting")
    assert t.can_play("relatives")


def test_rule_raid_blocks_illegal_and_costs_an_illegal_business_each_turn(table):
    t = table(
        hands={0: ["raid"], 1: ["weapons", "politics"]},
        tables={1: ["gambling", "merchandise", "tropical fish"]},
        markets=[0],
    )
    t.play("raid", on=1).all_let_pass().end_turn()
    assert t.hassle(1) == "raid" and t.state.active == 1
    assert not t.can_play("weapons") and t.can_play("politics")
    t.play("politics").discard("weapons").end_turn()
    assert t.state.phase == LOSE and t.state.current_player() == 1
    assert sorted(t.legal()) == ["lose gambling", "lose merchandise"]  # illegal ones only
    t.lose("gambling")
    assert t.table(1) == ["merchandise", "politics", "tropical fish"] and t.discarded("gambling") == 1
    t.idle().idle().idle()  # P2, P3, P0
    t.idle()  # P1: the last illegal one
    assert t.table(1) == ["politics", "tropical fish"]
    assert t.hassle(1) is None and t.discarded("raid") == 1  # "no more illegal businesses"


def test_rule_raid_on_a_table_without_illegal_business_is_discarded_at_once(table):
    t = table(hands={0: ["raid"]}, tables={1: ["politics"]}, markets=[0])
    t.play("raid", on=1)
    assert t.hassle(1) is None and t.discarded("raid") == 1 and t.state.phase == EXTRA


def test_rule_informant_solves_raid(table):
    t = table(hands={0: ["informant"]}, tables={0: ["gambling"]}, hassles={0: "raid"})
    t.play("informant", on=0)
    assert t.hassle(0) is None and t.discarded("raid") == 1 and t.discarded("informant") == 1


def test_rule_protection_money_costs_any_business_each_turn_and_goes_when_none_is_left(table):
    t = table(
        hands={0: ["protection money"], 1: ["gambling", "politics"]},
        tables={1: ["tropical fish", "brokering"]},
        markets=[0],
    )
    t.play("protection money", on=1).all_let_pass().end_turn()
    assert not t.can_play("gambling") and t.can_play("politics")  # no illegal businesses
    t.play("politics").discard("gambling").end_turn()
    assert sorted(t.legal()) == ["lose brokering", "lose politics", "lose tropical fish"]
    t.lose("politics")
    assert t.hassle(1) == "protection money"
    t.idle().idle().idle().idle()
    t.lose("brokering")
    t.idle().idle().idle().idle()  # the fish goes, then PM
    assert t.table(1) == [] and t.hassle(1) is None and t.discarded("protection money") == 1


def test_rule_mister_zero_solves_protection_money(table):
    t = table(hands={0: ["mister zero"]}, tables={2: ["gambling"]}, hassles={2: "protection money"})
    t.play("mister zero", on=2)
    assert t.hassle(2) is None and t.discarded("protection money") == t.discarded("mister zero") == 1


def test_rule_tax_inspection_opens_the_hand_to_everyone(table):
    hand1 = ["weapons", "politics", "magnum", "loan shark", "alibi", "alibi", "bribe"]
    t = table(hands={0: ["tax inspection"], 1: hand1}, markets=[0, 1])
    seen_by_p2 = obs_piece(t, 2, "open_hands").reshape(4, A.NUM_KINDS)[3]  # P1 is 3 seats from P2
    assert not seen_by_p2.any()
    t.play("tax inspection", on=1)
    assert t.state.is_open(1)
    for observer in (0, 2, 3):
        rows = obs_piece(t, observer, "open_hands").reshape(4, A.NUM_KINDS)
        counts = np.rint(rows[(1 - observer) % 4] * np.array(t.game.kind_counts)).astype(int)
        assert [A.KIND_NAMES[k] for k in range(A.NUM_KINDS) for _ in range(counts[k])] == sorted(hand1, key=A.kind)
    assert "magnum" in t.state.render(3)  # and in everyone's render
    t.all_let_pass().end_turn()
    assert not t.can_play("weapons") and t.can_play("politics")  # no illegal businesses


def test_rule_white_coat_solves_tax_inspection_and_everyone_remembers_the_hand(table):
    hand0 = ["white coat", "weapons", "magnum", "alibi", "alibi", "bribe", "gambling"]
    t = table(hands={0: hand0}, hassles={0: "tax inspection"})
    t.play("white coat", on=0)
    assert t.hassle(0) is None and not t.state.is_open(0)
    assert not obs_piece(t, 2, "open_hands").any()
    known = obs_piece(t, 2, "known").reshape(4, A.NUM_KINDS)[2]  # P0 is 2 seats from P2
    counts = np.rint(known * np.array(t.game.kind_counts)).astype(int)
    assert sorted(A.KIND_NAMES[k] for k in range(A.NUM_KINDS) for _ in range(counts[k])) == sorted(hand0[1:])


def test_rule_vacation_in_sweden_blocks_every_business(table):
    t = table(
        hands={0: ["vacation in sweden"], 2: ["gambling", "tropical fish", "death in the family"]}, markets=[0, 2]
    )
    t.play("vacation in sweden", on=2).all_let_pass().end_turn()
    assert t.hassle(2) == "vacation in sweden"
    t.idle()  # P1
    assert t.state.active == 2
    assert not t.can_play("gambling") and not t.can_play("tropical fish")
    assert t.can_play("death in the family")


def test_rule_alibi_solves_vacation_and_solutions_may_help_another_player(table):
    t = table(
        hands={0: ["alibi", "white coat", "bribe", "bribe", "bribe"]},
        tables={3: ["weapons"], 1: ["pimps"]},
        hassles={3: "vacation in sweden", 1: "raid"},
        markets=[0],
    )
    assert t.can_play("alibi") and not t.can_play("white coat")  # no Tax Inspection anywhere
    t.play("alibi", on=3)
    assert t.hassle(3) is None and t.hassle(1) == "raid"
    assert t.discarded("alibi") == 1 and t.discarded("vacation in sweden") == 1


def test_rule_bribe_solves_any_hassle_for_a_business_card_from_hand(table):
    t = table(
        hands={0: ["bribe", "weapons", "tropical fish"]},
        tables={0: ["gambling"]},
        hassles={0: "raid", 2: "tax inspection"},
    )
    t.play("bribe")
    assert t.state.phase == TARGET  # either hassle
    t.target(0)
    assert t.state.phase == PAY and sorted(t.legal()) == [
        "pay the Bribe with tropical fish",
        "pay the Bribe with weapons",
    ]
    t.act(A.pay("tropical fish"))
    assert t.hassle(0) is None and "weapons" in t.hand(0) and "tropical fish" not in t.hand(0)
    assert len(t.hand(0)) == 5
    for card in ("bribe", "raid", "tropical fish"):
        assert t.discarded(card) == 1


def test_rule_bribe_cannot_be_played_without_a_business_card(table):
    t = table(hands={0: ["bribe"]}, hassles={0: "raid"}, tables={0: ["gambling"]})
    assert not t.can_play("bribe")


# ----- Paranoia ------------------------------------------------------------------------------------
def test_rule_paranoia_can_be_played_without_market_or_under_a_hassle(table):
    t = table(hands={0: ["death in the family"], 1: ["loan shark"]}, hassles={1: "vacation in sweden"})
    assert t.can_play("death in the family")
    t.play("death in the family").pass_first().end_turn()
    assert t.state.active == 1 and t.can_play("loan shark")


def test_rule_death_in_the_family_costs_a_turn_and_a_business_of_choice(table):
    t = table(hands={0: ["death in the family"]}, tables={0: ["weapons", "tropical fish"]})
    t.play("death in the family")
    assert t.state.phase == LOSE and sorted(t.legal()) == ["lose tropical fish", "lose weapons"]
    t.lose("tropical fish")
    assert t.table(0) == ["weapons"] and t.state.skip[0] == 1
    assert t.state.phase == PASS


def test_rule_loan_shark_costs_two_turns_and_the_most_expensive_business(table):
    t = table(hands={0: ["loan shark"]}, tables={0: ["gambling", "pimps", "politics"]})
    t.play("loan shark")
    # Politics (10,000) is the most expensive: no choice to make.
    assert t.table(0) == ["gambling", "pimps"] and t.state.skip[0] == 2 and t.state.phase == PASS
    t2 = table(hands={0: ["loan shark"]}, tables={0: ["gambling", "pimps", "tropical fish"]})
    t2.play("loan shark")
    assert sorted(t2.legal()) == ["lose gambling", "lose pimps"]  # a tie: the player chooses
    t2.lose("pimps")
    assert t2.table(0) == ["gambling", "tropical fish"]


def test_rule_debris_and_ash_costs_two_turns_and_every_business_but_not_the_market(table):
    t = table(
        hands={0: ["debris and ash"]}, tables={0: ["the coup", "weapons", "politics"]}, hassles={0: "protection money"}
    )
    t.play("debris and ash")
    assert t.table(0) == [] and t.state.market[0] == 1 and t.state.skip[0] == 2
    assert t.hassle(0) is None  # Protection Money: no business left
    assert t.discarded("the coup") == 1 and t.discarded("debris and ash") == 1


def test_rule_after_a_paranoia_card_every_player_passes_a_card_left(table):
    t = table(hands={0: ["death in the family", "gambling"], 1: ["weapons"], 2: ["politics"], 3: ["magnum"]})
    t.play("death in the family")
    assert t.state.phase == PASS and t.state.current_player() == 0
    t.pass_cards("gambling")
    assert obs_piece(t, 0, "my_pass")[A.GAMBLING] == 1 and not obs_piece(t, 1, "my_pass").any()
    t.pass_cards("weapons", "politics", "magnum")
    assert t.state.phase == EXTRA and t.state.current_player() == 0
    assert "magnum" in t.hand(0) and "gambling" in t.hand(1) and "weapons" in t.hand(2)
    assert "politics" in t.hand(3) and len(t.hand(1)) == 7
    # each passer knows where its card went
    for passer, card in ((0, "gambling"), (1, "weapons"), (2, "politics"), (3, "magnum")):
        known = obs_piece(t, passer, "known").reshape(4, A.NUM_KINDS)[1]
        assert known[A.kind(card)] > 0 and known.sum() == pytest.approx(known[A.kind(card)])
    assert not obs_piece(t, 0, "known").reshape(4, A.NUM_KINDS)[2].any()


def test_rule_passed_card_choices_are_hidden_until_every_player_has_chosen(table):
    views = []
    for card in ("gambling", "alibi"):
        t = table(hands={0: ["death in the family", "gambling"]}, seed=3)
        t.play("death in the family").pass_cards(card)
        views.append([t.state.observation(p) for p in (1, 2, 3)])
    for a, b in zip(*views):
        np.testing.assert_array_equal(a, b)


def test_rule_lost_turns_are_skipped_whole_without_draw_or_hassle_loss(table):
    t = table(hands={0: ["raid"], 1: ["loan shark"]}, tables={1: ["gambling", "merchandise", "weapons"]}, markets=[0])
    t.idle()  # P0
    t.play("loan shark").pass_first().end_turn()  # P1 loses the weapons, 2 turns
    assert t.table(1) == ["gambling", "merchandise"] and t.state.skip[1] == 2
    t.idle().idle()
    t.play("raid", on=1).all_let_pass().end_turn()  # P0 raids P1
    hand1 = t.hand(1)
    assert t.state.active == 2 and t.state.skip[1] == 1  # P1's turn was skipped
    assert t.table(1) == ["gambling", "merchandise"] and t.hand(1) == hand1  # no loss, no draw
    t.idle().idle().idle()
    assert t.state.active == 2 and t.state.skip[1] == 0  # skipped again
    t.idle().idle().idle()
    assert t.state.active == 1  # back in play


def test_rule_paranoia_cards_held_at_the_end_cost_their_value(table):
    t = table(
        hands={0: ["day of accounting"], 1: ["death in the family", "loan shark", "debris and ash"]},
        markets=[0],
        tables={1: ["the coup"]},
    )
    t.play("day of accounting")
    assert t.state.is_terminal()
    assert t.state.scores()[1] == 100000 - 25000 - 50000 - 100000


# ----- Hostile Takeover and Relatives ---------------------------------------------------------------
def test_rule_hostile_takeover_takes_any_business_of_the_targets_choice(table):
    t = table(hands={0: ["hostile takeover"]}, tables={2: ["weapons", "tropical fish"]}, markets=[0])
    t.play("hostile takeover", on=2)
    assert t.state.phase == TAKE and sorted(t.legal()) == ["take tropical fish", "take weapons"]
    t.act(A.take("weapons")).all_let_pass()
    assert t.table(0) == ["weapons"] and t.table(2) == ["tropical fish"]
    assert t.discarded("hostile takeover") == 1


def test_rule_hostile_takeover_smallest_only_variant(table):
    t = table(
        hands={0: ["hostile takeover"]}, tables={2: ["weapons", "tropical fish"]}, markets=[0], takeover="smallest"
    )
    t.play("hostile takeover", on=2).all_let_pass()
    assert t.table(0) == ["tropical fish"] and t.table(2) == ["weapons"]


def test_rule_hostile_takeover_needs_an_uncovered_market_and_a_target_with_a_business(table):
    t = table(hands={0: ["hostile takeover"]}, markets=[0, 1, 2, 3])
    assert not t.can_play("hostile takeover")  # nobody has a business
    t2 = table(hands={0: ["hostile takeover"]}, tables={1: ["gambling"]}, hassles={0: "tax inspection"})
    assert not t2.can_play("hostile takeover")


def test_rule_takeover_of_a_last_business_sends_raid_away(table):
    t = table(hands={0: ["hostile takeover"]}, tables={1: ["weapons"]}, hassles={1: "raid"}, markets=[0])
    t.play("hostile takeover", on=1).all_let_pass()
    assert t.table(0) == ["weapons"] and t.hassle(1) is None and t.discarded("raid") == 1


def test_rule_relatives_take_a_business_under_a_hassle_and_discard_it(table):
    t = table(hands={0: ["relatives"]}, tables={3: ["merchandise"]}, hassles={0: "vacation in sweden"})
    assert t.can_play("relatives")
    t.play("relatives", on=3).all_let_pass()
    assert t.table(0) == ["merchandise"] and t.table(3) == []
    assert t.hassle(0) is None and t.discarded("vacation in sweden") == 1 and t.discarded("relatives") == 1


def test_rule_relatives_with_nobody_to_take_from_only_remove_the_hassle(table):
    t = table(hands={0: ["relatives"]}, hassles={0: "raid"}, tables={0: ["gambling"]})
    t.play("relatives")
    assert t.hassle(0) is None and t.state.phase == EXTRA and t.table(0) == ["gambling"]


def test_rule_relatives_need_a_market_open(table):
    t = table(hands={0: ["relatives"]}, tables={2: ["gambling"]})
    assert not t.can_play("relatives")


# ----- the Magnum ------------------------------------------------------------------------------------
def test_rule_magnum_stops_a_takeover_out_of_turn(table):
    t = table(
        hands={0: ["hostile takeover"], 2: ["magnum"]},
        tables={2: ["weapons"]},
        markets=[0],
        stock=["politics", "gambling"],
    )
    t.play("hostile takeover", on=2)
    assert t.state.phase == REACT and t.state.current_player() == 1
    assert t.legal() == ["let it happen"]  # P1 has no Magnum
    t.let_pass()
    assert t.state.current_player() == 2
    assert sorted(t.legal()) == ["Magnum: stop the takeover", "let it happen"]
    t.act(A.CANCEL)
    assert t.table(2) == ["weapons"] and t.table(0) == []
    assert t.discarded("magnum") == 1 and t.discarded("hostile takeover") == 1
    assert t.state.phase == EXTRA and t.state.current_player() == 0
    assert len(t.hand(2)) == 6  # not refilled off turn ...
    t.end_turn()  # P0 draws the politics
    t.idle()  # P1 draws the gambling
    assert len(t.hand(2)) == 6
    t.idle()
    assert len(t.hand(2)) == 7  # ... only at the end of his own turn


def test_rule_magnum_stops_relatives_and_the_hassle_stays(table):
    t = table(hands={0: ["relatives"], 1: ["magnum"]}, tables={3: ["weapons"]}, hassles={0: "vacation in sweden"})
    t.play("relatives", on=3).react_until(1).act(A.CANCEL)
    assert t.table(3) == ["weapons"] and t.hassle(0) == "vacation in sweden"
    assert t.discarded("relatives") == 1 and t.discarded("magnum") == 1


def test_rule_magnum_removes_a_hassle_out_of_turn(table):
    t = table(hands={0: ["raid"], 1: ["magnum"]}, tables={1: ["gambling"]}, markets=[0])
    t.play("raid", on=1)
    assert t.state.phase == REACT and t.state.current_player() == 1
    assert t.can(A.play("magnum"))
    t.play("magnum")  # the only hassle: no target to pick
    assert t.hassle(1) is None and t.discarded("raid") == 1 and t.discarded("magnum") == 1
    assert t.state.phase == EXTRA and t.state.current_player() == 0


def test_rule_magnum_in_a_takeover_window_may_remove_a_hassle_instead(table):
    t = table(
        hands={0: ["hostile takeover"], 1: ["magnum"]},
        tables={1: ["gambling"], 2: ["weapons"]},
        hassles={1: "raid", 3: "vacation in sweden"},
        markets=[0],
    )
    t.play("hostile takeover", on=2).react_until(1).play("magnum", on=1)
    assert t.hassle(1) is None and t.hassle(3) == "vacation in sweden"
    assert t.table(0) == ["weapons"]  # the takeover still happens


def test_rule_magnum_on_own_turn_is_free_and_removes_any_hassle(table):
    t = table(hands={0: ["magnum", "gambling"]}, hassles={0: "vacation in sweden", 2: "raid"}, tables={2: ["pimps"]})
    t.play("magnum", on=0)
    assert t.hassle(0) is None and t.state.phase == PLAY  # the turn's play is still to make
    t.play("gambling")
    assert t.table(0) == ["gambling"] and t.state.phase == EXTRA


def test_rule_magnum_window_asks_everyone_who_might_hold_it(table):
    # The Magnum is in P3's closed hand: P1, P2 and P3 are asked in turn, so nobody learns where
    # it is from who is asked.
    t = table(hands={0: ["hostile takeover"], 3: ["magnum"]}, tables={1: ["gambling"]}, markets=[0])
    t.play("hostile takeover", on=1)
    asked = []
    while t.state.phase == REACT:
        asked.append(t.state.current_player())
        t.let_pass()
    assert asked == [1, 2, 3]
    # Magnum already discarded: no window at all.
    t2 = table(hands={0: ["hostile takeover"]}, tables={1: ["gambling"]}, markets=[0], discards=["magnum"])
    t2.play("hostile takeover", on=1)
    assert t2.state.phase == EXTRA and t2.table(0) == ["gambling"]
    # Magnum in an open hand (Tax Inspection): only its holder is asked.
    t3 = table(
        hands={0: ["hostile takeover"], 2: ["magnum"]},
        tables={1: ["gambling"]},
        hassles={2: "tax inspection"},
        markets=[0],
    )
    t3.play("hostile takeover", on=1)
    assert t3.state.phase == REACT and t3.state.asked == [2]
    # Open hands without it are not asked either.
    t4 = table(hands={0: ["hostile takeover"]}, tables={1: ["gambling"]}, hassles={2: "tax inspection"}, markets=[0])
    t4.play("hostile takeover", on=1)
    assert t4.state.asked == [1, 3]


# ----- Day of Accounting, discards, the end ---------------------------------------------------------
def test_rule_day_of_accounting_ends_the_game_at_once(table):
    t = table(hands={0: ["day of accounting"], 1: [], 2: [], 3: []}, markets=[0], tables={1: ["weapons"]})
    t.play("day of accounting")
    assert t.state.is_terminal() and t.state.phase == OVER
    assert t.state.returns() == [-1.0, 1.0, -1.0, -1.0]
    with pytest.raises(IllegalActionError):
        t.state.apply_action(A.END_TURN)


def test_rule_day_of_accounting_needs_an_uncovered_market(table):
    t = table(hands={0: ["day of accounting"]}, hassles={0: "tax inspection"})
    assert not t.can_play("day of accounting")
    t2 = table(hands={0: ["day of accounting"]})
    assert not t2.can_play("day of accounting")


def test_rule_discard_one_card_as_the_turn_but_never_a_single_paranoia_card(table):
    t = table(hands={0: ["death in the family", "loan shark", "gambling", "magnum", "alibi", "alibi", "raid"]})
    discards = sorted(A.KIND_NAMES[a - A.DISCARD] for a in t.state.legal_actions() if A.DISCARD <= a < A.TRIPLE)
    assert discards == ["alibi", "gambling", "magnum", "raid"]
    t.discard("gambling")
    assert t.state.phase == EXTRA and t.discarded("gambling") == 1


def test_rule_strict_discard_only_when_unable_to_play(table):
    t = table(
        hands={0: ["gambling", "alibi", "alibi", "raid", "white coat", "informant", "politics"]}, discard="strict"
    )
    assert all(a >= A.DISCARD for a in t.state.legal_actions())  # nothing playable: discard
    t2 = table(
        hands={0: ["gambling", "alibi", "alibi", "raid", "white coat", "informant", "market open"]}, discard="strict"
    )
    assert [a for a in t2.state.legal_actions() if a < A.TRIPLE] == [A.play("market open")]


def test_rule_three_identical_cards_may_be_discarded_in_addition(table):
    t = table(hands={0: ["loan shark", "loan shark", "loan shark", "gambling", "alibi", "alibi", "raid"]}, markets=[0])
    assert t.can(A.triple("loan shark"))
    t.triple("loan shark")  # Paranoia cards too
    assert t.state.phase == PLAY and t.discarded("loan shark") == 3
    t.play("gambling")
    assert t.state.phase == EXTRA
    t2 = table(hands={0: ["alibi", "alibi", "alibi", "gambling", "raid", "raid", "bribe"]}, markets=[0])
    t2.play("gambling").triple("alibi")  # also after the turn's play
    assert t2.state.phase == EXTRA and t2.discarded("alibi") == 3


def test_rule_emptying_the_hand_ends_the_game(table):
    t = table(
        hands={0: ["alibi"] * 3 + ["white coat"] * 3 + ["gambling"], 1: [], 2: [], 3: []},
        markets=[0],
        tables={1: ["weapons"]},
    )
    t.triple("alibi").triple("white coat")
    assert not t.state.is_terminal()
    t.play("gambling")
    assert t.state.is_terminal() and t.state.scores() == [5000.0, 50000.0, 0.0, 0.0]


def test_rule_the_game_ends_when_a_player_must_draw_from_an_empty_stock(table):
    t = table(hands={0: ["gambling"]}, markets=[0]).drain_stock(keep=1)
    t.play("gambling").end_turn()  # draws the last card
    assert not t.state.is_terminal() and t.state.active == 1 and not t.state.deck
    t.idle()
    assert t.state.is_terminal()  # P1 could not draw
    assert t.state.scores() == [float(t.state.accounting(q)) for q in range(4)]
    assert t.state.scores()[0] == 5000 - max((t.game.values[k] for k in t.state.hand_cards(0)), default=0) - sum(
        t.game.penalties[k] for k in t.state.hand_cards(0)
    )


def test_rule_play_on_without_drawing_variant(table):
    t = table(
        num_players=2,
        hands={0: ["gambling", "alibi"], 1: ["pimps", "alibi", "alibi"]},
        markets=[0, 1],
        stock_out="play_on",
        fill=False,
    ).drain_stock()
    t.play("gambling").end_turn()
    assert not t.state.is_terminal() and t.hand(0) == ["alibi"]
    t.play("pimps").end_turn()
    t.discard("alibi")
    assert t.state.is_terminal()  # P0's hand is empty


def test_rule_accounting_table_minus_paranoia_minus_best_business_in_hand(table):
    t = table(
        hands={
            0: ["day of accounting"],
            1: ["loan shark", "weapons", "gambling", "the coup", "alibi", "alibi", "raid"],
            2: [],
            3: [],
        },
        tables={1: ["merchandise", "tropical fish"]},
        markets=[0],
    )
    t.play("day of accounting")
    # 25,000 + 1,000 on the table, minus the Loan Shark (50,000), minus The Coup (100,000)
    assert t.state.accounting(1) == 26000 - 50000 - 100000
    assert t.state.scores() == [0.0, -124000.0, 0.0, 0.0]


def test_rule_most_money_wins_and_ties_share(table):
    t = table(
        hands={0: ["day of accounting"], 1: [], 2: [], 3: []},
        markets=[0],
        tables={1: ["weapons"], 3: ["merchandise", "merchandise"]},
    )
    t.play("day of accounting")
    assert t.state.returns() == [-1.0, 1.0, -1.0, 1.0]
    assert t.state.returns("rank")[1] == t.state.returns("rank")[3] > t.state.returns("rank")[0]


def test_rule_scores_during_the_game_are_the_public_tables(table):
    t = table(hands={1: ["death in the family"] * 3}, tables={1: ["weapons"], 2: ["pimps"]})
    assert t.state.scores() == [0.0, 50000.0, 5000.0, 0.0]  # no hidden Paranoia penalty


# ----- trading ------------------------------------------------------------------------------------------
def test_rule_trading_is_off_by_default_and_on_in_the_full_game():
    from smuggle_envs.games.illegal import FULL_GAME

    assert IllegalGame().new_initial_state(0).phase == PLAY
    assert IllegalGame(**FULL_GAME).new_initial_state(0).phase == TRADE_GIVE


def test_rule_trade_one_for_one_with_the_active_player_is_public(table):
    t = table(hands={0: ["gambling"], 2: ["market open"]}, trading=True)
    assert t.state.phase == TRADE_GIVE and A.NO_TRADE in t.state.legal_actions()
    t.act(A.give("gambling"))
    assert t.state.phase == TRADE_WANT
    t.act(A.want("market open")).target(2)
    assert t.state.phase == TRADE_ANSWER and t.state.current_player() == 2
    assert sorted(t.legal()) == ["accept the trade", "decline the trade"]
    t.act(A.ACCEPT)
    assert t.state.phase == PLAY and t.state.current_player() == 0
    assert "market open" in t.hand(0) and "gambling" in t.hand(2)
    # the swap was open: P1 and P3 know where both cards are
    for observer in (1, 3):
        known = obs_piece(t, observer, "known").reshape(4, A.NUM_KINDS)
        assert known[(2 - observer) % 4][A.GAMBLING] > 0 and known[(0 - observer) % 4][A.MARKET] > 0
    t.play("market open")
    assert t.state.phase == EXTRA  # the trade was not the play


def test_rule_trade_partner_can_only_accept_with_the_cards_asked_for(table):
    t = table(hands={0: ["gambling"], 1: []}, trading=True)
    t.act(A.give("gambling"), A.want("the coup")).target(1)
    assert t.legal() == ["decline the trade"]
    t.act(A.DECLINE)
    assert t.state.phase == PLAY and "gambling" in t.hand(0)


def test_rule_trade_at_most_one_for_one_unless_configured(table):
    t = table(hands={0: ["gambling", "pimps"]}, trading=True)
    t.act(A.give("gambling"))
    assert t.state.phase == TRADE_WANT  # one card offered, no more
    t.act(A.want("weapons"))
    assert t.state.phase == TRADE_PARTNER  # one asked for, no more
    t2 = table(hands={0: ["gambling", "pimps"], 1: ["weapons"]}, trading=True, trade_max=2, trade_unequal=True)
    t2.act(A.give("gambling"), A.give("pimps"))
    assert t2.state.phase == TRADE_WANT
    assert A.DONE not in t2.state.legal_actions()  # no gifts: ask for one at least
    t2.act(A.want("weapons"), A.DONE).target(1).act(A.ACCEPT)
    assert t2.hand(0).count("weapons") == 1 and {"gambling", "pimps"} <= set(t2.hand(1))


def test_rule_trade_equal_sizes_unless_configured(table):
    t = table(hands={0: ["gambling", "pimps"], 1: ["weapons", "merchandise"]}, trading=True, trade_max=2)
    t.act(A.give("gambling"), A.DONE)  # one card offered ...
    t.act(A.want("weapons"))  # ... so one asked for, no more
    assert t.state.phase == TRADE_PARTNER
    t2 = table(hands={0: ["gambling", "pimps"], 1: ["weapons", "merchandise"]}, trading=True, trade_max=2)
    t2.act(A.give("gambling"), A.give("pimps"), A.want("weapons"))
    assert t2.state.phase == TRADE_WANT and A.DONE not in t2.state.legal_actions()  # two for two
    t2.act(A.want("the coup")).target(1)
    assert t2.legal() == ["decline the trade"]  # P1 has no Coup
    t3 = table(hands={0: ["gambling", "pimps", "weapons"]}, trading=True, trade_max=3)
    t3.act(A.give("gambling"), A.give("pimps"), A.give("weapons"), A.want("the coup"))
    assert t3.state.phase == TRADE_WANT and A.want("the coup") not in t3.state.legal_actions()  # one exists


def test_rule_trade_offer_is_public_knowledge_even_when_declined(table):
    t = table(hands={0: ["the coup"]}, trading=True)
    t.act(A.give("the coup"), A.want("weapons")).target(1).act(A.DECLINE)
    known = obs_piece(t, 2, "known").reshape(4, A.NUM_KINDS)[2]
    assert known[A.COUP] > 0


# ----- several hands ------------------------------------------------------------------------------------
def test_rule_several_hands_with_a_rotating_dealer_until_a_target_score(table):
    t = table(
        hands={0: ["day of accounting"], 1: [], 2: [], 3: []},
        markets=[0],
        tables={0: ["the coup"]},
        target_score=150_000,
    )
    t.play("day of accounting")
    s = t.state
    assert not s.is_terminal() and s.rounds_played == 1 and s.totals == [100000, 0, 0, 0]
    assert s.active == 1  # the dealer moved left
    assert list(s.hsize) == [7] * 4 and len(s.deck) == 106 - 28 and not any(s.market)
    assert s.scores() == [100000.0, 0.0, 0.0, 0.0]
    assert obs_piece(t, 1, "totals").tolist() == [0.0, 0.0, 0.0, 1.0]  # P0 is 3 seats from P1
    # play the second hand to its end: the game ends once a total reaches 150,000 (or 20 hands)
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        s.apply_action(int(rng.choice(s.legal_actions())))
    assert max(s.totals) >= 150_000 or s.rounds_played == 20
    assert s.scores() == [float(x) for x in s.totals]


def test_rule_several_hands_stop_after_max_hands():
    game = IllegalGame(num_players=3, target_score=10**9, max_hands=3)
    state = game.new_initial_state(5)
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.rounds_played == 3
