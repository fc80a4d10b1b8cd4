"""``smuggle zoo``: a finished training run joins the zoo as a numpy policy that plays exactly
like its checkpoint, with the ``smuggle train`` command line that makes it again and the
machine and library versions it was added with; the list shows it; bad requests are one line and change nothing. Also the shipped zoo itself: a model for
every game at 4 players, small, verified, measured, playing legal games."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from agents import make_agent
from agents.zoo import ZOO_DIR, manifest, sha256
from smuggle_envs import ENV_IDS, make_game
from training.cli import build_parser, main
from training.provenance import cpu_model
from training.selfplay.cli import _overrides
from training.selfplay.config import TrainConfig, train_command
from training.selfplay.trainer import Trainer
from training.zoo import _init_record

from .selfplay.test_pipeline import tiny
from .test_cli_errors import _one_line_error


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A finished (tiny) Smuggle training run with a best checkpoint."""
    out = tmp_path_factory.mktemp("run")
    config = tiny("smuggle_v0", steps=768, eval_every=256, eval_games=8, final_eval_games=8, seed=3, tensorboard=False)
    Trainer(config, out, log=lambda _: None).run()
    return out


@pytest.fixture
def zoo(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("SMUGGLE_ZOO", str(tmp_path / "zoo"))
    return tmp_path / "zoo"


def _actions(agent, game, seed: int = 0, limit: int = 60) -> list[int]:
    state, out = game.new_initial_state(seed), []
    while not state.is_terminal() and len(out) < limit:
        a = int(agent.act(state.observation(state.current_player()), state.legal_action_mask()))
        out.append(a)
        state.apply_action(a)
    return out


def _config_of(command: str) -> TrainConfig:
    """The TrainConfig that ``smuggle train`` builds from a command line."""
    argv = shlex.split(command)
    assert argv[:2] == ["smuggle", "train"]
    args = build_parser().parse_args(argv[1:])
    return TrainConfig(env_id=args.env_id, **_overrides(args))


@pytest.mark.parametrize("checkpoint", ["recommended", "best", "final"])
def test_a_run_joins_the_zoo_and_plays_like_its_checkpoint(run, zoo, checkpoint, capsys):
    assert main(["zoo", "add", str(run), "--checkpoint", checkpoint]) == 0
    entry = manifest()["smuggle_v0@4"]
    summary = json.loads((run / "final_eval.json").read_text())
    expected = (
        Path(summary["recommended"].removeprefix("ppo:")).name if checkpoint == "recommended" else f"{checkpoint}.zip"
    )
    assert entry["checkpoint"] == expected
    assert entry["file"] == "smuggle_v0-4p.npz" and entry["sha256"] == sha256(zoo / entry["file"])
    assert entry["seed"] == 3 and entry["env_id"] == "smuggle_v0" and entry["players"] == 4
    assert entry["steps"] == (summary["best"]["step"] if expected == "best.zip" else summary["steps"])
    assert (
        entry["wall_minutes"] == round(summary["training_wall_seconds"] / 60, 1)
        and summary["training_wall_seconds"] > 0
    )
    game = make_game("smuggle_v0", num_players=4)
    for seed in (0, 1):
        zoo_agent, ppo_agent = make_agent("zoo", game, seed=seed), make_agent(f"ppo:{run / expected}", game, seed=seed)
        assert _actions(zoo_agent, game, seed) == _actions(ppo_agent, game, seed)
    assert "added smuggle_v0@4" in capsys.readouterr().out


def test_argmax_makes_the_zoo_model_play_its_most_probable_action(run, zoo):
    main(["zoo", "add", str(run), "--checkpoint", "final", "--argmax"])
    assert manifest()["smuggle_v0@4"]["deterministic"] is True
    game = make_game("smuggle_v0", num_players=4)
    assert _actions(make_agent("zoo", game, seed=1), game) == _actions(
        make_agent(f"ppo_argmax:{run / 'final.zip'}", game, seed=2), game
    )


def test_the_recorded_command_rebuilds_the_runs_config(run, zoo):
    main(["zoo", "add", str(run)])
    rebuilt = _config_of(manifest()["smuggle_v0@4"]["command"]).to_dict()
    saved = json.loads((run / "config.json").read_text())
    for field in ("progress", "tensorboard", "vec"):  # do not change the model (train_command's docstring)
        rebuilt.pop(field), saved.pop(field)
    assert rebuilt == saved


def test_the_network_a_run_started_from_is_recorded_with_its_checksum(run, zoo):
    """A command with ``init=...`` makes the model again only from that very file: the entry
    names it and its checksum (and a run from fresh weights records nothing)."""
    main(["zoo", "add", str(run)])
    entry = manifest()["smuggle_v0@4"]
    assert "init" not in entry
    game, net = make_game("smuggle_v0", num_players=4), zoo / entry["file"]
    assert _init_record(f"ppo:{net}", game) == {"spec": f"ppo:{net}", "file": str(net), "sha256": sha256(net)}
    assert _init_record("zoo", game) == {"spec": "zoo", "file": str(net), "sha256": entry["sha256"]}
    assert _init_record(None, game) is None and _init_record("none", game) is None
    assert _init_record("imitate", game) is None  # expert iteration's other starts name no file


def test_train_command_covers_flags_sets_and_no_warm_start():
    config = TrainConfig(
        env_id="ciq_v0", num_players=3, steps=1000, imitate=None, net_arch=(64, 64), weighting="variance"
    )
    command = train_command(config)
    assert "--imitate none" in command and "--players 3" in command and "net_arch=[64,64]" in command
    assert _config_of(command) == config


def test_the_list_shows_each_model_and_how_to_make_it(run, zoo, capsys):
    main(["zoo"])
    assert "is empty" in capsys.readouterr().out
    main(["zoo", "add", str(run)])
    capsys.readouterr()
    main(["zoo"])
    out = capsys.readouterr().out
    entry = manifest()["smuggle_v0@4"]
    assert "zoo:smuggle_v0@4" in out and str(entry["steps"]) in out and entry["command"] in out


# ----- where a model was made ------------------------------------------------------------------
MACHINE_FIELDS = {"cpu", "cpu_count", "python", "torch", "numpy", "platform"}


def _is_this_machine(record: dict) -> None:
    import platform

    import numpy
    import torch

    assert set(record) == MACHINE_FIELDS and record["cpu"] == cpu_model()
    assert record["cpu"] and record["cpu_count"] >= 1 and record["python"] == platform.python_version()
    assert record["torch"] == str(torch.__version__) and record["numpy"] == numpy.__version__


def test_an_added_model_records_the_machine_and_versions_it_was_made_with(run, zoo, capsys):
    """The same weights again are known only on one CPU kind with one set of library versions,
    so the entry names them, and the list prints them beside the command."""
    main(["zoo", "add", str(run)])
    entry = manifest()["smuggle_v0@4"]
    _is_this_machine(entry["machine"])
    capsys.readouterr()
    main(["zoo"])
    machine = entry["machine"]
    assert f"added on {machine['cpu']}, torch {machine['torch']}, numpy {machine['numpy']}" in capsys.readouterr().out


def test_a_fitted_value_head_records_the_machine_too(tmp_path, monkeypatch):
    from training.zoo_value import ValueSettings, fit_value_head

    from .test_zoo_value import _copy_zoo

    monkeypatch.setenv("SMUGGLE_ZOO", str(_copy_zoo(tmp_path / "zoo")))
    key, record = fit_value_head(ValueSettings("illegal_v0@4", games=10, epochs=1))
    _is_this_machine(record["machine"])
    assert manifest()[key]["value"]["machine"] == record["machine"]


def test_the_cpu_model_is_read_from_cpuinfo_else_from_platform(tmp_path, monkeypatch):
    import platform

    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD Ryzen 9 9950X 16-Core Processor\n")
    assert cpu_model(cpuinfo) == "AMD Ryzen 9 9950X 16-Core Processor"
    monkeypatch.setattr(platform, "processor", lambda: "arm")
    assert cpu_model(tmp_path / "absent") == "arm"
    cpuinfo.write_text("processor\t: 0\nmodel name\t:\n")  # an empty name falls back too
    assert cpu_model(cpuinfo) == "arm"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["zoo", "add"], "needs the training run's folder"),
        (["zoo", "add", "/no/such/run"], "holds no finished training run"),
        (["zoo", "list", "runs/x"], "takes no RUN_DIR"),
    ],
)
def test_bad_requests_are_one_line_and_change_nothing(zoo, argv, message, capsys):
    assert main(argv) == 2
    assert message in _one_line_error(capsys)
    assert not zoo.exists()


