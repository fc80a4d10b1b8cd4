"""The engine contract, checked the same way for every registered game and player count.

Each game also has its own, deeper tests under tests/games/<game>/; this file makes sure a new
game cannot join ENV_IDS without meeting the shared contract:

* nothing hidden leaks: redrawing what seat p cannot see changes neither p's observation, nor
  the legal actions when p is to act, nor who decides next;
* a game is a pure function of (config, seed, actions), whatever the global RNGs do;
* clones are independent; refused actions change nothing; replays reproduce the game;
* the same game comes out of processes with different hash seeds (no set or dict order leaks in).
"""

import dataclasses
import hashlib
import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs.core import IllegalActionError, Replay

CASES = [
    (env_id, n)
    for env_id in smuggle_envs.ENV_IDS
    for n in sorted({smuggle_envs.game_class(env_id).min_players, smuggle_envs.game_class(env_id).max_players})
]
IDS = [f"{env_id}-{n}p" for env_id, n in CASES]
MAX_STEPS = 400


def random_positions(game, seed, every=4):
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    for step in range(MAX_STEPS):
        if state.is_terminal():
            break
        if step % every == 0:
            yield state
        state.apply_action(rng.choice(list(state.legal_actions())))
    yield state


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_resampling_hides_nothing_and_does_not_change_who_decides(env_id, n):
    game = smuggle_envs.make_game(env_id, num_players=n)
    rng = random.Random(1)
    checked = 0
    for seed in range(3):
        for state in random_positions(game, seed):
            for p in range(n):
                other = state.resample(p, rng)
                np.testing.assert_array_equal(other.observation(p), state.observation(p))
                assert other.current_player() == state.current_player()
                assert other.is_terminal() == state.is_terminal()
                if state.current_player() == p:
                    assert list(other.legal_actions()) == list(state.legal_actions())
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_the_global_observation_is_every_seats_view_round_the_table_and_is_privileged(env_id, n):
    """``global_observation(p)`` (for critics only) is the seats' observations from p round the
    table, and it does see what p cannot: redrawing p's hidden information changes it somewhere."""
    game = smuggle_envs.make_game(env_id, num_players=n)
    rng = random.Random(2)
    privileged = 0
    for state in random_positions(game, seed=5, every=8):
        for p in range(n):
            g = state.global_observation(p)
            size = game.observation_layout.size
            assert g.shape == (n * size,) and g.dtype == np.float32
            for i in range(n):
                np.testing.assert_array_equal(g[i * size : (i + 1) * size], state.observation((p + i) % n))
            privileged += not np.array_equal(state.resample(p, rng).global_observation(p), g)
    assert privileged > 0
    with pytest.raises(ValueError, match="seat"):
        game.new_initial_state(0).global_observation(n)


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_same_seed_and_actions_give_the_same_game_under_global_rng_noise(env_id, n):
    game = smuggle_envs.make_game(env_id, num_players=n)
    a, b = game.new_initial_state(11), game.new_initial_state(11)
    rng = random.Random(2)
    for step in range(MAX_STEPS):
        if a.is_terminal():
            break
        random.seed(step)  # noise on the global RNGs between steps
        np.random.seed(step + 1)
        random.random(), np.random.rand(3)
        np.testing.assert_array_equal(a.observation(a.current_player()), b.observation(b.current_player()))
        np.testing.assert_array_equal(a.legal_action_mask(), b.legal_action_mask())
        action = rng.choice(list(a.legal_actions()))
        a.apply_action(action)
        b.apply_action(action)
    assert a.scores() == b.scores() and a.history == b.history

    def opening(seed):  # everything every seat sees at the start
        state = game.new_initial_state(seed)
        return b"".join(state.observation(p).tobytes() for p in range(n))

    assert len({opening(seed) for seed in range(11, 19)}) > 1, "different seeds deal different games"


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_clones_are_independent_and_replays_reproduce_the_game(env_id, n):
    game = smuggle_envs.make_game(env_id, num_players=n)
    rng = random.Random(3)
    state = game.new_initial_state(5)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(list(state.legal_actions())))
    snapshot = [state.observation(p).copy() for p in range(n)]
    clone = state.clone()
    while not clone.is_terminal() and len(clone.history) < len(state.history) + 50:
        clone.apply_action(rng.choice(list(clone.legal_actions())))
    for p in range(n):
        np.testing.assert_array_equal(state.observation(p), snapshot[p])
    again = Replay.from_json(clone.to_replay().to_json()).final_state()
    for p in range(n):
        np.testing.assert_array_equal(again.observation(p), clone.observation(p))
    assert again.scores() == clone.scores()


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_a_refused_action_changes_nothing(env_id, n):
    game = smuggle_envs.make_game(env_id, num_players=n)
    state = game.new_initial_state(9)
    legal = set(state.legal_actions())
    illegal = next(a for a in range(game.num_actions) if a not in legal) if len(legal) < game.num_actions else None
    before = [state.observation(p).copy() for p in range(n)], list(state.history), state.current_player()
    for bad in [game.num_actions, -1] + ([illegal] if illegal is not None else []):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
    after = [state.observation(p) for p in range(n)], list(state.history), state.current_player()
    for x, y in zip(before[0], after[0]):
        np.testing.assert_array_equal(x, y)
    assert before[1:] == after[1:]


