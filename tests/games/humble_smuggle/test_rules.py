"""Scripted scenarios, one or more per rule of the Humble smuggle rulebook (see
docs/rules/humble_smuggle.md).

Three players and P0 first unless said otherwise. Cards used (proposed data, units-digit pattern):
symbols 1 anchor, 3 barrel, 4 star, 5 compass, 6 skull, 8 key; rules: units 2 Double Up, units 9
High & Low, 10..70 Symbol Up (10 anchor, 20 barrel, 30 compass, 40 skull, 50 key, 60 anchor,
70 barrel), 37/47/57/67/77 Safe Zone, the rest Standard; draws: units 2 and 7 draw 1, 10..70
draw 2.
"""

import random

import pytest

import smuggle_envs
from smuggle_envs.core.errors import ConfigError, IllegalActionError
from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.vocab import (
    DISCARD,
    DOUBLE_UP,
    DRAFT,
    HIGH_LOW,
    OVER,
    PLAY,
    SAFE_ZONE,
    SELECT,
    STANDARD,
    SYMBOL_UP,
)

HANDS = {0: [45, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]}


def game(n=3, **config):
    return smuggle_envs.make_game("humble_smuggle_v0", num_players=n, **config)


# ----- setup ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_rule_setup_deals_three_white_two_black_and_players_plus_one_centre(n):
    s = game(n).new_initial_state(7)
    assert [len(h) for h in s.hands] == [3] * n
    assert len(s.centre) == n + 1
    assert [sum(b) for b in s.black] == [2] * n
    assert len(s.deck) == 79 - 3 * n - (n + 1)
    assert len(s.bdeck) == 40 - 2 * n
    assert s.phase == DRAFT and s.current_player() == s.first
    assert not s.final and 80 not in s.deck


def test_rule_setup_end_card_depth_by_player_count():
    # Proposed: 45 / 53 / 62 / 69 cards above the 80, so the last round is 14 / 12 / 11 / 10.
    for n, depth, rounds in ((2, 45, 14), (3, 53, 12), (4, 62, 11), (5, 69, 10)):
        g = game(n)
        assert g.end_depth == depth
        s = g.new_initial_state(0)
        assert s.end_left == depth - 3 * n - (n + 1)  # hands and centre came off the top
        assert s.rounds_left() == rounds
    assert game(3, end_card_depth=20).end_depth == 20


def test_rule_first_player_is_drawn_by_chance_or_configured():
    firsts = {game(4).new_initial_state(seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert all(game(4, first_player=2).new_initial_state(seed).first == 2 for seed in range(5))


@pytest.mark.parametrize(
    "bad",
    [
        {"first_player": 3},
        {"first_player": True},
        {"end_card_depth": 8},
        {"end_card_depth": 76},
        {"discard_count": "groups"},
        {"stars_need_a_symbol": 1},
        {"num_players": 6},
        {"num_players": 1},
    ],
)
def test_bad_config_is_refused(bad):
    with pytest.raises(ConfigError):
        smuggle_envs.make_game("humble_smuggle_v0", **{"num_players": 3, **bad})


# ----- step 1: draft -------------------------------------------------------------------------
def test_rule1_draft_in_turn_order_from_the_first_player(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25], first=1)
    s = t.state
    assert s.current_player() == 1 and sorted(s.legal_actions()) == [A.draft(v) for v in (11, 13, 14, 25)]
    t.draft(13)
    assert s.current_player() == 2 and 13 in s.hands[1] and 13 in s.known[1]
    t.draft(11)
    assert s.current_player() == 0
    with pytest.raises(IllegalActionError):
        t.draft(13)  # no longer in the centre
    t.draft(25)
    assert s.centre == [14] and s.phase == SELECT and s.current_player() == 1
    assert [len(h) for h in s.hands] == [4, 4, 4]


def test_rule1_the_card_left_after_drafting_sets_the_round_rule(table):
    for left, rule in (
        (25, STANDARD),
        (22, DOUBLE_UP),
        (19, HIGH_LOW),
        (30, SYMBOL_UP + 2),
        (10, SYMBOL_UP + 0),
        (37, SAFE_ZONE),
        (4, STANDARD),
        (62, DOUBLE_UP),
    ):
        centre = [11, 13, 14, left]
        t = table(hands=HANDS, centre=centre).draft(11, 13, 14)
        assert t.state.rule == rule, left


# ----- step 2: selection ---------------------------------------------------------------------
def test_rule2_each_player_selects_one_card_the_rest_stay_in_hand(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25]).draft(11, 13, 14)
    s = t.state
    assert list(s.legal_actions()) == [A.select(v) for v in (8, 11, 31, 45)]
    t.select(45)
    assert s.sel[0] == 45 and sorted(s.hands[0]) == [8, 11, 31] and s.current_player() == 1
    t.select(51, 26)
    assert s.phase == PLAY and s.sel == [45, 51, 26] and s.current_player() == 0


