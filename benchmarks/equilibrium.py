"""An equilibrium reference: how often does an approximate equilibrium bluff and challenge?

    python benchmarks/equilibrium.py            # the default budget (about 5 minutes on one core)
    python benchmarks/equilibrium.py --quick    # a smoke run (about a minute): small budgets, few games

Three small faithful variants, solved by OpenSpiel through the forward adapter
(``smuggle_envs.openspiel``: every rule kept; chance is one of ``deals`` fixed deals):

==========  ====================================================  ==========================================
variant     the game                                              solver, default budget
==========  ====================================================  ==========================================
humble      Humble smuggle, 2 players, ``end_card_depth=6``,      CFR+ (full tree walks), 32 iterations
            2 deals
illegal     Illegal, 2 players (the training game), 1,000 deals   outcome-sampling MCCFR, 3,000 iterations
smuggle     Smuggle, 3 players, ``money_per_player=5``,           external-sampling MCCFR, 1,500 iterations
            ``bankruptcy="eliminate"``, 20 deals                  (outcome sampling left its 496-way
                                                                  declarations uniform at this cost)
==========  ====================================================  ==========================================

Beside each solution, how far it is from an equilibrium: **NashConv** where the tree can be
walked (Humble smuggle: exact, in the adapter's win/loss returns, at every power-of-two
iteration); elsewhere a **best-response gap lower bound**: for each response R of {rule bot,
random} and each seat, R's mean return in that seat against the solution in the others minus the
solution's own (sampled, 95% intervals); the largest estimates a lower bound on what a seat gains
on average by deviating (NashConv / players). For the MCCFR variants, whether the solution
**settled**: its information states (touched at half and at full budget) and its first frequency
at half and at full budget. Every budget is in iterations, seeded: the same numbers on any machine.

Then the frequencies of the hidden-information decisions each game's analytics define
(``training/analytics/``), for the solution and for the rule bots, random agents and the zoo
models, every seat played by the same agent, game g on deal g mod ``deals``:

* Humble smuggle (no claim or challenge in its rules): *break rate*, face-down selections that
  broke the round's rule / revealed; *Play cards on others*, Play cards attached face down to
  another player's selection / Play cards;
* Illegal: *Paranoia passed*, Paranoia cards passed face down / passes; *Magnum reactions*,
  reactions / windows asked while holding the Magnum;
* Smuggle: *lie rate*, declarations that are not the complete truth / declarations; *search
  rate*, searches / declarations judged as Officer.

**Read the deals first.** The adapter's chance is one of ``deals`` seeds, each fixing every card
to come; a seat whose first observation tells the deal apart knows every hidden card from then
on (``deal_known``, per seat, in the convergence table): what stays hidden from it are only the
other seats' secret choices (a face-down selection or pass), and a declaration's truth is no
secret. A solution is then an equilibrium of that open-deck game, not of the card game's bluffing.

The zoo has 4-player models only, so its rows are the zoo model on the default 4-player game,
labelled so: not the same variant. Writes ``docs/img/data/equilibrium.json`` (every count, and
the tables of docs/equilibrium.md, which ``python scripts/update_docs.py`` fills in) and
``docs/img/equilibrium.png`` (``python scripts/make_figures.py`` redraws it from the JSON).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    cfr,
    exploitability,
    external_sampling_mccfr,
    mccfr,
    outcome_sampling_mccfr,
)

from agents import make_agent  # noqa: E402
from agents.arena import agents_policy  # noqa: E402
from smuggle_envs import GameSpec  # noqa: E402
from smuggle_envs import openspiel as adapter  # noqa: E402
from smuggle_envs.core.driver import Driver  # noqa: E402
from training.analytics import analyzer_for  # noqa: E402
from training.stats import wilson_interval  # noqa: E402

DATA = ROOT / "docs" / "img" / "data" / "equilibrium.json"
PNG = ROOT / "docs" / "img" / "equilibrium.png"
COMMAND = "python benchmarks/equilibrium.py"


@dataclasses.dataclass(frozen=True)
class Variant:
    """A small variant, its solver and its budget (iterations), and the games played per agent
    to count its decisions."""

    key: str
    env_id: str
    config: dict[str, Any]
    deals: int
    solver: str
    budget: int
    games: int

    def spec(self) -> GameSpec:
        return GameSpec(self.env_id, self.config)

    def adapter_game(self) -> Any:
        options = {k: v for k, v in self.config.items() if k != "num_players"}
        return adapter.load(self.env_id, players=self.config["num_players"], deals=self.deals, **options)


VARIANTS = (
    Variant("humble", "humble_smuggle_v0", {"num_players": 2, "end_card_depth": 6}, 2, "cfr+", 32, 2000),
    Variant("illegal", "illegal_v0", {"num_players": 2}, 1000, "os-mccfr", 3000, 300),
    Variant(
        "smuggle",
        "smuggle_v0",
        {"num_players": 3, "money_per_player": 5, "bankruptcy": "eliminate"},
        20,
        "es-mccfr",
        1500,
        2000,
    ),
)

# env id -> (measure name, numerator field, denominator field) of the game's analytics stats
MEASURES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "humble_smuggle_v0": (("break rate", "broke", "revealed"), ("Play cards on others", "plays_other", "plays")),
    "illegal_v0": (
        ("Paranoia passed", "paranoia_passed", "passes"),
        ("Magnum reactions", "reactions", "windows_holding"),
    ),
    "smuggle_v0": (("lie rate", "lies", "declarations"), ("search rate", "searches", "judged")),
}
AGENTS = ("equilibrium", "rule", "random", "zoo (4-player game)")


# ----- solving --------------------------------------------------------------------------------------
class SafeAverage(os_policy.Policy):
    """MCCFR's average policy (``mccfr.AveragePolicy``) on a snapshot of its table, uniform where
    an information state was never reached or its average is still all zero."""

    def __init__(self, game: Any, infostates: dict[str, Any]):
        super().__init__(game, list(range(game.num_players())))
        self.infostates = infostates

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        legal = state.legal_actions()
        entry = self.infostates.get(state.information_state_string())
        average = None if entry is None else entry[mccfr.AVG_POLICY_INDEX]
        total = 0.0 if average is None else float(average.sum())
        if average is None or total <= 0.0:
            return {a: 1.0 / len(legal) for a in legal}
        return {a: float(p) / total for a, p in zip(legal, average, strict=True)}


def solve_cfr(game: Any, iterations: int) -> dict[str, Any]:
    """CFR+ for ``iterations``; NashConv of the average policy at every power of two and at the end."""
    solver = cfr.CFRPlusSolver(game)
    start, curve = time.perf_counter(), []
    checkpoints = {2**k for k in range(12)} | {iterations}
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in checkpoints:
            curve.append([i, float(exploitability.nash_conv(game, solver.average_policy()))])
    policy = solver.average_policy()
    return {
        "policy": policy,
        "iterations": iterations,
        "seconds": time.perf_counter() - start,
        "nash_conv": curve,
        "nash_conv_uniform": float(exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game))),
        "infostates": len(policy.state_lookup),
    }


def solve_mccfr(game: Any, iterations: int, sampling: str, seed: int = 0) -> dict[str, Any]:
    """MCCFR (``sampling``: "outcome" or "external") for ``iterations``, seeded: the same run every
    time; the average policy at half the iterations too."""
    np.random.seed(seed)  # OpenSpiel's MCCFR draws from numpy's global generator
    if sampling == "outcome":
        solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    else:
        solver = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    start = time.perf_counter()
    for _ in range(iterations // 2):
        solver.iteration()
    half = copy.deepcopy(solver._infostates)
    for _ in range(iterations - iterations // 2):
        solver.iteration()
    table = solver._infostates
    return {
        "policy": SafeAverage(game, table),
        "half_policy": SafeAverage(game, half),
        "iterations": iterations,
        "half_iterations": iterations // 2,
        "seconds": time.perf_counter() - start,
        "infostates": len(table),
        "half_infostates": len(half),
        "averaged": sum(1 for e in table.values() if e[mccfr.AVG_POLICY_INDEX].sum() > 0),
    }


# ----- playing: the solution through the adapter, the agents through the library ------------------------
Move = Any  # (adapter state, seat) -> action


def policy_mover(policy: Any, rng: random.Random) -> Move:
    def move(state: Any, seat: int) -> int:
        probs = policy.action_probabilities(state, seat)
        actions = list(probs)
        return int(rng.choices(actions, weights=[probs[a] for a in actions])[0])

    return move


def agent_mover(agent: Any) -> Move:
    """A library agent in the adapter: it acts on its seat's engine observation and mask."""

    def move(state: Any, seat: int) -> int:
        engine = state.engine
        return int(agent.act(engine.observation(seat), engine.legal_action_mask()))

    return move


