"""Text rendering: works in every phase, and a player's view shows nothing hidden from him."""

import random

from smuggle_envs.games.illegal import IllegalGame
from smuggle_envs.games.illegal.actions import KIND_NAMES
from smuggle_envs.games.illegal.vocab import NUM_PHASES, OVER, PHASE_NAMES, TAKE, TRADE_PARTNER


def test_render_every_phase_and_perspective_hides_what_the_player_cannot_see():
    game = IllegalGame(num_players=4, trading=True)
    rng = random.Random(3)
    phases = set()
    for seed in range(4):
        state = game.new_initial_state(seed)
        step = 0
        while True:
            step += 1
            phases.add(state.phase)
            full = state.render()
            assert full.startswith("Illegal") and PHASE_NAMES[state.phase].split(":")[0] in full
            for p in range(4):
                view = state.render(p)
                if step % 4 == 0:
                    assert view == state.resample(p, rng).render(p)
                lines = view.splitlines()
                closed = [q for q in range(4) if q != p and not state.is_open(q)]
                sizes = [line for line in lines if line.startswith("      hand: ")]
                shown = [line for line in lines if line.startswith(("      hand (", "      open hand ("))]
                assert len(sizes) == len(closed)  # closed hands: only their size ...
                for q, line in zip(closed, sizes):
                    assert line.startswith(f"      hand: {state.hsize[q]} cards")
                assert len(shown) == 4 - len(closed)  # ... the rest: the cards
            if state.is_terminal():
                assert "winner" in full and "last accounting" in full
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert phases >= (set(range(NUM_PHASES)) - {TAKE, TRADE_PARTNER}) | {OVER}  # TAKE: scripted below


def test_render_shows_tables_hassles_and_the_card_being_resolved(table):
    t = table(
        hands={0: ["hostile takeover"], 1: [], 2: [], 3: []},
        tables={2: ["weapons", "gambling"]},
        hassles={1: "tax inspection"},
        markets=[0],
    )
    view = t.state.render(3)
    assert "P1: Market Open covered by tax inspection" in view and "open hand (7)" in view
    assert "P2: Market Open; businesses gambling, weapons = 55,000 EUR" in view
    assert "hostile takeover" not in view  # P0's hand is closed to P3
    t.play("hostile takeover", on=2)
    assert "resolving: P0 plays hostile takeover on P2" in t.state.render(3)
    assert "now: P0 - choose the business to take" in t.state.render(3)
    assert KIND_NAMES[22] in t.state.render(0)
