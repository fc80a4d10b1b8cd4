"""Decisions per second: smuggle_envs against PettingZoo's texas_holdem_v4 and OpenSpiel's leduc.

Every workload is random legal play from a fixed seed:

* ``aec``    - the full PettingZoo AEC loop (``env()``, ``last()`` with observation and mask each step);
* ``engine`` - the raw engine with the acting player's observation vector each step.

References measured in the same run: PettingZoo ``texas_holdem_v4`` (AEC loop) and, if installed,
OpenSpiel ``leduc_poker`` with ``information_state_tensor`` (engine). Runs are interleaved and
repeated, and the best of the repeats is kept, because shared machines are noisy.

    python benchmarks/throughput.py [--seconds 2] [--repeats 3] [--envs smuggle_v0] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np


def aec_loop(make_env, seconds: float) -> float:
    rng = random.Random(0)
    env = make_env()
    steps, game = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=game)
        game += 1
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                steps += 1
            env.step(action)
    return steps / (time.perf_counter() - start)


def engine_loop(game, seconds: float) -> float:
    rng = random.Random(0)
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(seed)
        seed += 1
        while not state.is_terminal():
            state.observation(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def leduc_loop(seconds: float) -> float:
    import pyspiel

    game = pyspiel.load_game("leduc_poker")
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
                continue
            np.asarray(state.information_state_tensor(), dtype=np.float32)
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def holdem_env():
    from pettingzoo.classic import texas_holdem_v4

    return texas_holdem_v4.env()


def main(argv=None) -> dict:
    import smuggle_envs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved repeats (best kept)")
    parser.add_argument("--envs", default=",".join(smuggle_envs.ENV_IDS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)

    workloads = {}
    try:
        holdem_env()
        workloads["pettingzoo texas_holdem_v4 (aec)"] = lambda: aec_loop(holdem_env, args.seconds)
    except ImportError as exc:
        print(f"texas_holdem_v4 unavailable ({exc}); pip install -e '.[bench]'", file=sys.stderr)
    try:
        import pyspiel  # noqa: F401

        workloads["openspiel leduc_poker (engine+tensor)"] = lambda: leduc_loop(args.seconds)
    except ImportError:
        print("open_spiel unavailable; pip install -e '.[bench]'", file=sys.stderr)
    for env_id in args.envs.split(","):
        game_cls = smuggle_envs.game_class(env_id)
        players = min(max(args.players, game_cls.min_players), game_cls.max_players)
        workloads[f"{env_id} {players}p (aec)"] = lambda e=env_id, p=players: aec_loop(
            lambda: smuggle_envs.make(e, num_players=p), args.seconds
        )
        workloads[f"{env_id} {players}p (engine+obs)"] = lambda e=env_id, p=players: engine_loop(
            smuggle_envs.make_game(e, num_players=p), args.seconds
        )

    best = {name: 0.0 for name in workloads}
    for _ in range(args.repeats):
        for name, run in workloads.items():
            best[name] = max(best[name], run())

    holdem = best.get("pettingzoo texas_holdem_v4 (aec)")
    leduc = best.get("openspiel leduc_poker (engine+tensor)")
    print(f"{'workload':45s} {'decisions/s':>12s}  ratio")
    for name, rate in best.items():
        ratio = ""
        if name.endswith("(aec)") and holdem and not name.startswith("pettingzoo"):
            ratio = f"{rate / holdem:6.1f}x texas_holdem_v4"
        elif name.endswith("(engine+obs)") and leduc:
            ratio = f"{rate / leduc:6.2f}x leduc_poker"
        print(f"{name:45s} {rate:12,.0f}  {ratio}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(best, f, indent=2)
    return best


if __name__ == "__main__":
    main()