# ----- step 3: black-card play phase ----------------------------------------------------------
def test_rule3_play_cards_any_number_on_any_card_until_a_lap_of_passes(table):
    t = table(
        hands=HANDS,
        centre=[11, 13, 14, 25],
        black={0: ["+10", "-10", "hold anchor/barrel/compass +1"], 1: ["+20"], 2: []},
    )
    t.draft(11, 13, 14).select(45, 51, 26)
    s = t.state
    # only Play cards can be played, on each of the 3 face-down cards; pass is always legal
    plus10, minus10 = t.game.black_kind("+10"), t.game.black_kind("-10")
    assert list(s.legal_actions()) == [A.play(plus10, o) for o in range(3)] + [A.play(minus10, o) for o in range(3)] + [
        A.PASS
    ]
    t.play("+10", 2)  # P0 on P2's card
    t.pass_()  # P1 passes ...
    t.pass_()  # P2 passes
    t.play("-10", 0)  # P0 again, on its own card (Q3); the lap starts over
    assert s.phase == PLAY and s.attached == [[(0, minus10)], [], [(0, plus10)]]
    t.play("+20", 2)  # P1, who passed before, plays after all: two cards on P2's
    t.pass_(2)  # P2, P0
    assert s.attached[2] == [(0, plus10), (1, t.game.black_kind("+20"))]  # locked in place
    assert list(s.legal_actions()) == [A.PASS]  # P1 has no Play card left: only a pass
    t.pass_()  # the third pass in a row ends the phase
    assert s.phase != PLAY and s.last[1] == [35, 51, 56]


def test_rule3_a_player_without_play_cards_still_decides_to_pass(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25]).draft(11, 13, 14).select(45, 51, 26)
    for seat in (0, 1, 2):
        assert t.state.current_player() == seat and list(t.state.legal_actions()) == [A.PASS]
        t.pass_()
    assert t.state.phase == DRAFT and t.state.rounds_played == 1


# ----- steps 4-5: reveal and resolution ------------------------------------------------------
def test_rule4_reveal_shows_every_card_and_its_play_cards_to_everyone(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25], black={1: ["-20", "+10"]})
    t.round([11, 13, 14], [45, 51, 26], plays=[None, ("-20", 1), None, None, ("+10", 2)])
    layout = t.game.observation_layout
    for p in range(3):
        obs = layout.split(t.state.observation(p))
        rel = [(p + i) % 3 for i in range(3)]  # seat-relative order
        assert (obs["last_card"] * 80).round().tolist() == [[45, 51, 26][s] for s in rel]
        mods = (obs["last_modifiers"] * 3).round().reshape(3, 7)
        assert mods[rel.index(1)].tolist() == [0, 0, 0, 1, 0, 0, 0]  # -20 on P1's 51
        assert mods[rel.index(2)].tolist() == [1, 0, 0, 0, 0, 0, 0]  # +10 on P2's 26
        assert (obs["last_centre"] * 80).round().tolist() == [25]
        assert obs["last_discarded"].tolist() == [float(s == 0) for s in rel]  # 45 > 36 > 31
    assert t.state.last[1] == [45, 31, 36]


