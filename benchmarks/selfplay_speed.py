"""Self-play training speed of this tree against a reference tree, in the same run.

    git worktree add /tmp/base <commit>      # the reference: the code before a change
    python benchmarks/selfplay_speed.py --reference /tmp/base --workers 0,2 --repeats 3   # illustrative

Each run is ``benchmarks/train_scaling.py``'s ``train_once`` (``--imitate none``, no evaluation,
no checkpoints: the learning loop only, steps/s from the first rollout to the last update) in a
fresh Python process whose imports come from one tree, this one or ``--reference``, with the same
interpreter. Runs alternate between the trees (this, reference, this, ...) for every env id and
worker count, ``--repeats`` times; the table gives the best run of each (on a busy machine the one
least disturbed) and the ratio of the bests, and, with ``--workers 0``, steps per CPU second of
the learning loop (``MaskablePPO.learn``: rollouts and updates; all the work is in that process), far less
sensitive to neighbours than the wall clock: the same work takes about the same CPU time whoever
else runs. Writes ``--out`` (default ``docs/img/data/selfplay_speed.json``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

_CHILD = """
import json, sys, time, importlib.util
tree, root = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("train_scaling", root + "/benchmarks/train_scaling.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.path[:] = [tree] + [p for p in sys.path if p not in (root, tree, "")]
import training
assert training.__file__.startswith(tree), training.__file__
import sb3_contrib
cpu = {"learning": 0.0}
def timed(name):  # CPU seconds of this process in the learning loop (W = 0: all of its work)
    plain = getattr(sb3_contrib.MaskablePPO, name)
    def run(self, *args, **kwargs):
        start = time.process_time()
        try:
            return plain(self, *args, **kwargs)
        finally:
            cpu["learning"] += time.process_time() - start
    setattr(sb3_contrib.MaskablePPO, name, run)
timed("learn")  # rollouts and updates (a subclass may replace collect_rollouts)
start = time.process_time()
result = module.train_once(sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), __import__("pathlib").Path(sys.argv[7]))
result["cpu_seconds"] = time.process_time() - start
result["cpu_learning_seconds"] = cpu["learning"]
print("RESULT " + json.dumps(result))
"""


def run_once(tree: Path, env_id: str, workers: int, steps: int, seed: int, out: Path) -> dict:
    """One ``train_once`` in a fresh process importing ``tree``'s code."""
    argv = [str(tree), str(ROOT), env_id, str(workers), str(steps), str(seed), str(out)]
    done = subprocess.run([sys.executable, "-c", _CHILD, *argv], cwd=tree, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    if done.returncode or not lines:
        raise RuntimeError(f"run in {tree} failed:\n{done.stderr[-2000:]}")
    result: dict = json.loads(lines[-1][len("RESULT ") :])
    return result


def _best_cpu(jobs: dict, repeats: int) -> dict[str, float]:
    """The least CPU time of each job over ``repeats`` interleaved rounds."""
    import time

    best = dict.fromkeys(jobs, float("inf"))
    for _ in range(repeats):
        for name, job in jobs.items():
            start = time.process_time()
            job()
            best[name] = min(best[name], time.process_time() - start)
    return best


def _update_parts(repeats: int) -> list[list[str]]:
    """The update's minibatch step (forward, backward, Adam) per minibatch of 512, sb3-contrib's
    (its masked distribution, torch's default Adam) against this tree's default
    (``training.selfplay.policy``), also with 2 torch threads; and the rollout's forward and draw
    per step of 8 games, SB3's torch policy against this tree's numpy copy
    (``training.selfplay.rollout``); on a real Smuggle rollout (4 players, this process)."""
    import torch

    from training.selfplay.config import make_local_vec_env, policy_spec, ppo_kwargs
    from training.selfplay.trainer import TrainConfig

    torch.set_num_threads(1)
    torch.distributions.Distribution.set_default_validate_args(False)
    c = TrainConfig(env_id="smuggle_v0", num_players=4, imitate=None)
    policy, kwargs = policy_spec(c, 0)
    from sb3_contrib import MaskablePPO

    model = MaskablePPO(policy, make_local_vec_env(c, 8), seed=0, device="cpu", policy_kwargs=kwargs, **ppo_kwargs(c))
    model.learn(c.n_steps * 8)  # a rollout in the buffer
    batches = list(model.rollout_buffer.get(c.batch_size))
    return [*_update_rows(model, batches, c.update_ops, repeats), _rollout_row(model, batches, repeats)]


def _update_rows(model: Any, batches: list, ops: str, repeats: int) -> list[list[str]]:
    import torch
    from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution

    from training.selfplay.policy import install

    def update(kind: str) -> None:
        # This tree's ops; or torch's default Adam step ("sb3" sets it) with sb3-contrib's own
        # distribution put back in place of the one "sb3" installs.
        install(model.policy, ops if kind == "this tree" else "sb3")
        if kind != "this tree":
            model.policy.action_dist = MaskableCategoricalDistribution(510)
        for b in batches:
            values, log_prob, entropy = model.policy.evaluate_actions(
                b.observations, b.actions.long().flatten(), action_masks=b.action_masks
            )
            assert entropy is not None
            model.policy.optimizer.zero_grad()
            (values.mean() + log_prob.mean() + entropy.mean()).backward()
            model.policy.optimizer.step()

    upd = _best_cpu({k: (lambda k=k: update(k)) for k in ("sb3-contrib", "this tree")}, repeats)
    both = {1: lambda: update("this tree"), 2: lambda: update("this tree")}
    threads = _best_wall(both, repeats)
    with _busy_neighbour():
        crowded = _best_wall(both, repeats)
    torch.set_num_threads(1)
    n = len(batches)
    return [
        _part_row("update: forward, backward and Adam, per minibatch of 512", upd, n, 1e3, "ms"),
        _part_row("the same with 2 torch threads instead of 1 (wall clock)", _as_trees(threads), n, 1e3, "ms"),
        _part_row("... while another process keeps one core busy", _as_trees(crowded), n, 1e3, "ms"),
    ]


def _as_trees(by_threads: dict[int, float]) -> dict[str, float]:
    """2 threads in the "this tree" column, 1 in the reference's."""
    return {"this tree": by_threads[2], "sb3-contrib": by_threads[1]}


def _rollout_row(model: Any, batches: list, repeats: int) -> list[str]:
    import torch
    from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution

    from training.selfplay.rollout import NumpyActorCritic, sample_masked

    steps = [(b.observations[:8], b.action_masks[:8].numpy()) for b in batches]
    np_steps = [(obs.numpy(), masks) for obs, masks in steps]

    def torch_rollout() -> None:
        model.policy.action_dist = MaskableCategoricalDistribution(510)
        with torch.no_grad():
            for _ in range(20):
                for obs, masks in steps:
                    model.policy(obs, action_masks=masks)

    def numpy_rollout() -> None:
        net, rng = NumpyActorCritic(model.policy), np.random.default_rng(0)  # made once a rollout
        for _ in range(20):
            for obs, masks in np_steps:
                sample_masked(net(obs)[0], masks, rng.random)

    roll = _best_cpu({"sb3-contrib": torch_rollout, "this tree": numpy_rollout}, repeats)
    return _part_row("rollout: learner forward and draw, per step of 8 games", roll, 20 * len(steps), 1e6, "µs")


@contextlib.contextmanager
def _busy_neighbour() -> Iterator[None]:
    """Another process spinning on one core meanwhile (what a busy machine looks like)."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def _best_wall(jobs: dict[int, Any], repeats: int) -> dict[int, float]:
    """The least wall-clock time of each job, run with its key's number of torch threads (the
    threads' CPU time would hide what they buy), over ``repeats`` interleaved rounds."""
    import time

    import torch

    best = dict.fromkeys(jobs, float("inf"))
    for _ in range(repeats):
        for threads, job in jobs.items():
            torch.set_num_threads(threads)
            start = time.perf_counter()
            job()
            best[threads] = min(best[threads], time.perf_counter() - start)
    return best


def _part_row(name: str, best: dict[str, float], count: int, scale: float, unit: str) -> list[str]:
    new, ref = best["this tree"] / count * scale, best["sb3-contrib"] / count * scale
    return [name, f"{new:,.1f} {unit}", f"{ref:,.1f} {unit}", f"**{ref / new:.2f}x**"]


def _rule_part(reference: Path, repeats: int) -> list[str]:
    """The Smuggle rule bot's CPU time per decision, this tree's against the reference tree's
    (its ``agents/rule/smuggle.py`` loaded beside this one), on the same recorded decisions."""
    import importlib.util

    from agents import make_agent
    from agents.arena import play_game
    from smuggle_envs import make_game

    spec = importlib.util.spec_from_file_location("reference_rule", reference / "agents" / "rule" / "smuggle.py")
    assert spec is not None and spec.loader is not None
    old = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(old)
    game = make_game("smuggle_v0", num_players=4)
    bots = {"this tree": [make_agent("rule", game, seed=s) for s in range(4)]}
    bots["reference"] = [old.AGENT(game, seed=s) for s in range(4)]
    seen: list = []
    for g in range(20):
        play_game(
            game,
            bots["this tree"],
            seed=g,
            on_step=lambda st, p, a: seen.append((p, st.observation(p), st.legal_action_mask())),
        )

    def decide(agents: list) -> None:
        for p, obs, mask in seen:
            agents[p].act(obs, mask)

    best = _best_cpu({k: (lambda a=a: decide(a)) for k, a in bots.items()}, repeats)
    best["sb3-contrib"] = best.pop("reference")  # _part_row's names
    return _part_row("Smuggle rule bot, per decision", best, len(seen), 1e6, "µs")


def _opponents_part(repeats: int) -> list[str]:
    """A step of 8 Smuggle games with a league snapshot (a fresh 128x128 network), the rule bot
    and the random agent in the pool: SB3's ``DummyVecEnv`` (one opponent decision at a time)
    against this tree's ``SelfPlayVecEnv`` (the network's decisions across the games together),
    the learner's moves drawn uniformly among its legal actions, the same for both."""
    import tempfile

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from training.selfplay.single_agent import SelfPlayEnv
    from training.selfplay.vec_env import SelfPlayVecEnv

    with tempfile.TemporaryDirectory() as folder:
        snapshot = str(Path(folder) / "snapshot.zip")
        env = SelfPlayEnv("smuggle_v0", {"num_players": 4})
        MaskablePPO("MlpPolicy", env, seed=0, policy_kwargs={"net_arch": [128, 128]}).save(snapshot)
        pool = [("snapshot", f"ppo:{snapshot}"), ("rule", "rule"), ("random", "random")]

        def make() -> SelfPlayEnv:
            return SelfPlayEnv("smuggle_v0", {"num_players": 4}, pool=pool)

        venvs = {"sb3-contrib": DummyVecEnv([make] * 8), "this tree": SelfPlayVecEnv([make] * 8)}
        for venv in venvs.values():
            venv.seed(0)
            venv.reset()

        def steps(venv: Any, count: int = 200) -> None:
            rng = np.random.default_rng(0)
            for _ in range(count):
                masks = venv.env_method("action_masks")
                venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))

        best = _best_cpu({k: (lambda v=v: steps(v)) for k, v in venvs.items()}, repeats)
    return _part_row("rollout: a step of 8 games' opponents, a network among them", best, 200, 1e6, "µs")