def play_adapter_game(game: Any, deal: int, movers: list[Move]) -> Any:
    """One game in the adapter on deal ``deal``, seat p moved by ``movers[p]``; the final state."""
    state = game.new_initial_state()
    state.apply_action(deal)
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(movers[seat](state, seat))
    return state


def policy_games(v: Variant, game: Any, policy: Any, games: int) -> list[tuple[int, list[int]]]:
    """``games`` games of the solution in every seat: (engine seed, actions) of each."""
    rng = random.Random(1)
    movers = [policy_mover(policy, rng)] * v.config["num_players"]
    out = []
    for g in range(games):
        engine = play_adapter_game(game, g % v.deals, movers).engine
        out.append((engine.seed, list(engine.history)))
    return out


def agent_games(spec: GameSpec, agent: str, games: int, deals: int | None) -> list[tuple[int, list[int]]]:
    """``games`` games of ``agent`` in every seat through the library (deal g mod ``deals``, or
    seed g with no deals); (seed, actions) of each. The agents are reseeded per game, not per
    deal (``agents.arena.play`` would reseed them from the deal: with 2 deals, 2 games repeated)."""
    game = spec.make_game()
    agents = [make_agent(agent, game, seed=s) for s in range(game.num_players)]
    policy = agents_policy(agents)
    out = []
    for g in range(games):
        for i, a in enumerate(agents):
            a.reset(1_000_000 + 1000 * g + i)
        seed = g % deals if deals else g
        driver = Driver(game, max_decisions=5000)
        driver.reset(seed)
        driver.play(policy)
        out.append((seed, list(driver.state.history)))
    return out


