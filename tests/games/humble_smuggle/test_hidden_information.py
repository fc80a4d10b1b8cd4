"""No hidden information in Humble smuggle's own cases: the face-down selections, the kinds of
attached Play cards, drafted cards, face-down discards, the white deck. Each changes one hidden
choice directly and compares observations. (For sampled positions of random games, at every
decision type, redrawing what a seat cannot see changes nothing it observes, and who decides next
tells nothing: ``tests/core/families/test_hidden_information_family.py``.)
"""

import numpy as np

from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.vocab import DISCARD

HANDS = {0: [45, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]}


def test_the_face_down_selection_is_hidden_from_the_others(table):
    # Same position, P1 lays down 51 or 33: only P1's observation differs.
    views = []
    for choice in (51, 33):
        t = table(hands=HANDS, centre=[11, 13, 14, 25]).draft(11, 13, 14).select(45, choice)
        views.append([t.state.observation(p) for p in range(3)])
    for p in (0, 2):
        np.testing.assert_array_equal(views[0][p], views[1][p])
    assert not np.array_equal(views[0][1], views[1][1])
    layout = t.game.observation_layout
    assert layout.get(views[1][1], "my_selection")[33 - 1] == 1
    assert layout.get(views[1][0], "selected").tolist() == [1, 1, 0]  # P0 sees that P1 chose


def test_a_play_cards_kind_is_hidden_but_who_attached_it_where_is_public(table):
    views = []
    for kind in ("+10", "-20"):
        t = table(hands=HANDS, centre=[11, 13, 14, 25], black={0: ["+10", "-20"]})
        t.draft(11, 13, 14).select(45, 51, 26).play(kind, 2)
        views.append([t.state.observation(p) for p in range(3)])
    for p in (1, 2):
        np.testing.assert_array_equal(views[0][p], views[1][p])
    assert not np.array_equal(views[0][0], views[1][0])
    layout = t.game.observation_layout
    # P2 sees one card attached to its own face-down card, by the seat 1 to its left (P0)
    attached = layout.get(views[1][2], "attached").reshape(3, 3) * 3
    assert attached.tolist() == [[0, 1, 0], [0, 0, 0], [0, 0, 0]]
    mine = layout.get(views[1][0], "my_attached").reshape(3, 7) * 3
    assert mine[2].tolist() == [0, 0, 0, 1, 0, 0, 0]  # P0 knows it put a -20 on P2's card


def test_drafted_cards_are_public_until_revealed(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25]).draft(11, 13)
    layout = t.game.observation_layout
    known = layout.get(t.state.observation(2), "known_hands").reshape(3, 79)
    # seat-relative for P2: row 1 is P0 (one to its left), row 2 is P1
    assert known[1][11 - 1] == 1 and known[2][13 - 1] == 1 and known.sum() == 2
    # the three dealt cards are not shown to the others
    assert known[1][45 - 1] == 0
    t.draft(14).select(11, 51, 26).finish_play()
    known = layout.get(t.state.observation(2), "known_hands").reshape(3, 79)
    assert known[1][11 - 1] == 0 and known[2][13 - 1] == 1  # 11 was revealed, 13 is still held


def test_hand_limit_discards_are_face_down(table):
    holds = ["hold anchor/barrel/compass +1", "hold anchor/barrel/skull +1", "hold anchor/barrel/key +1"]
    views = []
    for kind in ("-10", holds[0]):
        t = table(
            hands={0: [10, 31, 8], 1: [20, 33, 6], 2: [26, 18, 65]},
            centre=[11, 13, 14, 78],
            black={0: holds},
            black_top=["+10", "-10"],
        )
        t.round([11, 13, 14], [10, 20, 26])
        assert t.state.phase == DISCARD
        t.discard(kind)
        views.append([t.state.observation(p) for p in range(3)])
    for p in (1, 2):
        np.testing.assert_array_equal(views[0][p], views[1][p])
    assert not np.array_equal(views[0][0], views[1][0])


def test_the_white_deck_and_other_hands_do_not_show(table):
    # Two deals that differ only in P1's three dealt cards and the deck: P0 and P2 see the same.
    a = table(hands={0: [45, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]}, centre=[11, 13, 14, 25])
    b = table(hands={0: [45, 31, 8], 1: [52, 34, 7], 2: [26, 18, 65]}, centre=[11, 13, 14, 25])
    for p in (0, 2):
        np.testing.assert_array_equal(a.state.observation(p), b.state.observation(p))
    assert a.state.deck != b.state.deck
    assert A.NUM_ACTIONS == 217