# Each game in a rich configuration: every seat's observation is hashed along the whole game.
HASH_SEED_CONFIGS = {
    "smuggle_v0": {"num_players": 5},
    "ciq_v0": {"num_players": 4},
    "illegal_v0": {"num_players": 5, "trading": True},
    "humble_smuggle_v0": {"num_players": 5},
    "import_export_v0": {"num_players": 5, "modules": ["jutaku", "kickstarter", "captain"]},
}

_CHILD = r"""
import hashlib, json, random, sys
import smuggle_envs
g = smuggle_envs.make_game(sys.argv[1], **json.loads(sys.argv[2]))
s = g.new_initial_state(2024)
rng = random.Random(7)
h = hashlib.sha256()
while not s.is_terminal():
    for p in range(g.num_players):
        h.update(s.observation(p).tobytes())
    s.apply_action(rng.choice(s.legal_actions()))
print(json.dumps([h.hexdigest(), s.scores(), len(s.history)]))
"""


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_same_game_in_processes_with_different_hash_seeds(env_id):
    config = json.dumps(HASH_SEED_CONFIGS.get(env_id, {"num_players": 4}))
    outputs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, env_id, config],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        outputs.append(json.loads(done.stdout))
    g = smuggle_envs.make_game(env_id, **json.loads(config))
    s = g.new_initial_state(2024)
    rng = random.Random(7)
    h = hashlib.sha256()
    while not s.is_terminal():
        for p in range(g.num_players):
            h.update(s.observation(p).tobytes())
        s.apply_action(rng.choice(s.legal_actions()))
    assert outputs[0] == outputs[1] == [h.hexdigest(), s.scores(), len(s.history)]


# ----- the termination contract --------------------------------------------------------------------
def _own_cap_config(env_id):
    """A config whose own turn cap stops random games early, if the game has such a cap."""
    fields = {f.name for f in dataclasses.fields(smuggle_envs.game_class(env_id).config_class)}
    return {"turn_limit": 3} if "turn_limit" in fields else None


