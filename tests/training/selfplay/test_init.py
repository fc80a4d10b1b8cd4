"""PPO from given weights (``init=NETWORK``): fine-tuning a model another recipe made."""

from __future__ import annotations

import numpy as np
import pytest

from agents.search_net import load_network
from smuggle_envs import make_game
from training.selfplay.config import ConfigError, TrainConfig, train_command
from training.selfplay.trainer import Trainer


def _config(**settings) -> TrainConfig:
    return TrainConfig(
        env_id="smuggle_v0",
        num_players=4,
        steps=128,
        n_envs=2,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        eval_every=10_000,
        eval_games=2,
        final_eval_games=2,
        eval_mixed=False,
        tensorboard=False,
        progress=False,
        **settings,
    )


def _observations(game, count: int = 40) -> np.ndarray:
    rng = np.random.default_rng(0)
    state, rows = game.new_initial_state(5), []
    while not state.is_terminal() and len(rows) < count:
        rows.append(state.observation(state.current_player()))
        state.apply_action(int(rng.choice(state.legal_actions())))
    return np.array(rows)


def test_a_run_starts_from_the_network_it_names(tmp_path):
    # learning_rate 0: the model must still be the zoo's network after its (empty) updates, so
    # the start is the network itself, shape and weights, not a fresh or a cloned model.
    game = make_game("smuggle_v0", num_players=4)
    zoo, _ = load_network("zoo", game)
    notes: list[str] = []
    Trainer(_config(init="zoo", learning_rate=0.0), tmp_path / "run", log=notes.append).run()
    trained, _ = load_network(f"ppo:{tmp_path / 'run' / 'final.zip'}", game)
    obs = _observations(game)
    assert np.allclose(trained(obs), zoo(obs), atol=1e-4)
    assert any("starting weights: zoo" in n for n in notes)
    assert not any("cloned" in n for n in notes)  # the imitation warm start is skipped


def test_without_init_the_model_is_another(tmp_path):
    game = make_game("smuggle_v0", num_players=4)
    zoo, _ = load_network("zoo", game)
    config = _config(learning_rate=0.0, imitate=None)
    Trainer(config, tmp_path / "run", log=lambda _: None).run()
    trained, _ = load_network(f"ppo:{tmp_path / 'run' / 'final.zip'}", game)
    obs = _observations(game)
    assert not np.allclose(trained(obs), zoo(obs), atol=1e-3)


@pytest.mark.parametrize(
    ("settings", "message"),
    [({"init": "rule"}, "init must be a network"), ({"init": "zoo", "critic": "privileged"}, "privileged")],
)
def test_bad_init_is_one_line(settings, message):
    with pytest.raises(ConfigError, match=message) as info:
        _config(**settings).validate()
    assert "\n" not in str(info.value)


def test_the_command_line_records_init():
    assert "--set 'init=\"zoo\"'" in train_command(_config(init="zoo"))
