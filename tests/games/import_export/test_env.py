"""Import / Export through the generic AEC wrapper (not registered yet, so the env is built from
the Game directly): PettingZoo's api_test and seed_test for 2 to 6 players with and without the
modules, masks and out-of-turn decisions, refused actions, and the engine contract that
``tests/core/test_all_games_contract.py`` checks for registered games: a game is a function of
(config, seed, actions) whatever the global RNGs or the hash seed do, clones are independent,
and replays reproduce the game."""

import json
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import smuggle_envs
from smuggle_envs.core import IllegalActionError, Replay
from smuggle_envs.core.env import GameEnv
from smuggle_envs.core.errors import GameOverError, MalformedActionError
from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export import actions as A

PLAYERS = (2, 3, 4, 5, 6)
ALL_MODULES = ("jutaku", "kickstarter", "captain")


def make_env(num_players=4, modules=(), reward_mode="win_loss", **config):
    """The registered env, as ``smuggle_envs.make("import_export_v0", ...)`` builds it."""
    return smuggle_envs.make(
        "import_export_v0", num_players=num_players, modules=modules, reward_mode=reward_mode, **config
    )


def replay_final_state(replay: Replay):
    """``Replay.final_state`` without the registry: the same (config, seed, actions) rebuild."""
    assert replay.env_id == "import_export_v0"
    state = ImportExportGame(**replay.config).new_initial_state(replay.seed)
    for action in replay.actions:
        state.apply_action(action)
    return state


def _act(env, rng):
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(rng.choice(np.flatnonzero(mask)))


# ----- PettingZoo's own tests ----------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("modules", [(), ALL_MODULES], ids=["base", "all-modules"])
@pytest.mark.parametrize("num_players", PLAYERS)
def test_api_test(num_players, modules):
    api_test(make_env(num_players, modules), num_cycles=30)


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("modules", [(), ALL_MODULES], ids=["base", "all-modules"])
@pytest.mark.parametrize("num_players", PLAYERS)
def test_seed_test(num_players, modules):
    seed_test(lambda: make_env(num_players, modules), num_cycles=30)


@pytest.mark.filterwarnings("ignore:Observation")
def test_api_test_other_options():
    # max_turns is the env's cap on decisions, turn_limit the game's own cap on turns.
    api_test(make_env(3, ("jutaku",), reward_mode="score", end_credits=30, turn_limit=6, max_turns=40), num_cycles=30)


# ----- the env ------------------------------------------------------------------------------
def test_spaces_and_agents():
    for n in PLAYERS:
        env = make_env(n)
        env.reset(seed=1)
        raw = env.unwrapped
        assert env.possible_agents == [f"player_{i}" for i in range(n)]
        assert env.metadata["name"] == "import_export_v0"
        assert env.action_space("player_0").n == A.NUM_ACTIONS == 219
        size = raw.game.observation_layout.size
        assert env.observation_space("player_0")["observation"].shape == (size,)
        assert env.agent_selection == f"player_{raw.game_state.leader}"


def test_observations_and_masks_follow_the_state():
    env = GameEnv(ImportExportGame(num_players=4, modules=ALL_MODULES))
    env.reset(seed=4)
    rng = random.Random(4)
    out_of_turn = 0
    for _ in range(400):
        if env.terminations[env.agent_selection]:
            break
        current = env.agent_selection
        state = env.game_state
        assert current == f"player_{state.current_player()}"
        out_of_turn += state.current_player() != state.leader
        for agent in env.possible_agents:
            obs = env.observe(agent)
            assert env.observation_space(agent).contains(obs)
            seat = env.agent_name_mapping[agent]
            np.testing.assert_array_equal(obs["observation"], state.observation(seat))
            if agent == current:
                assert np.flatnonzero(obs["action_mask"]).tolist() == list(state.legal_actions())
            else:
                assert not obs["action_mask"].any()
        env.step(_act(env, rng))
    assert out_of_turn > 50  # followers, bidders: decided out of the leader's turn