def test_rule5_standard_discards_the_single_highest(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25], deck_top=[1, 2, 3, 5])
    t.round([11, 13, 14], [45, 51, 26])
    s = t.state
    assert t.last_discarded == [1]
    assert s.scored == [[45], [], [26]]
    assert 51 in s.white_discards and 25 in s.white_discards
    assert s.points()[:3] == [4, 0, 2]


def test_rule5_standard_the_centre_card_counts_and_can_be_the_one_discarded(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 78])
    t.round([11, 13, 14], [45, 51, 26])
    assert t.last_discarded == [] and t.state.last[5] is True  # only the centre's 78 went
    assert t.state.scored == [[45], [51], [26]]


def test_rule5_ties_are_discarded_together_standard(table):
    # Q4: 45 + 10 = 55 ties the 55: both are "the highest" and both go.
    hands = {0: [45, 31, 8], 1: [55, 33, 6], 2: [26, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 14, 25], black={0: ["+10"]})
    t.round([11, 13, 14], [45, 55, 26], plays=[("+10", 0)])
    assert t.state.last[1] == [55, 55, 26]
    assert t.last_discarded == [0, 1] and t.state.scored == [[], [], [26]]


def test_rule5_double_up_discards_the_two_highest(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 22])
    t.round([11, 13, 14], [45, 51, 26])
    assert t.state.last[6] == DOUBLE_UP
    assert t.last_discarded == [0, 1] and t.state.scored == [[], [], [26]]


def test_rule5_double_up_takes_whole_tie_groups_so_may_discard_three(table):
    # R3.3: 61, then 55 and 45 + 10 = 55: the tie group makes it three cards.
    hands = {0: [61, 31, 8], 1: [45, 33, 6], 2: [55, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 14, 22], black={1: ["+10"]})
    t.round([11, 13, 14], [61, 45, 55], plays=[None, ("+10", 1)])
    assert t.last_discarded == [0, 1, 2] and t.state.last[5] is False


def test_rule5_double_up_counting_cards_or_values(table):
    # Two cards tie at the top: counting cards (R3.3) that is already two; counting values
    # (config) the next value, 40, goes too.
    hands = {0: [45, 31, 8], 1: [55, 33, 6], 2: [40, 18, 65]}
    for count, expected in (("cards", [0, 1]), ("values", [0, 1, 2])):
        t = table(hands=hands, centre=[11, 13, 14, 22], black={0: ["+10"]}, discard_count=count)
        t.round([11, 13, 14], [45, 55, 40], plays=[("+10", 0)])
        assert t.last_discarded == expected, count


def test_rule5_high_and_low_discards_the_highest_and_the_lowest(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 19])
    t.round([11, 13, 14], [45, 51, 14])
    assert t.state.last[6] == HIGH_LOW
    assert t.last_discarded == [1, 2] and t.state.last[5] is False  # 51 and 14; the 19 stays
    t2 = table(hands=HANDS, centre=[11, 13, 14, 19]).round([11, 13, 14], [45, 51, 26])
    assert t2.last_discarded == [1] and t2.state.last[5] is True  # the centre's 19 is lowest


def test_rule5_high_and_low_with_every_value_equal_discards_everything(table):
    # 2 players: 19 + 10 = 29, 9 + 20 = 29, centre 29: one group, both highest and lowest.
    t = table(n=2, hands={0: [19, 31, 8], 1: [9, 33, 6]}, centre=[11, 13, 29], black={0: ["+10"], 1: ["+20"]})
    t.round([11, 13], [19, 9], plays=[("+10", 0), ("+20", 1)])
    assert t.state.last[1] == [29, 29]
    assert t.last_discarded == [0, 1] and t.state.last[5] is True
    assert t.state.scored == [[], []]


def test_rule5_symbol_up_discards_as_many_highest_as_matching_symbols(table):
    # Centre 30: Symbol Up (compass). 45 and 15 show compasses: count 2, so the two highest of
    # 45, 15, 26 and the centre's 30 go: 45 and 30.
    hands = {0: [45, 31, 8], 1: [15, 33, 6], 2: [26, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 14, 30])
    t.round([11, 13, 14], [45, 15, 26])
    assert t.state.last[6] == SYMBOL_UP + 2
    assert t.last_discarded == [0] and t.state.last[5] is True
    assert t.state.scored == [[], [15], [26]]


