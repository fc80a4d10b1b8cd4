"""The batched in-process vector env (``training.selfplay.vec_env``): the same games as SB3's
``DummyVecEnv`` (to the bit without a network in the pool), network opponents deciding in one
forward pass across the games, and exact save / restore of games played that way."""

from __future__ import annotations

import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import agents.ppo as ppo
from smuggle_envs import make_game
from training.selfplay.single_agent import SelfPlayEnv
from training.selfplay.vec_env import SelfPlayVecEnv

GAMES = 6


def _venvs(pool, env_id: str = "smuggle_v0"):
    def make():
        return SelfPlayEnv(env_id, {"num_players": 4}, pool=pool)

    venvs = DummyVecEnv([make] * GAMES), SelfPlayVecEnv([make] * GAMES)
    for venv in venvs:
        venv.seed(11)
    return venvs


def _play(venv, steps: int, seed: int = 0) -> list:
    """The trajectory of ``steps`` steps, the learner choosing uniformly among its legal actions."""
    rng = np.random.default_rng(seed)
    trajectory = [venv.reset().copy()]
    for _ in range(steps):
        masks = np.stack(venv.env_method("action_masks"))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = venv.step(actions)
        results = [
            (i.get("selfplay"), i.get("TimeLimit.truncated"), i.get("terminal_observation") is not None) for i in infos
        ]
        trajectory.append((obs.copy(), rewards.copy(), dones.copy(), results))
    return trajectory


def _same(a: list, b: list) -> bool:
    if not np.array_equal(a[0], b[0]):
        return False
    for (oa, ra, da, ia), (ob, rb, db, ib) in zip(a[1:], b[1:]):
        if not (np.array_equal(oa, ob) and np.array_equal(ra, rb) and np.array_equal(da, db) and ia == ib):
            return False
    return True


@pytest.mark.parametrize("env_id", ["smuggle_v0", "illegal_v0"])
def test_without_a_network_the_games_are_dummy_vec_env_s_to_the_bit(env_id):
    plain, batched = _venvs([("rule", "rule"), ("random", "random")], env_id)
    a, b = _play(plain, 300), _play(batched, 300)
    assert sum(d.sum() for _, _, d, _ in a[1:]) >= GAMES  # games ended and were dealt again
    assert _same(a, b)


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory) -> str:
    """A small PPO model of Smuggle, saved as a league snapshot would be."""
    path = tmp_path_factory.mktemp("snap") / "snap.zip"
    env = SelfPlayEnv("smuggle_v0", {"num_players": 4})
    MaskablePPO("MlpPolicy", env, seed=3, n_steps=64, batch_size=64, policy_kwargs={"net_arch": [32]}).save(path)
    return str(path)


def test_network_opponents_decide_together_and_play_as_alone(snapshot, monkeypatch):
    batches: list[int] = []
    together = ppo.act_together
    monkeypatch.setattr(ppo, "act_together", lambda a, o, m: batches.append(len(a)) or together(a, o, m))
    plain, batched = _venvs([("snap", f"ppo:{snapshot}"), ("rule", "rule")])
    a, b = _play(plain, 200), _play(batched, 200)
    assert batches and max(batches) >= 3  # one forward for several games' opponents
    assert sum(batches) > 2 * len(batches)
    # The same games as one decision at a time (a tip on the batched forward's rounding would
    # show here; none in these seeded games).
    assert _same(a, b)


def test_act_together_chooses_as_act_does_and_refuses_other_networks(snapshot):
    game = make_game("smuggle_v0", num_players=4)
    agents = [ppo.PPOAgent(game, snapshot, seed=s) for s in range(4)]
    alone = [ppo.PPOAgent(game, snapshot, seed=s) for s in range(4)]
    assert len({a.batch_key for a in agents}) == 1
    state = game.new_initial_state(5)
    for _ in range(40):
        player = state.current_player()
        obs, mask = state.observation(player), state.legal_action_mask()
        together = ppo.act_together(agents, [obs] * 4, [mask] * 4)
        assert together == [a.act(obs, mask) for a in alone]  # each with its own RNG, in step
        state.apply_action(together[player])
        if state.is_terminal():
            break
    other = ppo.PolicyAgent(agents[0].policy, seed=0)
    with pytest.raises(ValueError, match="share one network"):
        ppo.act_together([agents[0], other], [obs] * 2, [mask] * 2)


def test_games_played_together_save_and_restore_exactly(snapshot):
    _, batched = _venvs([("snap", f"ppo:{snapshot}"), ("rule", "rule")])
    _play(batched, 37)
    snaps = batched.env_method("get_snapshot")
    _, restored = _venvs([("snap", f"ppo:{snapshot}"), ("rule", "rule")])
    for i, snap in enumerate(snaps):
        restored.env_method("set_snapshot", snap, indices=[i])
    assert restored.env_method("get_snapshot") == snaps
    rng = np.random.default_rng(4)
    for _ in range(30):  # and they go on alike
        masks = np.stack(batched.env_method("action_masks"))
        assert np.array_equal(masks, np.stack(restored.env_method("action_masks")))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        for x, y in zip(batched.step(actions)[:3], restored.step(actions)[:3]):
            assert np.array_equal(x, y)