def test_a_game_plays_to_the_end_and_rewards_follow_the_scores():
    env = GameEnv(ImportExportGame(num_players=3), reward_mode="score")
    env.reset(seed=8)
    rng = random.Random(8)
    steps = 0
    while not any(env.terminations.values()):
        env.step(_act(env, rng))
        steps += 1
    state = env.game_state
    assert state.is_terminal() and not state.is_truncated() and steps > 50
    assert not any(env.truncations.values())
    scores = state.scores()
    mean = sum(scores) / 3
    assert [env.rewards[f"player_{p}"] for p in range(3)] == pytest.approx([(s - mean) / 50 for s in scores])
    while env.agents:
        env.step(None)


def test_turn_cap_is_reported_as_truncation():
    env = GameEnv(ImportExportGame(num_players=2, turn_limit=2))
    env.reset(seed=0)
    rng = random.Random(0)
    while not (any(env.terminations.values()) or any(env.truncations.values())):
        env.step(_act(env, rng))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env.game_state.is_truncated() and env.game_state.turn == 2


def test_illegal_and_malformed_actions_raise_and_change_nothing():
    env = GameEnv(ImportExportGame(num_players=4))
    env.reset(seed=2)
    state = env.game_state
    before = state.clone()
    obs = [state.observation(p) for p in range(4)]
    bad = next(a for a in range(A.NUM_ACTIONS) if a not in state.legal_actions())
    for action in (bad, A.NUM_ACTIONS, -1):
        with pytest.raises(IllegalActionError, match="legal actions"):
            env.step(action)
    for action in (1.0, "2", True, None):
        with pytest.raises(MalformedActionError):
            env.step(action)
    assert state.history == before.history == [] and state.hands == before.hands and state.deck == before.deck
    assert state.ask == before.ask and state.credits == before.credits
    for p in range(4):
        np.testing.assert_array_equal(state.observation(p), obs[p])


