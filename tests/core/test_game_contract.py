"""The engine contract (core.game) exercised through Smuggle: config validation, the registry,
action validation that never mutates, clones and resampling."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import smuggle_envs
from smuggle_envs import registry, smuggle_v0
from smuggle_envs.core.errors import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    SmuggleEnvsError,
)
from smuggle_envs.core.game import TERMINAL, GameConfig
from smuggle_envs.core.outcomes import REWARD_MODES, rewards
from smuggle_envs.games.smuggle import SmuggleConfig, SmuggleGame
from smuggle_envs.registry import make_game

from ._support import (
    PLAYER_COUNTS,
    finished_state,
    game,
    illegal_in_range,
    play_random,
    random_state,
    snapshot_state,
)

SETTINGS = settings(max_examples=20, deadline=None)
VALID_OPTIONS = sorted(f for f in SmuggleConfig.__dataclass_fields__)

positions = st.tuples(st.sampled_from(PLAYER_COUNTS), st.integers(0, 2**32), st.integers(0, 250))


def _position(args):
    num_players, seed, steps = args
    return random_state(num_players, seed, steps)


# ----- errors --------------------------------------------------------------------------------
def test_error_hierarchy():
    assert issubclass(IllegalActionError, ValueError)
    assert issubclass(MalformedActionError, TypeError)
    assert issubclass(GameOverError, IllegalActionError)
    assert issubclass(ConfigError, ValueError)
    for cls in (IllegalActionError, MalformedActionError, GameOverError, ConfigError):
        assert issubclass(cls, SmuggleEnvsError)
    assert not issubclass(MalformedActionError, ValueError)


# ----- config validation ---------------------------------------------------------------------
@pytest.mark.parametrize("bad", [{"players": 4}, {"num_player": 4}, {"seed": 1, "foo": 2}])
def test_unknown_option_names_the_valid_options(bad):
    with pytest.raises(ConfigError) as info:
        make_game("smuggle_v0", **bad)
    message = str(info.value)
    for name in bad:
        assert repr(name) in message
    for option in VALID_OPTIONS:
        assert option in message


def test_unknown_option_through_the_env_constructors():
    for make in (smuggle_v0.env, smuggle_v0.raw_env, lambda **kw: smuggle_envs.make("smuggle_v0", **kw)):
        with pytest.raises(ConfigError, match="num_players"):
            make(players=4)


@pytest.mark.parametrize("num_players", [-1, 0, 1, 2, 7, 100])
def test_num_players_out_of_range(num_players):
    with pytest.raises(ConfigError) as info:
        make_game("smuggle_v0", num_players=num_players)
    assert str(num_players) in str(info.value)
    assert "3 to 6" in str(info.value)


@pytest.mark.parametrize("num_players", ["4", 4.0, True, None, [4], np.float64(4)])
def test_num_players_bad_type(num_players):
    with pytest.raises(ConfigError, match="num_players"):
        make_game("smuggle_v0", num_players=num_players)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_num_players_in_range(num_players):
    g = make_game("smuggle_v0", num_players=num_players)
    assert g.num_players == num_players
    assert g.new_initial_state(0).game is g


@pytest.mark.parametrize(
    "option, value",
    [
        ("money_per_player", 0),
        ("money_per_player", -100),
        ("money_per_player", 1.5),
        ("money_per_player", True),
        ("money_per_player", "3000"),
        ("pot", 0),
        ("pot", -1),
        ("pot", 100.0),
        ("pot", False),
        ("bankruptcy", "x"),
        ("bankruptcy", None),
        ("bankruptcy", 1),
        ("informer_pays_real_bag", 1),
        ("informer_pays_real_bag", "yes"),
        ("informer_pays_real_bag", None),
        ("first_officer", 4),
        ("first_officer", -1),
        ("first_officer", 1.0),
        ("first_officer", "0"),
    ],
)
def test_bad_option_values(option, value):
    with pytest.raises(ConfigError, match=option):
        make_game("smuggle_v0", num_players=4, **{option: value})


def test_first_officer_rejects_bools():
    with pytest.raises(ConfigError, match="first_officer"):
        make_game("smuggle_v0", num_players=4, first_officer=True)


def test_money_and_pot_are_exclusive():
    with pytest.raises(ConfigError, match="pot"):
        make_game("smuggle_v0", money_per_player=1000, pot=10000)


def test_pot_too_small_for_a_note():
    with pytest.raises(ConfigError, match="too small"):
        make_game("smuggle_v0", num_players=6, pot=1)


def test_config_object_or_kwargs_not_both():
    with pytest.raises(ConfigError, match="not both"):
        SmuggleGame(SmuggleConfig(num_players=4), num_players=4)


def test_config_of_the_wrong_class():
    with pytest.raises(ConfigError, match="SmuggleConfig"):
        SmuggleGame(GameConfig(num_players=4))


def test_config_object_is_validated():
    with pytest.raises(ConfigError, match="num_players"):
        SmuggleGame(SmuggleConfig(num_players=9))
    g = SmuggleGame(SmuggleConfig(num_players=5, money_per_player=700))
    assert g.num_players == 5 and g.starting_money == 700
    assert g.config.to_dict()["money_per_player"] == 700


@pytest.mark.parametrize("seed", ["1", 1.0, True, [1], np.float32(1), b"1"])
def test_bad_seed_types(seed):
    with pytest.raises(ConfigError, match="seed"):
        game(4).new_initial_state(seed)


def test_numpy_seed_is_the_int_seed():
    a, b = game(4).new_initial_state(np.int64(12)), game(4).new_initial_state(12)
    assert type(a.seed) is int
    assert snapshot_state(a) == snapshot_state(b)


# ----- registry ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "constructor",
    [
        registry.make_game,
        registry.make,
        registry.raw_env,
        registry.game_class,
        smuggle_envs.make,
        smuggle_envs.make_game,
    ],
)
@pytest.mark.parametrize("env_id", ["smuggle_v1", "nope", "", "Smuggle_v0"])
def test_unknown_env_id(constructor, env_id):
    with pytest.raises(ConfigError) as info:
        constructor(env_id)
    assert repr(env_id) in str(info.value)
    assert "smuggle_v0" in str(info.value)


def test_registry_lists_smuggle():
    assert "smuggle_v0" in smuggle_envs.ENV_IDS
    assert registry.game_class("smuggle_v0") is SmuggleGame
    assert {"env_id": "smuggle_v0", "game": "Smuggle (MB Games 1981)", "players": "3-6"} in registry.describe()
    env_kwargs, game_kwargs = registry.split_options({"num_players": 3, "reward_mode": "rank", "max_turns": 5})
    assert env_kwargs == {"reward_mode": "rank", "max_turns": 5} and game_kwargs == {"num_players": 3}


# ----- check_action: malformed, illegal, game over; never a change ----------------------------
MALFORMED = [
    3.0,
    0.0,
    float("nan"),
    True,
    False,
    "3",
    "",
    None,
    b"\x01",
    [3],
    (3,),
    {3: 3},
    np.float32(3),
    np.float64(0),
    np.bool_(True),
    np.array(3),
    np.array([3]),
    np.array([], dtype=int),
    np.zeros((2, 2), dtype=np.int64),
    3 + 0j,
    object(),
]
malformed_actions = st.one_of(
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.binary(max_size=2),
    st.lists(st.integers(0, 509), max_size=2),
    st.integers(0, 509).map(np.float64),
    st.integers(0, 509).map(lambda a: np.array([a])),
    st.integers(0, 509).map(np.array),
)


def _assert_rejected(state, action, error):
    before = snapshot_state(state)
    with pytest.raises(error) as info:
        state.check_action(action)
    assert snapshot_state(state) == before
    with pytest.raises(error) as info:
        state.apply_action(action)
    assert snapshot_state(state) == before
    return info.value


@pytest.mark.parametrize("action", MALFORMED, ids=[f"{i}-{type(a).__name__}" for i, a in enumerate(MALFORMED)])
def test_malformed_actions(action):
    state = random_state(4, seed=1, steps=3)
    error = _assert_rejected(state, action, MalformedActionError)
    assert isinstance(error, TypeError)
    assert type(action).__name__ in str(error)
    assert "[0, 510)" in str(error)


@given(positions, malformed_actions)
@SETTINGS
def test_malformed_actions_anywhere(args, action):
    state = _position(args)
    _assert_rejected(state, action, MalformedActionError)


@pytest.mark.parametrize(
    "action", [510, 511, -1, -510, 10**20, -(10**20), np.int64(-1), np.int64(510), np.uint64(2**64 - 1), np.int8(-128)]
)
def test_out_of_range_actions(action):
    state = random_state(4, seed=2, steps=7)
    error = _assert_rejected(state, action, IllegalActionError)
    assert not isinstance(error, GameOverError)
    assert isinstance(error, ValueError)
    assert str(int(action)) in str(error)
    assert "[0, 510)" in str(error)
    assert error.action == int(action)


def test_out_of_range_error_names_the_legal_actions():
    state = random_state(4, seed=2, steps=7)
    legal = list(state.legal_actions())
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(510)
    assert info.value.legal_actions == legal
    assert f"{legal[0]} (" in str(info.value)


@given(positions, st.integers(0, 2**32))
@SETTINGS
def test_masked_out_actions(args, pick):
    state = _position(args)
    if state.is_terminal():
        error = _assert_rejected(state, 0, GameOverError)
        return
    action = illegal_in_range(state, random.Random(pick))
    legal = list(state.legal_actions())
    for candidate in (action, np.int64(action)):
        error = _assert_rejected(state, candidate, IllegalActionError)
        assert not isinstance(error, GameOverError)
        message = str(error)
        assert f"action {action} ({state.action_to_string(action)})" in message
        assert f"player {state.current_player()}" in message
        for a in legal[:12]:
            assert f"{a} ({state.action_to_string(a)})" in message
        if len(legal) > 12:
            assert f"({len(legal)} in all)" in message
            assert f"{legal[12]} (" not in message
        assert error.action == action and type(error.action) is int
        assert error.legal_actions == legal


def test_masked_out_message_example():
    state = game(4).new_initial_state(0)
    state.apply_action(0)  # declare nothing; the Officer decides next
    assert state.legal_actions() == (496, 497)
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(498)
    assert str(info.value) == (
        "action 498 (accept) is not legal for player 0 now; legal actions: 496 (search), 497 (let pass)"
    )


@pytest.mark.parametrize("action", [0, 495, 496, 509, 510, -1, np.int64(0), np.int32(497)])
def test_actions_after_game_over(action):
    state = finished_state(4, seed=4)
    assert state.current_player() == TERMINAL
    error = _assert_rejected(state, action, GameOverError)
    assert "over" in str(error)
    assert error.legal_actions == []


def test_malformed_action_after_game_over_is_still_an_error():
    state = finished_state(3, seed=4)
    _assert_rejected(state, 1.0, (MalformedActionError, GameOverError))
    _assert_rejected(state, None, (MalformedActionError, GameOverError))


@given(positions, malformed_actions | st.integers(-1000, 1000))
@SETTINGS
def test_any_rejected_action_changes_nothing(args, action):
    """Property: whatever is refused, for whatever reason, leaves the state as it was."""
    state = _position(args)
    before = snapshot_state(state)
    try:
        state.apply_action(action)
    except (MalformedActionError, IllegalActionError):
        assert snapshot_state(state) == before
    else:
        assert type(action) is int and action in before["legal_actions"]
        assert state.history == before["history"] + [action]


# ----- accepted actions ----------------------------------------------------------------------
NUMPY_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.intp]


@pytest.mark.parametrize("kind", NUMPY_INTS, ids=lambda k: k.__name__)
def test_numpy_integer_actions_are_accepted(kind):
    state = random_state(4, seed=6, steps=0)
    twin = random_state(4, seed=6, steps=0)
    rng = random.Random(6)
    used = 0
    for _ in range(60):
        fits = [a for a in state.legal_actions() if a <= np.iinfo(kind).max]
        action = rng.choice(fits or state.legal_actions())
        given_action = kind(action) if action <= np.iinfo(kind).max else action
        used += given_action is not action
        checked = state.check_action(given_action)
        assert checked == action and type(checked) is int
        state.apply_action(given_action)
        twin.apply_action(action)
        assert type(state.history[-1]) is int
    assert used >= 10
    assert snapshot_state(state) == snapshot_state(twin)


def test_check_action_does_not_mutate_and_returns_the_int():
    state = random_state(5, seed=3, steps=12)
    before = snapshot_state(state)
    for action in state.legal_actions():
        assert state.check_action(action) == action
    assert snapshot_state(state) == before


@given(positions)
@SETTINGS
def test_contract_consistency(args):
    state = _position(args)
    n = state.game.num_players
    legal = list(state.legal_actions())
    mask = state.legal_action_mask()
    assert mask.dtype == np.int8 and mask.shape == (state.game.num_actions,)
    assert [int(a) for a in np.flatnonzero(mask)] == legal
    assert legal == sorted(legal)
    assert len(state.scores()) == n
    for p in range(n):
        obs = state.observation(p)
        assert obs.dtype == np.float32 and obs.shape == (len(state.game.observation_layout),)
    if state.is_terminal():
        assert legal == [] and state.current_player() == TERMINAL
    else:
        assert legal and 0 <= state.current_player() < n
    for mode in REWARD_MODES:
        if not state.is_truncated():
            assert state.returns(mode) == rewards(state.scores(), mode, state.game.score_scale)
        else:  # the termination contract: a truncated game has no winner and pays nothing
            assert state.returns(mode) == [0.0] * n


def test_action_to_string():
    g = game(4)
    names = [g.action_to_string(a) for a in range(g.num_actions)]
    assert all(isinstance(s, str) and s for s in names)
    assert len(set(names)) == g.num_actions
    with pytest.raises(ValueError):
        g.action_to_string(g.num_actions)
    state = g.new_initial_state(0)
    assert state.action_to_string(496) == g.action_to_string(496) == "search"


def test_observation_rejects_bad_seats():
    state = random_state(4, seed=0, steps=0)
    for player in (-1, 4, 10):
        with pytest.raises(ValueError):
            state.observation(player)


# ----- clone ---------------------------------------------------------------------------------
@given(positions)
@SETTINGS
def test_clone_is_equal_and_independent(args):
    state = _position(args)
    before = snapshot_state(state)
    copy = state.clone()
    assert copy is not state
    assert snapshot_state(copy) == before
    # play the clone to the end (across reshuffles) and stir its RNG: the original is untouched
    play_random(copy, random.Random(args[1]))
    copy.rng.random()
    copy.rng.seed(12345)
    assert snapshot_state(state) == before
    # and the original, moved on, leaves a fresh clone untouched
    other = state.clone()
    play_random(state, random.Random(1))
    assert snapshot_state(other) == before


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_clone_carries_the_rng(num_players):
    """A clone continues exactly like the original, including future shuffles of new rounds."""
    state = random_state(num_players, seed=31, steps=20)
    copy = state.clone()
    assert copy.rng is not state.rng
    play_random(state, random.Random(5))
    play_random(copy, random.Random(5))
    assert state.is_terminal() and snapshot_state(copy) == snapshot_state(state)


# ----- resample ------------------------------------------------------------------------------
@given(positions, st.integers(0, 2**32))
@SETTINGS
def test_resample_keeps_the_players_observation(args, rng_seed):
    state = _position(args)
    before = snapshot_state(state)
    for player in range(state.game.num_players):
        other = state.resample(player, random.Random(rng_seed))
        assert other is not state
        np.testing.assert_array_equal(other.observation(player), state.observation(player))
        assert other.current_player() == state.current_player()
        assert other.history == state.history and other.scores() == state.scores()
        # the redrawn world is a playable game
        play_random(other, random.Random(rng_seed))
        assert other.is_terminal()
    assert snapshot_state(state) == before


def test_resample_redraws_hidden_cards():
    state = random_state(4, seed=8, steps=3)  # mid-hand: someone cannot see the live hand
    outsider = next(p for p in range(4) if p != state.current_player())
    worlds = {bytes(state.resample(outsider, random.Random(i)).buf) for i in range(20)}
    decks = {tuple(state.resample(outsider, random.Random(i)).deck) for i in range(20)}
    assert len(worlds) > 1 and len(decks) == 20
    a = state.resample(outsider, random.Random(3))
    b = state.resample(outsider, random.Random(3))
    assert snapshot_state(a) == snapshot_state(b)  # same rng, same world


def test_resample_keeps_every_seats_knowledge_consistent():
    from smuggle_envs.games.smuggle.actions import NUM_KINDS

    for seed in range(10):
        state = game(4).new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for player in range(4):
                other = state.resample(player, random.Random(rng.random()))
                hand = other.hand.tolist()
                for seat in range(4):
                    assert all(other.known[seat][k] <= hand[k] for k in range(NUM_KINDS)), (seed, player, seat)
            state.apply_action(rng.choice(state.legal_actions()))
