"""Expert iteration (``smuggle train --teacher``, training/selfplay/expert/): a run end to end into
a loadable ``ppo:`` model, determinism over seeds and worker counts, exact resume, the learner
moving the policy towards the visits, no true state in any network, and one-line errors."""

from __future__ import annotations

import argparse
import json
import shlex

import numpy as np
import pytest

from agents import make_agent
from agents.arena import play
from agents.search_net import SearchNetwork
from smuggle_envs import make_game
from smuggle_envs.core.driver import Driver
from smuggle_envs.core.errors import ConfigError
from training.errors import UsageError
from training.selfplay import cli, expert
from training.selfplay.expert import ExpertConfig, ExpertIteration, Positions
from training.selfplay.expert import loop as expert_loop
from training.selfplay.parser import add_train

TEACHER = "ismcts:sims=6;prior=student;value=student"
# The smallest game (about 50 decisions at 2 players), a few games a round, a handful of simulations.
TINY = {
    "env_id": "illegal_v0",
    "num_players": 2,
    "teacher": TEACHER,
    "rounds": 2,
    "games_per_round": 2,
    "epochs": 2,
    "batch_size": 32,
    "eval_games": 2,
    "final_eval_games": 2,
    "progress": False,
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="smuggle")
    add_train(parser.add_subparsers(dest="command", required=True))
    return parser


def _run(out, resume=False, **changes):
    config = ExpertConfig(**{**TINY, **changes})
    return ExpertIteration(config, out, log=lambda text: None).run(resume=resume)


