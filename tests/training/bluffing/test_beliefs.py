"""The posteriors of ``training.bluffing.beliefs`` against exact enumeration.

Each position is small enough to list every world a seat cannot rule out, with its probability
(multivariate hypergeometric counts of the unseen cards), so the exact uniform and policy-weighted
posteriors are sums; the Monte Carlo estimates must lie within 4 standard errors of them. Each
estimator is also shown to fail the same check when it is wrong (a resample that leaks the true
hand, weights from the wrong policy), so the check can fail.
"""

from __future__ import annotations

import random
import sys
from itertools import combinations_with_replacement
from math import comb, prod
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # Liar's deal is imported as tests.fixtures.liars_deal
    sys.path.insert(0, str(ROOT))

from agents import make_agent  # noqa: E402
from agents.base import RandomAgent, decide  # noqa: E402
from smuggle_envs.games.smuggle import actions as A  # noqa: E402
from smuggle_envs.games.smuggle.actions import BAG, NUM_ITEMS, NUM_KINDS  # noqa: E402
from smuggle_envs.games.smuggle.vocab import DECLARE, OFFICER  # noqa: E402
from smuggle_envs.registry import make_game  # noqa: E402
from tests.fixtures.liars_deal import actions as LD  # noqa: E402
from tests.fixtures.liars_deal.bot import LiarsDealBot  # noqa: E402
from tests.fixtures.liars_deal.rules import LiarsDealGame  # noqa: E402
from training.bluffing.beliefs import (  # noqa: E402
    Estimate,
    NetworkPolicy,
    OneHotPolicy,
    RuleBotPolicy,
    SampledPolicy,
    UniformPolicy,
    UnsupportedRandomness,
    _weighted_estimate,
    policy_aware_posterior,
    policy_for,
    posterior_since,
    uniform_posterior,
)


# ----- exact enumeration helpers -------------------------------------------------------------------
def hands(pool: list[int], size: int):
    """Every multiset of ``size`` cards drawn from ``pool`` (counts per kind), with its
    probability (multivariate hypergeometric)."""
    total = comb(sum(pool), size)
    for combo in combinations_with_replacement(range(len(pool)), size):
        counts = [combo.count(k) for k in range(len(pool))]
        p = prod(comb(pool[k], counts[k]) for k in range(len(pool))) / total
        if p:
            yield counts, p


def counts_of(cards, kinds: int) -> list[int]:
    counts = [0] * kinds
    for card in cards:
        counts[card] += 1
    return counts


def smuggle_claim_true(state) -> bool:
    """The live hand matches its declaration (or holds the Bag, for a Bag claim)."""
    if state.decl_action == A.CLAIM_BAG:
        return state.hand[BAG] > 0
    return tuple(state.hand[:NUM_ITEMS]) == A.DECLARATIONS[state.decl_action]


def smuggle_world(root, hand: list[int], next_draws=()):
    """``root`` with the live hand set to ``hand`` and the pack's next draws ``next_draws``."""
    world = root.clone()
    deck = root.deck + root.hand_cards()
    for card in [k for k in range(NUM_KINDS) for _ in range(hand[k])] + list(next_draws):
        deck.remove(card)
    world.hand[:] = bytes(hand)
    world.deck = deck + list(next_draws)[::-1]  # the pack is drawn from its end
    return world


def weighted_exact(worlds) -> float:
    """sum p w t / sum p w over ``(probability, weight, truth)``."""
    rows = list(worlds)
    den = sum(p * w for p, w, _ in rows)
    return sum(p * w * t for p, w, t in rows) / den


def leak_truth(state):
    """A broken resample that copies the true world (what ``resample`` must never do)."""
    state._resample = lambda player, rng: state.clone()
    return state


