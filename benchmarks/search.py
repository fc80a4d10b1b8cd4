"""Search bots: simulations per second per game, and playing strength.

Speed (default): IS-MCTS simulations per second on one core at ``--players`` (default 4) in every
game. One simulation is one IS-MCTS iteration: ``view.sample_world`` (clone + resample), the tree
descent, and a random playout to the end of the game or to the game's ``playout_depth`` (Import /
Export: 40 decisions; ``--rollout-depth`` sets another cap). Positions are
taken from random games (every 10th decision with at least two legal actions), the same ones every
run; the columns split the cost into resample and playout. A game with such a cap gets a second
row, its playouts to the end (``rollout_depth=100000``), unless ``--rollout-depth`` is given.
``--save`` writes the table, the command, the date, ``os.cpu_count()``, the cores the process may
run on and the load average before and after to ``docs/img/data/search_speed.json``.

Networks (``--network``, issue #28): the same positions searched with UCB and playouts, with the
zoo network's prior (PUCT) and playouts, and with the prior and network leaves (``value=``: no
playout, or ``value_playout=5`` decisions first): sims/s and the network's forward passes per
simulation, ``--network-sims`` simulations a decision (default 50). Where the zoo's model has no
value head (a zoo of your own, ``SMUGGLE_ZOO``, may hold policies only; every shipped file has
one, ``smuggle zoo value``), the value rows time a stand-in critic of the zoo actor's size
(random weights: timing only, not strength). ``--save`` writes the table to
``docs/img/data/search_network.json`` (``scripts/update_docs.py`` puts it in docs/benchmarks.md).

Strength (``--strength``): IS-MCTS against 3 random agents and against 3 rule bots, seat-rotated
(game g puts the search bot in seat g mod N, seed K+g), win rate with a 95% Wilson interval (a
shared win counts 1/k) and the mean seconds per search decision. ``--save`` merges each row, as
it finishes, into ``docs/img/data/search_strength.json``, keyed by (game, search bot, opponents,
games): a run replaces its own earlier rows and keeps every other run's.

    python benchmarks/search.py [--envs smuggle_v0,...] [--seconds 3] [--players 4] [--save]
    python benchmarks/search.py --network [--seconds 1] [--save]
    python benchmarks/search.py --strength --envs smuggle_v0 --games 500 --spec ismcts:sims=50 --workers 2
    python benchmarks/search.py --strength ... --log games.jsonl   # one line per finished game
"""

from __future__ import annotations

import os

# One core, one BLAS thread: a simulation's network products are a few rows, where BLAS threads
# only add synchronisation (a 4-row value batch took 1.8 ms with them on the busy 2-core machine,
# 0.16 ms without). Set before numpy loads its BLAS.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import contextlib  # noqa: E402
import datetime  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import shlex  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

import smuggle_envs  # noqa: E402
from agents import make_agent  # noqa: E402
from agents.arena import play  # noqa: E402
from agents.base import SeatView  # noqa: E402
from agents.search import ISMCTSAgent  # noqa: E402


def positions(game, count: int = 40, seed: int = 0) -> list:
    """Mid-game positions from random games: every 10th decision with two legal actions or more."""
    rng = random.Random(seed)
    found = []
    game_seed = seed
    while len(found) < count:
        state = game.new_initial_state(game_seed)
        game_seed += 1
        step = 0
        while not state.is_terminal() and len(found) < count:
            if step % 10 == 0 and len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    return found


def timed_iterations(agent: Any, views: Sequence[SeatView], seconds: float) -> tuple[int, float]:
    """The search iterations ``agent`` (an ISMCTS agent) runs deciding at ``views`` in turn for
    ``seconds``, and how many it ran a second."""
    done, i = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        agent.act_in(views[i % len(views)])
        done += agent.iterations
        i += 1
    return done, done / (time.perf_counter() - start)