def test_a_refused_action_names_the_legal_ones_and_changes_nothing():
    game = ImportExportGame(num_players=3)
    state = game.new_initial_state(9)
    rng = random.Random(9)
    for _ in range(25):
        state.apply_action(rng.choice(state.legal_actions()))
    snapshot = state.clone()
    obs = [state.observation(p) for p in range(3)]
    illegal = next(a for a in range(A.NUM_ACTIONS) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(illegal)
    assert f"action {illegal} ({game.action_to_string(illegal)}) is not legal for player" in str(err.value)
    assert err.value.legal_actions == list(state.legal_actions())
    assert state.history == snapshot.history and state.__dict__.keys() == snapshot.__dict__.keys()
    for key, value in snapshot.__dict__.items():
        if key not in ("rng", "game"):
            assert getattr(state, key) == value, key
    assert state.rng.getstate() == snapshot.rng.getstate()
    for p in range(3):
        np.testing.assert_array_equal(state.observation(p), obs[p])


def test_actions_after_the_end_are_refused():
    game = ImportExportGame(num_players=2, turn_limit=1)
    state = game.new_initial_state(0)
    state.apply_action(A.DRAW)
    assert state.is_terminal()
    with pytest.raises(GameOverError):
        state.apply_action(A.DRAW)


# ----- determinism, clones, replays ---------------------------------------------------------
def _noise(k):
    random.random()
    np.random.rand()
    random.seed(k)
    np.random.seed(k % 2**32)
    random.getrandbits(64)


@pytest.fixture(autouse=True)
def _restore_global_rngs():
    py_state, np_state = random.getstate(), np.random.get_state()
    yield
    random.setstate(py_state)
    np.random.set_state(np_state)


@pytest.mark.parametrize("num_players, modules", [(2, ()), (4, ALL_MODULES), (6, ALL_MODULES)])
def test_same_seed_and_actions_give_the_same_game_under_global_rng_noise(num_players, modules):
    game = ImportExportGame(num_players=num_players, modules=modules)
    policy = random.Random(1000 + num_players)
    _noise(1)
    a = game.new_initial_state(17 * num_players)
    _noise(2)
    b = game.new_initial_state(17 * num_players)
    steps = 0
    while not a.is_terminal():
        _noise(steps)
        p = a.current_player()
        np.testing.assert_array_equal(a.observation(p), b.observation(p))
        assert list(a.legal_actions()) == list(b.legal_actions())
        action = policy.choice(a.legal_actions())
        _noise(steps * 7 + 3)
        a.apply_action(action)
        _noise(steps * 11 + 5)
        b.apply_action(action)
        steps += 1
    assert b.is_terminal() and steps > 50
    assert a.history == b.history and a.scores() == b.scores() and a.deck == b.deck and a.hands == b.hands


def test_different_seeds_give_different_deals():
    game = ImportExportGame(num_players=4)
    assert len({tuple(game.new_initial_state(seed).deck) for seed in range(20)}) == 20

    def opening(seed):
        state = game.new_initial_state(seed)
        return b"".join(state.observation(p).tobytes() for p in range(4))

    assert len({opening(seed) for seed in range(8)}) == 8


def test_clones_are_independent_and_continue_identically():
    game = ImportExportGame(num_players=4, modules=ALL_MODULES)
    rng = random.Random(3)
    state = game.new_initial_state(5)
    for _ in range(150):
        state.apply_action(rng.choice(state.legal_actions()))
    snapshot = [state.observation(p).copy() for p in range(4)]
    history = list(state.history)
    twin = state.clone()
    assert twin.history == state.history and twin.history is not state.history
    assert twin.hands == state.hands and twin.hands is not state.hands and twin.hands[0] is not state.hands[0]
    # the clone plays on; the original does not move
    r = random.Random(1)
    for _ in range(100):
        if twin.is_terminal():
            break
        twin.apply_action(r.choice(twin.legal_actions()))
    assert state.history == history
    for p in range(4):
        np.testing.assert_array_equal(state.observation(p), snapshot[p])
    # a fresh clone and the original continue identically, chance (the RNG) included
    twin = state.clone()
    r1, r2 = random.Random(2), random.Random(2)
    while not state.is_terminal():
        state.apply_action(r1.choice(state.legal_actions()))
        twin.apply_action(r2.choice(twin.legal_actions()))
        assert twin.deck == state.deck and twin.hands == state.hands and twin.credits == state.credits
    assert twin.is_terminal() and twin.scores() == state.scores() and twin.history == state.history


@pytest.mark.parametrize("num_players, modules", [(3, ()), (5, ALL_MODULES)])
def test_json_replay_round_trip(num_players, modules):
    game = ImportExportGame(num_players=num_players, modules=modules, end_credits=60, first_leader=1)
    state = game.new_initial_state(55)
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    text = state.to_replay().to_json()
    replay = Replay.from_json(text)
    assert replay.config == {
        "num_players": num_players,
        "modules": list(modules),
        "end_credits": 60,
        "first_leader": 1,
        "turn_limit": 400,
    }
    assert json.loads(text)["actions"] == state.history
    again = replay_final_state(replay)
    assert again.is_terminal() and again.scores() == state.scores() and again.history == state.history
    assert again.game.config == game.config
    for p in range(num_players):
        np.testing.assert_array_equal(again.observation(p), state.observation(p))


def test_replay_of_an_unfinished_game():
    game = ImportExportGame(num_players=4)
    state = game.new_initial_state(12)
    rng = random.Random(12)
    for _ in range(90):
        state.apply_action(rng.choice(state.legal_actions()))
    again = replay_final_state(Replay.from_json(state.to_replay().to_json()))
    assert again.current_player() == state.current_player() and list(again.legal_actions()) == list(state.legal_actions())
    for p in range(4):
        np.testing.assert_array_equal(again.observation(p), state.observation(p))


def test_arranged_states_cannot_be_replayed(table):
    t = table(3, hands={0: ["laptops"]})
    with pytest.raises(ValueError, match="arrange"):
        t.state.to_replay()