# ----- Liar's deal: several claims reweighted, three players ----------------------------------------
def test_liars_deal_posteriors_match_enumeration():
    # Seat 2 faces seat 1's raise of seat 0's claim: two other hands of 2 cards are hidden.
    game = LiarsDealGame(num_players=3, hand=2, rounds=3)
    bots = [LiarsDealBot(game, seed=0) for _ in range(3)]
    policies = {seat: RuleBotPolicy(bot) for seat, bot in enumerate(bots)}
    root = game.new_initial_state(1)
    state, actions = root.clone(), []
    while state.current_player() != 2:
        seat = state.current_player()
        actions.append(decide(bots[seat], state, seat))
        state.apply_action(actions[-1])
    count, rank = LD.count_rank(state.claim)
    truth = lambda st: st.shown()[rank - 1] >= count

    rows = []
    pool = counts_of([c - 1 for c in root.deck + root.hands[0] + root.hands[1]], LD.RANKS)
    for h0, p0 in hands(pool, 2):
        for h1, p1 in hands([a - b for a, b in zip(pool, h0)], 2):
            world = root.clone()
            world.hands[0] = [r + 1 for r in range(LD.RANKS) for _ in range(h0[r])]
            world.hands[1] = [r + 1 for r in range(LD.RANKS) for _ in range(h1[r])]
            weight = 1.0
            for action in actions:
                actor = world.current_player()
                weight *= policies[actor].action_probabilities(world.observation(actor), world.legal_action_mask())[
                    action
                ]
                world.apply_action(action)
            rows.append((p0 * p1, weight, truth(world)))
    exact_uniform = weighted_exact((p, 1.0, t) for p, _, t in rows)
    exact_policy = weighted_exact(rows)
    assert abs(exact_policy - exact_uniform) > 0.2  # the claims tell a lot: a discriminating case

    uniform = uniform_posterior(state, 2, truth, samples=1500, rng=1)
    aware = posterior_since(root, actions, 2, truth, policies, samples=1500, rng=2)
    assert uniform.agrees(exact_uniform), (uniform, exact_uniform)
    assert aware.agrees(exact_policy) and aware.ess > 100, (aware, exact_policy)
    # Negative checks: the wrong weights, or a resample that leaks the truth, are caught.
    wrong = posterior_since(root, actions, 2, truth, {0: UniformPolicy(), 1: UniformPolicy()}, 1500, rng=2)
    assert not wrong.agrees(exact_policy), (wrong, exact_policy)
    leaked = uniform_posterior(leak_truth(state.clone()), 2, truth, samples=1500, rng=1)
    assert not leaked.agrees(exact_uniform), (leaked, exact_uniform)

    # The same claims made face down (their text hidden from the other seats, the observation
    # still showing the standing claim): each world draws its own claim from the policy, and the
    # observation check keeps the worlds that drew the true one, which is the same posterior.
    hidden_root = root.clone()
    hidden_root._public_action_string = lambda action: "makes a claim"
    hidden = posterior_since(hidden_root, actions, 2, truth, policies, samples=1500, rng=3)
    assert hidden.agrees(exact_policy) and hidden.ess > 20, (hidden, exact_policy)


# ----- Smuggle: the Officer facing a declaration -----------------------------------------------------
def _play_until(game, bots, seeds, wanted):
    """The first position in games of ``bots`` (over ``seeds``) where ``wanted(state, actions)``
    holds: ``(root, actions, state)`` with ``root`` the last fresh four-card deal."""
    for seed in seeds:
        state = game.new_initial_state(seed)
        root, actions = None, []
        while not state.is_terminal():
            if state.phase == DECLARE and state.kept == 0:
                root, actions = state.clone(), []
            seat = state.current_player()
            actions.append(decide(bots[seat], state, seat))
            state.apply_action(actions[-1])
            if root is not None and wanted(state, actions):
                return root, actions, state
    raise AssertionError("no such position in these games")


def test_smuggle_fresh_hand_claim_matches_enumeration():
    # Mid-round (several hands face up in the open suitcase), a fresh hand just declared.
    game = make_game("smuggle_v0", num_players=3)
    bots = [make_agent("rule", game, seed=i) for i in range(3)]
    # A declaration of nothing or a Bag claim: what the bot's bluffs say, so neither posterior is 0 or 1.
    bluffs = (A.declare([0] * NUM_ITEMS), A.CLAIM_BAG)
    wanted = lambda st, acts: st.phase == OFFICER and len(acts) == 1 and sum(st.suitcase) >= 8 and acts[0] in bluffs
    root, (claim,), state = _play_until(game, bots, range(20), wanted)
    officer, holder = state.officer, root.holder
    policy = RuleBotPolicy(bots[holder])
    rows = []
    for hand, p in hands(counts_of(root.deck + root.hand_cards(), NUM_KINDS), 4):
        world = smuggle_world(root, hand)
        weight = policy.action_probabilities(world.observation(holder), world.legal_action_mask())[claim]
        world.apply_action(claim)
        rows.append((p, weight, smuggle_claim_true(world)))
    exact_uniform = weighted_exact((p, 1.0, t) for p, _, t in rows)
    exact_policy = weighted_exact(rows)

    uniform = uniform_posterior(state, officer, smuggle_claim_true, samples=2000, rng=3)
    aware = policy_aware_posterior(root, claim, officer, smuggle_claim_true, policy, samples=2000, rng=4)
    assert uniform.agrees(exact_uniform), (uniform, exact_uniform)
    assert aware.agrees(exact_policy), (aware, exact_policy)
    leaked = uniform_posterior(leak_truth(state.clone()), officer, smuggle_claim_true, samples=200, rng=3)
    assert not leaked.agrees(exact_uniform), (leaked, exact_uniform)


