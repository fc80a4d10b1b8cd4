"""No hidden information in anyone's observation, render, score or turn order, for every
registered game and every decision type.

For sampled positions of random games (every rare decision included): redraw everything seat p
cannot see (``resample``). p's observation, render and legal actions, the scores, who decides
next and what p knows (the game's ``known`` facts) must not change, and the redrawn position
must be a consistent one (the game's own check). The redraws must really move hidden cards (the
game's ``hidden`` pieces are counted), or the test proves nothing. Then the flow: the same action
applied to a position and to a redraw of it must not tell p anything through who decides next.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import smuggle_envs

from ._games import CASES, IDS, facts, play, positions, snapshot, sweep_params


@pytest.mark.parametrize("env_id, sweep", sweep_params("sweeps"))
def test_resampling_hidden_information_never_changes_the_observation(env_id, sweep):
    f = facts(env_id)
    n = sweep.num_players
    game = smuggle_envs.make_game(env_id, num_players=n, **sweep.config)
    rng = random.Random(42)
    phases, moved = set(), Counter()
    for state in positions(game, f, sweep.games, sweep.every):
        phases.add(state.phase)
        for p in range(n):
            other = state.resample(p, rng)
            np.testing.assert_array_equal(other.observation(p), state.observation(p))
            assert other.render(p) == state.render(p)
            assert other.current_player() == state.current_player() and other.is_terminal() == state.is_terminal()
            if p == state.current_player():
                assert list(other.legal_actions()) == list(state.legal_actions())
            assert other.scores() == state.scores(), "no score reveals a hidden card"
            assert other.history == state.history
            assert f.known(other, p) == f.known(state, p), "what p knows stays"
            f.check(other)  # a consistent position
            for name, piece in f.hidden.items():
                moved[name] += piece(other, p) != piece(state, p)
    expected = f.phases(n, sweep.config)
    assert phases == expected if f.phases_are_all else phases >= expected
    for name, least in f.moved_at_least.items():
        assert moved[name] > least, f"resampling must actually move hidden cards: {dict(moved)}"


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_resampling_is_seeded_and_leaves_the_original_untouched(env_id, n):
    game = smuggle_envs.make_game(env_id, num_players=n)
    state = play(game.new_initial_state(3), random.Random(0), 30)
    assert not state.is_terminal()
    before = snapshot(state)
    observations = [state.observation(p) for p in range(n)]
    for p in range(n):
        a, b = state.resample(p, random.Random(5)), state.resample(p, random.Random(5))
        assert snapshot(a) == snapshot(b), "the same rng redraws the same"
        assert a.rng.getstate() != state.rng.getstate(), "a redraw gets an RNG of its own: chance is hidden too"
        deals = [snapshot(state.resample(p, random.Random(seed))) for seed in range(6, 10)]
        for deal in deals:
            del deal["rng"]
        assert any(deal != deals[0] for deal in deals), "another rng redraws hidden cards otherwise"
    assert snapshot(state) == before
    for p in range(n):
        np.testing.assert_array_equal(state.observation(p), observations[p])
    with pytest.raises(ValueError):
        state.resample(n, random.Random(0))


@pytest.mark.parametrize("env_id, sweep", sweep_params("flow"))
def test_who_decides_next_never_depends_on_hidden_cards(env_id, sweep):
    # Apply the same action to a position and to a redraw of it for seat p (when legal in both).
    # Unless the action showed p something (an open hand, a card played), p's observations of the
    # two results agree in the flow too (phase, whose turn, who decides), so nobody learns a
    # hidden card from who is asked what.
    f = facts(env_id)
    n = sweep.num_players
    game = smuggle_envs.make_game(env_id, num_players=n, **sweep.config)
    layout = game.observation_layout
    flow = np.zeros(layout.size, bool)
    for name in f.flow:
        flow[layout.slice(name)] = True
    rng = random.Random(7)
    compared = 0
    for state in positions(game, f, sweep.games, sweep.every, seed=1):
        if state.is_terminal():
            continue
        p = rng.randrange(n)
        other = state.resample(p, rng)
        common = sorted(set(state.legal_actions()) & set(other.legal_actions()))
        if not common:  # the decider's redrawn hand shares nothing
            continue
        action = rng.choice(common)
        a, b = state.clone(), other
        a.apply_action(action)
        b.apply_action(action)
        seen_a, seen_b = a.observation(p), b.observation(p)
        if np.array_equal(seen_a[~flow], seen_b[~flow]):
            assert (a.phase, a.current_player()) == (b.phase, b.current_player()), game.action_to_string(action)
            np.testing.assert_array_equal(seen_a, seen_b)
            compared += 1
    assert compared > f.flow_compared_at_least
