"""Data-parallel training (``--workers W``): the workers' copies stay one model, a run is a
function of its seed and W, it resumes exactly, and the Ray backend trains the same model as
local processes. Tiny settings: what is checked is the plumbing (learning is the benchmarks')."""

from __future__ import annotations

import pytest
import torch

from smuggle_envs.core.errors import ConfigError
from training.selfplay import distributed
from training.selfplay.trainer import TrainConfig, Trainer

from .test_pipeline import _params


def tiny(**overrides) -> TrainConfig:
    config = {
        "env_id": "smuggle_v0",
        "steps": 512,
        "workers": 2,
        "n_envs": 4,
        "n_steps": 64,
        "batch_size": 128,
        "n_epochs": 2,
        "net_arch": (32, 32),
        "snapshot_every": 256,
        "max_snapshots": 2,
        "checkpoint_every": 256,
        "eval_every": 10_000,
        "eval_games": 2,
        "final_eval_games": 2,
        "imitate": "rule",
        "imitation_samples": 300,
        "imitation_epochs": 1,
        "progress": False,
        "tensorboard": False,
    }
    config.update(overrides)
    return TrainConfig(**config)


def _same(a, b) -> bool:
    pa, pb = _params(a / "final.zip"), _params(b / "final.zip")
    return pa.keys() == pb.keys() and all(torch.equal(pa[k], pb[k]) for k in pa)


def test_workers_average_their_gradients_so_their_copies_stay_one_model():
    group = distributed.start_workers(tiny().to_dict(), 2, "local")
    try:
        group.call("reset", [(), ()])
        for _ in range(2):
            group.call("collect", [(64, 0), (64, 0)])
            group.call("train", [(1.0,), (1.0,)])
        first, second = group.call("get_policy", [(), ()])
        # Different games, one model: the update used both workers' gradients.
        assert first == second
        states = group.call("get_state", [(), ()])
        assert states[0]["envs"] != states[1]["envs"]
    finally:
        group.close()


def test_without_the_average_the_copies_drift_apart():
    # The check above can fail: two workers that never join the group (built here, in this
    # process) start from one model and end as two.
    workers = [distributed.Worker(tiny().to_dict(), rank, 2) for rank in range(2)]
    start = workers[0].get_policy()
    for w in workers:
        w.set_policy(start)
        w.reset()
        w.collect(64, 0)
        w.train(1.0)
    assert workers[0].get_policy() != workers[1].get_policy()
    for w in workers:
        w.close()


def test_a_run_is_a_function_of_its_seed_and_resumes_exactly(tmp_path):
    config = tiny()
    logs: list[str] = []
    Trainer(config, tmp_path / "a", log=logs.append).run()
    with pytest.raises(KeyboardInterrupt):
        Trainer(config, tmp_path / "b", log=logs.append).run(interrupt_at=300)
    Trainer(config, tmp_path / "b", log=logs.append).run(resume=True)
    assert any("resuming" in line and "from step 256" in line for line in logs)
    assert _same(tmp_path / "a", tmp_path / "b"), "the resumed run diverged from the uninterrupted one"
    # A different worker count is a different run (each worker samples its own games).
    Trainer(tiny(workers=1), tmp_path / "c", log=logs.append).run()
    assert not _same(tmp_path / "a", tmp_path / "c")


def test_the_ray_backend_trains_the_same_model_as_local_processes(tmp_path):
    import ray

    config = tiny(steps=256, imitate=None, snapshot_every=128)
    Trainer(config, tmp_path / "local", log=lambda _: None).run()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        Trainer(config, tmp_path / "ray", log=lambda _: None, backend="ray").run()
        assert ray.is_initialized()  # a Ray it did not start is left running
    finally:
        ray.shutdown()
    assert _same(tmp_path / "local", tmp_path / "ray")


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"workers": 3}, "must be multiples of 3"),
        ({"workers": 2, "batch_size": 127}, "must be multiples of 2"),
        ({"workers": -1}, "workers must be 0 or more"),
    ],
)
def test_bad_worker_counts_are_one_line_errors(tmp_path, overrides, message):
    with pytest.raises(ConfigError, match=message):
        Trainer(tiny(**overrides), tmp_path)
    assert not list(tmp_path.iterdir())


def test_the_ray_backend_needs_workers(tmp_path):
    with pytest.raises(ConfigError, match="set workers"):
        Trainer(tiny(workers=0), tmp_path, backend="ray")
    with pytest.raises(ConfigError, match="backend must be one of"):
        Trainer(tiny(), tmp_path, backend="mpi")


def test_a_failing_worker_is_reported_with_its_traceback(tmp_path):
    group = distributed.start_workers(tiny().to_dict(), 2, "local")
    try:
        with pytest.raises(distributed.WorkerError, match="set_pool|pool"):
            group.call("env_method", [("set_pool", ([],), {}, None)] * 2)
    finally:
        group.close()