def test_smuggle_kept_hand_reweights_the_whole_hand_history():
    # A hand passed on and kept: declared, let pass, accepted, one card discarded and one drawn,
    # declared again as nothing. Reweighted from the fresh deal: both declarations, the accept
    # and the discard of the hidden hand's holders (the Officer's own let-pass cancels out).
    game = make_game("smuggle_v0", num_players=3)
    bots = [make_agent("rule", game, seed=i) for i in range(3)]
    nothing = A.declare([0] * NUM_ITEMS)
    wanted = lambda st, acts: st.phase == OFFICER and len(acts) == 5 and acts[-1] == nothing
    root, actions, state = _play_until(game, bots, range(40), wanted)
    officer = state.officer
    policies = {seat: RuleBotPolicy(bot) for seat, bot in enumerate(bots)}
    pool = counts_of(root.deck + root.hand_cards(), NUM_KINDS)
    rows = []
    for hand, p in hands(pool, 4):
        rest = [a - b for a, b in zip(pool, hand)]
        for drawn in (k for k in range(NUM_KINDS) if rest[k]):
            world, weight = smuggle_world(root, hand, [drawn]), p * rest[drawn] / sum(rest)
            for action in actions:
                actor = world.current_player()
                if actor != officer:
                    weight *= policies[actor].action_probabilities(world.observation(actor), world.legal_action_mask())[
                        action
                    ]
                if weight == 0.0:
                    break
                world.apply_action(action)
            if weight > 0.0:
                rows.append((1.0, weight, smuggle_claim_true(world)))
    exact_policy = weighted_exact(rows)

    aware = posterior_since(root, actions, officer, smuggle_claim_true, policies, samples=5000, rng=5)
    assert aware.ess > 20 and aware.agrees(exact_policy), (aware, exact_policy)
    wrong = posterior_since(root, actions, officer, smuggle_claim_true, {}, samples=2000, rng=5)
    assert not wrong.agrees(exact_policy), (wrong, exact_policy)


def test_smuggle_uniform_posterior_of_a_kept_hand_matches_enumeration():
    # A kept hand under a Bag claim: the three kept cards are Bag-free (rule 15), so the Bag is
    # equally likely to be any other unseen card, the one drawn into the hand among them.
    game = make_game("smuggle_v0", num_players=3)
    bots = [make_agent("rule", game, seed=i) for i in range(3)]
    wanted = lambda st, acts: st.phase == OFFICER and st.kept == 3 and st.decl_action == A.CLAIM_BAG
    _, _, state = _play_until(game, bots, range(40), wanted)
    pool = counts_of(state.deck + state.hand_cards(), NUM_KINDS)
    exact = 0.0
    for kept, p in hands([0 if k == BAG else c for k, c in enumerate(pool)], 3):
        rest = [a - b for a, b in zip(pool, kept)]
        exact += p * rest[BAG] / sum(rest)  # the one drawn card is the Bag
    assert exact == pytest.approx(1 / (sum(pool) - 3))
    estimate = uniform_posterior(state, state.officer, smuggle_claim_true, samples=12000, rng=6)
    assert estimate.agrees(exact), (estimate, exact)


def test_network_policy_bag_claim_matches_enumeration():
    # The zoo's Smuggle network, softmax and argmax, weighing a Bag claim on the opening hand.
    game = make_game("smuggle_v0", num_players=4)
    zoo = make_agent("zoo", game, seed=0)
    root = game.new_initial_state(7)
    holder, officer = root.holder, root.officer
    for policy in (NetworkPolicy(zoo.policy), policy_for(zoo)):
        rows = []
        for hand, p in hands(counts_of(root.deck + root.hand_cards(), NUM_KINDS), 4):
            world = smuggle_world(root, hand)
            weight = policy.action_probabilities(world.observation(holder), world.legal_action_mask())[A.CLAIM_BAG]
            rows.append((p, weight, hand[BAG] > 0))
        exact = weighted_exact(rows)
        aware = policy_aware_posterior(root, A.CLAIM_BAG, officer, smuggle_claim_true, policy, 1500, rng=8)
        assert aware.ess > 100 and aware.agrees(exact), (aware, exact)