def test_a_cli_run_makes_a_ppo_model_that_plays_legally_and_joins_the_zoo(tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    argv = ["train", "smuggle_v0", "--players", "3", "--out", str(out), "--teacher", "ismcts:sims=4;prior=student"]
    argv += ["--imitate", "rule", "--eval-games", "2", "--no-progress"]
    for setting in ("rounds=2", "games_per_round=1", "imitation_samples=200", "imitation_epochs=1", "eval_games=2"):
        argv += ["--set", setting]
    assert cli.cmd_train(_parser().parse_args(argv)) == 0
    text = capsys.readouterr().out
    assert "warm start: cloned 'rule'" in text and "round 2/2" in text and "final evaluation" in text
    config = json.loads((out / "config.json").read_text())
    assert config["recipe"] == "expert-iteration" and config["teacher"] == "ismcts:sims=4;prior=student"
    summary = json.loads((out / "final_eval.json").read_text())
    assert summary["recommended"].startswith("ppo:") and summary["rounds"] == 2
    assert {r["opponent"] for r in summary["results"]} == {"random", "rule", "rule+random"}
    rows = (out / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("step,opponent,games") and len(rows) == 1 + 3 * 3  # rounds 0, 1, 2
    assert (out / "learning_curve.png").exists() and (out / "final.npz").exists()
    for spec in ("ppo:" + str(out / "final.zip"), "ppo:" + str(out / "final.npz"), summary["recommended"]):
        game = expert.ExpertConfig(num_players=3).game_spec().make_game()
        lineup = [make_agent(spec, game, seed=1), make_agent("rule", game, seed=2), make_agent("random", game, seed=3)]
        driver = play(game, lineup, seed=5)  # the engine refuses an illegal move
        assert driver.done
    monkeypatch.setenv("SMUGGLE_ZOO", str(tmp_path / "zoo"))
    from training.zoo import add_run

    _, entry = add_run(out)
    assert entry["recipe"] == "expert-iteration"
    assert entry["command"].startswith("smuggle train smuggle_v0 --teacher 'ismcts:sims=4;prior=student'")


def test_workers_do_not_change_the_data_and_a_resumed_run_is_the_same_bit_for_bit(tmp_path, monkeypatch):
    _run(tmp_path / "w1", workers=1)
    _run(tmp_path / "w2", workers=2)
    # In-process: one round, then on to two, stopped once in the middle of round 2's learning.
    _run(tmp_path / "r", rounds=1)
    fit = expert.fit

    def stop_in_round_2(*args, **kwargs):
        fit(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(expert_loop, "fit", stop_in_round_2)
    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path / "r", resume=True, rounds=2)
    assert ExpertIteration(ExpertConfig(**TINY), tmp_path / "r").latest_round() == 1
    monkeypatch.setattr(expert_loop, "fit", fit)
    _run(tmp_path / "r", resume=True, rounds=2)
    for name in ("final.npz", "rounds/round_0001/positions.npz", "rounds/round_0002/positions.npz"):
        data = {(tmp_path / run / name).read_bytes() for run in ("w1", "w2", "r")}
        assert len(data) == 1, name
    assert len((tmp_path / "r" / "rounds.csv").read_text().splitlines()) == 3  # no row twice
    positions = Positions.load(tmp_path / "r" / "rounds/round_0002/positions.npz")
    assert np.allclose(positions.visits.sum(1), 1) and not (positions.visits * ~positions.masks).any()
    assert set(np.unique(positions.outcomes)) <= {-1.0, 0.0, 1.0}
    _run(tmp_path / "other", seed=1, rounds=1)
    assert (tmp_path / "other/final.npz").read_bytes() != (tmp_path / "r/rounds/round_0001/student.npz").read_bytes()


def _batch(game, rows=64, seed=0):
    """A fixed batch of positions: random observations, masks and visit distributions."""
    rng = np.random.default_rng(seed)
    obs = rng.random((rows, game.observation_layout.size), dtype=np.float32)
    masks = rng.random((rows, game.num_actions)) < 0.2
    masks[:, 0] = True
    visits = rng.random((rows, game.num_actions)).astype(np.float32) ** 4 * masks
    visits /= visits.sum(1, keepdims=True)
    outcomes = rng.choice([-1.0, 1.0], rows).astype(np.float32)
    return Positions(obs, masks, visits, outcomes)


def test_the_learner_moves_the_policy_towards_the_visits_and_the_value_to_the_outcomes():
    import torch

    config = ExpertConfig(**{**TINY, "epochs": 1, "batch_size": 16, "learning_rate": 1e-3})
    game = config.game_spec().make_game()
    model = expert.new_student(config, game, "cpu")
    data = _batch(game)
    tensors = [torch.as_tensor(getattr(data, n)) for n in ("observations", "masks", "visits", "outcomes")]

    def losses():
        with torch.no_grad():
            _, _, kl, mse = expert.expert_loss(model.policy, *tensors, 1.0)
        return float(kl), float(mse)

    kl0, mse0 = losses()
    for step in range(15):
        expert.fit(model, data, config, np.random.default_rng(step))
    kl1, mse1 = losses()
    assert kl1 < 0.5 * kl0 and mse1 < 0.5 * mse0
    assert kl0 > 0 and kl1 >= -1e-6  # a KL divergence: zero only at the target


def test_a_network_warm_start_copies_its_weights():
    config = ExpertConfig(**TINY)
    game = config.game_spec().make_game()
    source = expert.numpy_student(
        expert.new_student(ExpertConfig(**{**TINY, "seed": 7, "net_arch": (32,)}), game, "cpu")
    )
    copy = expert.numpy_student(expert.new_student(config, game, "cpu", source))
    for (w, b, act), (w2, b2, act2) in zip(source.layers + source.critic.layers, copy.layers + copy.critic.layers):
        assert np.array_equal(w, w2) and np.array_equal(b, b2) and act == act2


def test_no_network_in_the_search_ever_sees_the_true_state(tmp_path, monkeypatch):
    """The networks of the teacher's search read only worlds drawn by ``State.resample`` (which
    marks what it returns as not replayable), never a game the driver plays."""
    config = ExpertConfig(**{**TINY, "env_id": "smuggle_v0", "num_players": 3})
    game = config.game_spec().make_game()
    student = tmp_path / "student.npz"
    expert.numpy_student(expert.new_student(config, game, "cpu")).save(student)
    true_states, seen = [], {"prior": 0, "value": 0}
    reset = Driver.reset

    def recording_reset(self, *args, **kwargs):
        state = reset(self, *args, **kwargs)
        true_states.append(state)
        return state

    def check(world):
        assert "_not_replayable" in world.__dict__, "a network was given a state that no resample drew"
        assert all(world is not state for state in true_states), "a network was given the true state"

    prior_logits, values = SearchNetwork.prior_logits, SearchNetwork.values

    def recording_prior(self, world, actor):
        check(world)
        seen["prior"] += 1
        return prior_logits(self, world, actor)

    def recording_values(self, world, seats):
        check(world)
        seen["value"] += 1
        return values(self, world, seats)

    monkeypatch.setattr(Driver, "reset", recording_reset)
    monkeypatch.setattr(SearchNetwork, "prior_logits", recording_prior)
    monkeypatch.setattr(SearchNetwork, "values", recording_values)
    teacher = expert.resolve_teacher(expert.teacher_options(TEACHER), str(student))
    task = expert.GameTask(config.game_spec(), teacher, (0, 1, 0), 10, 1.0, 60)
    record = expert.play_game(task)
    assert record.decisions == 60 and seen["prior"] > 0 and seen["value"] > 0
    # The check catches both: a state no resample drew, and the true state even if marked.
    with pytest.raises(AssertionError, match="no resample drew"):
        check(game.new_initial_state(3))
    true_states[-1].__dict__["_not_replayable"] = "marked, yet the game in play"
    with pytest.raises(AssertionError, match="the true state"):
        check(true_states[-1])


def test_the_recorded_command_line_makes_the_same_settings(tmp_path):
    config = ExpertConfig(**{**TINY, "replay_rounds": 2, "net_arch": (64, 64), "init": "imitate", "workers": 2})
    command = expert.expert_command(config)
    args = _parser().parse_args([*shlex.split(command)[1:], "--no-progress"])
    again = cli._expert_config(args, tmp_path / "new")
    again.workers = config.workers  # the machine's, not the recipe's: not in the command
    assert again == config


@pytest.mark.parametrize(
    "extra, error, match",
    [
        (["--teacher", "pimc:sims=3"], ConfigError, "the teacher is an IS-MCTS search"),
        (["--teacher", "ismcts:sims=lots"], ConfigError, "bad value 'lots' for sims"),
        (["--teacher", "ismcts:nope=1"], ConfigError, "unknown option 'nope'"),
        (["--teacher", "ismcts:prior=ppo:missing.npz"], ConfigError, "no trained model at missing.npz"),
        (["--teacher", "ismcts:value_playout=2"], ConfigError, "value_playout needs value"),
        (["--teacher", "ismcts:prior=student;value=student;leaf_batch=0"], ConfigError, "leaf_batch must be"),
        (["--teacher", TEACHER, "--set", "nope=1"], UsageError, "KEY one of \\(expert iteration's settings\\)"),
        (["--teacher", TEACHER, "--set", "rounds=many"], UsageError, "expected a int"),
        (["--teacher", TEACHER, "--set", "rounds=0"], ConfigError, "rounds must be an int of at least 1"),
        (["--teacher", TEACHER, "--set", "init=nonsense"], ConfigError, "init must be one of"),
        (["--teacher", TEACHER, "--set", "init=ppo:missing.zip"], ConfigError, "init=ppo:missing.zip"),
        (["--teacher", TEACHER, "--steps", "100"], UsageError, "--steps is a PPO option"),
        (["--teacher", TEACHER, "--backend", "ray"], ConfigError, "set workers"),
    ],
)
def test_bad_requests_are_one_line_errors(extra, error, match, tmp_path):
    args = _parser().parse_args(["train", "illegal_v0", "--out", str(tmp_path / "r"), *extra])
    with pytest.raises(error, match=match) as caught:
        cli.cmd_train(args)
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "r").exists()  # refused before any work


def test_a_teacher_batching_the_students_leaves_is_accepted():
    """``leaf_batch`` needs a network prior and value, which the student's will be: the probe
    before any work (with ``none`` in their place) must not refuse it."""
    game = make_game("illegal_v0", num_players=4)
    options = expert.check_teacher("ismcts:sims=8;prior=student;value=student;leaf_batch=4", game)
    assert options["leaf_batch"] == 4


def test_resume_keeps_the_recipe_and_refuses_to_mix_trainers(tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    (out / "config.json").write_text(json.dumps(ExpertConfig(**TINY).to_dict()))
    base = ["train", "illegal_v0", "--out", str(out)]
    with pytest.raises(UsageError, match="already holds a training run"):
        cli.cmd_train(_parser().parse_args([*base, "--teacher", TEACHER]))
    with pytest.raises(UsageError, match="teacher=ismcts"):
        cli.cmd_train(_parser().parse_args([*base, "--resume", "--teacher", "ismcts:sims=9"]))
    with pytest.raises(UsageError, match="seed=0"):
        cli.cmd_train(_parser().parse_args([*base, "--resume", "--seed", "3"]))  # no --teacher: still expert
    (out / "config.json").write_text(json.dumps({"env_id": "illegal_v0"}))  # a PPO run
    with pytest.raises(UsageError, match="holds a PPO self-play run"):
        cli.cmd_train(_parser().parse_args([*base, "--resume", "--teacher", TEACHER]))
