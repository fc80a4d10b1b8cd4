"""An equilibrium reference: how often does an approximate equilibrium bluff and challenge?

    python benchmarks/equilibrium.py            # the default budget (about 10 minutes of CPU time)
    python benchmarks/equilibrium.py --quick    # a smoke run (about a minute): small budgets, few games

Small faithful variants, solved by OpenSpiel through the forward adapter
(``smuggle_envs.openspiel``), every rule kept. With ``chance="cards"`` every draw of the engine
is an explicit chance node, so a seat knows only the cards it has seen; the open-deck row keeps
the adapter's other mode (``chance="deals"``: one chance node picks one of 2 fixed deals, a seed
that fixes every card to come), the one variant whose tree can be walked:

===========  ===================================================  =========================================
variant      the game                                             solver, default budget
===========  ===================================================  =========================================
humble       Humble smuggle, 2 players, ``end_card_depth=6``,     outcome-sampling MCCFR, 4,000 iterations
             every draw a chance node                             (a tree walk is out of reach: see below)
humble-open  the same, 2 fixed deals (open deck)                  CFR+ (full tree walks), 32 iterations
illegal      Illegal, 2 players (the training game), every draw   outcome-sampling MCCFR, 1,000 iterations
smuggle      Smuggle, 3 players, ``money_per_player=5``,          external-sampling MCCFR, 1,000 iterations
             ``bankruptcy="eliminate"``, every draw               (outcome sampling left its 496-way
                                                                  declarations uniform at this cost)
===========  ===================================================  =========================================

The size of the tree is measured, not assumed: the **chance paths to the first decision** (the
product of the outcome counts of the draws before it; the deals with ``chance="deals"``).
Beside each solution, how far it is from an equilibrium: **NashConv** where the tree can be
walked (the open-deck row: exact, in the adapter's win/loss returns, at every power-of-two
iteration); elsewhere a **best-response gap lower bound**: for each response R of {rule bot,
random} and each seat, R's mean return in that seat against the solution in the others minus the
solution's own (sampled, 95% intervals); the largest estimates a lower bound on what a seat gains
on average by deviating (NashConv / players). For the MCCFR variants, whether the solution
**settled**: its information states (touched at half and at full budget), its first frequency at
half and at full budget, and its **coverage**: the share of the decisions of its own games taken
at an information state it has an average for (elsewhere it plays uniformly). Every budget is in
iterations, seeded: the same numbers on any machine.

Then the frequencies of the hidden-information decisions each game's analytics define
(``training/analytics/``), for the solution and for the rule bots, random agents and the zoo
models, every seat played by the same agent. A ``chance="cards"`` solution is a policy over
information states, and an information state is what a seat observed, whatever drew the cards:
its games are played on the engine's seeded deals 0, 1, 2, ... (the same uniform shuffles the
chance nodes draw), so that every game replays in the library; the agents play the same deals.
The open-deck row plays game g on deal g mod 2. The measures:

* Humble smuggle (no claim or challenge in its rules): *break rate*, face-down selections that
  broke the round's rule / revealed; *Play cards on others*, Play cards attached face down to
  another player's selection / Play cards;
* Illegal: *Paranoia passed*, Paranoia cards passed face down / passes; *Magnum reactions*,
  reactions / windows asked while holding the Magnum;
* Smuggle: *lie rate*, declarations that are not the complete truth / declarations; *search
  rate*, searches / declarations judged as Officer.

**What a seat knows at the start** (``deal_known``, per seat): with ``chance="deals"``, the share
of the deals that its first observation tells apart from every other deal, since a seat that
knows the deal knows every card to come; with ``chance="cards"``, the share of sampled deals in
which its first observation fixes every card another seat holds (each of a few ``resample``
draws of the table from what the seat has seen is the true table; the deck's order is never
known).

The zoo has 4-player models only, so its rows are the zoo model on the default 4-player game,
labelled so: not the same variant. Writes ``docs/img/data/equilibrium.json`` (every count, and
the tables of docs/equilibrium.md, which ``python scripts/update_docs.py`` fills in) and
``docs/img/equilibrium.png`` (``python scripts/make_figures.py`` redraws it from the JSON).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import functools
import json
import math
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


PLAY_DEALS = 1_000_000  # a chance="cards" solution's games: on the engine's seeded deals 0, 1, 2, ...
KNOWN_DEALS, KNOWN_RESAMPLES = 200, 4  # deal_known with chance="cards": deals sampled, resamples each


@dataclasses.dataclass(frozen=True)
class Variant:
    """A small variant, the adapter's chance mode (``deals`` fixed deals with ``"deals"``), its
    solver and its budget (iterations), and the games played per agent to count its decisions."""

    key: str
    env_id: str
    config: dict[str, Any]
    chance: str
    deals: int
    solver: str
    budget: int
    games: int

    def spec(self) -> GameSpec:
        return GameSpec(self.env_id, self.config)

    def _load(self, chance: str, deals: int) -> Any:
        options = {k: v for k, v in self.config.items() if k != "num_players"}
        return adapter.load(self.env_id, players=self.config["num_players"], chance=chance, deals=deals, **options)

    def adapter_game(self) -> Any:
        """The game the solver solves."""
        return self._load(self.chance, self.deals)

    def playing_game(self) -> Any:
        """The game the counted games are played in: the solved game itself with fixed deals;
        with ``chance="cards"`` the same information states on the engine's seeded deals."""
        return self.adapter_game() if self.chance == "deals" else self._load("deals", PLAY_DEALS)

    def deal(self, g: int) -> int:
        """The deal of game ``g``: g mod ``deals`` with fixed deals, else the engine seed g."""
        return g % self.deals if self.chance == "deals" else g

    def agent_deals(self) -> int | None:
        """What ``agent_games`` plays: the same deals as the solution's games."""
        return self.deals if self.chance == "deals" else None


