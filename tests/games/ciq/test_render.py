"""Text rendering: works in every phase, and a player's view shows nothing hidden from him."""

import random

import smuggle_envs
from smuggle_envs.games.ciq import actions as A


def test_render_every_phase_and_perspective_hides_what_the_player_cannot_see():
    game = smuggle_envs.make_game("ciq_v0", num_players=3)
    rng, worlds = (
        random.Random(3),
        random.Random(4),
    )  # play and resample apart: coverage must not hang on resample's draws
    phases = set()
    for seed in range(12):
        if phases == set(range(8)):
            break
        state = game.new_initial_state(seed)
        while True:
            phases.add(state.phase)
            full = state.render()
            assert full.startswith("CIQ") and f"Stock: {len(state.stock)}" in full
            for p in range(3):
                view = state.render(p)
                assert view == state.resample(p, worlds).render(p)
                assert view.count("hand:") == 1 and view.count("Export pile:") == 1
            if state.is_terminal():
                assert "winner" in full or "draw" in full
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert phases == set(range(8))


def test_render_shows_the_shipment_the_smuggled_card_and_the_own_hand():
    game = smuggle_envs.make_game("ciq_v0", num_players=2, decks=2)
    state = game.new_initial_state(0)
    state.arrange(
        hands={0: ["6h", "2h", "2d", "10d", "3c", "4c", "5c"], 1: ["Qs", "3s", "8s", "9c", "9d", "7s", "2s"]},
        tolerance={1: ["9s"]},
    )
    assert "hand: 3c 4c 5c 2d 10d 2h 6h" in state.render(0)
    for card in ("6h", "2h", "2d", "10d"):
        state.apply_action(A.ship(card))
    view = state.render(0)
    assert "shipment to P1: 6h 2h 2d 10d (smuggled)" in view
    assert "Qs" not in view and "Qs" in state.render(1)
    assert "P1 - fire or keep the customs worker" in view
    state.apply_action(A.fire("Qs"))
    assert "Tolerance none" in state.render(0)
