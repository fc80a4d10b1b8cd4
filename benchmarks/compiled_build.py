"""The opt-in compiled build against the pure one: engine rates and search simulations per second.

    python benchmarks/compiled_build.py --rounds 3 --seconds 2   # illustrative (about 3 minutes on 2 cores, after a build of a few)
    python benchmarks/compiled_build.py --report                 # the table and figure again, from the stored data

Builds (or reuses) this tree's compiled engine (``scripts/build_compiled.py``), then runs fresh
worker processes, the pure build and the compiled one in turn, ``--rounds`` times each. A worker
measures, in every game at 4 players: random play on the engine with the acting seat's observation
each decision (``benchmarks/throughput.py``'s ``engine_loop``, CPU time), and IS-MCTS simulations
per second on the search benchmark's positions (``benchmarks/search.py``'s ``speed``); and, in the
same process, OpenSpiel's C++ ``dou_dizhu`` with its ``observation_tensor`` each decision, the
reference issue #36 names. The best of the rounds is kept per build and workload; a build's ratio
to ``dou_dizhu`` uses the reference measured in that build's own processes.

Last, a cProfile of the pure build's engine loop in every game says where its time goes, by
module (``profile``), for the games the compiled build leaves below the reference.

Writes ``docs/img/data/compiled_build.json`` (the tables ``scripts/update_docs.py`` puts in
docs/benchmarks.md: the rates, the run with its machine and versions, the profile) and ``docs/img/compiled_build.png``. Not a CI test: minutes, and speed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "img" / "data" / "compiled_build.json"
FIGURE = ROOT / "docs" / "img" / "compiled_build.png"
PLAYERS = 4
BUILDS = ("pure", "compiled")
GOAL = 1.0  # issue #36: the engine with its observation at least OpenSpiel's dou_dizhu


def dou_dizhu_loop(seconds: float) -> float:
    """OpenSpiel's C++ ``dou_dizhu``: random play with the acting seat's observation tensor as a
    float32 array each decision, decisions per CPU second (chance nodes not counted)."""
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(0)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            np.asarray(state.observation_tensor(), dtype=np.float32)
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.process_time() - start)


def worker(seconds: float, envs: list[str]) -> dict[str, Any]:
    """One process's measurements: each game's engine rate and sims/s, and the reference."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import search
    import throughput

    import smuggle_envs
    from smuggle_envs import compiled

    rows: dict[str, Any] = {"build": compiled.build(), "dou_dizhu": dou_dizhu_loop(seconds)}
    for env_id in envs:
        game = smuggle_envs.make_game(env_id, num_players=PLAYERS)
        engine = throughput.engine_loop(game, seconds)
        sims = search.speed(env_id, PLAYERS, seconds, None)["sims_per_s"]
        rows[env_id] = {"engine": engine, "sims": sims}
    rows["dou_dizhu_after"] = dou_dizhu_loop(seconds)  # the reference again: the machine's drift
    return rows


