"""The private records of accepted lies (``received_lies``) in resampled worlds (issue #27): a seat
sees whether a hand it accepts bears out its declaration, and nobody else does, so a world drawn
for a viewer must redraw the other seats' records from the hands it draws, never copy them.
"""

import random
from collections import Counter

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.actions import BAG
from smuggle_envs.games.smuggle.resample import live_hand_history
from smuggle_envs.games.smuggle.steps import truthful
from smuggle_envs.games.smuggle.vocab import DECLARE, DISCARD, OFFICER, OVER, RECEIVE

from .conftest import Table

# Seat 1 is dealt a hand and declares wine; seat 2 accepts it, throws a luggage and draws. In
# the truthful deal it held the wine and drew the cigars, in the lying one the reverse: from then
# on both hold wine, cigars and two luggage, and only seats 1 and 2 can tell the deals apart.
TRUTHFUL_DEAL = ["wine", "luggage", "luggage", "luggage", "cigars"]
LYING_DEAL = ["cigars", "luggage", "luggage", "luggage", "wine"]
OUTSIDERS = (0, 3)  # the Officer, and the seat the hand goes to next


def _pass_on(deal):
    t = Table(deal)
    t.declare("wine").let_pass().accept().discard("luggage")
    return t


def _twins(searched):
    """The two deals, with the hand still live at seat 2 or searched by the Officer."""
    twins = []
    for deal in (TRUTHFUL_DEAL, LYING_DEAL):
        t = _pass_on(deal)
        if searched:
            t.declare("wine", "cigars").search()
        twins.append(t.state)
    return twins


def _world(state):
    """Everything a world holds that a seat could come to see or a later resample reads."""
    return (bytes(state.buf), list(state.deck), state.money, state.hand_past, state.finished_hands)


@pytest.mark.parametrize("searched", [False, True])
def test_seats_that_cannot_tell_two_deals_apart_get_the_same_worlds(searched):
    truthful_state, lying_state = _twins(searched)
    assert truthful_state.received_lies[2 * 4 + 1] == 0 and lying_state.received_lies[2 * 4 + 1] == 1
    for viewer in OUTSIDERS:
        np.testing.assert_array_equal(truthful_state.observation(viewer), lying_state.observation(viewer))
        for seed in range(30):
            a = truthful_state.resample(viewer, random.Random(seed))
            b = lying_state.resample(viewer, random.Random(seed))
            assert _world(a) == _world(b), (viewer, seed)


@pytest.mark.parametrize("searched", [False, True])
def test_an_outsider_draws_the_accepted_lie_the_seats_that_saw_it_keep_it(searched):
    # Seen from outside, the hand's past is drawn, so seat 2's record varies. Once the hand is
    # laid open its cards are known and only their order is drawn: the wine seat 1 declared was
    # dealt to it (truthful) or drawn by seat 2 (a lie), the cigars too (a lie), about 1 in 4
    # worlds truthful. While it is live its cards are drawn from the unseen pool, and a hand of
    # exactly one wine is rare. Seats 1 and 2 saw the hand passed: their worlds keep the record.
    for state in _twins(searched):
        truth = state.received_lies[2 * 4 + 1]
        rng = random.Random(5)
        for viewer in OUTSIDERS:
            counts = Counter(state.resample(viewer, rng).received_lies[2 * 4 + 1] for _ in range(300))
            assert set(counts) == {0, 1}, (viewer, counts)
            if searched:
                assert 40 < counts[0] < 110, (viewer, counts)
        for viewer in (1, 2):
            assert {state.resample(viewer, rng).received_lies[2 * 4 + 1] for _ in range(50)} == {truth}


def test_a_bag_claim_passed_on_is_judged_by_the_discard_that_follows():
    # Rule 15: a hand holding the Bag must throw it, so a Bag claim accepted and followed by
    # another discard was a lie, and everyone knows it.
    t = Table(["wine", "luggage", "luggage", "luggage", "cigars"])
    t.claim_bag().let_pass().accept().discard("wine")
    t.declare().search()
    rng = random.Random(1)
    for viewer in OUTSIDERS:
        assert {t.state.resample(viewer, rng).received_lies[2 * 4 + 1] for _ in range(100)} == {1}


# ----- random games -----------------------------------------------------------------------------
def _policy(state, rng):
    """Random play that declares the truth half the time and lets most hands go round, so that
    hands are passed on often and accepted lies are neither always nor never."""
    phase = state.phase
    if phase == DECLARE and rng.random() < 0.5:
        return A.CLAIM_BAG if state.hand[BAG] else A.declare(state.hand.tolist()[: A.NUM_ITEMS])
    if phase == OFFICER:
        return A.LET_PASS if rng.random() < 0.8 else A.SEARCH
    if phase == RECEIVE:
        return A.ACCEPT if rng.random() < 0.8 else A.INFORM
    return rng.choice(state.legal_actions())


