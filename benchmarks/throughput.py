"""Decisions per second: smuggle_envs against PettingZoo's texas_holdem_v4 and OpenSpiel's leduc.

Every workload is random legal play from a fixed seed:

* ``aec``    - the full PettingZoo AEC loop (``env()``, ``last()`` with observation and mask each step);
* ``engine`` - the raw engine with the acting player's observation vector each step;
* ``rules``  - (``--split``) the same engine loop without the observation: what the observation
  costs (the engine + observation time per decision minus this one), and the most an encoder
  alone could bring the engine + observation ratio to.

References measured in the same run: PettingZoo ``texas_holdem_v4`` (AEC loop) and, if installed,
OpenSpiel ``leduc_poker`` with ``information_state_tensor`` (engine). Runs are interleaved and
repeated, and the best of the repeats is kept, because shared machines are noisy. Time is the
process's CPU time by default (``--clock cpu``): on a loaded machine the wall clock also counts
the time the process waited for a core, which no workload spent; ``--clock wall`` measures it
instead. The ``goal`` column checks the ratios against issue 15's goals: the AEC loop at least 5x
``texas_holdem_v4`` (3x for Import / Export), the engine + observation at least 1x ``leduc_poker``
for the byte-buffer games and 0.5x for the others.

    python benchmarks/throughput.py [--seconds 2] [--repeats 3] [--envs smuggle_v0] [--split]
        [--clock cpu|wall] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np

# The clock every loop reads (``--clock``): the process's CPU time, or the wall clock.
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]

# Issue 15's goals: (ratio to texas_holdem_v4 of the AEC loop, ratio to leduc_poker of the engine
# with the observation), for a byte-buffer game and for the others.
GOALS = {True: (5.0, 1.0), False: (3.0, 0.5)}


def aec_loop(make_env, seconds: float) -> float:
    rng = random.Random(0)
    env = make_env()
    steps, game = 0, 0
    start = clock()
    while clock() - start < seconds:
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
    return steps / (clock() - start)


def engine_loop(game, seconds: float, observe: bool = True) -> float:
    """Random play on the engine, with the acting player's observation each step unless
    ``observe`` is False (the rules alone: the same games, decision for decision)."""
    rng = random.Random(0)
    steps, seed = 0, 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state(seed)
        seed += 1
        while not state.is_terminal():
            player = state.current_player()
            if observe:
                state.observation(player)
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (clock() - start)


def rules_loop(game, seconds: float) -> float:
    """``engine_loop`` without the observation."""
    return engine_loop(game, seconds, observe=False)


def leduc_loop(seconds: float) -> float:
    import pyspiel

    game = pyspiel.load_game("leduc_poker")
    rng = random.Random(0)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
                continue
            np.asarray(state.information_state_tensor(), dtype=np.float32)
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (clock() - start)


def holdem_env():
    from pettingzoo.classic import texas_holdem_v4

    return texas_holdem_v4.env()


def _parser():
    import smuggle_envs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved repeats (best kept)")
    parser.add_argument("--envs", default=",".join(smuggle_envs.ENV_IDS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--split", action="store_true", help="also time the engine without the observation")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="CPU time (default) or wall clock")
    parser.add_argument("--json", help="write the results to this file")
    return parser


def _references(seconds: float) -> dict:
    """The reference workloads that are installed: PettingZoo's hold'em and OpenSpiel's Leduc."""
    workloads = {}
    try:
        holdem_env()
        workloads["pettingzoo texas_holdem_v4 (aec)"] = lambda: aec_loop(holdem_env, seconds)
    except ImportError as exc:
        print(f"texas_holdem_v4 unavailable ({exc}); pip install -e '.[bench]'", file=sys.stderr)
    try:
        import pyspiel  # noqa: F401

        workloads["openspiel leduc_poker (engine+tensor)"] = lambda: leduc_loop(seconds)
    except ImportError:
        print("open_spiel unavailable; pip install -e '.[bench]'", file=sys.stderr)
    return workloads


def _our_workloads(args) -> tuple[dict, dict]:
    """Each game's workloads (AEC, engine + observation, and with --split the rules alone) and goals."""
    import smuggle_envs
    from smuggle_envs.core.fields import ByteGame

    workloads, goals = {}, {}
    for env_id in args.envs.split(","):
        game_cls = smuggle_envs.game_class(env_id)
        players = min(max(args.players, game_cls.min_players), game_cls.max_players)
        aec_goal, engine_goal = GOALS[issubclass(game_cls, ByteGame)]
        name = f"{env_id} {players}p"
        workloads[f"{name} (aec)"] = lambda e=env_id, p=players: aec_loop(
            lambda: smuggle_envs.make(e, num_players=p), args.seconds
        )
        workloads[f"{name} (engine+obs)"] = lambda e=env_id, p=players: engine_loop(
            smuggle_envs.make_game(e, num_players=p), args.seconds
        )
        goals[f"{name} (aec)"], goals[f"{name} (engine+obs)"] = aec_goal, engine_goal
        if args.split:
            workloads[f"{name} (rules)"] = lambda e=env_id, p=players: rules_loop(
                smuggle_envs.make_game(e, num_players=p), args.seconds
            )
    return workloads, goals


def main(argv=None) -> dict:
    global clock
    args = _parser().parse_args(argv)
    clock = CLOCKS[args.clock]
    workloads = _references(args.seconds)
    ours, goals = _our_workloads(args)
    workloads.update(ours)
    best = {name: 0.0 for name in workloads}
    for _ in range(args.repeats):
        for name, run in workloads.items():
            best[name] = max(best[name], run())
    print(f"clock: {'the process CPU time' if args.clock == 'cpu' else 'the wall clock'} (--clock {args.clock})")
    print(f"{'workload':45s} {'decisions/s':>12s}  {'ratio':34s} goal")
    for name, rate in best.items():
        print(_line(name, rate, best, goals))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(best, f, indent=2)
    return best


def _line(name: str, rate: float, best: dict, goals: dict) -> str:
    """One row of the table: the rate, its ratio to the reference and the goal."""
    holdem = best.get("pettingzoo texas_holdem_v4 (aec)")
    leduc = best.get("openspiel leduc_poker (engine+tensor)")
    ratio = goal = ""
    if name.endswith("(aec)") and holdem and not name.startswith("pettingzoo"):
        ratio = f"{rate / holdem:6.1f}x texas_holdem_v4"
        goal = _goal(rate / holdem, goals[name])
    elif name.endswith("(engine+obs)") and leduc:
        ratio = f"{rate / leduc:6.2f}x leduc_poker"
        goal = _goal(rate / leduc, goals[name])
    elif name.endswith("(rules)"):
        with_obs = best[name.replace("(rules)", "(engine+obs)")]
        ratio = f"{rate / leduc:6.2f}x leduc_poker" if leduc else ""
        goal = f"the observation is {1 - with_obs / rate:.0%} of engine+obs"
    return f"{name:45s} {rate:12,.0f}  {ratio:34s} {goal}".rstrip()


def _goal(ratio: float, goal: float) -> str:
    return f"{'met' if ratio >= goal else 'MISSED'} (at least {goal:g}x)"


if __name__ == "__main__":
    main()