def speed(env_id: str, players: int, seconds: float, rollout_depth: int | None) -> dict:
    game = smuggle_envs.make_game(env_id, num_players=players)
    states = positions(game)
    views = [SeatView(s, s.current_player()) for s in states]
    rollout_depth = rollout_depth if rollout_depth is not None else game.playout_depth
    agent = ISMCTSAgent(game, seed=0, sims=50, rollout_depth=rollout_depth)
    _, rate = timed_iterations(agent, views, seconds)
    # the parts: resample alone, and a random playout from a resampled world
    rng = random.Random(1)
    t0 = time.perf_counter()
    for k in range(400):
        views[k % len(views)].sample_world(random.Random(rng.getrandbits(64)))
    resample_us = (time.perf_counter() - t0) / 400 * 1e6
    steps, playout = 0, 0.0
    for k in range(200):
        world = views[k % len(views)].sample_world(random.Random(rng.getrandbits(64)))
        t1 = time.perf_counter()
        n = 0
        while not world.is_terminal() and (rollout_depth is None or n < rollout_depth):
            legal = world.legal_actions()
            world.apply_action(legal[int(rng.random() * len(legal))])
            n += 1
        playout += time.perf_counter() - t1
        steps += n
    playout_us = playout / 200 * 1e6
    return {
        "env": env_id,
        "players": players,
        "rollout_depth": rollout_depth,
        "playout_depth": game.playout_depth,
        "sims_per_s": rate,
        "resample_us": resample_us,
        "playout_us": playout_us,
        "playout_steps": steps / 200,
    }


FULL_PLAYOUT = 100_000
"""The ``rollout_depth`` of a capped game's second speed row: its playouts to the end."""


def speed_label(row: dict) -> str:
    """The game cell of a speed row: the env id, and the playouts' cap where it has one."""
    cap, default = row["rollout_depth"], row["playout_depth"]
    if cap is None:
        return row["env"]
    if cap == default:
        return f"{row['env']} (default `playout_depth` {cap})"
    if cap >= FULL_PLAYOUT:
        return f"{row['env']} (to the end, `rollout_depth={cap}`)"
    return f"{row['env']} (`rollout_depth={cap}`)"


def speed_table(rows: list[dict]) -> dict:
    """The speed rows as a ``data-table``."""
    return {
        "headers": ["game", "sims/s", "resample (µs)", "playout (µs)", "playout length (decisions)"],
        "align": "lrrrr",
        "rows": [
            [
                speed_label(r),
                f"{r['sims_per_s']:,.0f}",
                f"{r['resample_us']:,.0f}",
                f"{r['playout_us']:,.0f}",
                f"{r['playout_steps']:,.0f}",
            ]
            for r in rows
        ],
    }