def test_a_checkpoint_the_run_does_not_have_is_refused(run, zoo, tmp_path, capsys):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    (copy / "best.zip").unlink()
    assert main(["zoo", "add", str(copy), "--checkpoint", "best"]) == 2
    assert "has no best.zip" in _one_line_error(capsys)
    assert not zoo.exists()


# ----- the shipped zoo ---------------------------------------------------------------------------
def _shipped() -> dict:
    return json.loads((ZOO_DIR / "models.json").read_text(encoding="utf-8"))


def test_the_zoo_ships_a_model_for_every_game_at_4_players():
    assert sorted(_shipped()) == sorted(f"{env_id}@4" for env_id in ENV_IDS)


@pytest.mark.parametrize("key", sorted(_shipped()))
def test_each_shipped_model_is_small_verified_measured_and_plays(key, monkeypatch):
    monkeypatch.delenv("SMUGGLE_ZOO", raising=False)
    entry = _shipped()[key]
    path = ZOO_DIR / entry["file"]
    assert path.stat().st_size < 5_000_000 and sha256(path) == entry["sha256"]
    assert entry["command"].startswith(f"smuggle train {entry['env_id']} --players 4 ")
    assert f"--seed {entry['seed']} " in entry["command"] and entry["players"] == 4 and entry["commit"]
    measured = entry["eval"]
    assert measured["random"]["games"] >= 1000 and measured["rule"]["games"] >= 1000
    assert measured["mixed"]["tournament_games"] >= 1000
    game = make_game(entry["env_id"], num_players=4)
    agent = make_agent(f"zoo:{key}", game, seed=0)
    state = game.new_initial_state(0)
    for _ in range(200):
        if state.is_terminal():
            break
        action = int(agent.act(state.observation(state.current_player()), state.legal_action_mask()))
        assert action in state.legal_actions()
        state.apply_action(action)
