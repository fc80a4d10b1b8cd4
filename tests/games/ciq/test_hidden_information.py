"""No hidden information in anyone's observation, for every decision type.

For sampled positions of random games: redraw everything seat p cannot see (``resample``); p's
observation (and, when p is to move, p's legal actions) must not change, and the redrawn position
must be a consistent one. The redraws must really change hidden things, or the test proves
nothing, so that is checked too. Further tests swap hidden cards directly.
"""

import random
from collections import Counter

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.rules import FIRE_DECISION, GIVE_FROM_HAND, OVER, SABOTAGE2

from ._checks import check_state

RARE = (SABOTAGE2, FIRE_DECISION, GIVE_FROM_HAND)


def positions(n, games, every, seed=0):
    """Positions of random games: every ``every``-th one, and every rare decision."""
    game = smuggle_envs.make_game("ciq_v0", num_players=n)
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(g)
        step = 0
        while not state.is_terminal():
            if step % every == 0 or state.phase in RARE:
                yield state
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
        yield state


@pytest.mark.parametrize("n", [2, 3, 5])
def test_resampling_hidden_information_never_changes_the_observation(n):
    rng = random.Random(42)
    phases_seen = set()
    hands_changed = stock_changed = exports_changed = 0
    for state in positions(n, games=8, every=5):
        phases_seen.add(state.phase)
        for p in range(n):
            before = state.observation(p)
            other = state.resample(p, rng)
            np.testing.assert_array_equal(other.observation(p), before)
            if p == state.current_player():
                assert list(other.legal_actions()) == list(state.legal_actions())
            check_state(other)  # a consistent position: every card somewhere
            assert other.history == state.history
            for q in range(n):
                assert other.hand_size[q] == state.hand_size[q] and other.exp_size[q] == state.exp_size[q]
                # other Export piles hold only cards everyone saw go in
                assert all(c <= b for c, b in zip(other.exp_cnt[q].tolist(), state.exp_pub[q].tolist()))
            assert other.hand[p].tolist() == state.hand[p].tolist()
            assert Counter(other.exp[p]) == Counter(state.exp[p])
            if state.phase == OVER:
                continue
            hands_changed += any(other.hand[q].tolist() != state.hand[q].tolist() for q in range(n))
            stock_changed += other.stock != state.stock
            exports_changed += any(Counter(other.exp[q]) != Counter(state.exp[q]) for q in range(n))
    assert phases_seen == set(range(8)) - ({1} if n == 2 else set())
    assert hands_changed > 50 and stock_changed > 50 and exports_changed > 5, (
        "resampling must actually move hidden cards"
    )


def test_resample_is_seeded_and_reseeds_the_state_rng():
    state = next(s for i, s in enumerate(positions(4, games=1, every=1)) if i == 60)
    a = state.resample(1, random.Random(5))
    b = state.resample(1, random.Random(5))
    c = state.resample(1, random.Random(6))
    assert bytes(a.buf) == bytes(b.buf) and a.stock == b.stock and a.rng.getstate() == b.rng.getstate()
    assert (bytes(a.buf), a.stock) != (bytes(c.buf), c.stock)
    assert a.rng.getstate() != state.rng.getstate()
    with pytest.raises(ValueError):
        state.resample(4, random.Random(0))


def test_other_hands_and_the_stock_never_reach_an_observation():
    game = smuggle_envs.make_game("ciq_v0", num_players=3)
    a, b = game.new_initial_state(0), game.new_initial_state(0)
    a.arrange(hands={1: ["Kc", "Kd", "Kh", "Ks", "Qc", "Qd", "joker"]}, stock=None)
    b.arrange(hands={1: ["2c", "2d", "2h", "2s", "3c", "3d", "4c"]}, stock=None)
    # same public table, P1's hand and the Stock differ: P0 and P2 see the same thing
    for p in (0, 2):
        np.testing.assert_array_equal(a.observation(p), b.observation(p))
    assert not np.array_equal(a.observation(1), b.observation(1))


def test_fire_decision_is_offered_whether_or_not_the_target_holds_a_face_card():
    # If the engine skipped the decision for a target without face cards, everyone would learn
    # that. It never skips: only the target's own mask differs.
    game = smuggle_envs.make_game("ciq_v0", num_players=2, decks=2)
    states = []
    for p1_hand in (["Qs", "3s", "8s", "9c", "9d", "7s", "2s"], ["4s", "3s", "8s", "9c", "9d", "7s", "2s"]):
        s = game.new_initial_state(0)
        s.arrange(hands={0: ["6h", "10h", "3c", "4c", "5c", "7c", "8c"], 1: p1_hand}, tolerance={1: ["9s"]})
        s.apply_action(A.ship("6h"))
        s.apply_action(A.ship("10h"))
        assert s.phase == FIRE_DECISION and s.current_player() == 1
        states.append(s)
    np.testing.assert_array_equal(states[0].observation(0), states[1].observation(0))
    assert A.fire("Qs") in states[0].legal_actions() and list(states[1].legal_actions()) == [A.KEEP]


def test_private_draws_from_an_export_pile_stay_private():
    # P1 draws from its own Export pile: P0's record of it still lists every card that went in.
    game = smuggle_envs.make_game("ciq_v0", num_players=2, decks=2)
    s = game.new_initial_state(0)
    s.arrange(
        hands={0: ["2c", "3c", "4c", "5c", "7c", "8c", "9c"], 1: ["2d", "3d", "4d", "5d", "7d", "8d"]},
        exports={1: ["Kh", "Qh", "Jh"]},
        stock=[],
        turn=1,
    )
    assert s.hand_size[1] == 7 and s.exp_size[1] == 2
    layout = game.observation_layout
    seen = layout.get(s.observation(0), "export_cards")[53:106] * 2  # seat 1's block, in copies
    assert [A.card_name(k) for k in np.flatnonzero(seen)] == ["Jh", "Qh", "Kh"]
    own = layout.get(s.observation(1), "export_cards")[:53] * 2
    assert own.sum() == 2 and own.tolist() == (np.array(s.exp_cnt[1].tolist())).tolist()
