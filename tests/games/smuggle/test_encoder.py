"""The fast gather encoder against a slow, obvious reference written piece by piece."""

import math
import random
from fractions import Fraction

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs.games.smuggle.actions import CLAIM_BAG, DECLARATIONS, NUM_ITEMS, NUM_KINDS
from smuggle_envs.games.smuggle.encoder import SmuggleEncoder
from smuggle_envs.games.smuggle.vocab import DISCARD, NUM_SEARCH_RECORDS, OVER, RECEIVE


def reference(state, p):
    game, n = state.game, state.n
    rel = lambda seat: (seat - p) % n

    def seats(values):
        return [values[(p + i) % n] for i in range(n)]

    def one_hot(seat):
        v = [0.0] * n
        if seat >= 0:
            v[rel(seat)] = 1.0
        return v

    phase = [0.0] * 4
    if state.phase != OVER:
        phase[state.phase] = 1.0
    receiver = state.receiver if state.phase == RECEIVE else -1
    hand = state.hand.tolist()
    decl = [0] * NUM_ITEMS
    if 0 <= state.decl_action < CLAIM_BAG:
        decl = list(DECLARATIONS[state.decl_action])
    reveal = state.last_reveal
    pieces = {
        "phase": phase,
        "my_role": [p == state.officer, p == state.holder, p == receiver],
        "officer": one_hot(state.officer),
        "holder": one_hot(state.holder),
        "receiver": one_hot(receiver),
        "active": seats(list(state.active)),
        "officer_done": seats(list(state.officer_done)),
        "money": [m / game.starting_money for m in seats(state.money)],
        "my_hand": [c / 4 for c in hand] if p == state.holder else [0] * NUM_KINDS,
        "known_in_hand": [0] * NUM_KINDS if p == state.holder else [c / 4 for c in state.known[p]],
        "declaration": [c / 4 for c in decl],
        "bag_claim": [state.decl_action == CLAIM_BAG],
        "duty_paid": [state.phase in (RECEIVE, DISCARD)],
        "suitcase": [c / t for c, t in zip(state.suitcase, game.kind_counts)],
        "last_reveal": [c / 4 for c in reveal[1]] if reveal else [0] * NUM_KINDS,
        "last_reveal_seat": one_hot(reveal[0] if reveal else -1),
        "last_reveal_outcome": ([reveal[2] == 0, reveal[2] == 1, reveal[2] == 2, reveal[3]] if reveal else [0] * 4),
        "deck": [len(state.deck) / 56],
        "round": [state.rounds_played / n],
        "declarations": [c / 20 for c in seats(list(state.declarations))],
        "bag_claims": [c / 20 for c in seats(list(state.bag_claims))],
        "mean_declared_duty": [
            (math.floor(Fraction(d, 25 * c) + Fraction(1, 2)) * 25 / max(game.declared_duty)) if c else 0.0
            for d, c in zip(seats(state.declared_duty), seats(list(state.declarations)))
        ],
        "search_record": [
            v / 20
            for s in seats(list(range(n)))
            for v in state.search_record[s * NUM_SEARCH_RECORDS : (s + 1) * NUM_SEARCH_RECORDS]
        ],
        "received_from": [c / 20 for c in seats(list(state.received_from[p * n : (p + 1) * n]))],
        "received_lies": [c / 20 for c in seats(list(state.received_lies[p * n : (p + 1) * n]))],
    }
    layout = game.observation_layout
    assert list(pieces) == [piece.name for piece in layout.pieces]
    return np.concatenate([np.asarray(v, np.float32) for v in pieces.values()])


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_fast_encoder_matches_reference(n):
    game = smuggle_envs.make_game("smuggle_v0", num_players=n)
    rng = random.Random(n)
    for seed in range(25):
        state = game.new_initial_state(seed)
        while True:
            for p in range(n):
                obs = state.observation(p)
                assert obs.dtype == np.float32 and obs.shape == (game.observation_layout.size,)
                np.testing.assert_allclose(obs, reference(state, p), rtol=1e-6, atol=1e-6)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


class EncoderBeforeIssue15(SmuggleEncoder):
    """The encoder as it was before its money was written element by element (issue 15)."""

    def encode(self, state, player):
        obs = state.np_buf[self._by_seat[player][player == state.holder]] * self.scale
        inv, money = self.inv_money, state.money
        obs[self.money_slice] = [m * inv for m in money[player:] + money[:player]]
        return obs


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_fast_encoder_is_byte_identical_to_the_one_it_replaced(n, same_observations):
    game = smuggle_envs.make_game("smuggle_v0", num_players=n)
    assert same_observations(game, EncoderBeforeIssue15(game), range(6)) > 1000


def test_observation_rejects_bad_seats():
    state = smuggle_envs.make_game("smuggle_v0").new_initial_state(0)
    for bad in (-1, 4):
        with pytest.raises(ValueError):
            state.observation(bad)


def test_layout_table_documents_every_piece():
    game = smuggle_envs.make_game("smuggle_v0", num_players=5)
    table = game.observation_layout.table()
    for piece in game.observation_layout.pieces:
        assert f"`{piece.name}`" in table
    assert f"**{63 + 22 * 5}**" in table
