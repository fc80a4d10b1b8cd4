"""The fast gather encoder against a slow, obvious reference written piece by piece."""

import random
from collections import Counter

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs.games.ciq.actions import CARD_BITS, JOKER, NUM_KINDS
from smuggle_envs.games.ciq.vocab import OPEN, OVER


def reference(state, p):
    game, n = state.game, state.n
    per = [1.0 / c for c in game.kind_counts]

    def seats(values):
        return [values[(p + i) % n] for i in range(n)]

    def one_hot(seat):
        v = [0.0] * n
        if seat >= 0:
            v[(seat - p) % n] = 1.0
        return v

    def counts(cards):
        c = [0.0] * NUM_KINDS
        for k in cards:
            c[k] += per[k]
        return c

    def bits(k):
        if k < 0 or k == JOKER:
            return [0.0] * CARD_BITS
        v = [0.0] * CARD_BITS
        v[k // 13] = 1.0
        v[4 + k % 13] = 1.0
        return v

    live = state.phase != OVER
    phase = [0.0] * 7
    if live:
        phase[state.phase] = 1.0
    hand = state.cards_of(state.hand[p])
    face_up = [k for q in range(n) for k in state.tol[q] + state.cards_of(state.imp[q])]
    if state.sab_card >= 0:
        face_up.append(state.sab_card)
    placed = Counter(hand + state.exp[p] + face_up)
    unseen = [k for k in range(NUM_KINDS) for _ in range(game.kind_counts[k] - placed[k])]
    pieces = {
        "phase": phase,
        "turn": one_hot(state.turn),
        "target": one_hot(state.target),
        "my_hand": counts(hand),
        "hand_size": [x / 7 for x in seats(list(state.hand_size))],
        "import_size": [x / 54 for x in seats(list(state.imp_size))],
        "export_size": [len(e) / 54 for e in seats(state.exp)],
        "tolerance_size": [len(t) / 10 for t in seats(state.tol)],
        "stock": [len(state.stock) / game.total_cards],
        "turns": [state.turns / game.config.turn_limit],
        "tolerance_top": [x for t in seats(state.tol) for x in bits(t[-1] if t else -1)],
        "tolerance_cards": [x for t in seats(state.tol) for x in counts(t)],
        "import_cards": [x for q in seats(list(range(n))) for x in counts(state.cards_of(state.imp[q]))],
        "export_cards": counts(state.exp[p])
        + [x for q in seats(list(range(n)))[1:] for x in counts(state.cards_of(state.exp_pub[q]))],
        "public_cards": counts(face_up),
        "unseen": counts(unseen),
        "shipment": counts(state.ship),
        "shipment_last": bits(state.ship[-1] if state.ship else -1),
        "shipment_flags": [float(state.bribe), float(state.smuggled >= 0), float(state.fired)],
        "sabotage_card": [float(k == state.sab_card) for k in range(NUM_KINDS)],
        "smuggled": bits(state.ship[state.smuggled] if state.smuggled >= 0 else -1),
    }
    layout = game.observation_layout
    assert list(pieces) == [piece.name for piece in layout.pieces]
    return np.concatenate([np.asarray(v, np.float32) for v in pieces.values()])


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_fast_encoder_matches_reference(n):
    game = smuggle_envs.make_game("ciq_v0", num_players=n)
    rng = random.Random(n)
    checked = set()
    expected = set(range(8)) - ({OPEN} if n == 2 else set())  # two players choose no target
    for seed in range(30):
        if seed >= 3 and checked == expected:
            break
        state = game.new_initial_state(seed)
        while True:
            # every seat for small tables; else the player to move and two others (rotation bugs
            # show from any seat but the observer's own)
            seats = range(n) if n <= 3 else {max(state.current_player(), 0), *rng.sample(range(n), 2)}
            for p in seats:
                obs = state.observation(p)
                assert obs.dtype == np.float32 and obs.shape == (game.observation_layout.size,)
                np.testing.assert_allclose(obs, reference(state, p), rtol=1e-6, atol=1e-6)
            checked.add(state.phase)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked == expected, "every decision type (and the end) was encoded"


def test_observation_rejects_bad_seats():
    state = smuggle_envs.make_game("ciq_v0", num_players=3).new_initial_state(0)
    for bad in (-1, 3):
        with pytest.raises(ValueError):
            state.observation(bad)


def test_layout_table_documents_every_piece_and_the_size_formula():
    for n in range(2, 7):
        game = smuggle_envs.make_game("ciq_v0", num_players=n)
        table = game.observation_layout.table()
        for piece in game.observation_layout.pieces:
            assert f"`{piece.name}`" in table
        assert game.observation_layout.size == 311 + 182 * n
        assert np.all(game.observation_layout.low == 0.0)
