"""No hidden information in Smuggle's own cases: the Bag among the kept cards, the hand passed
before it is accepted, what the passer remembers. (For sampled positions of random games, at every
decision type, redrawing what a seat cannot see changes nothing it observes: ``tests/core/families/test_hidden_information_family.py``.)
"""

import random
from collections import Counter

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs.games.smuggle.actions import ACCEPT, BAG, LET_PASS, discard
from smuggle_envs.games.smuggle.vocab import DECLARE, RECEIVE


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
    a.arrange(["crown", "necklace", "necklace", "necklace"])
    b.arrange(["luggage", "luggage", "luggage", "luggage"])
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
    s.arrange(["wine", "cigars", "luggage", "luggage", "watch"])
    layout = game.observation_layout
    s.apply_action(0)  # P1 declares nothing
    s.apply_action(497)  # let pass
    s.apply_action(498)  # P2 accepts
    s.apply_action(500 + 1)  # P2 discards the cigars, draws the watch
    known = layout.get(s.observation(1), "known_in_hand") * 4
    assert known.tolist() == [1, 0, 0, 0, 0, 0, 0, 0, 0, 2]  # wine and two luggage, not the watch
    assert layout.get(s.observation(0), "known_in_hand").sum() == 0


def _passed_twice():
    """Seat 1 is dealt wine, cigars and two luggage and passes them on; seat 2 throws the cigars,
    draws the watch and passes on; seat 3 throws a luggage and draws the perfume (seat 0 is the
    Officer). Seat 1 remembers the wine and a luggage, seat 2 the three cards kept."""
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    s = game.new_initial_state(0)
    s.arrange(["wine", "cigars", "luggage", "luggage", "watch", "perfume"])
    for throw in ("cigars", "luggage"):
        s.apply_action(0)  # declare nothing
        s.apply_action(LET_PASS)
        s.apply_action(ACCEPT)
        s.apply_action(discard(game.kind(throw)))
    assert (s.phase, s.officer, s.holder) == (DECLARE, 0, 3)
    return game, s


def _cards(game, counts) -> Counter:
    return Counter({game.kind_names[k]: c for k, c in enumerate(counts) if c})


def _within(inner: Counter, outer: Counter) -> bool:
    return not inner - outer


def test_resampled_memories_are_drawn_with_the_hands_past_not_copied():
    # Memories of a hand passed through two seats, for three viewers: each world's memories are
    # nested sub-multisets of its kept cards, as the engine's rule makes them, and whatever the
    # viewer could not see is drawn afresh (a resample that kept or clipped the true memories
    # would show seat 1's wine and luggage in every world).
    game, s = _passed_twice()
    assert _cards(game, s.known[1]) == Counter({"wine": 1, "luggage": 1})
    assert _cards(game, s.known[2]) == Counter({"wine": 1, "luggage": 1, "watch": 1})
    rng = random.Random(3)
    for viewer in (3, 0, 1):
        seen = {1: set(), 2: set()}
        for _ in range(300):
            w = s.resample(viewer, rng)
            np.testing.assert_array_equal(w.observation(viewer), s.observation(viewer))
            hand, first, second = _cards(game, w.hand), _cards(game, w.known[1]), _cards(game, w.known[2])
            # Seat 2 passed last: it knows exactly the three kept cards, never the Bag.
            assert sum(second.values()) == 3 and _within(second, hand) and "diplomatic bag" not in second
            # Seat 1 passed before it: a sub-multiset, one card short for the cigars it saw
            # thrown, and a second if the luggage thrown was its own.
            assert _within(first, second) and sum(first.values()) in (2, 3)
            seen[1].add(frozenset(first.items()))
            seen[2].add(frozenset(second.items()))
        if viewer == 3:
            # It took the hand from seat 2, so it knows seat 2's memory, but not which card seat
            # 2 drew: seat 1 kept the two that are not it, less the luggage thrown since.
            assert seen[2] == {frozenset({"wine": 1, "luggage": 1, "watch": 1}.items())}
            assert seen[1] == {
                frozenset(c.items())
                for c in ({"wine": 1, "luggage": 1}, {"wine": 1, "watch": 1}, {"luggage": 1, "watch": 1})
            }
        elif viewer == 1:
            # It knows its own memory, and that seat 2 kept its wine and a luggage and a card
            # it drew (anything left in the pool).
            assert seen[1] == {frozenset({"wine": 1, "luggage": 1}.items())}
            assert all(_within(Counter({"wine": 1, "luggage": 1}), Counter(dict(m))) for m in seen[2])
            assert len(seen[2]) > 3
        else:
            # The Officer saw none of it: both memories vary.
            assert len(seen[1]) > 3 and len(seen[2]) > 3
