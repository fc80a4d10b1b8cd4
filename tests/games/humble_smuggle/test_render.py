"""Text rendering: works in every phase, and a player's view shows nothing hidden from him."""

import random

import smuggle_envs
from smuggle_envs.games.humble_smuggle.vocab import DISCARD, DRAFT, OVER, PLAY, SELECT

HANDS = {0: [45, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]}


def test_render_every_phase_and_perspective_hides_what_the_player_cannot_see():
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=3)
    rng = random.Random(3)
    phases = set()
    for seed in range(4):
        state = game.new_initial_state(seed)
        while True:
            phases.add(state.phase)
            full = state.render()
            assert full.startswith("Humble smuggle")
            for p in range(3):
                view = state.render(p)
                assert view == state.resample(p, rng).render(p)
                assert f"P{p} (you)" in view
            if state.is_terminal():
                assert "winner" in full
                break
            legal = state.legal_actions()
            state.apply_action(legal[0] if state.phase == PLAY and rng.random() < 0.5 else rng.choice(legal))
    assert phases == {DRAFT, SELECT, PLAY, DISCARD, OVER}


def test_render_shows_your_own_choices_and_hides_the_others(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25], black={0: ["+10"], 1: ["-20"]})
    t.draft(11, 13, 14).select(45, 51, 26).play("+10", 1)
    s = t.state
    assert "centre: 25 (Standard, compass)" in s.render(1) and "round rule: Standard" in s.render(1)
    mine, theirs = s.render(0), s.render(1)
    assert "face down: 45" in mine and "attached: +10 by P0" in mine and "P0 hand: 31, 8, 11" not in mine
    assert "P0 hand: 8, 11, 31" in mine and "play +10" not in mine.split("P0 hand")[1]
    assert "face down: ?" in theirs and "attached: ? by P0" in theirs and "45" not in theirs
    assert "P1 hand: 6, 13, 33 | black: play -20" in theirs and "P0 hand" not in theirs
    full = s.render()
    assert "face down: 45" in full and "face down: 51" in full and "attached: +10 by P0" in full
    t.finish_play()
    last = t.state.render(2)
    assert "last reveal (Standard): P0 45 scored; P1 51 +10 = 61 discarded; P2 26 scored; centre 25" in last