def test_rule5_symbol_up_stars_do_not_count_and_zero_matches_discard_nothing(table):
    hands = {0: [45, 31, 8], 1: [14, 33, 6], 2: [26, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 24, 30])
    t.round([11, 13, 24], [45, 14, 26])  # one compass (45); the star 14 is no compass
    assert t.last_discarded == [0] and t.state.last[5] is False
    t2 = table(hands=HANDS, centre=[11, 13, 14, 30]).round([11, 13, 14], [31, 51, 26])
    assert t2.last_discarded == [] and t2.state.last[5] is False  # no compass at all
    assert t2.state.scored == [[31], [51], [26]]


def test_rule5_safe_zone_discards_nothing_below_80(table):
    t = table(hands={0: [79, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]}, centre=[11, 13, 14, 37])
    t.round([11, 13, 14], [79, 51, 26])
    assert t.state.last[6] == SAFE_ZONE
    assert t.last_discarded == [] and t.state.scored == [[79], [51], [26]]


def test_rule5_safe_zone_discards_the_highest_card_of_80_or_more(table):
    # 79 + 10 = 89 and 51 x 2 = 102 are both >= 80: only the highest, 102, goes.
    t = table(
        hands={0: [79, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]},
        centre=[11, 13, 14, 37],
        black={0: ["+10"], 1: ["double"]},
    )
    t.round([11, 13, 14], [79, 51, 26], plays=[("+10", 0), ("double", 1)])
    assert t.state.last[1] == [89, 102, 26]
    assert t.last_discarded == [1] and t.state.scored == [[79], [], [26]]


def test_rule5_play_cards_modify_the_effective_value(table):
    # P0: 45 with Zero and +10 -> 0 x 1 + 10 = 10; P1: 51 with Double and -10 -> 92;
    # P2: 15 with -20 -> never below 0.
    hands = {0: [45, 31, 8], 1: [51, 33, 6], 2: [15, 18, 65]}
    t = table(
        hands=hands,
        centre=[11, 13, 14, 25],
        black_top=["+10", "-10"],
        black={0: ["zero", "+10"], 1: ["double", "-10"], 2: ["-20"]},
    )
    t.round([11, 13, 14], [45, 51, 15], plays=[("zero", 0), ("double", 1), ("-20", 2), ("+10", 0), ("-10", 1)])
    assert t.state.last[1] == [10, 92, 0]
    assert t.last_discarded == [1]
    # scoring uses the printed tens digit (R3.9): 45 scores 4, 15 scores 1
    assert t.state.points() == [4, 0, 1]


def test_rule5_zero_applies_before_doubles_and_doubles_compound(table):
    # P0: 21 x 2 x 2 + 20 = 104; P1: 33 with a Zero is 0 (a Double would not change that).
    t = table(
        n=2,
        hands={0: [21, 31, 8], 1: [33, 34, 6]},
        centre=[11, 13, 25],
        black={0: ["double", "double", "+20"], 1: ["zero"]},
    )
    t.round([11, 13], [21, 33], plays=[("double", 0), ("zero", 1), ("double", 0), None, ("+20", 0)])
    assert t.state.last[1] == [104, 0]


def test_rule5_shield_hides_a_card_from_the_discard_so_the_next_one_goes(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25], black={1: ["shield"]})
    t.round([11, 13, 14], [45, 51, 26], plays=[None, ("shield", 1)])
    assert t.last_discarded == [0] and t.state.scored == [[], [51], [26]]


def test_rule5_shield_under_high_and_low_skips_the_shielded_lowest(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 19], black={2: ["shield"]})
    t.round([11, 13, 14], [45, 51, 14], plays=[None, None, ("shield", 2)])
    # 51 is highest; 14 is lowest but shielded, so the next lowest, the centre's 19, goes
    assert t.last_discarded == [1] and t.state.last[5] is True and t.state.scored[2] == [14]


