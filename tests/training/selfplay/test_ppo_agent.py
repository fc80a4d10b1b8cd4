"""Trained models as Agents: ``agents.ppo.PPOAgent`` (spec ``ppo:PATH``) and its numpy policy."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
import torch

from agents import make_agent
from agents.arena import play_game
from agents.ppo import NumpyPolicy, PPOAgent, load_model
from smuggle_envs import make_game
from training.match import build_agent
from training.selfplay.single_agent import SelfPlayEnv


def _save_model(directory, **policy_kwargs) -> str:
    """An untrained (randomly initialised) 3-player Smuggle model, saved as a zip."""
    from sb3_contrib import MaskablePPO

    env = SelfPlayEnv("smuggle_v0", {"num_players": 3})
    model = MaskablePPO(
        "MlpPolicy",
        env,
        seed=3,
        device="cpu",
        n_steps=64,
        batch_size=64,
        policy_kwargs={"net_arch": [32, 16], **policy_kwargs},
    )
    path = directory / "model.zip"
    model.save(path)
    return str(path)


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    return _save_model(tmp_path_factory.mktemp("ppo"))


def _positions(game, count: int, seed: int = 0):
    """(observation, mask) pairs from random play, covering every decision type."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state(rng.randrange(1 << 30))
        while not state.is_terminal() and len(out) < count:
            p = state.current_player()
            out.append((state.observation(p), state.legal_action_mask()))
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def test_numpy_policy_matches_sb3_predict(model_path):
    game = make_game("smuggle_v0", num_players=3)
    model, policy = load_model(model_path)
    assert policy is not None and policy.obs_size == game.observation_layout.size
    with torch.no_grad():
        for obs, mask in _positions(game, 300):
            expected, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
            assert policy.act(obs, mask) == int(expected)
            # The whole distribution agrees with torch's (float32) to rounding.
            obs_t, _ = model.policy.obs_to_tensor(obs)
            torch_probs = model.policy.get_distribution(obs_t).distribution.probs[0].numpy()
            logits = policy.logits(obs)
            probs = np.exp(logits - logits.max())
            np.testing.assert_allclose(probs / probs.sum(), torch_probs, rtol=1e-4, atol=1e-6)


def test_sampling_follows_the_masked_policy(model_path):
    game = make_game("smuggle_v0", num_players=3)
    _, policy = load_model(model_path)
    obs, mask = _positions(game, 1)[0]
    logits = policy.logits(obs)
    legal = np.flatnonzero(mask)
    probs = np.exp(logits[legal] - logits[legal].max())
    probs /= probs.sum()
    rng = random.Random(0)
    draws = [policy.act(obs, mask, rng) for _ in range(6000)]
    assert set(draws) <= set(legal.tolist())
    freq = np.array([draws.count(a) for a in legal]) / len(draws)
    assert np.abs(freq - probs).max() < 0.03


def test_ppo_agent_is_an_agent_kind_and_plays_whole_games(model_path):
    game = make_game("smuggle_v0", num_players=3)
    agent = make_agent(f"ppo:{model_path}", game, seed=1)
    assert isinstance(agent, PPOAgent) and agent.name == "ppo"
    built, label = build_agent(f"ppo:{model_path}", game, seed=1)  # the CLI's builder
    assert isinstance(built, PPOAgent) and label == f"ppo:{model_path}"
    lineup = [agent, make_agent("rule", game, seed=2), make_agent("random", game, seed=3)]
    first = play_game(game, lineup, seed=5)
    again = play_game(game, lineup, seed=5)
    assert first.is_terminal() and first.history == again.history  # seeded
    det = PPOAgent(game, model_path, deterministic=True)
    obs, mask = _positions(game, 1)[0]
    assert det.act(obs, mask) == det.act(obs, mask)


def test_wrong_game_or_missing_file_is_a_clear_error(model_path, tmp_path):
    with pytest.raises(ValueError, match="trained for another game or player count"):
        PPOAgent(make_game("smuggle_v0", num_players=4), model_path)
    with pytest.raises(FileNotFoundError, match="no trained model"):
        PPOAgent(make_game("smuggle_v0", num_players=3), str(tmp_path / "nope.zip"))
    with pytest.raises(ValueError, match="ppo:PATH"):
        make_agent("ppo", make_game("smuggle_v0", num_players=3))


