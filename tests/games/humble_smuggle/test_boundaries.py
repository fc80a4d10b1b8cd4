"""Humble smuggle's rules at their limits: a value exactly at a rule's boundary, and the seat
order around it.

Each test pins one comparison, constant or seat of ``steps.py`` that a one-line bug could move
(``benchmarks/mutation.py`` plants such bugs). Three players and P0 first; cards as in
``test_rules.py`` (units 5 compass, centre 30 Symbol Up compass, units 8 Standard; a 10 or 20
draws 2 black cards, a units 7 draws 1).
"""

import numpy as np

from smuggle_envs.games.humble_smuggle.vocab import DISCARD, DRAFT, OVER, PLAY, SELECT

HANDS = {0: [45, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]}


# ----- R3.3 / R3.4: more cards to discard than candidates ------------------------------------------
def test_symbol_up_count_above_the_unshielded_cards_discards_them_all_past_the_limit(table):
    # Three compasses revealed (45, 15, 25): discard the three highest. Two are shielded, so only
    # 45 and the centre's 30 can go: fewer than three, so both go (R3.3: until at least k).
    hands = {0: [45, 31, 8], 1: [15, 33, 6], 2: [25, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 14, 30], black={1: ["shield"], 2: ["shield"]})
    t.round([11, 13, 14], [45, 15, 25], plays=[None, ("shield", 1), ("shield", 2)])
    assert t.last_discarded == [0] and t.state.last[5] is True  # 45 and the centre
    assert t.state.scored == [[], [15], [25]]


def test_symbol_up_count_exactly_the_unshielded_cards_discards_them_all_exactly_at_the_limit(table):
    hands = {0: [45, 31, 8], 1: [15, 33, 6], 2: [26, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 14, 30], black={1: ["shield"]})
    t.round([11, 13, 14], [45, 15, 26], plays=[None, ("shield", 1)])
    # two compasses; candidates 45, 26 and the centre's 30: the two highest, 45 and 30
    assert t.last_discarded == [0] and t.state.last[5] is True
    assert t.state.scored == [[], [15], [26]]


# ----- R3.5: Safe Zone takes cards of 80 or more ----------------------------------------------------
def test_safe_zone_discards_an_effective_80_exactly_at_the_limit(table):
    # 70 + 10 = 80: a candidate, and the only one, so it goes (79 alone stays: test_rules.py).
    t = table(hands={0: [70, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]}, centre=[11, 13, 14, 37], black={0: ["+10"]})
    t.round([11, 13, 14], [70, 51, 26], plays=[("+10", 0)])
    assert t.state.last[1] == [80, 51, 26]
    assert t.last_discarded == [0] and t.state.scored == [[], [51], [26]]


# ----- R3.8 / Q2: black draws in turn order, a discard down to the limit first ----------------------
def test_draws_go_on_with_the_next_seat_after_a_discard_down_to_exactly_the_limit(table):
    holds = ["hold anchor/barrel/compass +1", "hold anchor/barrel/skull +1", "hold anchor/barrel/key +1"]
    hands = {0: [10, 31, 8], 1: [20, 33, 6], 2: [27, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 14, 78], black={0: holds}, black_top=["+10", "-10", "zero", "+20", "double"])
    t.round([11, 13, 14], [10, 20, 27])  # Standard: the centre's 78 goes; all three score
    s = t.state
    assert s.phase == DISCARD and s.current_player() == 0 and sum(s.black[0]) == 5
    t.discard("-10").discard("+10")  # down to 3, exactly the limit: P1 draws next, then P2
    assert t.black(1) == ["play +20", "play zero"] and t.black(2) == ["play double"]
    assert s.phase == DRAFT


def test_a_seat_at_exactly_the_limit_after_drawing_keeps_its_cards_exactly_at_the_limit(table):
    hands = {0: [10, 31, 8], 1: [20, 33, 6], 2: [26, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 14, 78], black={0: ["+20"]}, black_top=["+10", "-10", "zero", "+20"])
    t.round([11, 13, 14], [10, 20, 26])
    assert sum(t.state.black[0]) == 3 and t.state.phase == DRAFT  # 3 is allowed: no discard


# ----- section 6: the end ---------------------------------------------------------------------------
def test_nobody_is_to_act_once_the_game_is_over(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25], end_left=2, deck_top=[1, 2, 3, 5, 61])
    t.round([11, 13, 14], [45, 51, 26]).round([1, 2, 3], [33, 18, 31])
    s = t.state
    assert s.phase == OVER and s.actor == -1
    assert not any(s._is_legal(a) for a in range(s.game.num_actions))
    layout = s.game.observation_layout
    for seat in range(3):
        assert not layout.get(s.observation(seat), "to_act").any()


# ----- the legal moves an agent is shown ------------------------------------------------------------
def test_mask_is_exactly_the_legal_actions_in_every_phase(table):
    holds = ["hold anchor/barrel/compass +1", "hold anchor/barrel/skull +1", "hold anchor/barrel/key +1"]
    hands = {0: [10, 31, 8], 1: [20, 33, 6], 2: [26, 18, 65]}
    t = table(hands=hands, centre=[11, 13, 14, 78], black={0: holds, 1: ["+10"]}, black_top=["+10", "-10"])
    s, seen = t.state, set()

    def check():
        mask, legal = s.legal_action_mask(), set(s.legal_actions())
        assert mask.dtype == np.int8 and mask.tolist() == [int(a in legal) for a in range(s.game.num_actions)]
        # and apply_action's check agrees, at every edge of every phase's range of actions
        assert [a for a in range(s.game.num_actions) if s._is_legal(a)] == sorted(legal)
        seen.add(s.phase)

    for move in [lambda v=v: t.draft(v) for v in (11, 13, 14)] + [lambda v=v: t.select(v) for v in (10, 20, 26)]:
        check()
        move()
    while s.phase != DRAFT:
        check()
        s.apply_action(s.legal_actions()[0])
    assert seen == {DRAFT, SELECT, PLAY, DISCARD}