# ----- step 5: black-card draws and the hand limit -------------------------------------------
def test_rule5_scored_card_draws_its_printed_black_cards(table):
    hands = {0: [10, 31, 8], 1: [62, 33, 6], 2: [26, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 14, 78], black_top=["+10", "-10", "+20", "zero"])
    t.round([11, 13, 14], [10, 62, 26])
    # 10 draws 2 (P0 draws first, as first player), 62 draws 1; 26 draws nothing
    assert t.black(0) == ["play +10", "play -10"]
    assert t.black(1) == ["play +20"]
    assert t.black(2) == []


def test_rule5_discarded_card_draws_one_per_attached_play_card_whoever_attached_them(table):
    hands = {0: [45, 31, 8], 1: [44, 33, 6], 2: [62, 18, 65]}
    t = table(
        hands=hands, centre=[11, 13, 14, 25], black={0: ["+20"], 1: ["+10"]}, black_top=["zero", "shield", "double"]
    )
    t.round([11, 13, 14], [45, 44, 62], plays=[("+20", 1), ("+10", 1)])
    # P1's 44 + 20 + 10 = 74 is the highest: discarded (its printed draws do not count)
    assert t.last_discarded == [1]
    # P1 (owner) draws 2 for the two attached cards; P2's scored 62 draws 1
    assert t.black(1) == ["play shield", "play zero"] and t.black(2) == ["play double"]
    assert sorted(t.state.bdisc_public) == sorted([t.game.black_kind("+20"), t.game.black_kind("+10")])


def test_rule5_hand_limit_of_three_the_player_chooses_the_discards(table):
    holds = ["hold anchor/barrel/compass +1", "hold anchor/barrel/skull +1", "hold anchor/barrel/key +1"]
    hands = {0: [10, 31, 8], 1: [20, 33, 6], 2: [26, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 14, 78], black={0: holds}, black_top=["+10", "-10", "zero", "+20"])
    t.round([11, 13, 14], [10, 20, 26])
    s = t.state
    # P0 drew +10 and -10 (5 cards) and must come down to 3 before P1 draws
    assert s.phase == DISCARD and s.current_player() == 0 and sum(s.black[0]) == 5
    assert sum(s.black[1]) == 0 and len(s.bdeck) == 40 - 5
    assert sorted(s.legal_actions()) == sorted(A.discard(t.game.black_kind(k)) for k in ["+10", "-10", *holds])
    t.discard("-10")
    assert s.phase == DISCARD and sum(s.black[0]) == 4
    t.discard("hold anchor/barrel/key +1")
    assert t.black(0) == ["hold anchor/barrel/compass +1", "hold anchor/barrel/skull +1", "play +10"]
    # then P1 drew its two (zero, +20): within the limit, the next round starts
    assert t.black(1) == ["play +20", "play zero"] and s.phase == DRAFT
    assert [k for _, k in s.bdisc_hidden] == [t.game.black_kind("-10"), t.game.black_kind("hold anchor/barrel/key +1")]


def test_faq1_empty_black_deck_reshuffles_the_discard_pile(table):
    g = game(3)
    double = g.black_kind("double")
    plays = [k for k in g.black_template if k < 7]
    plays.remove(double)  # the deck keeps one Double
    holds = [k for k in g.black_template if k >= 7]
    hands = {0: [10, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 14, 78], black_discard=plays, black_hidden={1: holds[:9], 2: holds[9:]})
    s = t.state
    keep = [double]
    assert s.bdeck == keep and len(s.bdisc_public) == 23 and len(s.bdisc_hidden) == 16
    t.round([11, 13, 14], [10, 51, 26])  # P0's 10 scores: draws 2
    assert s.black[0][keep[0]] >= 1 and sum(s.black[0]) == 2
    assert len(s.bdeck) == 38 and s.bdisc_public == [] and s.bdisc_hidden == []


