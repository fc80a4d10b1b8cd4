"""Perfect recall of ``resample`` for every game: no sampled world contradicts what the seat has
seen (``families/_recall.py`` explains the check), and the check itself catches a resample that
copies the truth."""

from __future__ import annotations

import random

import pytest

import smuggle_envs

from ._games import CASES, IDS
from ._recall import check_recall


def _steps(game, seed: int, every: int, limit: int):
    """(before, action, after) of every ``every``-th step of a random game."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    for step in range(limit):
        if state.is_terminal():
            return
        action = rng.choice(state.legal_actions())
        before = state.clone()
        state.apply_action(action)
        if step % every == 0:
            yield before, action, state


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_no_sampled_world_contradicts_the_seats_observation_history(env_id, n):
    game = smuggle_envs.make_game(env_id, num_players=n)
    rng = random.Random(11)
    checked = sum(check_recall(b, a, s, rng) for b, a, s in _steps(game, seed=n, every=4, limit=160))
    assert checked >= 30  # seats checked at a step: enough to mean something


def test_the_check_catches_a_resample_that_keeps_the_real_hands(monkeypatch):
    """As Import / Export's did during some power decisions: the real hands while seat 0 decides."""
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    cls = type(game.new_initial_state(0))
    honest = cls._resample

    def leaky(self, player, rng):
        return self.clone() if self.current_player() == 0 else honest(self, player, rng)

    monkeypatch.setattr(cls, "_resample", leaky)
    rng = random.Random(0)
    with pytest.raises(AssertionError, match="is certain in resample"):
        for b, a, s in _steps(game, seed=0, every=1, limit=60):
            check_recall(b, a, s, rng)
