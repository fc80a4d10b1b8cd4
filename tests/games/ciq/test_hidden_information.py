"""No hidden information in CIQ's own cases: other hands and the Stock, the Fire decision, private
draws from an Export pile; each swaps hidden cards directly. (For sampled positions of random
games, at every decision type, redrawing what a seat cannot see changes nothing it observes, and
who decides next tells nothing: ``tests/core/families/test_hidden_information_family.py``.)
"""

import numpy as np

import smuggle_envs
from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.vocab import FIRE_DECISION


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
