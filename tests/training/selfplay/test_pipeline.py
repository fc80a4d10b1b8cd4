"""End to end, for every env id: self-play training with snapshots and league sampling,
checkpoints, an interruption and an exact resume (in subprocess workers), evaluation,
learning curve, and the trained model loading as an agent.

Tiny settings (a few thousand steps, a 32x32 network) keep each env id to seconds; what is
checked is the plumbing, not the learning (that is ``benchmarks/train_smuggle.py``).
"""

from __future__ import annotations

import csv
import json

import pytest
import torch

from agents import make_agent
from agents.arena import play_game
from smuggle_envs import ENV_IDS, make_game
from training.selfplay.league import League
from training.selfplay.trainer import TrainConfig, Trainer, rule_bot_available

STEPS = 2048  # 8 rollouts of n_envs * n_steps = 256


# No periodic evaluation, two-game finals, no TensorBoard: for tests of what training does, not
# of its evaluations.
QUIET = {"eval_every": 10_000, "eval_games": 2, "final_eval_games": 2, "tensorboard": False}


def tiny(env_id: str, **overrides) -> TrainConfig:
    config = {
        "env_id": env_id,
        "steps": STEPS,
        "n_envs": 2,
        "n_steps": 128,
        "batch_size": 256,
        "n_epochs": 1,
        "net_arch": (32, 32),
        "snapshot_every": 512,
        "max_snapshots": 2,
        "checkpoint_every": 1024,
        "eval_every": 1024,
        "eval_games": 4,
        "final_eval_games": 8,
        "dense_score": 1.0,
        "imitate": "rule",
        "imitation_samples": 500,
        "imitation_epochs": 1,
        "progress": False,
        "tensorboard": True,
    }
    config.update(overrides)
    return TrainConfig(**config)


def _params(path) -> dict:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(path, device="cpu")
    params = {k: v.clone() for k, v in model.policy.state_dict().items()}
    params.update({f"opt.{i}": v for i, v in enumerate(_flat_optimizer(model))})
    return params


def _flat_optimizer(model) -> list:
    out = []
    for state in model.policy.optimizer.state_dict()["state"].values():
        out += [v for v in state.values() if torch.is_tensor(v)]
    return out