def machine() -> dict:
    """What a measurement records of the machine: its CPUs, the cores this process may run on
    (``taskset``) and the load average (1, 5 and 15 minutes)."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {"cpu_count": os.cpu_count(), "cores": cores, "load_average": [round(x, 2) for x in os.getloadavg()]}


def _cores(cores: list[int] | None) -> str:
    if cores is None:
        return "?"
    if len(cores) > 2 and cores == list(range(cores[0], cores[-1] + 1)):
        return f"{cores[0]}-{cores[-1]}"
    return ",".join(map(str, cores))


def run_table(data: dict) -> dict:
    """One row: when and how a speed table was measured, and how busy the machine was."""
    before, after = data["machine_before"], data["machine_after"]
    return {
        "headers": ["measured", "command", "players", "CPUs", "cores it ran on", "load average before", "after"],
        "align": "llrrlll",
        "rows": [
            [
                data["date"],
                f"`{data['command']}`",
                str(data["rows"][0]["players"]) if data["rows"] else "-",
                str(before["cpu_count"]),
                _cores(before["cores"]),
                " / ".join(f"{x:.2f}" for x in before["load_average"]),
                " / ".join(f"{x:.2f}" for x in after["load_average"]),
            ]
        ],
    }


def speed_data(rows: list[dict], command: str, date: str, before: dict, after: dict) -> dict:
    """The content of ``search_speed.json``: the rows, how they were measured, and their tables
    (``table``: the speed rows; ``tables.run``: the run's date, command and machine)."""
    data = {"command": command, "date": date, "machine_before": before, "machine_after": after, "rows": rows}
    return data | {"table": speed_table(rows), "tables": {"run": run_table(data)}}


def strength_key(row: dict) -> str:
    """A strength row's key in ``search_strength.json``: (game, search bot, opponents, games)."""
    return json.dumps([row["env"], row["spec"], row["opponents"], row["games"]])


def strength_table(results: dict[str, dict]) -> dict:
    """The stored strength rows as a ``data-table``, sorted by game, search bot, opponents, games."""
    order = sorted(results.values(), key=lambda r: (r["env"], r["spec"], r["opponents"], r["games"]))
    return {
        "headers": ["game", "search bot", "opponents", "games", "win rate [95% Wilson]", "s per decision", "measured"],
        "align": "lllrrrl",
        "rows": [
            [
                r["env"],
                f"`{r['spec']}`",
                r["opponents"],
                str(r["games"]),
                f"{100 * r['win_rate']:.1f}% [{100 * r['ci'][0]:.1f}%, {100 * r['ci'][1]:.1f}%]",
                f"{r['s_per_decision']:.3f}",
                r["date"],
            ]
            for r in order
        ],
    }


def merge_strength(data: dict, row: dict, command: str, date: str) -> dict:
    """``data`` (the content of ``search_strength.json``, ``{}`` for none) with ``row`` added, or
    replacing the row of the same key, and its table rewritten; the other rows stay."""
    record = {k: list(v) if k == "ci" else v for k, v in row.items()} | {"command": command, "date": date}
    results = dict(data.get("results", {})) | {strength_key(row): record}
    return {"results": results, "table": strength_table(results)}


def _write(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


NETWORK_ROWS = (
    ("UCB, playouts", ""),
    ("PUCT prior=zoo, playouts", "prior=zoo"),
    ("PUCT prior=zoo, value leaves", "prior=zoo;value={value}"),
    ("PUCT prior=zoo, value_playout=5", "prior=zoo;value={value};value_playout=5"),
)
BATCHED_ROWS = (("PUCT prior=zoo, value leaves, leaf_batch=8", "prior=zoo;value={value};leaf_batch=8"),)
"""Value leaves 8 at a time (one forward pass for 8 descents under a virtual loss), printed and saved
after ``NETWORK_ROWS``, beside the unbatched value leaves: its value passes / sim is about 1/8."""
DATA = Path(__file__).resolve().parents[1] / "docs" / "img" / "data" / "search_network.json"
SPEED_DATA = DATA.with_name("search_speed.json")
STRENGTH_DATA = DATA.with_name("search_strength.json")


def value_spec(game, folder: str) -> tuple[str, bool]:
    """``value=`` for the zoo's model: ``zoo`` where it ships a value head, else a stand-in (the
    zoo's policy with a random critic of its actor's layer sizes, saved in ``folder``): True
    when it is the stand-in."""
    from agents.ppo import NumpyMLP
    from agents.zoo import ZooAgent

    policy = ZooAgent(game).policy
    if policy.critic is not None:
        return "zoo", False
    rng = np.random.default_rng(0)
    sizes = [w.shape[1] for w, _, _ in policy.layers] + [1]
    layers = [
        (rng.normal(0, 1 / np.sqrt(n_in), (n_out, n_in)), np.zeros(n_out), "Tanh" if n_out > 1 else "Identity")
        for n_in, n_out in itertools.pairwise(sizes)
    ]
    policy.critic = NumpyMLP(layers)
    path = Path(folder) / f"{game.env_id}-standin.npz"
    try:
        policy.save(path)
    finally:
        policy.critic = None  # the zoo's cached policy stays as shipped
    return f"ppo:{path}", True


def network_speed(
    env_id: str, players: int, seconds: float, sims: int, searches: tuple[tuple[str, str], ...] = NETWORK_ROWS
) -> list[dict]:
    """Sims/s and forward passes per simulation of each search of ``searches`` (label, options;
    default ``NETWORK_ROWS``, ``--network`` adds ``BATCHED_ROWS``) on the speed positions,
    ``seconds`` each."""
    game = smuggle_envs.make_game(env_id, num_players=players)
    views = [SeatView(s, s.current_player()) for s in positions(game)]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        value, standin = value_spec(game, folder)
        for label, options in searches:
            agent = make_agent(f"ismcts:sims={sims};{options.format(value=value)}", game, seed=0)
            done, rate = timed_iterations(agent, views, seconds)
            net = agent.network
            rows.append(
                {
                    "env": env_id,
                    "search": label + (" (stand-in value head)" if standin and "value" in options else ""),
                    "sims_per_s": rate,
                    "prior_per_sim": net.prior_calls / max(done, 1) if net is not None else 0.0,
                    "value_per_sim": net.value_calls / max(done, 1) if net is not None else 0.0,
                }
            )
    return rows


def save_network_table(rows: list[dict], command: str) -> None:
    """Write the rows as ``docs/img/data/search_network.json`` (a ``data-table`` of the docs)."""
    table = {
        "headers": ["game", "search", "sims/s", "prior passes / sim", "value passes / sim"],
        "align": "llrrr",
        "rows": [
            [r["env"], r["search"], f"{r['sims_per_s']:,.0f}", f"{r['prior_per_sim']:.2f}", f"{r['value_per_sim']:.2f}"]
            for r in rows
        ],
    }
    DATA.write_text(json.dumps({"command": command, "table": table}, indent=1) + "\n", encoding="utf-8")


def _one_game(task: tuple) -> tuple[float, float, int]:
    """One seat-rotated game: (the search bot's share of the win, its search seconds, decisions)."""
    env_id, players, spec, opponent, seed, g = task
    game = smuggle_envs.make_game(env_id, num_players=players)
    seat = g % players
    agents = [make_agent(opponent, game, seed=seed + 100 * g + i) for i in range(players)]
    searcher = make_agent(spec, game, seed=seed + g)
    inner_act = searcher.act_in
    spent = [0.0, 0]

    def timed(view):
        t = time.perf_counter()
        action = inner_act(view)
        spent[0] += time.perf_counter() - t
        spent[1] += 1
        return action

    searcher.act_in = timed  # type: ignore[method-assign]
    agents[seat] = searcher
    winners = play(game, agents, seed=seed + g).winning_seats()
    share = 1 / len(winners) if seat in winners else 0.0
    return share, spent[0], int(spent[1])


def strength(
    env_id: str,
    players: int,
    spec: str,
    games: int,
    seed: int,
    opponents=("random", "rule"),
    workers: int = 1,
    log: str | None = None,
) -> Iterator[dict]:
    """Win rate of ``spec`` against ``players - 1`` copies of each opponent; ``workers`` processes
    play the games (each game's seeds depend only on its index, so the result does not). ``log``:
    a file that gets one JSON line per finished game, in game order, as they finish, so a run
    stopped early still leaves its first games (the rows of a shorter table)."""
    from tqdm import tqdm

    from training.stats import wilson_interval

    for opponent in opponents:
        tasks = [(env_id, players, spec, opponent, seed, g) for g in range(games)]
        with multiprocessing.Pool(workers) if workers > 1 else contextlib.nullcontext() as pool:
            results = pool.imap(_one_game, tasks) if pool is not None else map(_one_game, tasks)
            rows = []
            with open(log, "a") if log else contextlib.nullcontext() as out:
                for g, row in enumerate(tqdm(results, total=games, desc=f"{env_id} vs {opponent}", leave=False)):
                    rows.append(row)
                    if out is not None:
                        record = {"env": env_id, "spec": spec, "opponent": opponent, "game": g, "share": row[0]}
                        out.write(json.dumps(record | {"seconds": row[1], "decisions": row[2]}) + "\n")
                        out.flush()
        wins = sum(r[0] for r in rows)
        search_time, decisions = sum(r[1] for r in rows), sum(r[2] for r in rows)
        lo, hi = wilson_interval(wins, games)
        yield {
            "env": env_id,
            "players": players,
            "spec": spec,
            "opponents": f"{players - 1}x {opponent}",
            "games": games,
            "seed": seed,
            "wins": wins,
            "win_rate": wins / games,
            "ci": (lo, hi),
            "s_per_decision": search_time / max(decisions, 1),
        }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", default=",".join(smuggle_envs.ENV_IDS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of search per game (speed)")
    parser.add_argument("--rollout-depth", type=int, default=None, help="cap on playout length (speed)")
    parser.add_argument("--strength", action="store_true", help="measure win rates instead of speed")
    parser.add_argument("--network", action="store_true", help="sims/s with the zoo network's prior and value leaves")
    parser.add_argument("--network-sims", type=int, default=50, help="simulations a decision (--network)")
    parser.add_argument(
        "--save",
        action="store_true",
        help=f"write the table to {SPEED_DATA.name} (speed) or {DATA.name} (--network), or merge the "
        f"rows into {STRENGTH_DATA.name} (--strength)",
    )
    parser.add_argument("--spec", default="ismcts:sims=200", help="the search bot (strength)")
    parser.add_argument("--games", type=int, default=100, help="games per cell (strength)")
    parser.add_argument("--seed", type=int, default=0, help="base seed (strength)")
    parser.add_argument("--opponents", default="random,rule", help="opponent specs, one table each (strength)")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the games (strength)")
    parser.add_argument("--log", default=None, help="append one JSON line per finished game to this file (strength)")
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv)
    command = shlex.join(["python", "benchmarks/search.py", *argv])
    envs = args.envs.split(",")
    if args.strength:
        print(
            f"{'game':20s} {'search bot':28s} {'opponents':12s} {'games':>5s} {'win rate':>8s}  95% Wilson    s/decision"
        )
        for env_id in envs:
            for row in strength(
                env_id,
                args.players,
                args.spec,
                args.games,
                args.seed,
                args.opponents.split(","),
                args.workers,
                args.log,
            ):
                lo, hi = row["ci"]
                print(
                    f"{env_id:20s} {row['spec']:28s} {row['opponents']:12s} {row['games']:5d} "
                    f"{row['win_rate']:8.1%}  [{lo:.1%}, {hi:.1%}]  {row['s_per_decision']:.3f}",
                    flush=True,
                )
                if args.save:  # row by row: a run stopped early keeps its finished rows
                    old = json.loads(STRENGTH_DATA.read_text(encoding="utf-8")) if STRENGTH_DATA.exists() else {}
                    _write(STRENGTH_DATA, merge_strength(old, row, command, _today()))
        return
    if args.network:
        _print_network(envs, args)
        return
    _print_speed(envs, args, command)


