"""illegal_v0 through the generic AEC wrapper: PettingZoo's api_test and seed_test for 2 to 6
players, the registry and constructors, masks, out-of-turn decisions, and determinism: a game is
a function of (config, seed, actions) whatever the global RNGs or the hash seed do."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import smuggle_envs
from smuggle_envs import illegal_v0
from smuggle_envs.core.errors import ConfigError, IllegalActionError
from smuggle_envs.games.illegal import IllegalGame
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.rules import PASS

PLAYERS = (2, 3, 4, 5, 6)


def _act(env, rng):
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(rng.choice(np.flatnonzero(mask)))


# ----- PettingZoo's own tests ----------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("num_players", PLAYERS)
def test_api_test(num_players):
    api_test(illegal_v0.env(num_players=num_players), num_cycles=200)


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("num_players", PLAYERS)
def test_seed_test(num_players):
    seed_test(lambda: illegal_v0.env(num_players=num_players), num_cycles=200)


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize(
    "kwargs",
    [
        {"trading": True, "reward_mode": "rank"},
        {"target_score": 60_000, "max_hands": 3, "reward_mode": "score"},
        {"num_players": 3, "max_turns": 40},
    ],
)
def test_api_test_other_options(kwargs):
    api_test(illegal_v0.env(**kwargs), num_cycles=200)


# ----- registry and constructors ------------------------------------------------------------
def test_registry_and_constructors():
    assert "illegal_v0" in smuggle_envs.ENV_IDS
    assert {"env_id": "illegal_v0", "game": "Illegal (ElPadre)", "players": "2-6"} in smuggle_envs.registry.describe()
    for make in (illegal_v0.env, illegal_v0.raw_env, lambda **kw: smuggle_envs.make("illegal_v0", **kw)):
        env = make(num_players=5, reward_mode="rank", trading=True)
        env.reset(seed=1)
        raw = env.unwrapped
        assert raw.game.num_players == 5 and raw.game.config.trading and raw.reward_mode == "rank"
        assert env.possible_agents == [f"player_{i}" for i in range(5)]
        assert env.metadata["name"] == "illegal_v0"
        assert env.action_space("player_0").n == A.NUM_ACTIONS == 187
        assert env.observation_space("player_0")["observation"].shape == (177 + 70 * 5,)
    with pytest.raises(ConfigError, match="num_players"):
        illegal_v0.env(players=3)
    with pytest.raises(ConfigError):
        illegal_v0.env(num_players=7)


def test_observations_and_masks_follow_the_state():
    env = illegal_v0.raw_env(num_players=4, trading=True)
    env.reset(seed=4)
    rng = random.Random(4)
    out_of_turn = 0
    for _ in range(400):
        if env.terminations[env.agent_selection]:
            break
        current = env.agent_selection
        state = env.game_state
        assert current == f"player_{state.current_player()}"
        out_of_turn += state.current_player() != state.active
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
    assert out_of_turn > 20  # reactions, passes, trade answers: decided out of turn


def test_out_of_turn_decisions_are_agent_selections():
    # A Paranoia card: every player in turn passes a card; the env asks each agent in order.
    env = illegal_v0.raw_env(num_players=3)
    env.reset(seed=0)
    state = env.game_state
    state.arrange(hands={0: ["death in the family", "alibi", "alibi"]})
    env.agent_selection = "player_0"
    env.step(A.play("death in the family"))
    order = []
    while state.phase == PASS:
        order.append(env.agent_selection)
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert order == ["player_0", "player_1", "player_2"]


def test_illegal_actions_raise_and_change_nothing():
    env = illegal_v0.raw_env(num_players=4)
    env.reset(seed=2)
    before = env.game_state.clone()
    bad = next(a for a in range(A.NUM_ACTIONS) if a not in env.game_state.legal_actions())
    with pytest.raises(IllegalActionError):
        env.step(bad)
    assert env.game_state.history == before.history
    assert bytes(env.game_state.buf) == bytes(before.buf) and env.game_state.deck == before.deck


# ----- determinism ---------------------------------------------------------------------------
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


@pytest.mark.parametrize("num_players", PLAYERS)
def test_two_envs_same_seed_same_actions_with_global_rng_noise(num_players):
    config = {"trading": True} if num_players == 3 else {}
    env_a = illegal_v0.env(num_players=num_players, reward_mode="score", **config)
    env_b = illegal_v0.env(num_players=num_players, reward_mode="score", **config)
    policy = random.Random(1000 + num_players)
    seed = 17 * num_players
    _noise(1)
    env_a.reset(seed=seed)
    _noise(2)
    env_b.reset(seed=seed)
    steps = 0
    while env_a.agents:
        _noise(steps)
        obs_a, rew_a, term_a, trunc_a, _ = env_a.last()
        _noise(steps + 99991)
        obs_b, rew_b, term_b, trunc_b, _ = env_b.last()
        assert env_a.agent_selection == env_b.agent_selection
        np.testing.assert_array_equal(obs_a["observation"], obs_b["observation"])
        np.testing.assert_array_equal(obs_a["action_mask"], obs_b["action_mask"])
        assert (rew_a, term_a, trunc_a) == (rew_b, term_b, trunc_b)
        action = None if term_a or trunc_a else int(policy.choice(np.flatnonzero(obs_a["action_mask"])))
        _noise(steps * 7 + 3)
        env_a.step(action)
        _noise(steps * 11 + 5)
        env_b.step(action)
        steps += 1
    assert steps > 20 and env_b.agents == []
    a, b = env_a.unwrapped.game_state, env_b.unwrapped.game_state
    assert a.history == b.history and bytes(a.buf) == bytes(b.buf) and a.scores() == b.scores()


def test_engine_replay_and_clone_are_exact():
    game = IllegalGame(num_players=4, trading=True)
    rng = random.Random(9)
    state = game.new_initial_state(123)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    _noise(5)
    again = game.new_initial_state(123)
    for action in state.history:
        _noise(action)
        again.apply_action(action)
    assert bytes(again.buf) == bytes(state.buf) and again.scores() == state.scores()
    # a clone mid-game is independent and continues identically
    mid = game.new_initial_state(7)
    for _ in range(40):
        mid.apply_action(rng.choice(mid.legal_actions()))
    twin = mid.clone()
    assert twin.history == mid.history and twin.buf is not mid.buf
    r1, r2 = random.Random(1), random.Random(1)
    while not mid.is_terminal():
        mid.apply_action(r1.choice(mid.legal_actions()))
        twin.apply_action(r2.choice(twin.legal_actions()))
        assert bytes(mid.buf) == bytes(twin.buf) and mid.deck == twin.deck
    assert twin.history == mid.history


def test_different_seeds_give_different_deals():
    game = IllegalGame(num_players=4)
    decks = {tuple(game.new_initial_state(seed).deck) for seed in range(20)}
    assert len(decks) == 20


def test_replay_round_trip():
    from smuggle_envs.core.replay import Replay

    game = IllegalGame(num_players=3, trading=True)
    state = game.new_initial_state(55)
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    replay = Replay.from_json(state.to_replay().to_json())
    assert replay.final_state().scores() == state.scores()
    arranged = game.new_initial_state(1)
    arranged.arrange(hands={0: ["magnum"]})
    with pytest.raises(ValueError):
        arranged.to_replay()
