"""Text rendering: works in every phase, and a player's view shows nothing hidden from him."""

import random

import smuggle_envs
from smuggle_envs.games.smuggle.vocab import DECLARE, DISCARD, OFFICER, OVER, RECEIVE


def test_render_every_phase_and_perspective_hides_what_the_player_cannot_see():
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    rng = random.Random(3)
    phases = set()
    for seed in range(15):
        state = game.new_initial_state(seed)
        while True:
            phases.add(state.phase)
            full = state.render()
            money = state.money[0]
            assert "Smuggle" in full and (f"£{money}" if money >= 0 else f"-£{-money}") in full
            for p in range(4):
                view = state.render(p)
                assert view == state.resample(p, rng).render(p)
                if p != state.holder and state.hand_size:
                    assert "live hand" not in view
            if state.is_terminal():
                assert "winner" in full
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert phases == {DECLARE, OFFICER, RECEIVE, DISCARD, OVER}


def test_render_shows_the_declaration_and_the_holder_his_hand():
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    state = game.new_initial_state(0)
    state.arrange(["wine", "wine", "luggage", "luggage"])
    assert "live hand (P1): wine x2, luggage x2" in state.render(1)
    state.apply_action(0)  # declare nothing
    state.apply_action(497)  # let pass
    view = state.render(2)
    assert "P1 declared: nothing" in view and "duty paid" in view and "wine" not in view