def _today() -> str:
    return datetime.date.today().isoformat()


def _print_speed(envs: list[str], args: argparse.Namespace, command: str) -> None:
    """The speed table, printed (and with ``--save`` written for the docs); a game whose playouts
    are capped by default is measured a second time with full playouts (unless --rollout-depth)."""
    before = machine()
    print(
        f"{'game':54s} {'players':>7s} {'sims/s':>8s} {'resample us':>11s} {'playout us':>10s} {'playout steps':>13s}"
    )
    rows = []
    for env_id in envs:
        depths = [args.rollout_depth]
        if args.rollout_depth is None and smuggle_envs.make_game(env_id).playout_depth is not None:
            depths.append(FULL_PLAYOUT)
        for depth in depths:
            row = speed(env_id, args.players, args.seconds, depth)
            rows.append(row)
            print(
                f"{speed_label(row):54s} {row['players']:7d} {row['sims_per_s']:8,.0f} {row['resample_us']:11.0f} "
                f"{row['playout_us']:10.0f} {row['playout_steps']:13.1f}",
                flush=True,
            )
    if args.save:
        _write(SPEED_DATA, speed_data(rows, command, _today(), before, machine()))


def _print_network(envs: list[str], args: argparse.Namespace) -> None:
    """The ``--network`` table, printed (and with ``--save`` written for the docs)."""
    print(f"{'game':20s} {'search':52s} {'sims/s':>8s} {'prior/sim':>9s} {'value/sim':>9s}")
    rows = []
    for env_id in envs:
        for row in network_speed(env_id, args.players, args.seconds, args.network_sims, NETWORK_ROWS + BATCHED_ROWS):
            rows.append(row)
            print(
                f"{env_id:20s} {row['search']:52s} {row['sims_per_s']:8,.0f} "
                f"{row['prior_per_sim']:9.2f} {row['value_per_sim']:9.2f}",
                flush=True,
            )
    if args.save:
        save_network_table(
            rows, f"python benchmarks/search.py --network --seconds {args.seconds:g} --players {args.players}"
        )


if __name__ == "__main__":
    main()
