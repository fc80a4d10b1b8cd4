"""Reward modes computed from final scores: win/loss, rank and normalised score."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smuggle_envs.core import outcomes
from smuggle_envs.core.outcomes import (
    REWARD_MODES,
    normalised_scores,
    rank_rewards,
    ranks,
    rewards,
    win_loss,
    winners,
)

from ._support import finished_state

scores_lists = st.lists(st.integers(-5, 5).map(float), min_size=2, max_size=7)
SETTINGS = settings(max_examples=60, deadline=None)


def test_reward_modes():
    assert REWARD_MODES == ("win_loss", "rank", "score")


@pytest.mark.parametrize(
    "scores, expected_winners, expected",
    [
        ([1, 5, 3], [1], [-1, 1, -1]),
        ([5, 5, 3], [0, 1], [1, 1, -1]),
        ([2, 2, 2, 2], [0, 1, 2, 3], [1, 1, 1, 1]),
        ([-3, -1, -2], [1], [-1, 1, -1]),
        ([7.5, 7.0, 7.5, -7.5], [0, 2], [1, -1, 1, -1]),
    ],
)
def test_win_loss_with_ties(scores, expected_winners, expected):
    assert winners(scores) == expected_winners
    assert win_loss(scores) == expected


@pytest.mark.parametrize(
    "scores, expected",
    [
        ([10, 30, 20], [3, 1, 2]),
        ([10, 20, 20, 5], [3, 1.5, 1.5, 4]),
        ([4, 4, 4], [2, 2, 2]),
        ([1, 1, 3, 3, 2], [4.5, 4.5, 1.5, 1.5, 3]),
        ([0, 9, 9, 9], [4, 2, 2, 2]),
    ],
)
def test_ranks_share_the_mean_place(scores, expected):
    assert ranks(scores) == expected


@pytest.mark.parametrize(
    "scores, expected",
    [
        ([10, 30, 20], [-1, 1, 0]),
        ([1, 2, 3, 4], [-1, -1 / 3, 1 / 3, 1]),
        ([10, 20, 20, 5], [-1 / 3, 2 / 3, 2 / 3, -1]),
        ([4, 4, 4], [0, 0, 0]),
    ],
)
def test_rank_rewards_examples(scores, expected):
    assert rank_rewards(scores) == pytest.approx(expected)


def test_rank_rewards_single_player():
    assert rank_rewards([12.0]) == [0.0]


@given(scores_lists)
@SETTINGS
def test_rank_properties(scores):
    n = len(scores)
    r = ranks(scores)
    assert sum(r) == pytest.approx(n * (n + 1) / 2)
    assert all(1 <= x <= n for x in r)
    for i in range(n):
        for j in range(n):
            if scores[i] > scores[j]:
                assert r[i] < r[j]
            elif scores[i] == scores[j]:
                assert r[i] == r[j]
    rr = rank_rewards(scores)
    assert sum(rr) == pytest.approx(0.0, abs=1e-9)
    assert all(-1 - 1e-12 <= x <= 1 + 1e-12 for x in rr)


@given(st.permutations(list(range(6))).map(lambda p: [float(x) for x in p]))
@SETTINGS
def test_rank_rewards_endpoints_without_ties(scores):
    rr = rank_rewards(scores)
    assert rr[scores.index(max(scores))] == pytest.approx(1.0)
    assert rr[scores.index(min(scores))] == pytest.approx(-1.0)
    assert sorted(rr) == pytest.approx([-1, -0.6, -0.2, 0.2, 0.6, 1])


def test_normalised_scores():
    assert normalised_scores([1000, 3000, 5000, 3000], 1000) == pytest.approx([-2, 0, 2, 0])
    assert normalised_scores([10, 10], 7) == [0, 0]


@given(scores_lists, st.floats(0.5, 100))
@SETTINGS
def test_normalised_scores_zero_sum_and_order(scores, scale):
    ns = normalised_scores(scores, scale)
    assert sum(ns) == pytest.approx(0.0, abs=1e-9)
    for i in range(len(scores)):
        for j in range(len(scores)):
            assert (ns[i] > ns[j]) == (scores[i] > scores[j])
    assert max(ns) - min(ns) == pytest.approx((max(scores) - min(scores)) / scale)


@given(scores_lists, st.floats(0.5, 100))
@SETTINGS
def test_rewards_dispatch(scores, scale):
    assert rewards(scores, "win_loss", scale) == win_loss(scores)
    assert rewards(scores, "rank", scale) == rank_rewards(scores)
    assert rewards(scores, "score", scale) == normalised_scores(scores, scale)


@pytest.mark.parametrize("mode", ["", "winloss", "Rank", None])
def test_unknown_mode_names_the_modes(mode):
    with pytest.raises(ValueError) as info:
        rewards([1, 2, 3], mode, 1.0)
    message = str(info.value)
    assert repr(mode) in message
    for known in REWARD_MODES:
        assert known in message


@pytest.mark.parametrize("mode", REWARD_MODES)
def test_state_returns_use_the_shared_helpers(mode):
    state = finished_state(4, seed=3)
    expected = outcomes.rewards(state.scores(), mode, state.game.score_scale)
    assert state.returns(mode) == pytest.approx(expected)
    assert state.game.score_scale == state.game.starting_money


def test_state_returns_default_is_win_loss():
    state = finished_state(5, seed=8)
    assert state.returns() == win_loss(state.scores())