def frequencies(spec: GameSpec, games: list[tuple[int, list[int]]]) -> dict[str, list[int]]:
    """Each measure's counts ``[numerator, denominator]`` over ``games`` (all seats one agent)."""
    analysis = analyzer_for(spec.env_id, ["agent"])
    seating = ["agent"] * spec.num_players
    for seed, actions in games:
        analysis.add_game(spec, seed, actions, seating)
    stats = analysis.stats["agent"]
    return {name: [int(getattr(stats, num)), int(getattr(stats, den))] for name, num, den in MEASURES[spec.env_id]}


# ----- the best-response gap lower bound (sampled) --------------------------------------------------------
def gap_lower_bound(v: Variant, game: Any, policy: Any, games: int) -> dict[str, Any]:
    """Per response R in {rule, random}: mean over games of R's return in seat g mod n against the
    solution elsewhere, minus the solution's own return in that seat (its self-play games on the
    same deals), with a 95% normal interval."""
    n = v.config["num_players"]
    rng = random.Random(2)
    mine = policy_mover(policy, rng)
    own = [play_adapter_game(game, g % v.deals, [mine] * n).returns()[g % n] for g in range(games)]
    out: dict[str, Any] = {"games": games, "self_play": float(np.mean(own))}
    for response in ("rule", "random"):
        agent = make_agent(response, v.spec().make_game(), seed=3)
        movers_of = [[agent_mover(agent) if p == seat else mine for p in range(n)] for seat in range(n)]
        got = [play_adapter_game(game, g % v.deals, movers_of[g % n]).returns()[g % n] for g in range(games)]
        diff = np.asarray(got) - np.asarray(own)
        half = 1.96 * float(diff.std(ddof=1)) / np.sqrt(games)
        out[response] = {
            "mean": float(np.mean(got)),
            "gain": float(diff.mean()),
            "ci": [diff.mean() - half, diff.mean() + half],
        }
    return out


