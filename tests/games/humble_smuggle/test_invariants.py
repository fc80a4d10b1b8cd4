"""Invariants over seeded random games: every card conserved, the byte mirror in step, hand
sizes and limits, games end after the right number of rounds, returns agree with the scores."""

import random

import pytest

import smuggle_envs

from ._checks import check_state

ROUNDS = {2: 14, 3: 12, 4: 11, 5: 10}  # with the proposed 80-card depths
CONFIGS = [{}, {"discard_count": "values", "stars_need_a_symbol": True}]


@pytest.mark.parametrize("config", CONFIGS, ids=["default", "variants"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_conserve_cards_and_end(n, config):
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=n, **config)
    rng = random.Random(n)
    phases = set()
    for seed in range(25):
        state = game.new_initial_state(seed)
        decisions = 0
        while not state.is_terminal():
            check_state(state)
            phases.add(state.phase)
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
            assert decisions < 1000, "every game ends"
        check_state(state)
        assert state.rounds_played == ROUNDS[n] and state.final
        assert state.end_left == -1
        scores = state.scores()
        best = max(scores)
        assert state.returns() == [1.0 if s == best else -1.0 for s in scores]
        assert sum(state.returns("score")) == pytest.approx(0.0, abs=1e-9)
        assert all(s == p + len(sc) / 100 for s, p, sc in zip(scores, state.points(), state.scored))
    assert phases == {0, 1, 2, 3}, "every decision type was reached"


@pytest.mark.parametrize("depth", [6, 9, 60, 76])
def test_any_allowed_end_card_depth_ends_after_the_right_round(depth):
    # 2 players: hands take 6 cards, the centre 3 per round. A depth of 6 puts the 80 in the
    # first centre (round 1 is the last); at 9 it is the first card of the first refill; 76
    # leaves exactly one full centre below it. In general R = (depth - 3P) // (P + 1) + 1.
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=2, end_card_depth=depth)
    expected = {6: 1, 9: 2, 60: 19, 76: 24}[depth]
    assert expected == (depth - 6) // 3 + 1
    rng = random.Random(depth)
    for seed in range(3):
        state = game.new_initial_state(seed)
        assert state.rounds_left() == expected
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        check_state(state)
        assert state.rounds_played == expected