def _csv(path) -> list[list[str]]:
    with open(path, newline="") as f:
        return list(csv.reader(f))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_train_snapshot_league_checkpoint_resume_evaluate(env_id, tmp_path):
    logs: list[str] = []
    config = tiny(env_id)
    game = make_game(env_id)
    has_rule = rule_bot_available(game)

    # ----- an uninterrupted run -----------------------------------------------------------
    a = tmp_path / "a"
    summary = Trainer(config, a, log=logs.append).run()
    assert summary["steps"] >= STEPS
    for name in (
        "config.json",
        "final.zip",
        "final_eval.json",
        "eval.csv",
        "learning_curve.png",
        "league/league.json",
        "checkpoints/latest.txt",
    ):
        assert (a / name).exists(), name
    assert (a / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    events = list((a / "tb").rglob("events.out.tfevents.*"))
    assert events
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    tags = EventAccumulator(str(events[0].parent)).Reload().Tags()["scalars"]
    assert "eval/win_rate_vs_random" in tags and "train/value_loss" in tags
    assert any(t.startswith("league/p_snapshot@") for t in tags)
    curve = EventAccumulator(str(events[0].parent)).Reload().Scalars("eval/win_rate_vs_random")
    assert [e.step for e in curve][-1] == STEPS

    # League: snapshots every 512 steps, the newest 2 kept in the pool, and every entry played.
    league = League.load(a / "league")
    snaps = [e for e in league.entries if e.kind == "snapshot"]
    assert [e.added_at for e in snaps] == [1024, 1536]  # 512 retired; none at the end
    assert len(list((a / "league" / "snapshots").glob("*.zip"))) == 3
    fixed = {e.id for e in league.entries if e.kind != "snapshot"}
    assert fixed == ({"rule", "random"} if has_rule else {"random"})
    played = {e.id for e in league.entries if e.total_games > 0}
    assert fixed <= played and any(s.id in played for s in snaps)  # snapshots were sampled
    assert sum(league.probabilities()) == pytest.approx(1.0)

    # Evaluations: at 0, 1024 and the final one (2048), against each baseline.
    rows = _csv(a / "eval.csv")
    baselines = ["random", "rule", "rule+random"] if has_rule else ["random"]  # and the mixed table
    steps = sorted({int(r[0]) for r in rows[1:]})
    assert steps == [0, 1024, summary["steps"]] and summary["steps"] == STEPS
    assert {r[1] for r in rows[1:]} == set(baselines)
    final = json.loads((a / "final_eval.json").read_text())
    assert [r["opponent"] for r in final["results"]] == baselines
    assert all(r["games"] == 8 and 0 <= r["ci_low"] <= r["win_rate"] <= r["ci_high"] <= 1 for r in final["results"])
    assert any("final evaluation" in line for line in logs)
    warm = "warm start: cloned 'rule'" if has_rule else "has no rule-based bot: no imitation"
    assert any(warm in line for line in logs)
    assert any("95% CI" in line and "trained vs" in line for line in logs)

    # The trained model is an agent.
    agent = make_agent(f"ppo:{a / 'final.zip'}", game, seed=0)
    others = [make_agent("random", game, seed=i) for i in range(game.num_players - 1)]
    assert play_game(game, [agent] + others, seed=1, max_decisions=5000).history

    # ----- the same run interrupted after its first checkpoint (for the first env id, in
    # subprocess workers; they cost seconds to start) ---------------------------------------
    b = tmp_path / "b"
    vec = "subprocess" if env_id == ENV_IDS[0] else "dummy"
    with pytest.raises(KeyboardInterrupt):
        Trainer(config, b, log=logs.append, vec=vec).run(interrupt_at=1300)
    assert (b / "checkpoints" / "latest.txt").read_text().strip() == f"step_{1024:010d}"
    assert not (b / "final.zip").exists()
    # Resumed (in-process this time: results do not depend on the vector env type).
    Trainer(config, b, log=logs.append).run(resume=True)
    assert any("resuming" in line and "from step 1024" in line for line in logs)

    pa, pb = _params(a / "final.zip"), _params(b / "final.zip")
    assert pa.keys() == pb.keys()
    assert all(torch.equal(pa[k], pb[k]) for k in pa), "resumed run diverged from the uninterrupted one"
    assert json.loads((a / "league/league.json").read_text()) == json.loads((b / "league/league.json").read_text())
    assert _csv(a / "eval.csv") == _csv(b / "eval.csv")
    assert (
        json.loads((a / "final_eval.json").read_text())["results"]
        == json.loads((b / "final_eval.json").read_text())["results"]
    )


def test_resume_with_more_steps_continues_from_the_final_checkpoint(tmp_path):
    config = tiny("smuggle_v0", steps=512, snapshot_every=256, **QUIET)
    Trainer(config, tmp_path).run()
    first = _params(tmp_path / "final.zip")
    logs: list[str] = []
    config.steps = 1024
    summary = Trainer(config, tmp_path, log=logs.append).run(resume=True)
    assert summary["steps"] == 1024
    assert any("from step 512" in line for line in logs)
    assert not all(torch.equal(first[k], v) for k, v in _params(tmp_path / "final.zip").items())
    # Run again at the target: nothing to train, the evaluation is redone, rows not duplicated.
    Trainer(config, tmp_path, log=logs.append).run(resume=True)
    assert any("already trained" in line for line in logs)
    rows = _csv(tmp_path / "eval.csv")
    assert [int(r[0]) for r in rows[1:]].count(1024) == 3  # random, rule and the mixed table, once each


def test_bad_configs_are_clear_errors(tmp_path):
    from smuggle_envs.core.errors import ConfigError

    for bad in (
        {"steps": 0},
        {"vec": "threads"},
        {"reward_mode": "money"},
        {"n_envs": -1},
        {"weighting": "easy"},
        {"baselines_in_league": ("human",)},
        {"eval_games": -1},
        {"imitate": "teacher"},
        {"imitation_samples": -5},
    ):
        with pytest.raises(ConfigError):
            Trainer(TrainConfig(**bad), tmp_path)
    with pytest.raises(ConfigError, match="unknown env id"):
        Trainer(TrainConfig(env_id="nope_v0"), tmp_path)
    with pytest.raises(ConfigError, match="unknown training option"):
        TrainConfig.from_dict({"stepz": 3})
    assert TrainConfig.from_dict(TrainConfig().to_dict()) == TrainConfig()


class _Started(Exception):
    pass


def _blas() -> int:
    from threadpoolctl import threadpool_info

    return max(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")


def test_a_run_holds_numpy_s_blas_to_torch_s_threads_and_gives_them_back(tmp_path, monkeypatch):
    from threadpoolctl import threadpool_limits

    seen = []

    def start(self):
        seen.append(_blas())
        raise _Started

    monkeypatch.setattr(Trainer, "_start_fresh", start)
    with threadpool_limits(limits=2, user_api="blas"):
        with pytest.raises(_Started):
            Trainer(tiny("smuggle_v0"), tmp_path / "run").run()
        assert seen == [1] and _blas() == 2  # held to one while it trained, the caller's afterwards


def test_league_exploiters_join_the_pool_are_played_and_resume_exactly(tmp_path):
    # Exploiters at 1024 (none at step 0): a best response to the learner of that step, from its
    # weights, in the league and sampled; an interrupted run resumes to the same weights.
    config = tiny("smuggle_v0", imitate=None, exploiter_every=1024, exploiter_steps=256, **QUIET)
    logs: list[str] = []
    Trainer(config, tmp_path / "a", log=logs.append).run()
    league = League.load(tmp_path / "a" / "league")
    exploiters = [e for e in league.entries if e.kind == "exploiter"]
    assert [e.added_at for e in exploiters] == [1024] and exploiters[0].total_games > 0
    assert (tmp_path / "a" / "league" / exploiters[0].spec).exists()
    assert league.agent_spec(exploiters[0]).startswith("ppo:") and any("exploiter exploiter@1024" in x for x in logs)
    with pytest.raises(KeyboardInterrupt):
        Trainer(config, tmp_path / "b").run(interrupt_at=1300)
    Trainer(config, tmp_path / "b").run(resume=True)
    pa, pb = _params(tmp_path / "a" / "final.zip"), _params(tmp_path / "b" / "final.zip")
    assert all(torch.equal(pa[k], pb[k]) for k in pa), "resumed run with exploiters diverged"
