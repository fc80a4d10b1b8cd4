"""No hidden information in anyone's observation, for every decision type, the face-down
selections and the kinds of attached Play cards included.

For sampled positions of random games: redraw everything seat p cannot see (``resample``); p's
observation (and, when p is to act, its legal actions) must not change, and the redrawn position
must be consistent. The redraws must really move hidden things, or the test proves nothing, so
that is counted too. Further tests change one hidden choice directly and compare observations.
"""

import random

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.rules import DISCARD, DRAFT, OVER, PLAY, SELECT

from ._checks import check_state

HANDS = {0: [45, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]}


def positions(n, games, every, seed=0):
    """Positions of random games (players play a Play card half the time they can)."""
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=n)
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(g)
        step = 0
        while not state.is_terminal():
            if step % every == 0 or state.phase == DISCARD:
                yield state
            legal = state.legal_actions()
            if state.phase == PLAY and len(legal) > 1 and rng.random() < 0.5:
                action = rng.choice(legal[:-1])
            else:
                action = rng.choice(legal)
            state.apply_action(action)
            step += 1
        yield state


@pytest.mark.parametrize("n", [2, 3, 5])
def test_resampling_hidden_information_never_changes_the_observation(n):
    rng = random.Random(42)
    phases = set()
    changed = {"hands": 0, "selections": 0, "play_kinds": 0, "black": 0, "deck": 0, "bdeck": 0}
    for state in positions(n, games=6, every=4):
        phases.add(state.phase)
        for p in range(n):
            before = state.observation(p)
            other = state.resample(p, rng)
            np.testing.assert_array_equal(other.observation(p), before)
            if p == state.current_player():
                assert list(other.legal_actions()) == list(state.legal_actions())
            assert other.scores() == state.scores()  # no score reveals a hidden card
            check_state(other)
            # what p knows is untouched
            assert other.hands[p] == state.hands[p] and other.sel[p] == state.sel[p]
            assert other.black[p] == state.black[p] and other.known == state.known
            assert other.scored == state.scored and other.centre == state.centre
            assert [[a for a, _ in t] for t in other.attached] == [[a for a, _ in t] for t in state.attached]
            q = [s for s in range(n) if s != p]
            changed["hands"] += any(sorted(other.hands[s]) != sorted(state.hands[s]) for s in q)
            changed["selections"] += any(other.sel[s] != state.sel[s] for s in q)
            changed["play_kinds"] += other.attached != state.attached
            changed["black"] += any(other.black[s] != state.black[s] for s in q)
            changed["deck"] += other.deck != state.deck
            changed["bdeck"] += other.bdeck != state.bdeck
    assert phases == {DRAFT, SELECT, PLAY, DISCARD, OVER}
    assert all(count > 10 for count in changed.values()), changed


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
