"""``smuggle train ENV --device cpu|cuda|auto`` (issue #28): the learner's torch device.

Run on machines without a GPU: ``auto`` resolves to the CPU with a note, ``cuda`` is a one-line
error before any training starts, and a tiny run with ``--device cpu`` (or ``auto`` here) is
bit-identical to the default."""

from __future__ import annotations

import argparse

import pytest
import torch

from smuggle_envs.core.errors import ConfigError
from training.selfplay import cli, device
from training.selfplay.config import TrainConfig, train_command
from training.selfplay.parser import add_train
from training.selfplay.trainer import Trainer


def _parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="smuggle")
    add_train(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["train", "smuggle_v0", *argv])


def test_auto_picks_the_gpu_only_where_torch_sees_one(monkeypatch):
    notes: list[str] = []
    assert device.resolve_device("cpu", log=notes.append) == "cpu" and not notes
    monkeypatch.setattr(device, "cuda_available", lambda: False)
    assert device.resolve_device("auto", log=notes.append) == "cpu"
    monkeypatch.setattr(device, "cuda_available", lambda: True)
    assert device.resolve_device("auto", log=notes.append) == "cuda"
    assert device.resolve_device("cuda") == "cuda"
    assert device.resolve_device("auto", workers=2, log=notes.append) == "cpu"
    assert notes == [
        "--device auto: no GPU, training on the CPU",
        "--device auto: a GPU is available, training on cuda",
        "--device auto: data-parallel workers (--workers) learn on the CPU",
    ]


@pytest.mark.parametrize(
    "name, workers, message",
    [
        ("cuda", 0, "--device cuda: torch sees no GPU on this machine (use --device cpu or --device auto)"),
        ("cuda", 2, "with --workers 2 the workers learn on the CPU"),
        ("tpu", 0, "device must be one of cpu, cuda, auto, got 'tpu'"),
    ],
)
def test_a_device_that_cannot_serve_is_a_one_line_error(monkeypatch, name, workers, message):
    monkeypatch.setattr(device, "cuda_available", lambda: False)
    with pytest.raises(ConfigError) as info:
        device.resolve_device(name, workers=workers)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_cuda_without_a_gpu_stops_smuggle_train_before_training(monkeypatch, tmp_path):
    monkeypatch.setattr(device, "cuda_available", lambda: False)
    out = tmp_path / "run"
    with pytest.raises(ConfigError, match="torch sees no GPU"):
        cli.cmd_train(_parse("--device", "cuda", "--out", str(out), "--steps", "256", "--no-progress"))
    assert not out.exists()  # nothing was written, nothing trained
    with pytest.raises(SystemExit):
        _parse("--device", "tpu")


def test_the_device_flag_reaches_the_config_and_its_command():
    assert cli._overrides(_parse("--device", "auto"))["device"] == "auto"
    assert "device" not in cli._overrides(_parse())
    assert TrainConfig().device == "cpu"
    assert "--device" not in train_command(TrainConfig())
    assert train_command(TrainConfig(device="cuda")).endswith("--device cuda")


def _tiny(name: str | None) -> TrainConfig:
    settings = {} if name is None else {"device": name}
    return TrainConfig(
        env_id="smuggle_v0",
        num_players=3,
        steps=256,
        n_envs=2,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        net_arch=(16, 16),
        imitation_samples=200,  # the warm start's fit runs on the learner's device too
        imitation_epochs=1,
        eval_every=10_000,
        eval_games=2,
        final_eval_games=2,
        eval_mixed=False,
        tensorboard=False,
        progress=False,
        **settings,
    )


def _trained_parameters(config: TrainConfig, out) -> dict[str, torch.Tensor]:
    from sb3_contrib import MaskablePPO

    notes: list[str] = []
    Trainer(config, out, log=notes.append).run()
    model = MaskablePPO.load(out / "final.zip", device="cpu")
    assert model.num_timesteps == 256
    return {"notes": notes, **model.policy.state_dict()}


def test_a_cpu_run_is_bit_identical_to_the_default(tmp_path, monkeypatch):
    # --device cpu is the default's very config (so the same run); auto resolves to the CPU on a
    # machine without a GPU and must train the same model bit for bit, with a note.
    assert _tiny("cpu") == _tiny(None)
    monkeypatch.setattr(device, "cuda_available", lambda: False)
    default = _trained_parameters(_tiny(None), tmp_path / "default")
    auto = _trained_parameters(_tiny("auto"), tmp_path / "auto")
    assert auto.keys() == default.keys()
    assert all(torch.equal(auto[k], default[k]) for k in default if k != "notes")
    assert "--device auto: no GPU, training on the CPU" in auto["notes"]
    assert not any("--device" in note for note in default["notes"])
