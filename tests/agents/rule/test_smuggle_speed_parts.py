"""The shortcuts that make the Smuggle rule bot fast (agents/rule/smuggle.py) decide exactly what
plain decoding would: count look-ups against ``round``, the per-hand declaration plans against a
direct enumeration, the unseen pool against its formula, and a float64 observation (which takes
the slow paths) against the float32 one the encoder writes."""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pytest

import smuggle_envs
from agents.arena import play_game
from agents.rule import smuggle as S
from agents.rule.smuggle import SmuggleRuleAgent
from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.actions import HAND_SIZE, NUM_ITEMS, NUM_KINDS


def _game(n: int = 4):
    return smuggle_envs.make_game("smuggle_v0", num_players=n)


def _recorded(game, games: int) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(seat, observation, mask) of every decision of ``games`` seeded games between rule bots."""
    bots = [SmuggleRuleAgent(game, seed=s) for s in range(game.num_players)]
    seen: list[tuple[int, np.ndarray, np.ndarray]] = []
    for g in range(games):
        play_game(
            game, bots, seed=g, on_step=lambda st, p, a: seen.append((p, st.observation(p), st.legal_action_mask()))
        )
    return seen


@pytest.mark.parametrize("scale", [1, 4, 26])
def test_counts_decode_like_round(scale):
    counts = S._Counts(scale)
    written = [k / scale for k in range(scale + 1)]
    odd = [-0.0, -0.3, 0.125, 0.375, 1.5 / scale, 2.5 / scale, 1.0 + 0.5 / scale, 7.3, 1e-9]
    for x in written + [float(np.float32(x)) for x in written] + odd:
        assert counts[x] == round(x * scale), x
    assert len(counts) <= 2 * (scale + 1)  # a miss is computed, not stored


def test_hand_pieces_decode_their_own_keys_and_cover_real_games():
    table = S._hand_pieces()
    for key, counts in table.items():
        assert counts == tuple(round(x * HAND_SIZE) for x in np.frombuffer(key, np.float32).tolist())
    # Every hand-scaled piece a real game writes is in the table (else decoding is only slower).
    game = _game()
    slices = [game.observation_layout.slice(name) for name in ("my_hand", "known_in_hand", "declaration")]
    for _, obs, _ in _recorded(game, 3):
        assert all(obs[piece].tobytes() in table for piece in slices)


def test_hand_plans_match_a_direct_enumeration():
    bot = SmuggleRuleAgent(_game(), seed=0)
    for size in range(HAND_SIZE + 1):
        for cards in combinations_with_replacement(range(NUM_ITEMS), size):
            held = tuple(cards.count(k) for k in range(NUM_ITEMS))
            items = sorted(cards, key=lambda k: bot.duties[k])  # cheapest first
            bluffs = []
            for k in range(len(items)):
                declared = [items[:k].count(i) for i in range(NUM_ITEMS)]
                bluffs.append((sum(bot.duties[i] for i in items[:k]), A.declare(declared)))
            plan = bot._hand_plan(held)
            assert plan == (
                A.declare(held),
                sum(bot.duties[i] for i in items),
                sum(bot.fines[i] for i in items),
                tuple(bluffs),
            )


def test_pool_matches_its_formula_even_for_impossible_counts():
    game = _game()
    bot = SmuggleRuleAgent(game, seed=0)
    rng = np.random.default_rng(0)
    suitcase, known = game.observation_layout.slice("suitcase"), game.observation_layout.slice("known_in_hand")
    for _ in range(200):
        obs = np.zeros(game.observation_layout.size, np.float32)
        obs[game.observation_layout.slice("phase").start + 1] = 1.0  # the Officer's view
        in_suitcase = [int(rng.integers(0, c + 2)) for c in bot.kind_counts]  # may exceed the pack
        mine = [int(rng.integers(0, HAND_SIZE + 1)) for _ in range(NUM_KINDS)]
        obs[suitcase] = [n / c for n, c in zip(in_suitcase, bot.kind_counts)]
        obs[known] = [n / HAND_SIZE for n in mine]
        unseen = [max(0, c - s - m) for c, s, m in zip(bot.kind_counts, in_suitcase, mine)]
        size = sum(unseen)
        pool = S._Obs(bot, obs).pool
        if size == 0:
            assert pool == (0, 0.0, 0.0, 1.0)
            continue
        assert pool.size == size
        assert pool.mean_fine == sum(u * f for u, f in zip(unseen, bot.fines)) / size
        assert pool.mean_duty == sum(unseen[k] * bot.duties[k] for k in range(NUM_ITEMS)) / size
        assert pool.plain == (unseen[-2] + unseen[-1]) / size


def test_a_float64_observation_gets_the_same_actions():
    # float64 pieces miss the float32 table and take the decoding paths: same values, same play.
    game = _game(5)
    fast, slow = SmuggleRuleAgent(game, seed=3), SmuggleRuleAgent(game, seed=3)
    for _, obs, mask in _recorded(game, 4):
        assert fast.act(obs, mask) == slow.act(obs.astype(np.float64), mask)