def test_loading_does_not_disturb_the_global_rngs(model_path, tmp_path):
    # A league snapshot loaded in the middle of training must not reseed torch/numpy/random.
    import shutil

    copy = tmp_path / "copy.zip"
    shutil.copy(model_path, copy)  # a new file: not in the cache, really loaded
    torch.manual_seed(123)
    np.random.seed(123)
    random.seed(123)
    expected = (torch.rand(3).tolist(), np.random.rand(3).tolist(), random.random())
    torch.manual_seed(123)
    np.random.seed(123)
    random.seed(123)
    PPOAgent(make_game("smuggle_v0", num_players=3), str(copy))
    assert (torch.rand(3).tolist(), np.random.rand(3).tolist(), random.random()) == expected


def test_pickled_agents_carry_the_path_not_the_weights(model_path):
    game = make_game("smuggle_v0", num_players=3)
    agent = PPOAgent(game, model_path, seed=4)
    data = pickle.dumps(agent)
    assert len(data) < 20_000
    twin = pickle.loads(data)
    obs, mask = _positions(game, 1)[0]
    agent.reset(9)
    twin.reset(9)
    assert [agent.act(obs, mask) for _ in range(20)] == [twin.act(obs, mask) for _ in range(20)]


def test_torch_fallback_for_policies_numpy_cannot_copy(model_path):
    game = make_game("smuggle_v0", num_players=3)
    agent = PPOAgent(game, model_path, seed=0, deterministic=True)
    numpy_policy = agent.policy
    agent.policy = None  # as for a custom feature extractor
    for obs, mask in _positions(game, 50, seed=1):
        assert agent.act(obs, mask) == numpy_policy.act(obs, mask)
    sampler = PPOAgent(game, model_path, seed=0)
    sampler.policy = None
    obs, mask = _positions(game, 1)[0]
    assert all(mask[sampler.act(obs, mask)] for _ in range(50))
    assert NumpyPolicy.from_sb3(load_model(model_path)[0].policy) is not None


def test_a_person_can_play_against_the_trained_model(model_path, capsys, monkeypatch):
    # ``smuggle play``'s handler with the model in every other seat (the parser's --bots
    # choices are the CLI's business; the handler builds any agent spec).
    import argparse

    from training.cli.play import cmd_play

    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    args = argparse.Namespace(
        env_id="smuggle_v0", players=3, seat=0, seed=4, bots=f"ppo:{model_path}", save_replay=None
    )
    assert cmd_play(args) == 0
    out = capsys.readouterr().out
    assert f"P1 is ppo:{model_path}" in out and f"P1 (ppo:{model_path}):" in out
    assert "final scores:" in out


def test_a_saved_numpy_policy_plays_exactly_like_its_model(model_path, tmp_path):
    # The model zoo's format: the actor alone as .npz, loaded without torch.
    game = make_game("smuggle_v0", num_players=3)
    _, policy = load_model(model_path)
    policy.save(tmp_path / "actor.npz")
    copy = NumpyPolicy.load(tmp_path / "actor.npz")
    for obs, _ in _positions(game, 30):
        assert np.array_equal(copy.logits(obs), policy.logits(obs))
    zipped, npz = PPOAgent(game, model_path, seed=2), PPOAgent(game, str(tmp_path / "actor.npz"), seed=2)
    assert npz.model is None
    positions = _positions(game, 40, seed=1)
    assert [zipped.act(o, m) for o, m in positions] == [npz.act(o, m) for o, m in positions]
    with pytest.raises(ValueError, match="trained for another game or player count"):
        PPOAgent(make_game("smuggle_v0", num_players=4), str(tmp_path / "actor.npz"))


def test_a_file_that_is_not_a_saved_numpy_policy_is_refused_on_one_line(tmp_path):
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    (tmp_path / "text.npz").write_text("not numpy\n")
    layers = [(np.zeros((4, 3)), np.zeros(4), "Tanh"), (np.zeros((2, 5)), np.zeros(2), "Identity")]
    NumpyPolicy(layers).save(tmp_path / "broken.npz")  # 4 outputs feeding 5 inputs
    for name, message in (
        ("other.npz", "KeyError"),
        ("text.npz", "not a saved numpy policy"),
        ("broken.npz", "do not chain"),
    ):
        with pytest.raises(ValueError, match=message) as info:
            NumpyPolicy.load(tmp_path / name)
        assert "\n" not in str(info.value)
