"""Training throughput against the number of data-parallel workers (``smuggle train --workers W``).

    python benchmarks/train_scaling.py                         # smuggle_v0, import_export_v0; W = 1, 2, ... cores
    python benchmarks/train_scaling.py --envs ciq_v0 --steps 16384 --repeats 5
    python benchmarks/train_scaling.py --workers 1,2,4,8,16    # on a larger machine, unchanged

For each env id and each worker count W (1, 2, 4, ... up to the cores present), trains from
scratch (``--imitate none``, no evaluation, no checkpoints: the learning loop only) for ``--steps``
learner decisions and measures steps/s from the first rollout to the last update (worker start-up
excluded: it is paid once per run). ``W = 0`` is the in-process trainer (the games stepped in the
trainer's own process, one core), run in the same process as the reference. Each configuration
runs ``--repeats`` times, interleaved (W = 0, 1, 2, 0, 1, 2, ...), and the table reports the best
and the slowest run: on a shared machine the best run is the one least disturbed by neighbours.

The same run also measures **what the machine itself gives**: a pure-Python loop in W processes at
once against one process (its parallel speed-up, the ceiling for any W-process program at that
moment), so a table from a noisy machine says how noisy it was.

Where the time goes is printed per run, from the trainer's side: ``rollout`` (the workers
collecting their games) and ``update`` (the workers' PPO update with the gradient average, and
the weights coming back). Writes ``--out`` (JSON) and ``--plot`` (steps/s against W, with the
ideal W line, the issue's 0.85 W goal and each configuration's range over the repeats), and the
same JSON beside the figure (``docs/img/data/train_scaling.json``), which ``--from-json`` (or
``python scripts/make_figures.py``) draws again without a run.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _spin(n: int) -> float:
    start = time.perf_counter()
    total = 0
    for i in range(n):
        total += i
    return time.perf_counter() - start


def machine_speedup(workers: int, n: int = 6_000_000) -> float:
    """How much faster ``workers`` processes finish ``workers`` equal pure-Python loops than one
    process finishes one loop times ``workers`` (1.0 per process is perfect)."""
    one = _spin(n)
    with mp.get_context("spawn").Pool(workers) as pool:
        pool.map(_spin, [1000] * workers)  # started and warm
        start = time.perf_counter()
        pool.map(_spin, [n] * workers)
        together = time.perf_counter() - start
    return workers * one / together


def train_once(env_id: str, workers: int, steps: int, seed: int, out: Path) -> dict:
    """One training run; returns steps/s of its learning loop and where the time went."""
    from training.selfplay.trainer import TrainConfig, Trainer, _learner_class

    config = TrainConfig(
        env_id=env_id,
        steps=steps,
        seed=seed,
        workers=workers,
        imitate=None,
        eval_every=10**12,
        snapshot_every=10**12,
        checkpoint_every=10**12,
        eval_games=0,
        final_eval_games=0,
        progress=False,
        tensorboard=False,
    )
    times = {"rollout": 0.0, "update": 0.0}
    learner = _learner_class(config)

    class Timed(learner):  # type: ignore[valid-type, misc]
        def collect_rollouts(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            start = time.perf_counter()
            try:
                return super().collect_rollouts(*args, **kwargs)
            finally:
                times["rollout"] += time.perf_counter() - start

        def train(self) -> None:
            start = time.perf_counter()
            super().train()
            times["update"] += time.perf_counter() - start

    import training.selfplay.trainer as trainer_module

    trainer_module._learner_class = lambda c: Timed  # type: ignore[assignment]
    try:
        trainer = Trainer(config, out, log=lambda _: None)
        trainer.run()
    finally:
        trainer_module._learner_class = _learner_class  # type: ignore[assignment]
    seconds = times["rollout"] + times["update"]
    done = trainer.model.num_timesteps
    return {"steps_per_s": done / seconds, "seconds": seconds, "steps": done, **times}


def _workers(arg: str | None) -> list[int]:
    if arg:
        return sorted({int(w) for w in arg.split(",")})
    cores = os.cpu_count() or 1
    counts = [1]
    while counts[-1] * 2 <= cores:
        counts.append(counts[-1] * 2)
    if counts[-1] != cores:
        counts.append(cores)
    return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--envs", default="smuggle_v0,import_export_v0", help="comma-separated env ids")
    p.add_argument("--workers", help="comma-separated worker counts (default: 1, 2, 4, ... up to the cores)")
    p.add_argument("--steps", type=int, default=32_768, help="learner decisions per run (default: 32768)")
    p.add_argument("--repeats", type=int, default=3, help="runs per configuration, interleaved (default: 3)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/train_scaling.json")
    p.add_argument("--plot", default="docs/img/train_scaling.png")
    p.add_argument("--from-json", metavar="FILE", help="tabulate and plot a saved --out file instead of running")
    args = p.parse_args(argv)
    if args.from_json:
        report = load(args.from_json)
        print(table(report))
        plot(report, args.plot)
        return 0
    from tqdm import tqdm

    counts = _workers(args.workers)
    configs = [0, *counts]
    envs = args.envs.split(",")
    work = Path(args.out).with_suffix("")
    runs: dict[str, dict[int, list[dict]]] = {e: {w: [] for w in configs} for e in envs}
    machine: dict[int, list[float]] = {w: [] for w in counts if w > 1}
    bar = tqdm(total=len(envs) * len(configs) * args.repeats, desc="training runs", unit="run", file=sys.stderr)
    for r in range(args.repeats):
        for w in machine:
            machine[w].append(machine_speedup(w))
        for env_id in envs:
            for w in configs:
                result = train_once(env_id, w, args.steps, args.seed, work / f"{env_id}_w{w}_r{r}")
                runs[env_id][w].append(result)
                bar.set_postfix_str(f"{env_id} W={w}: {result['steps_per_s']:.0f} steps/s")
                bar.update()
    bar.close()
    report = {"steps": args.steps, "repeats": args.repeats, "cores": os.cpu_count(), "machine": machine, "runs": runs}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    print(table(report))
    plot(report, args.plot)
    data = Path(args.plot).parent / "data" / f"{Path(args.plot).stem}.json"
    data.parent.mkdir(parents=True, exist_ok=True)
    data.write_text(json.dumps(report, indent=1) + "\n")
    print(f"written: {args.out}, {args.plot}, {data}")
    return 0


def load(path: str) -> dict:
    """A saved report, with its worker counts as ints again (JSON keys are strings)."""
    report = json.loads(Path(path).read_text())
    report["machine"] = {int(w): v for w, v in report["machine"].items()}
    report["runs"] = {e: {int(w): v for w, v in by_w.items()} for e, by_w in report["runs"].items()}
    return report


def table(report: dict) -> str:
    lines = []
    if report["machine"]:
        speed = ", ".join(f"{w} processes {min(v):.2f}x to {max(v):.2f}x" for w, v in sorted(report["machine"].items()))
        lines.append(f"machine's own parallel speed-up (pure-Python loops, ideal = W): {speed}\n")
    lines.append(
        "| env | workers | steps/s (best) | slowest | vs 1 worker (best) | goal 0.85 W | rollout s | update s |"
    )
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for env_id, by_w in report["runs"].items():
        base = max(r["steps_per_s"] for r in by_w[1]) if 1 in by_w else float("nan")
        for w, results in by_w.items():
            best = max(results, key=lambda r: r["steps_per_s"])
            slow = min(r["steps_per_s"] for r in results)
            label = "in-process (reference)" if w == 0 else str(w)
            goal = "" if w == 0 else f"{0.85 * w:.2f}x"
            lines.append(
                f"| {env_id} | {label} | {best['steps_per_s']:.0f} | {slow:.0f} | "
                f"{best['steps_per_s'] / base:.2f}x | {goal} | {best['rollout']:.1f} | {best['update']:.1f} |"
            )
    return "\n".join(lines)


def plot(report: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8.5, 4))
    top = 1
    for env_id, by_w in report["runs"].items():
        counts = [w for w in by_w if w > 0]
        base = max(r["steps_per_s"] for r in by_w[1])
        best = [max(r["steps_per_s"] for r in by_w[w]) / base for w in counts]
        low = [min(r["steps_per_s"] for r in by_w[w]) / base for w in counts]
        (line,) = ax.plot(
            counts, best, marker="o", label=f"{env_id} (best of {report['repeats']}; bar: to the slowest)"
        )
        ax.vlines(counts, low, best, color=line.get_color(), alpha=0.5)
        ref = max(r["steps_per_s"] for r in by_w[0]) / base
        ax.axhline(ref, color=line.get_color(), ls=":", lw=1, label=f"{env_id} in-process trainer")
        top = max(top, *counts)
    for w, speedups in report["machine"].items():
        ax.vlines(w + 0.03, min(speedups), max(speedups), color="black", lw=3, alpha=0.6)
        ax.annotate("machine's own\nspeed-up (range)", (w + 0.05, min(speedups)), fontsize=7)
    xs = list(range(1, top + 1))
    ax.plot(xs, xs, color="grey", lw=1, label="ideal (W)")
    ax.plot(xs, [0.85 * x for x in xs], color="grey", ls="--", lw=1, label="goal (0.85 W)")
    ax.set_xlabel("workers W (processes, one core each)")
    ax.set_ylabel("training steps/s relative to 1 worker (x)")
    ax.set_title(
        f"data-parallel training: {report['steps']:,} steps per run, {report['repeats']} runs each, {report['cores']} cores"
    )
    ax.set_xticks(xs)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