def _positions(n, games, rng, bankruptcy):
    game = smuggle_envs.make_game("smuggle_v0", num_players=n, bankruptcy=bankruptcy)
    for g in range(games):
        state = game.new_initial_state(100 * n + g)
        step = 0
        while not state.is_terminal():
            if step % 5 == 0:
                yield state
            state.apply_action(_policy(state, rng))
            step += 1
        yield state


def _legal_past(hands, discards):
    """Whether each hand of a past threw its discard legally (rule 15) and drew one card."""
    for before, after, d in zip(hands, hands[1:], discards):
        if not before[d] or (before[BAG] and d != BAG):
            return False
        diff = [a - b + (k == d) for k, (b, a) in enumerate(zip(before, after))]
        if sorted(diff) != [0] * (len(diff) - 1) + [1]:
            return False
    return True


def _check_finished(world, state, viewer):
    """A world's finished hands: legal pasts, their last hands and the viewer's as they were."""
    assert len(world.finished_hands) == len(state.finished_hands)
    for (passes, drawn, discards), (true_passes, hands, _) in zip(world.finished_hands, state.finished_hands):
        assert passes == true_passes and len(drawn) == len(hands) and drawn[-1] == hands[-1]
        top = len(hands) - 1
        assert list(discards) == [world.history[at + 1] - A.DISCARD for *_, at in passes[:top]]
        assert _legal_past(drawn, discards)
        for j, (passer, receiver, *_) in enumerate(passes):
            if viewer in (passer, receiver):
                assert drawn[j] == hands[j]


def _recount(world):
    """The lies each seat accepted, judged anew from the world's own pasts."""
    n, lies = world.n, [0] * (world.n * world.n)
    records = [*((r.passes, r.hands) for r in world.finished_hands), (world.hand_passes, world.hand_past)]
    for passes, hands in records:
        for (passer, receiver, declared, _), hand in zip(passes, hands):
            lies[receiver * n + passer] += not truthful(declared, list(hand))
    return lies


@pytest.mark.parametrize("n, bankruptcy", [(3, "loan"), (4, "eliminate"), (5, "loan"), (6, "eliminate")])
def test_every_world_accounts_for_each_record_by_its_own_hands(n, bankruptcy):
    rng = random.Random(n)
    varied, ends = 0, Counter()
    for state in _positions(n, games=4, rng=rng, bankruptcy=bankruptcy):
        for record in state.finished_hands:
            ends["pack ran out" if len(record.hands) == len(record.passes) else "laid open"] += 1
        viewer = rng.randrange(n)
        world = state.resample(viewer, rng)
        np.testing.assert_array_equal(world.observation(viewer), state.observation(viewer))
        lies, accepted = list(world.received_lies), list(world.received_from)
        assert all(0 <= x <= y for x, y in zip(lies, accepted))
        assert accepted == list(state.received_from)
        mine = slice(viewer * n, (viewer + 1) * n)
        assert lies[mine] == list(state.received_lies[mine])
        assert _recount(world) == lies  # live and finished receptions agree with the drawn pasts
        _check_finished(world, state, viewer)
        if state.phase in (DECLARE, OFFICER, RECEIVE, DISCARD):
            assert world.hand_past[-1] == bytes(world.hand)
            _, discards = live_hand_history(world)
            assert _legal_past([list(h) for h in world.hand_past], discards)
        varied += lies != list(state.received_lies)
        if state.phase == OVER:
            assert world.is_terminal()
    assert varied > 10, "the other seats' records are drawn, not copied"
    assert ends["laid open"] > 5 and (ends["pack ran out"] or bankruptcy == "eliminate"), ends


def test_a_hand_dropped_when_the_pack_runs_out_is_known_to_everyone():
    # R2.8: the discard after the pack's last card ends the round and drops the hand unseen, but
    # the pack holds nothing, so the hand is every card less the open suitcase (both public): the
    # resample keeps that last hand of its record as it is.
    game = smuggle_envs.make_game("smuggle_v0", num_players=3)
    rng, checked = random.Random(0), 0
    for g in range(6):
        state = game.new_initial_state(g)
        while not state.is_terminal():
            action = _policy(state, rng)
            if state.phase == DISCARD and not state.deck:
                left = [c - s for c, s in zip(game.kind_counts, state.suitcase)]
                state.apply_action(action)
                assert state.finished_hands[-1].hands[-1] == bytes(left)
                checked += 1
            else:
                state.apply_action(action)
    assert checked