# ----- how much the deals leak -------------------------------------------------------------------------
def deal_known(v: Variant) -> list[float]:
    """Per seat, the share of the ``deals`` that its first observation tells apart from every other
    deal. The adapter's deal is a seed that fixes every card to come, so a seat that knows the
    deal knows every hidden card: what is left hidden from it are the others' secret choices."""
    game = v.spec().make_game()
    shares = []
    for seat in range(game.num_players):
        seen = [game.new_initial_state(d).observation(seat).tobytes() for d in range(v.deals)]
        count = Counter(seen)
        shares.append(sum(count[o] == 1 for o in seen) / v.deals)
    return shares


# ----- one variant -----------------------------------------------------------------------------------
def run_variant(v: Variant, zoo_games: int, log: Any = print) -> dict[str, Any]:
    """Solve ``v``, measure its distance to an equilibrium, and count every agent's decisions."""
    game = v.adapter_game()
    log(f"{v.key}: {v.solver} on {v.env_id} {v.config}, {v.deals} deals", flush=True)
    if v.solver == "cfr+":
        solved = solve_cfr(game, v.budget)
    else:
        solved = solve_mccfr(game, v.budget, "outcome" if v.solver == "os-mccfr" else "external")
    spec = v.spec()
    counts = {"equilibrium": frequencies(spec, policy_games(v, game, solved["policy"], v.games))}
    for agent in ("rule", "random"):
        counts[agent] = frequencies(spec, agent_games(spec, agent, v.games, v.deals))
    if zoo_games:
        full = GameSpec(v.env_id, {"num_players": 4})
        counts["zoo (4-player game)"] = frequencies(full, agent_games(full, "zoo", zoo_games, None))
    result: dict[str, Any] = {
        "key": v.key,
        "env_id": v.env_id,
        "config": v.config,
        "deals": v.deals,
        "solver": v.solver,
        "games": v.games,
        "zoo_games": zoo_games,
        "counts": counts,
        "deal_known": deal_known(v),
        **{k: val for k, val in solved.items() if not k.endswith("policy")},
    }
    if v.solver != "cfr+":
        half = policy_games(v, game, solved["half_policy"], v.games)
        result["half_counts"] = frequencies(spec, half)
        result["gap"] = gap_lower_bound(v, game, solved["policy"], max(40, v.games // 4))
    log(f"  {json.dumps({k: result[k] for k in ('iterations', 'infostates', 'counts')})}", flush=True)
    return result


# ----- the tables and the picture ----------------------------------------------------------------------------
def rate_cell(counts: list[int]) -> str:
    """``38.2% [35.1, 41.4] (n=812)``: a rate with its 95% Wilson interval and its denominator."""
    num, den = counts
    if not den:
        return "- (n=0)"
    lo, hi = wilson_interval(num, den)
    return f"{100 * num / den:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (n={den:,})"


def frequency_table(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One row per variant and agent, one column per measure (the game's own two)."""
    rows = []
    for r in results:
        names = [name for name, _, _ in MEASURES[r["env_id"]]]
        for agent, counts in r["counts"].items():
            cells = [f"{name}: {rate_cell(counts[name])}" for name in names]
            rows.append([r["key"], agent, *cells])
    return {"headers": ["variant", "agent", "first measure", "second measure"], "align": "llll", "rows": rows}


def distance(r: dict[str, Any]) -> str:
    """How far the solution is from an equilibrium, in words and numbers (one table cell)."""
    if r["solver"] == "cfr+":
        it, value = r["nash_conv"][-1]
        return f"NashConv {value:.4f} after {it} iterations (uniform policy: {r['nash_conv_uniform']:.3f})"
    gap = r["gap"]
    best = max(("rule", "random"), key=lambda k: gap[k]["gain"])
    lo, hi = gap[best]["ci"]
    return f"gap >= {gap[best]['gain']:+.3f} [{lo:+.3f}, {hi:+.3f}] ({best} deviating, {gap['games']} games a response)"


def settled(r: dict[str, Any]) -> str:
    """For MCCFR: information states and the first measure at half and full budget."""
    if r["solver"] == "cfr+":
        return "exact tree walk"
    first = MEASURES[r["env_id"]][0][0]
    return (
        f"{r['half_infostates']:,} -> {r['infostates']:,} information states "
        f"({r['averaged']:,} with an average); {first} {rate_cell(r['half_counts'][first])} -> "
        f"{rate_cell(r['counts']['equilibrium'][first])}"
    )


def convergence_table(results: list[dict[str, Any]]) -> dict[str, Any]:
    rows = [
        [
            r["key"],
            r["solver"],
            f"{r['iterations']:,}",
            f"{r['seconds']:.0f} s",
            distance(r),
            settled(r),
            ", ".join(f"{100 * share:.0f}%" for share in r["deal_known"]),
        ]
        for r in results
    ]
    headers = [
        "variant",
        "solver",
        "iterations",
        "time",
        "distance to an equilibrium",
        "settled?",
        "deal known at the start, per seat",
    ]
    return {"headers": headers, "align": "llrrlll", "rows": rows}


def plot(results: list[dict[str, Any]], path: Path) -> None:
    """One panel per variant: each measure's rate per agent, 95% Wilson bars, n above each bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(4.6 * len(results), 4.4), squeeze=False)
    width = 0.8 / len(AGENTS)
    for ax, r in zip(axes[0], results, strict=True):
        names = [name for name, _, _ in MEASURES[r["env_id"]]]
        for i, agent in enumerate(a for a in AGENTS if a in r["counts"]):
            xs = np.arange(len(names)) + (i - (len(AGENTS) - 1) / 2) * width
            num = np.array([r["counts"][agent][m][0] for m in names], float)
            den = np.array([r["counts"][agent][m][1] for m in names], float)
            rates = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
            lo, hi = zip(*(wilson_interval(a, int(b)) for a, b in zip(num, den, strict=True)), strict=True)
            err = [100 * (rates - np.array(lo)), 100 * (np.array(hi) - rates)]
            ax.bar(xs, 100 * rates, width, yerr=err, capsize=2, label=agent)
            for x, y, n in zip(xs, 100 * np.array(hi), den, strict=True):
                ax.text(x, y + 1, f"n={int(n)}", ha="center", va="bottom", fontsize=6, rotation=90)
        ax.set_xticks(range(len(names)), names)
        ax.set_ylim(0, 118)
        ax.set_ylabel("share of decisions (%), 95% Wilson interval")
        solver = f"{r['solver']}, {r['iterations']:,} iterations"
        ax.set_title(f"{r['env_id']}, {r['config']['num_players']} players\nequilibrium: {solver}", fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.suptitle("An approximate equilibrium's hidden-information decisions beside the library's agents", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def quick(v: Variant) -> Variant:
    """The smoke-run budget of a variant."""
    budget = {"cfr+": 4, "os-mccfr": 200, "es-mccfr": 20}[v.solver]
    return dataclasses.replace(v, budget=budget, games=min(v.games, 60))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(v.key for v in VARIANTS), help="comma-separated (default: all)")
    parser.add_argument("--quick", action="store_true", help="small budgets and few games: a smoke run")
    parser.add_argument("--zoo-games", type=int, default=100, help="games of the zoo model's rows (0: none)")
    parser.add_argument("--data", default=str(DATA), help="the JSON (default: docs/img/data/equilibrium.json)")
    parser.add_argument("--plot", default=str(PNG), help="the picture (default: docs/img/equilibrium.png)")
    args = parser.parse_args(argv)
    chosen = [v for v in VARIANTS if v.key in args.variants.split(",")]
    results = [run_variant(quick(v) if args.quick else v, 10 if args.quick else args.zoo_games) for v in chosen]
    command = " ".join([COMMAND, *(argv if argv is not None else sys.argv[1:])])
    tables = {"frequencies": frequency_table(results), "convergence": convergence_table(results)}
    data = {"command": command, "results": results, "tables": tables}
    Path(args.data).parent.mkdir(parents=True, exist_ok=True)
    Path(args.data).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    plot(results, Path(args.plot))
    for name, table in tables.items():
        print(f"\n{name}\n" + "\n".join(" | ".join(map(str, row)) for row in table["rows"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
