"""No hidden information in Smuggle's own cases: the Bag among the kept cards, the hand passed
before it is accepted, what the passer remembers. (For sampled positions of random games, at every
decision type, redrawing what a seat cannot see changes nothing it observes: ``tests/core/families/test_hidden_information_family.py``.)
"""

import random

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs.games.smuggle.actions import BAG
from smuggle_envs.games.smuggle.rules import DECLARE, RECEIVE


def positions(n, games=30, every=3, seed=0):
    game = smuggle_envs.make_game("smuggle_v0", num_players=n)
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(g)
        step = 0
        while not state.is_terminal():
            if step % every == 0:
                yield state
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
        yield state


def test_kept_cards_are_never_resampled_as_the_bag():
    # After an accept the three kept cards cannot include the Bag (rule 15 forced its discard),
    # so a seat that knows nothing of the hand may find the Bag only in the drawn card: about
    # 1 redraw in |pool|, not 4 in |pool|. Seeded, so the count is exact for this code.
    rng = random.Random(7)
    for state in positions(4, games=40, every=1):
        if state.phase == DECLARE and state.kept == 3 and not state.suitcase[BAG]:
            outsider = [p for p in range(4) if p not in (state.holder, state.officer) and not any(state.known[p])]
            if outsider:
                break
    else:
        pytest.fail("no suitable position found")
    pool = len(state.deck) + state.hand_size
    draws = 4000
    with_bag = sum(state.resample(outsider[0], rng).hand[BAG] for _ in range(draws))
    assert 0.5 * draws / pool < with_bag < 1.6 * draws / pool


def test_receiver_cannot_see_the_passed_hand_before_accepting():
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    a = game.new_initial_state(0)
    b = game.new_initial_state(0)
    a.stack_pack(["crown", "necklace", "necklace", "necklace"])
    b.stack_pack(["luggage", "luggage", "luggage", "luggage"])
    for s in (a, b):
        s.apply_action(0)  # declare nothing
        s.apply_action(497)  # the Officer lets it pass
    assert a.phase == RECEIVE and a.receiver == 2
    # Same declarations, different hands: everyone but the passer sees the same thing.
    for p in (0, 2, 3):
        np.testing.assert_array_equal(a.observation(p), b.observation(p))
    assert not np.array_equal(a.observation(1), b.observation(1))


def test_passer_remembers_cards_still_in_the_hand():
    game = smuggle_envs.make_game("smuggle_v0", num_players=3)  # P1 and P2 pass to each other
    s = game.new_initial_state(0)
    s.stack_pack(["wine", "cigars", "luggage", "luggage", "watch"])
    layout = game.observation_layout
    s.apply_action(0)  # P1 declares nothing
    s.apply_action(497)  # let pass
    s.apply_action(498)  # P2 accepts
    s.apply_action(500 + 1)  # P2 discards the cigars, draws the watch
    known = layout.get(s.observation(1), "known_in_hand") * 4
    assert known.tolist() == [1, 0, 0, 0, 0, 0, 0, 0, 0, 2]  # wine and two luggage, not the watch
    assert layout.get(s.observation(0), "known_in_hand").sum() == 0
