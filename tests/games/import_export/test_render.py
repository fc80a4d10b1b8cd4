"""Text rendering: works in every phase, and a player's view shows nothing hidden from him."""

import random

from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export.vocab import PHASE_NAMES


def test_render_every_phase_and_a_seat_sees_only_its_own_hand():
    game = ImportExportGame(num_players=4, modules=("jutaku", "kickstarter", "captain"))
    rng = random.Random(3)
    phases = set()
    for seed in range(2):
        st = game.new_initial_state(seed)
        step = 0
        while True:
            step += 1
            phases.add(st.phase)
            full = st.render()
            assert full.startswith("Import / Export: turn ") and str(st) == full
            assert full.count("  hand: ") == 4
            if step % 6 == 0 or st.is_terminal():
                for p in range(4):
                    view = st.render(p)
                    assert view.count("  hand: ") == 1
                    own = game.names[st.hands[p][0]].title() if st.hands[p] else "-"
                    assert f"P{p} (" in view and own in view
                    assert view == st.resample(p, rng).render(p)
            if st.is_terminal():
                assert "game over (" in full and "scores: " in full
                break
            assert PHASE_NAMES[st.phase] in full and f"P{st.current_player()} to decide" in full
            st.apply_action(rng.choice(st.legal_actions()))
    assert len(phases) >= 12


def test_render_shows_harbors_ships_and_the_island(table):
    t = table(
        3,
        hands={0: ["laptops"], 1: ["diamond_rings"]},
        imports={1: ["champagne"]},
        goods={2: ["cologne"]},
        shipments={2: ["velvet_robes"]},
        island=["beer"],
        credits={1: 24},
        leader=1,
        ships={
            0: {"contracts": ["miri_machines"], "cargo": ["telescopes"]},
            5: {"at_sea": True, "cargo": ["sugar", "bamboo"]},
        },
    )
    view = t.state.render(0)
    assert "leader: P1" in view and "island: Beer" in view
    assert "P1 (yellow harbor): 24 credits, 1 cards" in view
    assert "  hand: Laptops" in view and "Diamond Rings" not in view  # seat 1's hand is hidden
    assert "imports: Champagne; goods: -" in view and "imports: -; goods: Cologne" in view
    assert "shipments: Velvet Robes" in view
    assert "ship 0 in harbor: contracts Miri Machines; needs [technology, technology]; loaded Telescopes" in view
    assert "ship 5 at sea: Sugar, Bamboo" in view
    assert "Diamond Rings" in t.state.render(1) and "Diamond Rings" in t.state.render()
    assert "P1 to decide: lead" in view