# ----- steps 6-7: clean-up, refill, first player ---------------------------------------------
def test_rule6_centre_card_discarded_centre_refilled_first_player_passes_clockwise(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25], deck_top=[1, 2, 3, 5, 61, 63, 64, 66])
    t.round([11, 13, 14], [45, 51, 26])
    s = t.state
    assert 25 in s.white_discards and sorted(s.centre) == [1, 2, 3, 5]
    assert s.first == 1 and s.current_player() == 1 and s.phase == DRAFT and s.rounds_played == 1
    t.round([1, 2, 3], [33, 18, 31])  # P1, P2, P0 draft and select
    assert sorted(s.centre) == [61, 63, 64, 66] and s.first == 2
    t.round([61, 63, 64], [65, 8, 6])  # P2, P0, P1
    assert s.first == 0


def test_rule6_end_card_revealed_at_the_refill_makes_the_next_round_the_last(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25], end_left=2, deck_top=[1, 2, 3, 5, 61])
    s = t.state
    assert s.rounds_left() == 2 and not s.final
    t.round([11, 13, 14], [45, 51, 26])
    # The refill drew 1, 2, then met the 80 (no slot, R3.6), then 3 and 5: a full centre.
    assert s.final and sorted(s.centre) == [1, 2, 3, 5] and s.rounds_left() == 1
    assert s.end_left == -1 and s.deck[-1] == 61
    assert all(A.DRAFT <= a < A.SELECT for a in s.legal_actions())  # the 80 is never draftable
    t.round([1, 2, 3], [33, 18, 31])
    assert s.phase == OVER and s.is_terminal() and s.rounds_played == 2
    assert s.centre == [] and s.deck[-1] == 61  # no refill after the end
    assert [len(h) for h in s.hands] == [3, 3, 3]


def test_rule6_end_card_right_below_the_centre_is_revealed_first_at_the_next_refill(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25], end_left=0)
    t.round([11, 13, 14], [45, 51, 26])
    assert t.state.final and len(t.state.centre) == 4


# ----- section 7: final scoring --------------------------------------------------------------
def test_scoring_final_score_tens_digits_hold_bonus_and_sets_with_stars(table):
    # 2 players, 2 rounds. P0 scores 11 (anchor) and 14 (star) and holds anchor/barrel/compass +2:
    # 1 + 1 points, bonus 2, anchors 11 + Hold + star = 3 -> 5 points: 9.
    # P1 scores 5 (compass) and 23 (barrel): 0 + 2 points, no set; its +10 scores nothing: 2.
    t = table(
        n=2,
        hands={0: [11, 14, 2], 1: [5, 23, 6]},
        centre=[21, 13, 25],
        end_left=0,
        deck_top=[31, 33, 35],
        black={0: ["hold anchor/barrel/compass +2"], 1: ["+10"]},
    )
    t.round([21, 13], [11, 5])
    assert t.state.final and t.state.scored == [[11], [5]]
    t.round([33, 31], [23, 14])  # P1 first now
    s = t.state
    assert s.is_terminal() and s.scored == [[11, 14], [5, 23]]
    assert s.points() == [9, 2]
    assert s.scores() == [9.02, 2.02]
    assert s.returns() == [1.0, -1.0]


def test_scoring_hold_cards_count_at_the_end_not_before(table):
    # Mid-game the scores are what the table can count: a hidden Hold card is left out.
    t = table(hands=HANDS, centre=[11, 13, 14, 25], black={0: ["hold anchor/barrel/compass +2"]})
    t.round([11, 13, 14], [45, 51, 26])  # P0 scores 45 (compass)
    s = t.state
    assert s.points() == [4, 0, 2] and s.scores() == [4.01, 0.0, 2.01]
    assert s.points(holds=True) == [4 + 2 + 2, 0, 2]  # bonus 2, and a compass pair


def test_scoring_set_points_table_and_splitting_above_five():
    g = game(3)
    one = lambda count: g.set_points((count, 0, 0, 0, 0), 0, ())
    assert [one(c) for c in range(8)] == [0, 0, 2, 5, 9, 15, 15, 17]  # 7 = 5 + 2 (R3.10)
    assert one(10) == 30 and one(8) == 20  # 8 = 5 + 3
    assert g.set_points((2, 3, 0, 4, 1), 0, ()) == 2 + 5 + 9