def _truncated_games(env_id, n):
    """(how, driver) for games truncated by the game's own cap (where it has one) and by a
    driver's max_decisions."""
    from smuggle_envs.core.driver import Driver

    rng = random.Random(4)

    def policy(state, player):
        return rng.choice(state.legal_actions())

    cap = _own_cap_config(env_id)
    if cap is not None:
        driver = Driver(smuggle_envs.make_game(env_id, num_players=n, **cap))
        driver.reset(1)
        driver.play(policy)
        yield "own cap", driver
    driver = Driver(smuggle_envs.make_game(env_id, num_players=n), max_decisions=5)
    driver.reset(1)
    driver.play(policy)
    yield "max_decisions", driver


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_a_truncated_game_has_no_winner_and_pays_nothing_in_every_mode(env_id, n):
    from smuggle_envs.core.outcomes import REWARD_MODES

    checked = 0
    for how, driver in _truncated_games(env_id, n):
        assert driver.done and driver.truncated and not driver.terminated, how
        assert driver.winning_seats() == [], how
        for mode in REWARD_MODES:
            assert driver.returns(mode) == [0.0] * n, (how, mode)
            if how == "own cap":  # the state itself says so too
                assert driver.state.is_terminal() and driver.state.is_truncated()
                assert driver.state.returns(mode) == [0.0] * n and driver.state.winning_seats() == []
        checked += 1
    assert checked >= 1


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_every_tool_reports_a_truncated_game_as_truncation(env_id):
    """The AEC env, the self-play env, evaluation and tournaments agree with the core."""
    from agents.base import RandomAgent
    from training.selfplay.evaluate import evaluate
    from training.selfplay.single_agent import SelfPlayEnv
    from training.tournament.runner import play_games

    n = smuggle_envs.game_class(env_id).min_players
    cap = _own_cap_config(env_id) or {}
    kwargs = dict(cap, num_players=n) if cap else {"num_players": n, "max_turns": 3}
    # AEC env: truncations, never terminations, zero rewards.
    env = smuggle_envs.make(env_id, **kwargs)
    env.reset(seed=1)
    rng = random.Random(0)
    truncated = rewards = 0.0
    for _agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        assert not termination
        truncated += truncation
        rewards += abs(reward)
        env.step(None if truncation else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert truncated == n and rewards == 0.0
    # Self-play env: (terminated False, truncated True), no terminal reward.
    game = smuggle_envs.make_game(env_id, **({**cap, "num_players": n}))
    sp = SelfPlayEnv(game, max_decisions=None if cap else 3, pool=[("random", "random")])
    sp.reset(seed=2)
    for _ in range(10_000):
        mask = sp.action_masks()
        _, reward, terminated, truncation, info = sp.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncation:
            break
    assert truncation and not terminated and reward == 0.0 and "selfplay" not in info
    # Evaluation: no win is counted for a truncated game.
    result = evaluate(game, RandomAgent(seed=0), "random", games=n, max_decisions=None if cap else 3)
    assert result.wins == 0 and result.unfinished == n
    if cap:  # tournaments play to the game's end: a capped game is stored as not terminal, all tied
        spec = smuggle_envs.GameSpec(env_id, {**cap, "num_players": n})
        [(_, stored)] = play_games(spec, ["random"] * n, [("k", 1, range(n))])
        assert stored["terminal"] is False and len(set(stored["ranks"])) == 1


# ----- inputs are validated alike -----------------------------------------------------------------
BAD_SEATS = [-1, "1", 1.0, None, True, np.float64(1.0)]


@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_seats_and_rngs_are_validated_alike_and_refusals_change_nothing(env_id, n):
    from smuggle_envs.core.errors import ConfigError, SeatError

    state = smuggle_envs.make_game(env_id, num_players=n).new_initial_state(3)
    before = [state.observation(p).copy() for p in range(n)], state.render(), list(state.history)
    np.testing.assert_array_equal(state.observation(np.int64(1)), state.observation(1))
    assert state.render(np.int32(0)) == state.render(0)
    for bad in [*BAD_SEATS, n, np.int64(n)]:
        for call in (state.observation, state.resample):
            with pytest.raises(SeatError, match="seat"):
                call(bad)
        if bad is not None:
            with pytest.raises(SeatError, match="seat"):
                state.render(bad)
    for rng in ("seed", 1.5, [1]):
        with pytest.raises(ConfigError, match="rng must be"):
            state.resample(0, rng)
    # Every accepted source of randomness works, and seeded ones are deterministic.
    obs0 = state.observation(0)
    for rng in (None, 5, np.int64(5), np.random.default_rng(5), random.Random(5)):
        np.testing.assert_array_equal(state.resample(0, rng).observation(0), obs0)
    a, b = state.resample(1, 7), state.resample(1, np.int64(7))
    assert [a.observation(p).tobytes() for p in range(n)] == [b.observation(p).tobytes() for p in range(n)]
    g1, g2 = np.random.default_rng(3), np.random.default_rng(3)
    assert state.resample(1, g1).render() == state.resample(1, g2).render()
    after = [state.observation(p) for p in range(n)], state.render(), list(state.history)
    for x, y in zip(before[0], after[0]):
        np.testing.assert_array_equal(x, y)
    assert before[1:] == after[1:]


# ----- legal actions cannot be used to change the state ---------------------------------------------
@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_legal_actions_are_an_immutable_tuple(env_id, n):
    game = smuggle_envs.make_game(env_id, num_players=n)
    for seed in range(2):
        for state in random_positions(game, seed, every=3):
            legal = state.legal_actions()
            assert type(legal) is tuple and all(type(a) is int for a in legal)
            with pytest.raises(AttributeError):
                legal.append(0)  # the old way to smuggle an illegal action past the check
            assert state.legal_actions() == legal


def test_ciq_seed_3_cannot_be_corrupted_through_legal_actions():
    """The issue's example: appending to ciq's legal actions let action 0 through and broke the state."""
    state = smuggle_envs.make_game("ciq_v0", num_players=2).new_initial_state(3)
    before = state.observation(0).copy(), state.legal_actions()
    with pytest.raises(AttributeError):
        state.legal_actions().append(0)
    if 0 not in before[1]:
        with pytest.raises(IllegalActionError):
            state.apply_action(0)
    np.testing.assert_array_equal(state.observation(0), before[0])
    assert state.legal_actions() == before[1]


# ----- what a seat may see of another seat's action --------------------------------------------------
@pytest.mark.parametrize("env_id, n", CASES, ids=IDS)
def test_action_strings_shown_to_a_seat_hide_what_it_has_not_seen(env_id, n):
    """The check of ``families/_visibility.py`` on a few random games of every game; the deeper
    per-game sweeps are in ``families/test_visibility_family.py``."""
    from .families._visibility import check_action_strings

    game = smuggle_envs.make_game(env_id, num_players=n)
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        for state in random_positions(game, seed, every=2):
            if not state.is_terminal():
                checked += check_action_strings(state, rng)
    assert checked > 20


def test_action_to_string_validates_its_arguments():
    from smuggle_envs.core.errors import MalformedActionError, SeatError

    state = smuggle_envs.make_game("smuggle_v0").new_initial_state(0)
    a = state.legal_actions()[0]
    with pytest.raises(SeatError):
        state.action_to_string(a, 9)
    with pytest.raises(MalformedActionError):
        state.action_to_string(1.5)
    with pytest.raises(MalformedActionError):
        state.action_to_string(state.game.num_actions)
