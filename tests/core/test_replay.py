"""Replays: (env id, config, seed, actions) as plain JSON, replayed to the very same state."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smuggle_envs.core.replay import Replay
from smuggle_envs.registry import make_game

from ._support import PLAYER_COUNTS, game, play_random, random_state, snapshot_state


def _assert_same_position(a, b):
    """Same observations for every seat, scores, history, turn and RNG."""
    sa, sb = snapshot_state(a), snapshot_state(b)
    assert sa["observations"] == sb["observations"]
    assert sa["scores"] == sb["scores"]
    assert sa["history"] == sb["history"]
    assert sa == sb


def _assert_plain_json(value):
    if isinstance(value, dict):
        for key, item in value.items():
            assert type(key) is str
            _assert_plain_json(item)
    elif isinstance(value, list):
        for item in value:
            _assert_plain_json(item)
    else:
        assert value is None or type(value) in (str, int, float, bool), type(value)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_round_trip_of_a_finished_game(num_players):
    state = random_state(num_players, seed=100 + num_players, steps=None)
    assert state.is_terminal()
    replay = state.to_replay()
    assert replay.env_id == "smuggle_v0"
    assert replay.seed == state.seed
    assert replay.actions == state.history
    assert replay.config["num_players"] == num_players
    text = replay.to_json()
    again = Replay.from_json(text)
    assert again == replay
    assert again.to_json() == text
    final = again.final_state()
    assert final is not state
    assert final.is_terminal()
    _assert_same_position(final, state)


@given(st.sampled_from(PLAYER_COUNTS), st.integers(0, 2**63 - 1), st.integers(0, 200))
@settings(max_examples=15, deadline=None)
def test_round_trip_mid_game(num_players, seed, steps):
    state = play_random(game(num_players).new_initial_state(seed), random.Random(seed), steps)
    final = Replay.from_json(state.to_replay().to_json()).final_state()
    _assert_same_position(final, state)
    # the replayed game goes on exactly like the original (same RNG for later shuffles)
    a, b = random.Random(seed + 1), random.Random(seed + 1)
    play_random(state, a)
    play_random(final, b)
    _assert_same_position(final, state)


def test_json_is_plain():
    state = random_state(4, seed=5, steps=None)
    text = state.to_replay().to_json()
    data = json.loads(text)
    assert set(data) == {"env_id", "config", "seed", "actions"}
    _assert_plain_json(data)
    assert all(type(a) is int for a in data["actions"])
    assert data["config"] == state.game.config.to_dict()


def test_numpy_actions_are_recorded_as_plain_ints():
    state = game(4).new_initial_state(9)
    rng = random.Random(9)
    kinds = (np.int64, np.int32, np.int16, np.uint16, np.intp)
    for i in range(60):
        state.apply_action(kinds[i % len(kinds)](rng.choice(state.legal_actions())))
    assert all(type(a) is int for a in state.history)
    data = json.loads(state.to_replay().to_json())
    _assert_plain_json(data)
    _assert_same_position(Replay.from_json(json.dumps(data)).final_state(), state)


def test_non_default_config_round_trips():
    g = make_game(
        "smuggle_v0",
        num_players=5,
        money_per_player=500,
        bankruptcy="eliminate",
        informer_pays_real_bag=False,
        first_officer=3,
    )
    state = play_random(g.new_initial_state(77), random.Random(77))
    replay = Replay.from_json(state.to_replay().to_json())
    assert replay.config == g.config.to_dict()
    final = replay.final_state()
    assert final.game.config == g.config
    _assert_same_position(final, state)


def test_unseeded_game_records_its_seed_and_replays():
    g = game(3)
    state = play_random(g.new_initial_state(), random.Random(0), 120)
    assert isinstance(state.seed, int)
    _assert_same_position(Replay.from_json(state.to_replay().to_json()).final_state(), state)


def test_states_yield_each_action_before_it_is_applied():
    state = random_state(4, seed=11, steps=30)
    replay = state.to_replay()
    count = 0
    for i, (position, action) in enumerate(replay.states()):
        assert len(position.history) == i  # consumed lazily, before the action is applied
        if action is None:
            assert i == len(replay.actions)
        else:
            assert action == replay.actions[i]
            assert action in position.legal_actions()
        count += 1
    assert count == len(replay.actions) + 1


def test_collected_states_are_snapshots():
    replay = random_state(4, seed=11, steps=10).to_replay()
    pairs = list(replay.states())
    assert [len(s.history) for s, _ in pairs] == list(range(len(replay.actions) + 1))


def test_empty_replay_is_the_initial_state():
    state = game(4).new_initial_state(21)
    final = Replay.from_json(state.to_replay().to_json()).final_state()
    _assert_same_position(final, state)


@pytest.mark.parametrize("missing", ["env_id", "config", "seed", "actions"])
def test_from_json_names_missing_keys(missing):
    data = json.loads(random_state(3, seed=1, steps=5).to_replay().to_json())
    del data[missing]
    with pytest.raises(ValueError, match=missing):
        Replay.from_json(json.dumps(data))


def test_tampered_replay_raises_an_illegal_action():
    from smuggle_envs.core.errors import IllegalActionError

    data = json.loads(random_state(4, seed=2, steps=5).to_replay().to_json())
    data["actions"].append(10_000)
    with pytest.raises(IllegalActionError):
        Replay.from_json(json.dumps(data)).final_state()


@pytest.mark.parametrize("field, value", [("actions", [0.9]), ("actions", [True]), ("seed", 1.5)])
def test_from_json_refuses_non_int_numbers(field, value):
    data = json.loads(game(4).new_initial_state(12).to_replay().to_json())
    data[field] = value
    with pytest.raises((ValueError, TypeError)):
        Replay.from_json(json.dumps(data)).final_state()
