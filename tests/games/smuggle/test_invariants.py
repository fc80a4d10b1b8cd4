"""Invariants over thousands of seeded random games: cards and money conserved, roles sane,
every game ends, returns consistent with the money."""

import random

import pytest

import smuggle_envs
from smuggle_envs.games.smuggle.actions import NUM_KINDS
from smuggle_envs.games.smuggle.vocab import OVER, RECEIVE

GAMES_PER_CONFIG = 250  # x 4 player counts x 2 bankruptcy rules = 2,000 games
MAX_DECISIONS = 3000  # far above the longest game seen (about 700 decisions)


def check_invariants(state, game):
    n = game.num_players
    assert sum(state.money) == n * game.starting_money, "money is conserved"
    if state.phase == OVER:
        return
    for k in range(NUM_KINDS):
        total = state.deck.count(k) + state.hand[k] + state.suitcase[k]
        assert total == game.kind_counts[k], f"cards of kind {k} conserved"
    assert sum(state.hand) == state.hand_size == 4 or state.phase != RECEIVE
    assert state.hand_size in (3, 4)
    assert state.f_deck[0] == len(state.deck)
    assert state.officer not in (state.holder, state.receiver)
    assert state.active[state.holder] and state.active[state.officer]
    assert state.current_player() != state.officer or state.phase == 1
    for p in range(n):
        assert all(state.known[p][k] <= state.hand[k] for k in range(NUM_KINDS)), "known cards are in the hand"
    # one-hot fields agree with the roles they mirror
    assert state.f_holder.tolist() == [int(s == state.holder) for s in range(n)]
    assert state.f_officer.tolist() == [int(s == state.officer) for s in range(n)]


@pytest.mark.parametrize("bankruptcy", ["loan", "eliminate"])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_games_conserve_cards_and_money_and_end(n, bankruptcy):
    game = smuggle_envs.make_game("smuggle_v0", num_players=n, bankruptcy=bankruptcy)
    rng = random.Random(n)
    for seed in range(GAMES_PER_CONFIG):
        state = game.new_initial_state(seed)
        decisions = 0
        while not state.is_terminal():
            check_invariants(state, game)
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
            assert decisions < MAX_DECISIONS, "every game ends"
        check_invariants(state, game)
        assert state.rounds_played <= n
        if bankruptcy == "loan":
            assert state.rounds_played == n and all(state.officer_done)
        else:
            assert all(m >= 0 for m in state.money)
            assert all(state.officer_done[s] for s in range(n) if state.active[s]) or sum(state.active) < 3
        # returns agree with the money
        best = max(state.money)
        assert state.returns() == [1.0 if m == best else -1.0 for m in state.money]
        ranked = state.returns("rank")
        for a in range(n):
            for b in range(n):
                if state.money[a] > state.money[b]:
                    assert ranked[a] > ranked[b]
        assert sum(state.returns("score")) == pytest.approx(0.0, abs=1e-9)