def parts(reference: Path, repeats: int) -> dict:
    """The changed parts alone, old against new in this process (CPU time, best of ``repeats``)."""
    rows = [*_update_parts(repeats), _opponents_part(repeats), _rule_part(reference, repeats)]
    headers = ["part (CPU time, best of interleaved repeats)", "this tree", "reference", "speed-up"]
    return {"headers": headers, "align": "lrrr", "rows": rows}


def table(report: dict) -> str:
    """Markdown: the parts' table, then per env id and worker count the best steps/s of each
    tree and their ratio."""
    align = {"l": "---", "r": "---:"}
    out = []
    for data in [report["tables"]["parts"], table_data(report)]:
        lines = ["| " + " | ".join(data["headers"]) + " |", "|" + "|".join(align[a] for a in data["align"]) + "|"]
        out.append("\n".join(lines + ["| " + " | ".join(row) + " |" for row in data["rows"]]))
    return "\n\n".join(out)


def table_data(report: dict) -> dict:
    """The table as ``scripts/update_docs.py`` draws it (``<!-- data-table: selfplay_speed -->``)."""
    rows = []
    for key, by_tree in report["runs"].items():
        env_id, workers = key.rsplit("/", 1)
        new, ref = (max(by_tree[t], key=lambda r: r["steps_per_s"]) for t in ("this", "reference"))
        cpu = ""
        if workers == "0":  # steps per CPU second of the learning loop, best run of each tree
            rates = [max(r["steps"] / r["cpu_learning_seconds"] for r in by_tree[t]) for t in ("this", "reference")]
            cpu = f"{rates[0]:,.0f} / {rates[1]:,.0f} = **{rates[0] / rates[1]:.2f}x**"
        rows.append(
            [
                env_id,
                workers,
                f"{new['steps_per_s']:,.0f}",
                f"{ref['steps_per_s']:,.0f}",
                f"{new['steps_per_s'] / ref['steps_per_s']:.2f}x",
                cpu,
            ]
        )
    headers = [
        "env",
        "workers",
        "steps/s, this tree (best)",
        "reference (best)",
        "ratio",
        "steps per CPU second (W = 0), this / reference",
    ]
    return {"headers": headers, "align": "lrrrrr", "rows": rows}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reference", help="the reference tree (e.g. a git worktree of an older commit); required to run")
    p.add_argument("--envs", default="smuggle_v0", help="comma-separated env ids (default: smuggle_v0)")
    p.add_argument("--workers", default="0,2", help="comma-separated worker counts (default: 0,2)")
    p.add_argument("--steps", type=int, default=16_384, help="learner decisions per run (default: 16384)")
    p.add_argument("--repeats", type=int, default=3, help="runs per tree and configuration (default: 3)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--note", default="", help="stored with the results (e.g. the machine's load)")
    p.add_argument("--out", default="docs/img/data/selfplay_speed.json")
    p.add_argument("--from-json", metavar="FILE", help="print the table of a saved --out file instead of running")
    args = p.parse_args(argv)
    if args.from_json:
        print(table(json.loads(Path(args.from_json).read_text())))
        return 0
    sys.path.insert(0, str(ROOT))
    if not args.reference:
        p.error("--reference is required to run (or --from-json to print a saved table)")
    reference = Path(args.reference).resolve()
    if not (reference / "training" / "selfplay" / "trainer.py").exists():
        p.error(f"--reference {reference}: not a tree of this project")
    trees = {"this": ROOT, "reference": reference}
    work = Path(args.out).with_suffix("").parent / "selfplay_speed_runs"
    runs: dict[str, dict[str, list[dict]]] = {}
    for r in range(args.repeats):
        for env_id in args.envs.split(","):
            for w in (int(x) for x in args.workers.split(",")):
                by_tree = runs.setdefault(f"{env_id}/{w}", {"this": [], "reference": []})
                for name, tree in trees.items():
                    result = run_once(tree, env_id, w, args.steps, args.seed, work / f"{env_id}_w{w}_{name}_r{r}")
                    by_tree[name].append(result)
                    print(f"{env_id} W={w} {name}: {result['steps_per_s']:.0f} steps/s", file=sys.stderr, flush=True)
    report = {
        "command": " ".join(["python", "benchmarks/selfplay_speed.py", *(argv if argv is not None else sys.argv[1:])]),
        "reference": str(reference),
        "steps": args.steps,
        "repeats": args.repeats,
        "cores": os.cpu_count(),
        "note": args.note,
        "runs": runs,
    }
    report["tables"] = {"parts": parts(reference, max(3, args.repeats)), "runs": table_data(report)}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    print(table(report))
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
