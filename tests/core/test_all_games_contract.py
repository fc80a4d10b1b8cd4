"""The engine contract, checked the same way for every registered game and player count.

Each game also has its own, deeper tests under tests/games/<game>/; this file makes sure a new
game cannot join ENV_IDS without meeting the shared contract:

* nothing hidden leaks: redrawing what seat p cannot see changes neither p's observation, nor
  the legal actions when p is to act, nor who decides next;
* a game is a pure function of (config, seed, actions), whatever the global RNGs do;
* clones are independent; refused actions change nothing; replays reproduce the game;
* the same game comes out of processes with different hash seeds (no set or dict order leaks in).
"""

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
