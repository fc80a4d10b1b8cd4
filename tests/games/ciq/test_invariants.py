"""Invariants over thousands of seeded random games: cards conserved, fields in step with the
piles, every game ends (won, or drawn at the turn limit), returns consistent with the end."""

import random

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs.games.ciq.actions import NUM_KINDS

from ._checks import card_totals, check_state

GAMES = 400  # x 5 player counts = 2,000 games
FULL_CHECK_GAMES = 8  # of which every decision is fully checked in the first few


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_conserve_cards_and_end(n):
    game = smuggle_envs.make_game("ciq_v0", num_players=n)
    totals = list(game.kind_counts)
    layout = game.observation_layout
    rng = random.Random(n)
    wins = draws = 0
    for seed in range(GAMES):
        state = game.new_initial_state(seed)
        full = seed < FULL_CHECK_GAMES
        decisions = 0
        while not state.is_terminal():
            if full:
                check_state(state)
            elif decisions % 32 == 0:
                assert card_totals(state) == totals, "cards are conserved"
                obs = state.observation(decisions % n)
                assert np.all(obs >= layout.low) and np.all(obs <= layout.high), "observation in its space"
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        check_state(state)
        assert state.turns <= game.config.turn_limit
        if state.drawn_game:
            draws += 1
            assert state.turns == game.config.turn_limit and not state.winners
            assert state.returns() == [0.0] * n
        else:
            wins += 1
            assert state.winners and not state.stock
            assert state.returns() == [1.0 if p in state.winners else -1.0 for p in range(n)]
            assert all(state.scores()[p] < 0 for p in range(n) if p not in state.winners)
        assert sum(state.returns("score")) == pytest.approx(0.0, abs=1e-9)
    assert wins > GAMES * 0.9, "random games nearly always end with a winner"


def test_games_without_a_turn_limit_still_end():
    game = smuggle_envs.make_game("ciq_v0", num_players=4, turn_limit=None)
    rng = random.Random(1)
    for seed in range(60):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            assert state.turns < 5000
        assert state.winners and not state.drawn_game


def test_a_low_turn_limit_draws_every_game():
    game = smuggle_envs.make_game("ciq_v0", num_players=3, turn_limit=5)
    rng = random.Random(2)
    for seed in range(30):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.drawn_game and state.turns == 5
        assert state.returns("win_loss") == state.returns("rank") == [0.0] * 3


def test_every_decision_type_occurs_in_random_play():
    game = smuggle_envs.make_game("ciq_v0", num_players=3)
    rng = random.Random(3)
    phases, kinds = set(), set()
    for seed in range(40):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            phases.add(state.phase)
            a = rng.choice(state.legal_actions())
            kinds.add(min(a // NUM_KINDS, 5) if a < 265 else a)
            state.apply_action(a)
    assert phases == set(range(7))
    assert {0, 1, 2, 3, 4} <= kinds  # ship, sabotage, hire, fire, give
    assert {270, 271, 272} <= kinds  # stop, draw, keep
