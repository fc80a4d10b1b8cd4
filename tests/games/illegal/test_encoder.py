"""The fast gather encoder against a slow, obvious reference written piece by piece from the
rules' own Python state (not from the byte buffer the encoder reads)."""

import random

import numpy as np
import pytest

from smuggle_envs.games.illegal import IllegalGame
from smuggle_envs.games.illegal.actions import FIRST_BUSINESS, NUM_BUSINESSES, NUM_HASSLES, NUM_KINDS
from smuggle_envs.games.illegal.vocab import NUM_PHASES, OVER


def reference(state, p):
    game, n = state.game, state.n
    counts = game.kind_counts
    seats = [(p + i) % n for i in range(n)]

    def one_hot(index, size):
        v = [0.0] * size
        if index >= 0:
            v[index] = 1.0
        return v

    def seat_hot(seat):
        return one_hot((seat - p) % n if seat >= 0 else -1, n)

    def per_kind(values):
        return [values[k] / counts[k] for k in range(NUM_KINDS)]

    pieces = {
        "phase": one_hot(state.phase if state.phase != OVER else -1, NUM_PHASES),
        "active": seat_hot(state.active),
        "decider": seat_hot(state.decider if state.phase != OVER else -1),
        "my_hand": per_kind(state.hands[p]),
        "market": [state.market[q] for q in seats],
        "hassle": [x for q in seats for x in one_hot(state.hassle[q], NUM_HASSLES)],
        "table": [state.tables[q][b] / counts[FIRST_BUSINESS + b] for q in seats for b in range(NUM_BUSINESSES)],
        "hand_size": [state.hsize[q] / 7 for q in seats],
        "lost_turns": [state.skip[q] / 2 for q in seats],
        "open_hands": [x for q in seats for x in (per_kind(state.hands[q]) if state.is_open(q) else [0.0] * NUM_KINDS)],
        "known": [x for q in seats for x in (per_kind(state.known[p][q]) if q != p else [0.0] * NUM_KINDS)],
        "my_pass": one_hot(state.pending[p], NUM_KINDS),
        "discard": per_kind(state.discards),
        "deck": [len(state.deck) / 106],
        "card": one_hot(state.card, NUM_KINDS),
        "target": seat_hot(state.target),
        "business": one_hot(state.biz, NUM_BUSINESSES),
        "slots": [state.main_used, state.bonus_used],
        "magnum": [state.magnum_actor >= 0],
        "window": [state.window == 0, state.window == 1],
        "trade_give": per_kind(state.give),
        "trade_want": per_kind(state.want),
        "trade_partner": seat_hot(state.partner),
        "hands_played": [state.rounds_played / game.config.max_hands],
        "totals": [state.totals[q] / 100_000 for q in seats],
    }
    layout = game.observation_layout
    assert list(pieces) == [piece.name for piece in layout.pieces]
    return np.concatenate([np.asarray(v, np.float32) for v in pieces.values()])


@pytest.mark.parametrize(
    "n, config",
    [
        (2, {}),
        (3, {"trading": True, "trade_max": 2, "trade_unequal": True}),
        (4, {}),
        (5, {"target_score": 80_000, "max_hands": 2}),
        (6, {}),
    ],
)
def test_fast_encoder_matches_reference(n, config):
    game = IllegalGame(num_players=n, **config)
    layout = game.observation_layout
    rng = random.Random(n)
    for seed in range(5):
        state = game.new_initial_state(seed)
        step = 0
        while True:
            if step % 3 == 0 or state.is_terminal():
                for p in range(n):
                    obs = state.observation(p)
                    assert obs.dtype == np.float32 and obs.shape == (layout.size,)
                    assert (obs >= layout.low).all() and (obs <= layout.high).all()
                    np.testing.assert_allclose(obs, reference(state, p), rtol=1e-6, atol=1e-6)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1


def test_observation_rejects_bad_seats():
    state = IllegalGame().new_initial_state(0)
    for bad in (-1, 4):
        with pytest.raises(ValueError):
            state.observation(bad)


def test_layout_size_and_table_document_every_piece():
    for n in range(2, 7):
        game = IllegalGame(num_players=n)
        assert game.observation_layout.size == 177 + 70 * n
    table = IllegalGame(num_players=5).observation_layout.table()
    for piece in IllegalGame(num_players=5).observation_layout.pieces:
        assert f"`{piece.name}`" in table
    assert f"**{177 + 70 * 5}**" in table