# ----- policies --------------------------------------------------------------------------------------
class _ScriptedBot:
    """A bot whose randomness covers every form RuleBotPolicy follows."""

    def __init__(self, form: str):
        self.rng, self.form = random.Random(0), form

    def act(self, observation, action_mask) -> int:
        if self.form == "thresholds":  # one draw compared twice: 0.3, 0.2, 0.5
            u = self.rng.random()
            return 0 if u < 0.3 else 1 if u < 0.5 else 2
        if self.form == "nested":  # 0.4 * 1/3 each on 0-2, else 0.6 on 3
            # the draw on the right: Python asks it for the reflected comparison (<)
            return self.rng.choice([0, 1, 2]) if 0.4 > self.rng.random() else 3  # noqa: SIM300
        if self.form == "arithmetic":
            return int(self.rng.random() * 3)
        return self.rng.sample([0, 1], 1)[0]


def test_rule_bot_policy_enumerates_every_branch():
    obs, mask = np.zeros(3), np.ones(4, dtype=np.int8)
    assert np.allclose(RuleBotPolicy(_ScriptedBot("thresholds")).action_probabilities(obs, mask), [0.3, 0.2, 0.5, 0])
    nested = RuleBotPolicy(_ScriptedBot("nested")).action_probabilities(obs, mask)
    assert np.allclose(nested, [0.4 / 3] * 3 + [0.6])
    for form in ("arithmetic", "sample"):
        bot = _ScriptedBot(form)
        saved = bot.rng
        with pytest.raises(UnsupportedRandomness):
            RuleBotPolicy(bot).action_probabilities(obs, mask)
        assert bot.rng is saved  # the bot's own rng is put back


def test_rule_bot_policy_matches_the_bots_play():
    # A Smuggle bot that bluffs often: its exact distribution against 3000 of its own draws.
    game = make_game("smuggle_v0", num_players=3)
    bot = make_agent("rule", game, seed=0)
    bot.bluff_rate, bot.false_bag_rate, bot.false_bag_min_duty = 0.4, 0.3, 0
    state = game.new_initial_state(2)
    state.arrange(["wine", "luggage", "luggage", "luggage"])
    obs, mask = state.observation(state.holder), state.legal_action_mask()
    exact = RuleBotPolicy(bot).action_probabilities(obs, mask)
    assert exact.sum() == pytest.approx(1.0) and np.count_nonzero(exact) == 3  # honest, nothing, Bag
    played = np.bincount([bot.act(obs, mask) for _ in range(3000)], minlength=len(mask)) / 3000
    assert np.all(np.abs(played - exact) <= 4 * np.sqrt(exact * (1 - exact) / 3000) + 1e-9)
    sampled = SampledPolicy(bot, draws=400).action_probabilities(obs, mask)
    assert np.array_equal(sampled, SampledPolicy(bot, draws=400).action_probabilities(obs, mask))
    assert np.abs(sampled - exact).max() < 0.1


def test_policy_for_and_simple_policies():
    game = make_game("smuggle_v0", num_players=4)
    assert isinstance(policy_for(make_agent("rule", game)), RuleBotPolicy)
    assert isinstance(policy_for(RandomAgent()), UniformPolicy)
    assert isinstance(policy_for(make_agent("zoo", game)), NetworkPolicy)
    with pytest.raises(TypeError):
        policy_for(object())

    class Table:  # an agent with its own probabilities, as a mapping (agents.tabular does so)
        def action_probabilities(self, observation, action_mask):
            return {1: 0.25, 2: 0.75}

    assert np.allclose(policy_for(Table()).action_probabilities(np.zeros(2), np.ones(4)), [0, 0.25, 0.75, 0])
    mask = np.array([0, 1, 1, 0], dtype=np.int8)
    assert np.allclose(UniformPolicy().action_probabilities(np.zeros(2), mask), [0, 0.5, 0.5, 0])
    assert np.allclose(OneHotPolicy(RandomAgent(seed=1)).action_probabilities(np.zeros(2), mask).sum(), 1.0)


def test_weighted_estimate_by_hand():
    # weights 1, 1, 2 on truths 1, 0, 1: p = 3/4; var = (1/16 + 9/16 + 4/16) / 16; ess = 16/6.
    est = _weighted_estimate(np.array([1.0, 1.0, 2.0]), np.array([1.0, 0.0, 1.0]))
    assert est.p == pytest.approx(0.75) and est.ess == pytest.approx(16 / 6)
    assert est.stderr == pytest.approx(np.sqrt(14 / 16) / 4)
    empty = _weighted_estimate(np.zeros(3), np.zeros(3))
    assert np.isnan(empty.p) and empty.ess == 0.0 and not empty.agrees(0.5)
    assert Estimate(0.5, 0.1, 10, 10.0).agrees(0.9) and not Estimate(0.5, 0.1, 10, 10.0).agrees(0.95)
