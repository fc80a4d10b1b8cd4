"""Invariants over thousands of seeded random games: every card conserved, knowledge sound, the
bookkeeping fields in step with the rules' own lists, every game ends, returns agree with the
scores."""

import random

import numpy as np
import pytest

from smuggle_envs.games.illegal import IllegalGame
from smuggle_envs.games.illegal.actions import (
    FIRST_BUSINESS,
    FIRST_HASSLE,
    MAGNUM,
    MARKET,
    NUM_BUSINESSES,
    NUM_HASSLES,
    NUM_ILLEGAL,
    NUM_KINDS,
)
from smuggle_envs.games.illegal.vocab import (
    EXTRA,
    OVER,
    PASS,
    PAY,
    PLAY,
    REACT,
    TAKE,
    TARGET,
    TRADE_ANSWER,
    TRADE_GIVE,
    TRADE_PARTNER,
    TRADE_WANT,
    W_TAKEOVER,
)

MAX_DECISIONS = 5000  # far above the longest single hand seen (about 750 decisions)
CONFIGS = [
    ({}, 240),
    ({"trading": True}, 40),
    ({"trading": True, "trade_max": 3, "trade_unequal": True}, 30),
    ({"discard": "strict"}, 60),
    ({"takeover": "smallest", "refill": "one", "stock_out": "play_on"}, 30),
]  # games per player count (2-6): 2,000 games in all


def in_the_air(state) -> list[int]:
    """Cards out of every hand that have not reached a table or the discard pile yet."""
    phase, cards = state.phase, []
    if phase == TARGET and state.magnum_actor >= 0:
        cards.append(MAGNUM)
        if state.window == W_TAKEOVER:
            cards.append(state.card)
    elif phase in (TARGET, TAKE, PAY) or (phase == REACT and state.window == W_TAKEOVER):
        cards.append(state.card)
    return cards


def _region(state, name, shape):
    start, size = state.game.fields.offsets[name]
    return state.np_buf[start : start + size].reshape(shape).astype(np.int64)


def check(state, game):
    n, K = state.n, NUM_KINDS
    hands = _region(state, "hands", (n, K))
    tables = _region(state, "table", (n, NUM_BUSINESSES))
    total = hands.sum(0) + np.bincount(state.deck, minlength=K) + _region(state, "discard", K)
    total[FIRST_BUSINESS : FIRST_BUSINESS + NUM_BUSINESSES] += tables.sum(0)
    total[MARKET] += _region(state, "market", n).sum()
    for h in state.hassle:
        if h >= 0:
            total[FIRST_HASSLE + h] += 1
    for k in in_the_air(state):
        total[k] += 1
    assert (total == game.kind_counts).all(), "every card is somewhere, once"
    assert (hands.sum(1) == _region(state, "hand_size", n)).all(), "hand sizes"
    assert state.f_deck[0] == len(state.deck)
    known = _region(state, "known", (n, n, K))
    assert (known <= hands[None, :, :]).all(), "what a seat knows to be in a hand is there"
    assert not known[np.arange(n), np.arange(n)].any()
    assert state.nbiz == tables.sum(1).tolist() and state.nill == tables[:, :NUM_ILLEGAL].sum(1).tolist()
    f_hassle = _region(state, "hassle", (n, NUM_HASSLES))
    expected = np.zeros((n, NUM_HASSLES), np.int64)
    for q in range(n):
        h = state.hassle[q]
        if h >= 0:
            expected[q, h] = 1
            assert state.market[q], "hassles only cover a Market Open"
            loss = game.turn_loss[h]
            assert (loss != 1 or state.nill[q]) and (loss != 2 or state.nbiz[q]), "Raid / PM go when nothing is left"
        assert state.is_open(q) == (h >= 0 and game.open_hand[h])
    assert (f_hassle == expected).all()
    assert max(state.skip) <= 2
    phase, decider, active = _region(state, "phase", -1), _region(state, "decider", n), _region(state, "active", n)
    if state.phase == OVER:
        assert not phase.any() and not decider.any()
        return
    assert phase.sum() == 1 and phase[state.phase] == 1
    assert decider.sum() == 1 and decider[state.decider] == 1
    assert active.sum() == 1 and active[state.active] == 1
    if state.phase in (PLAY, EXTRA, TRADE_GIVE, TRADE_WANT, TRADE_PARTNER, TRADE_ANSWER):
        assert min(state.hsize) > 0, "an emptied hand ends the game once its card is resolved"
    if state.phase != PASS:
        assert max(state.pending) < 0
    for q in range(n):
        if state.pending[q] >= 0:
            assert state.hands[q][state.pending[q]] > 0


@pytest.mark.slow
@pytest.mark.parametrize("config, games", CONFIGS, ids=[str(c) for c, _ in CONFIGS])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_conserve_cards_and_end(n, config, games):
    game = IllegalGame(num_players=n, **config)
    rng = random.Random(n)
    lengths = []
    for seed in range(games):
        state = game.new_initial_state(seed)
        decisions = 0
        while not state.is_terminal():
            if decisions % 8 == 0:
                check(state, game)
            legal = state.legal_actions()
            assert legal and list(legal) == sorted(set(legal))
            state.apply_action(rng.choice(legal))
            decisions += 1
            assert decisions < MAX_DECISIONS, "every game ends"
        check(state, game)
        lengths.append(decisions)
        scores = state.scores()
        assert scores == [float(state.accounting(q)) for q in range(n)]
        best = max(scores)
        assert state.returns() == [1.0 if s == best else -1.0 for s in scores]
        assert sum(state.returns("score")) == pytest.approx(0.0, abs=1e-9)
    assert max(lengths) > 60


def test_multi_hand_games_conserve_cards_between_hands_and_end():
    game = IllegalGame(num_players=3, target_score=300_000, max_hands=6)
    rng = random.Random(0)
    for seed in range(6):
        state = game.new_initial_state(seed)
        hands_seen = 0
        while not state.is_terminal():
            if state.rounds_played != hands_seen:
                hands_seen = state.rounds_played
                check(state, game)
                assert len(state.deck) == 106 - 21 and not any(state.discards)
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.rounds_played <= 6
        assert max(state.totals) >= 300_000 or state.rounds_played == 6