def test_scoring_stars_are_wild_and_go_where_they_score_best():
    g = game(3)
    # 2 anchors + 1 barrel + 1 star: the star makes 3 anchors (5) rather than 2 + 2 (4)
    assert g.set_points((2, 1, 0, 0, 0), 1, ()) == 5
    # 4 anchors + 3 keys + 2 stars: one star each (5 + 4 -> 15 + 9) or both on the keys (9 + 15)
    # beat both on the anchors (6 -> 15, + 5 for the keys)
    assert g.set_points((4, 0, 0, 0, 3), 2, ()) == 24
    # stars alone: by default a star counts as any symbol; with the variant they need a symbol
    assert g.set_points((0, 0, 0, 0, 0), 2, ()) == 2
    strict = game(3, stars_need_a_symbol=True)
    assert strict.set_points((0, 0, 0, 0, 0), 2, ()) == 0
    assert strict.set_points((1, 0, 0, 0, 0), 2, ()) == 5


def test_scoring_each_hold_card_counts_as_the_symbol_that_scores_best():
    g = game(3)
    abc = next(h for h, syms in enumerate(g.hold_symbols) if syms == (0, 1, 2) and g.hold_bonus[h] == 1)
    cdk = next(h for h, syms in enumerate(g.hold_symbols) if syms == (2, 3, 4) and g.hold_bonus[h] == 1)
    assert g.set_points((4, 0, 0, 0, 0), 0, (abc,)) == 15  # the fifth anchor
    assert g.set_points((0, 0, 0, 1, 0), 0, (abc, cdk)) == 2  # one pair at most
    assert g.set_points((0, 0, 1, 0, 0), 0, (abc, cdk)) == 5  # three compasses


def test_scoring_tiebreak_most_scored_white_cards(table):
    # P0 scores 21 and 33 (2 + 3 = 5, no set); P1 scores only 58 (5). Equal points: P0 wins on
    # scored cards.
    t = table(n=2, hands={0: [21, 33, 3], 1: [58, 75, 6]}, centre=[61, 11, 13], end_left=0, deck_top=[41, 15, 16])
    t.round([11, 13], [21, 58])
    assert t.state.scored == [[21], [58]] and t.state.last[5] is True
    t.round([15, 16], [75, 33])  # P1 first: 75 is highest, discarded
    s = t.state
    assert s.is_terminal() and s.points() == [5, 5]
    assert s.scores() == [5.02, 5.01]
    assert s.returns() == [1.0, -1.0] and s.returns("rank") == [1.0, -1.0]


def test_scoring_tie_on_points_and_cards_is_shared():
    # A finished game whose two seats tie on both counts shares the win (core win/loss).
    g = game(2)
    for seed in range(400):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        if s.scores()[0] == s.scores()[1]:
            assert s.returns() == [1.0, 1.0]
            return
    pytest.fail("no tied game found")


def test_unplayed_white_cards_and_play_cards_score_nothing(table):
    t = table(
        n=2,
        hands={0: [71, 73, 75], 1: [5, 23, 6]},
        centre=[1, 3, 78],
        end_left=0,
        deck_top=[11, 13, 25],
        black={0: ["+20", "double", "-10"]},
    )
    t.round([1, 3], [1, 5])
    t.round([13, 11], [23, 11])
    s = t.state
    assert s.is_terminal() and s.scored[0] == [1, 11] and sorted(s.hands[0]) == [71, 73, 75]
    assert s.points()[0] == 0 + 1 + 2  # two anchors; 71, 73, 75 and the Play cards add nothing


# ----- actions -------------------------------------------------------------------------------
def test_action_names():
    g = game(4)
    assert g.action_to_string(A.draft(62)) == "draft 62"
    assert g.action_to_string(A.select(4)) == "select 4"
    assert g.action_to_string(A.play(6, 0)) == "play shield on your own card"
    assert g.action_to_string(A.play(0, 2)) == "play +10 on the card of the player 2 to your left"
    assert g.action_to_string(A.PASS) == "pass"
    assert g.action_to_string(A.discard(7)) == "discard hold anchor/barrel/compass +1"
    assert A.NUM_ACTIONS == g.num_actions == 217
    with pytest.raises(ValueError):
        g.action_to_string(217)