def _run_worker(build: str, folder: Path, seconds: float, envs: list[str]) -> dict[str, Any]:
    # The script's own folder, not the working directory, heads the path: PYTHONPATH decides
    # which build ``smuggle_envs`` is, and the layers above come from the source tree.
    path = str(folder if build == "compiled" else ROOT)
    env = {**os.environ, "PYTHONPATH": path, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    command = [sys.executable, __file__, "--worker", "--seconds", str(seconds), "--envs", ",".join(envs)]
    out = subprocess.run(command, env=env, cwd=path, capture_output=True, text=True, check=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    if result["build"] != build:
        raise SystemExit(f"the {build} worker loaded the {result['build']} build")
    return result


def best(runs: list[dict[str, Any]], envs: list[str]) -> dict[str, Any]:
    """The best of a build's rounds, per workload (the reference: the best of every measurement)."""
    reference = max(max(r["dou_dizhu"], r["dou_dizhu_after"]) for r in runs)
    games = {e: {k: max(r[e][k] for r in runs) for k in ("engine", "sims")} for e in envs}
    return {"dou_dizhu": reference, "games": games}


def table(results: dict[str, Any]) -> dict[str, Any]:
    """The docs' table: per game, each build's rates, the compiled build's speed-ups, and each
    build's engine rate against dou_dizhu measured beside it."""
    pure, comp = results["pure"], results["compiled"]
    rows = []
    for env_id in results["envs"]:
        p, c = pure["games"][env_id], comp["games"][env_id]
        p_ratio, c_ratio = p["engine"] / pure["dou_dizhu"], c["engine"] / comp["dou_dizhu"]
        rows.append(
            [
                f"`{env_id}`",
                f"{p['engine']:,.0f}",
                f"{c['engine']:,.0f}",
                f"**{c['engine'] / p['engine']:.2f}x**",
                f"{p_ratio:.2f}x",
                f"**{c_ratio:.2f}x**" + ("" if c_ratio >= GOAL else " (below)"),
                f"{p['sims']:,.0f}",
                f"{c['sims']:,.0f}",
                f"**{c['sims'] / p['sims']:.2f}x**",
            ]
        )
    headers = [
        "game (4 players)",
        "engine + obs, pure (decisions/s)",
        "compiled",
        "speed-up",
        "pure / dou_dizhu",
        f"compiled / dou_dizhu (goal >= {GOAL:g}x)",
        "IS-MCTS sims/s, pure",
        "compiled",
        "speed-up",
    ]
    return {"headers": headers, "align": "lrrrrrrrr", "rows": rows}


def run_table(data: dict[str, Any]) -> dict[str, Any]:
    """The run the rates came from: when, the command, the machine, the versions, the reference."""
    m, res = data["machine"], data["results"]
    reference = f"{res['pure']['dou_dizhu']:,.0f} / {res['compiled']['dou_dizhu']:,.0f}"
    headers = [
        "measured",
        "command",
        "CPU",
        "CPUs",
        "Python",
        "Cython",
        "dou_dizhu decisions/s (pure / compiled processes)",
    ]
    row = [data["date"], f"`{data['command']}`", m["cpu"], m["cores"], m["python"], m["cython"], reference]
    return {"headers": headers, "align": "llllllr", "rows": [row]}


def plot(data: dict[str, Any], png: Path) -> None:
    """Engine + observation against dou_dizhu and search speed-up, per game, both builds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    envs = data["results"]["envs"]
    res = data["results"]
    x = np.arange(len(envs))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    for i, build in enumerate(BUILDS):
        ratios = [res[build]["games"][e]["engine"] / res[build]["dou_dizhu"] for e in envs]
        left.bar(x + (i - 0.5) * 0.38, ratios, 0.38, label=f"{build} build")
    left.axhline(GOAL, ls="--", color="k", lw=1, label="goal: OpenSpiel dou_dizhu (C++)")
    left.set_ylabel("engine + observation, ratio to dou_dizhu\n(decisions per CPU second, same process)")
    speedups = [res["compiled"]["games"][e]["sims"] / res["pure"]["games"][e]["sims"] for e in envs]
    engine_up = [res["compiled"]["games"][e]["engine"] / res["pure"]["games"][e]["engine"] for e in envs]
    right.bar(x - 0.19, engine_up, 0.38, label="engine + observation")
    right.bar(x + 0.19, speedups, 0.38, label="IS-MCTS simulations/s")
    right.axhline(1.0, ls=":", color="grey", lw=1)
    right.set_ylabel("compiled / pure (best of rounds)")
    for ax in (left, right):
        ax.set_xticks(x, [e.removesuffix("_v0") for e in envs], rotation=20)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, fontsize=8, frameon=False)
    rounds = data["rounds"]
    fig.suptitle(f"Compiled engine build (Cython), 4 players, best of {rounds} fresh processes a build")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "scripts"))
    import build_compiled

    folder = build_compiled.build()
    envs = args.envs.split(",")
    runs: dict[str, list] = {b: [] for b in BUILDS}
    for r in range(args.rounds):
        for build in BUILDS if r % 2 == 0 else BUILDS[::-1]:
            runs[build].append(_run_worker(build, folder, args.seconds, envs))
            print(f"round {r + 1}/{args.rounds}: {build} done", file=sys.stderr)
    return {"envs": envs, **{b: best(runs[b], envs) for b in BUILDS}, "runs": runs}


def profile(envs: list[str], decisions: int = 20_000) -> dict[str, dict[str, float]]:
    """Where the pure build's engine + observation loop spends its own time (cProfile's
    ``tottime``), per module of the engine (a game's ``encoder.py``, ``steps.py``, ...; core's
    modules as ``core/NAME``), numpy and the standard library's ``random`` apart: shares of the
    profiled total. cProfile weighs each call, so small functions read dearer than they run."""
    import cProfile
    import pstats

    import smuggle_envs

    shares: dict[str, dict[str, float]] = {}
    for env_id in envs:
        game = smuggle_envs.make_game(env_id, num_players=PLAYERS)
        profiler = cProfile.Profile()
        profiler.runcall(_play, game, decisions)
        own: dict[str, float] = {}
        for (path, _line, name), (_cc, _nc, tottime, _ct, _callers) in pstats.Stats(profiler).stats.items():  # type: ignore[attr-defined]
            key = _module_of(path, name)
            own[key] = own.get(key, 0.0) + tottime
        total = sum(own.values())
        shares[env_id] = {k: v / total for k, v in sorted(own.items(), key=lambda kv: -kv[1])}
    return shares


def _play(game: Any, decisions: int) -> None:
    rng, seed, steps = random.Random(0), 0, 0
    while steps < decisions:
        state = game.new_initial_state(seed)
        seed += 1
        while not state.is_terminal():
            state.observation(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1


def _module_of(path: str, name: str) -> str:
    if "smuggle_envs/games/" in path:
        return path.split("smuggle_envs/games/", 1)[1].split("/", 1)[1]
    if "smuggle_envs/core/" in path:
        return "core/" + path.rsplit("/", 1)[1]
    if path.endswith("random.py"):
        return "random (stdlib)"
    return "numpy and builtins" if path == "~" else "the loop and the rest"


def profile_table(shares: dict[str, dict[str, float]], top: int = 5) -> dict[str, Any]:
    """Each profiled game's ``top`` modules by share of the loop's own time."""
    rows = [
        [f"`{env_id}`", ", ".join(f"{k} {v:.0%}" for k, v in list(parts.items())[:top])]
        for env_id, parts in shares.items()
    ]
    return {"headers": ["game (4 players, pure build)", f"own time by module, top {top}"], "align": "ll", "rows": rows}


def _machine() -> dict[str, Any]:
    import Cython

    cpu = next((line.split(":", 1)[1].strip() for line in _cpuinfo() if line.startswith("model name")), "unknown")
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "cython": Cython.__version__}


def _cpuinfo() -> list[str]:
    path = Path("/proc/cpuinfo")
    return path.read_text().splitlines() if path.exists() else []


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes per build, alternating")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per workload")
    parser.add_argument("--envs", default="smuggle_v0,ciq_v0,illegal_v0,humble_smuggle_v0,import_export_v0")
    parser.add_argument("--report", action="store_true", help="redraw the table and figure from the stored data")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    if args.worker:
        print(json.dumps(worker(args.seconds, args.envs.split(","))))
        return
    if args.report:
        data = json.loads(DATA.read_text())
    else:
        command = "python benchmarks/compiled_build.py " + " ".join(argv if argv is not None else sys.argv[1:])
        data = {"command": command.strip(), "date": datetime.date.today().isoformat(), "machine": _machine()}
        data.update(rounds=args.rounds, seconds=args.seconds, results=measure(args))
        data["profile"] = profile(args.envs.split(","))
    data.pop("table", None)
    data["tables"] = {
        "rates": table(data["results"]),
        "run": run_table(data),
        "profile": profile_table(data["profile"]),
    }
    DATA.write_text(json.dumps(data, indent=1) + "\n")
    plot(data, FIGURE)
    print(json.dumps(data["tables"], indent=1))


if __name__ == "__main__":
    main()
