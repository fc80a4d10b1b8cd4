"""The resample's kept walks (issue #36): a finished hand's past is drawn from a walk worked out
once per (record, viewer) and kept, and the pack is shuffled by ``_shuffle``. Both must draw
exactly what the plain walk back (``_draw_backward``) and ``rng.shuffle`` draw, from the same
``rng`` calls, whether the walks are kept from an earlier resample or not, and a kept walk must
never serve another record or another viewer.
"""

import random

import pytest

import smuggle_envs
from smuggle_envs.games.smuggle import resample as R
from smuggle_envs.games.smuggle.steps import truthful

from .test_resample_received import _policy, _twins


def _positions(n, games, every=7):
    game = smuggle_envs.make_game("smuggle_v0", num_players=n)
    rng = random.Random(n)
    for g in range(games):
        state = game.new_initial_state(500 + 10 * n + g)
        step = 0
        while not state.is_terminal():
            if step % every == 0:
                yield state.clone()
            state.apply_action(_policy(state, rng))
            step += 1
        yield state


def _walk_back(record, viewer, rng):
    """A finished hand's past drawn as the resample drew it before the walks were kept: the
    hands ``viewer`` saw, the rest by ``_draw_backward``."""
    top = len(record.hands) - 1
    hands = [None] * (top + 1)
    for j in R._seen_finished(viewer, record.passes, top):
        hands[j] = list(record.hands[j])
    R._draw_backward(hands, list(record.discards), -1, rng)
    return hands


def _world(state):
    """Everything a world holds that a seat could come to see or a later resample reads."""
    return (
        bytes(state.buf),
        list(state.deck),
        state.money,
        state.hand_past,
        state.finished_hands,
        state.rng.getstate(),
    )


def _forget():
    R._WALKS.clear()
    R._ALL_WALKS.clear()


@pytest.mark.parametrize("n", [3, 4, 6])
def test_a_kept_walk_draws_what_the_walk_back_draws(n):
    _forget()
    records = 0
    for state in _positions(n, games=2):
        for record in state.finished_hands:
            for viewer in range(n):
                walk = R._finished_walk(record, viewer, n)
                for seed in (0, 1, 2, 0, 1, 2):  # the second round reads the kept choices
                    kept, plain = random.Random(seed), random.Random(seed)
                    drawn = R._draw(walk.root, kept)
                    hands = _walk_back(record, viewer, plain)
                    assert drawn.record == (record.passes, tuple(bytes(h) for h in hands), record.discards)
                    assert kept.getstate() == plain.getstate()
                    passes = zip(record.passes, hands)
                    lies = [r * n + p for (p, r, declared, _), hand in passes if not truthful(declared, hand)]
                    assert list(drawn.lies) == lies
                records += 1
    assert records > 20


@pytest.mark.parametrize("length", [0, 1, 2, 3, 17, 40, 52, 65, 130])
def test_shuffle_is_rngs_shuffle(length):
    for seed in range(50):
        mine, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(length)), list(range(length))
        R._shuffle(a, mine)
        theirs.shuffle(b)
        assert a == b and mine.getstate() == theirs.getstate()


@pytest.mark.parametrize("n", [3, 5])
def test_worlds_are_the_same_whether_the_walks_are_kept_or_not(n):
    for state in _positions(n, games=1, every=11):
        for viewer in range(n):
            _forget()
            cold = [state.resample(viewer, random.Random(seed)) for seed in range(3)]
            warm = [state.resample(viewer, random.Random(seed)) for seed in range(3)]
            assert [_world(w) for w in cold] == [_world(w) for w in warm]
            # a world resampled again for another seat reads its own (drawn) records
            other = (viewer + 1) % n
            again = _world(warm[0].resample(other, random.Random(7)))
            _forget()
            assert _world(cold[0].resample(other, random.Random(7))) == again


def test_a_walk_is_kept_for_its_own_record_and_viewer_only():
    # Twin deals that only seats 1 and 2 can tell apart, the hand searched (a finished record):
    # walks kept for one deal must not serve the other, whichever is resampled first.
    truthful_state, lying_state = _twins(searched=True)
    for first, second in ((truthful_state, lying_state), (lying_state, truthful_state)):
        _forget()
        for viewer in range(4):
            for seed in range(20):
                first.resample(viewer, random.Random(seed))
        for viewer in (1, 2):
            for seed in range(20):
                world = second.resample(viewer, random.Random(seed))
                assert world.received_lies[2 * 4 + 1] == second.received_lies[2 * 4 + 1]
                assert world.finished_hands[-1].hands == second.finished_hands[-1].hands
        # an outsider's walk holds no hand it did not see: only the public last one
        walk = R._finished_walk(second.finished_hands[-1], 0, 4)
        assert [rule for rule in walk.rules if isinstance(rule, list)] == []


def test_the_kept_walks_are_bounded_and_start_afresh(monkeypatch):
    monkeypatch.setattr(R, "_MAX_WALKS", 3)
    _forget()
    states = list(_positions(4, games=1, every=13))
    expected = []
    for state in states:
        _forget()
        expected.append(_world(state.resample(state.current_player() % 4, random.Random(3))))
    for _ in range(2):
        for state, world in zip(states, expected):
            assert _world(state.resample(state.current_player() % 4, random.Random(3))) == world
            assert len(R._WALKS) <= 3 and len(R._ALL_WALKS) <= 3
