"""Search bots: simulations per second per game, and playing strength.

Speed (default): IS-MCTS simulations per second on one core at ``--players`` (default 4) in every
game. One simulation is one IS-MCTS iteration: ``view.sample_world`` (clone + resample), the tree
descent, and a random playout to the end of the game or to the game's ``playout_depth`` (Import /
Export: 40 decisions; ``--rollout-depth`` sets another cap). Positions are
taken from random games (every 10th decision with at least two legal actions), the same ones every
run; the columns split the cost into resample and playout.

Networks (``--network``, issue #28): the same positions searched with UCB and playouts, with the
zoo network's prior (PUCT) and playouts, and with the prior and network leaves (``value=``: no
playout, or ``value_playout=5`` decisions first): sims/s and the network's forward passes per
simulation, ``--network-sims`` simulations a decision (default 50). Where the zoo's model has no
value head (the shipped files hold the policy only), the value rows time a stand-in critic of the
zoo actor's size (random weights: timing only, not strength). ``--save`` writes the table to
``docs/img/data/search_network.json`` (``scripts/update_docs.py`` puts it in docs/benchmarks.md).

Strength (``--strength``): IS-MCTS against 3 random agents and against 3 rule bots, seat-rotated
(game g puts the search bot in seat g mod N, seed K+g), win rate with a 95% Wilson interval (a
shared win counts 1/k) and the mean seconds per search decision.

    python benchmarks/search.py [--envs smuggle_v0,...] [--seconds 3] [--players 4]
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
import itertools  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

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


def speed(env_id: str, players: int, seconds: float, rollout_depth: int | None) -> dict:
    game = smuggle_envs.make_game(env_id, num_players=players)
    states = positions(game)
    views = [SeatView(s, s.current_player()) for s in states]
    rollout_depth = rollout_depth if rollout_depth is not None else game.playout_depth
    agent = ISMCTSAgent(game, seed=0, sims=50, rollout_depth=rollout_depth)
    sims, i = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        agent.act_in(views[i % len(views)])
        sims += agent.iterations
        i += 1
    rate = sims / (time.perf_counter() - start)
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
        "sims_per_s": rate,
        "resample_us": resample_us,
        "playout_us": playout_us,
        "playout_steps": steps / 200,
    }


NETWORK_ROWS = (
    ("UCB, playouts", ""),
    ("PUCT prior=zoo, playouts", "prior=zoo"),
    ("PUCT prior=zoo, value leaves", "prior=zoo;value={value}"),
    ("PUCT prior=zoo, value_playout=5", "prior=zoo;value={value};value_playout=5"),
)
DATA = Path(__file__).resolve().parents[1] / "docs" / "img" / "data" / "search_network.json"


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


def network_speed(env_id: str, players: int, seconds: float, sims: int) -> list[dict]:
    """Sims/s and forward passes per simulation of each ``NETWORK_ROWS`` search on the speed
    positions, ``seconds`` each."""
    game = smuggle_envs.make_game(env_id, num_players=players)
    views = [SeatView(s, s.current_player()) for s in positions(game)]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        value, standin = value_spec(game, folder)
        for label, options in NETWORK_ROWS:
            agent = make_agent(f"ismcts:sims={sims};{options.format(value=value)}", game, seed=0)
            done, i = 0, 0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                agent.act_in(views[i % len(views)])
                done += agent.iterations
                i += 1
            rate = done / (time.perf_counter() - start)
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
    parser.add_argument("--save", action="store_true", help=f"write the --network table to {DATA.name}")
    parser.add_argument("--spec", default="ismcts:sims=200", help="the search bot (strength)")
    parser.add_argument("--games", type=int, default=100, help="games per cell (strength)")
    parser.add_argument("--seed", type=int, default=0, help="base seed (strength)")
    parser.add_argument("--opponents", default="random,rule", help="opponent specs, one table each (strength)")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the games (strength)")
    parser.add_argument("--log", default=None, help="append one JSON line per finished game to this file (strength)")
    args = parser.parse_args(argv)
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
        return
    if args.network:
        _print_network(envs, args)
        return
    print(
        f"{'game':20s} {'players':>7s} {'sims/s':>8s} {'resample us':>11s} {'playout us':>10s} {'playout steps':>13s}"
    )
    for env_id in envs:
        row = speed(env_id, args.players, args.seconds, args.rollout_depth)
        print(
            f"{env_id:20s} {row['players']:7d} {row['sims_per_s']:8,.0f} {row['resample_us']:11.0f} "
            f"{row['playout_us']:10.0f} {row['playout_steps']:13.1f}",
            flush=True,
        )


def _print_network(envs: list[str], args: argparse.Namespace) -> None:
    """The ``--network`` table, printed (and with ``--save`` written for the docs)."""
    print(f"{'game':20s} {'search':52s} {'sims/s':>8s} {'prior/sim':>9s} {'value/sim':>9s}")
    rows = []
    for env_id in envs:
        for row in network_speed(env_id, args.players, args.seconds, args.network_sims):
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