HUMBLE = {"num_players": 2, "end_card_depth": 6}
SMUGGLE = {"num_players": 3, "money_per_player": 5, "bankruptcy": "eliminate"}
VARIANTS = (
    Variant("humble", "humble_smuggle_v0", HUMBLE, "cards", 1, "os-mccfr", 4000, 2000),
    Variant("humble-open", "humble_smuggle_v0", HUMBLE, "deals", 2, "cfr+", 32, 2000),
    Variant("illegal", "illegal_v0", {"num_players": 2}, "cards", 1, "os-mccfr", 1000, 300),
    Variant("smuggle", "smuggle_v0", SMUGGLE, "cards", 1, "es-mccfr", 1000, 2000),
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
        self.asked = self.averaged = 0  # decisions asked for, and those at an averaged state

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        legal = state.legal_actions()
        entry = self.infostates.get(state.information_state_string())
        average = None if entry is None else entry[mccfr.AVG_POLICY_INDEX]
        total = 0.0 if average is None else float(average.sum())
        self.asked += 1
        if average is None or total <= 0.0:
            return {a: 1.0 / len(legal) for a in legal}
        self.averaged += 1
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
    """``games`` games of the solution in every seat, in ``v.playing_game()`` (``game``): (engine
    seed, actions) of each."""
    rng = random.Random(1)
    movers = [policy_mover(policy, rng)] * v.config["num_players"]
    out = []
    for g in range(games):
        engine = play_adapter_game(game, v.deal(g), movers).engine
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


@functools.cache
def zoo_frequencies(env_id: str, games: int) -> dict[str, list[int]]:
    """The zoo model's counts on the default 4-player game: once per env id (two variants share
    Humble smuggle's)."""
    full = GameSpec(env_id, {"num_players": 4})
    return frequencies(full, agent_games(full, "zoo", games, None))


# ----- the best-response gap lower bound (sampled) --------------------------------------------------------
def gap_lower_bound(v: Variant, game: Any, policy: Any, games: int) -> dict[str, Any]:
    """Per response R in {rule, random}: mean over games of R's return in seat g mod n against the
    solution elsewhere, minus the solution's own return in that seat (its self-play games on the
    same deals, in ``v.playing_game()``: ``game``), with a 95% normal interval."""
    n = v.config["num_players"]
    rng = random.Random(2)
    mine = policy_mover(policy, rng)
    own = [play_adapter_game(game, v.deal(g), [mine] * n).returns()[g % n] for g in range(games)]
    out: dict[str, Any] = {"games": games, "self_play": float(np.mean(own))}
    for response in ("rule", "random"):
        agent = make_agent(response, v.spec().make_game(), seed=3)
        movers_of = [[agent_mover(agent) if p == seat else mine for p in range(n)] for seat in range(n)]
        got = [play_adapter_game(game, v.deal(g), movers_of[g % n]).returns()[g % n] for g in range(games)]
        diff = np.asarray(got) - np.asarray(own)
        half = 1.96 * float(diff.std(ddof=1)) / np.sqrt(games)
        out[response] = {
            "mean": float(np.mean(got)),
            "gain": float(diff.mean()),
            "ci": [diff.mean() - half, diff.mean() + half],
        }
    return out


# ----- what a seat knows at the start, and how big the tree is ------------------------------------------
def deal_known(v: Variant) -> list[float]:
    """Per seat, the share of deals its first observation gives away (see the module docstring):
    with fixed deals, those it tells apart from every other deal (it then knows every card to
    come); with ``chance="cards"``, sampled deals in which every ``resample`` of the table from
    what it has seen is the true table (it knows every card the others hold)."""
    game = v.spec().make_game()
    shares = []
    for seat in range(game.num_players):
        if v.chance == "deals":
            seen = [game.new_initial_state(d).observation(seat).tobytes() for d in range(v.deals)]
            count = Counter(seen)
            shares.append(sum(count[o] == 1 for o in seen) / v.deals)
            continue
        known = 0
        for d in range(KNOWN_DEALS):
            state = game.new_initial_state(d)
            truth = state.global_observation(0)
            worlds = (state.resample(seat, KNOWN_RESAMPLES * d + k) for k in range(KNOWN_RESAMPLES))
            known += all(np.array_equal(w.global_observation(0), truth) for w in worlds)
        shares.append(known / KNOWN_DEALS)
    return shares


def chance_paths(game: Any) -> float:
    """log10 of the chance paths from the root to the first decision: the product of the outcome
    counts of the draws before it (the same for every path: the setup's draws have fixed sizes)."""
    state, total = game.new_initial_state(), 0.0
    while state.is_chance_node():
        total += math.log10(len(state.chance_outcomes()))
        state.apply_action(0)
    return total


# ----- one variant -----------------------------------------------------------------------------------
def run_variant(v: Variant, zoo_games: int, log: Any = print) -> dict[str, Any]:
    """Solve ``v``, measure its distance to an equilibrium, and count every agent's decisions."""
    game = v.adapter_game()
    log(f"{v.key}: {v.solver} on {v.env_id} {v.config}, chance={v.chance}, {v.deals} deals", flush=True)
    if v.solver == "cfr+":
        solved = solve_cfr(game, v.budget)
    else:
        solved = solve_mccfr(game, v.budget, "outcome" if v.solver == "os-mccfr" else "external")
    spec, playing = v.spec(), v.playing_game()
    counts = {"equilibrium": frequencies(spec, policy_games(v, playing, solved["policy"], v.games))}
    for agent in ("rule", "random"):
        counts[agent] = frequencies(spec, agent_games(spec, agent, v.games, v.agent_deals()))
    if zoo_games:
        counts["zoo (4-player game)"] = zoo_frequencies(v.env_id, zoo_games)
    result: dict[str, Any] = {
        "key": v.key,
        "env_id": v.env_id,
        "config": v.config,
        "chance": v.chance,
        "deals": v.deals,
        "solver": v.solver,
        "games": v.games,
        "zoo_games": zoo_games,
        "counts": counts,
        "deal_known": deal_known(v),
        "chance_paths_log10": chance_paths(game),
        **{k: val for k, val in solved.items() if not k.endswith("policy")},
    }
    if v.solver != "cfr+":
        policy = solved["policy"]
        result["coverage"] = [policy.averaged, policy.asked]  # of its own games, counted above
        half = policy_games(v, playing, solved["half_policy"], v.games)
        result["half_counts"] = frequencies(spec, half)
        result["gap"] = gap_lower_bound(v, playing, policy, max(40, v.games // 4))
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
    """For MCCFR: information states and the first measure at half and full budget, and the
    share of its own games' decisions taken at an averaged information state."""
    if r["solver"] == "cfr+":
        return "exact tree walk"
    first = MEASURES[r["env_id"]][0][0]
    averaged, asked = r["coverage"]
    return (
        f"{r['half_infostates']:,} -> {r['infostates']:,} information states "
        f"({r['averaged']:,} with an average); {first} {rate_cell(r['half_counts'][first])} -> "
        f"{rate_cell(r['counts']['equilibrium'][first])}; its own games: {100 * averaged / max(asked, 1):.1f}% "
        f"of {asked:,} decisions at an averaged information state"
    )


def chance_cell(r: dict[str, Any]) -> str:
    """The chance mode, and the chance paths to the first decision (how big the tree is)."""
    if r["chance"] == "deals":
        return f"{r['deals']} fixed deals (open deck)"
    return f"every draw; 10^{r['chance_paths_log10']:.0f} paths to the first decision"


def convergence_table(results: list[dict[str, Any]]) -> dict[str, Any]:
    rows = [
        [
            r["key"],
            chance_cell(r),
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
        "chance nodes",
        "solver",
        "iterations",
        "time",
        "distance to an equilibrium",
        "settled?",
        "deal known at the start, per seat",
    ]
    return {"headers": headers, "align": "lllrrlll", "rows": rows}


def plot(results: list[dict[str, Any]], path: Path) -> None:
    """One panel per variant: each measure's rate per agent, 95% Wilson bars, n above each bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(len(results), 2)  # two panels a row: four side by side read too small on a page
    rows = -(-len(results) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.4 * cols, 4.4 * rows), squeeze=False)
    width = 0.8 / len(AGENTS)
    for ax, r in zip(axes.flat, results, strict=False):
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
        chance = "every draw a chance node" if r.get("chance", "deals") == "cards" else f"{r['deals']} fixed deals"
        title = f"{r['key']}: {r['env_id']}, {r['config']['num_players']} players,\n{chance}; equilibrium: {solver}"
        ax.set_title(title, fontsize=8)
        ax.grid(axis="y", alpha=0.3)
    for ax in axes.flat[len(results) :]:
        ax.set_visible(False)
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
