"""What the families need to know of each game, one ``Facts`` per registered env id, and the
helpers they share (parametrization, random play, a comparable snapshot of a state)."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import importlib.util
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import smuggle_envs

ALL_MODULES = ("jutaku", "kickstarter", "captain")


def player_counts(env_id: str) -> range:
    cls = smuggle_envs.game_class(env_id)
    return range(cls.min_players, cls.max_players + 1)


# (env id, player count) pairs, as tests/core/test_all_games_contract.py parametrizes: the fewest
# and the most players of every game; EVERY_COUNT for the cheap tests, every count in between too.
CASES = [
    (env_id, n)
    for env_id in smuggle_envs.ENV_IDS
    for n in sorted({min(player_counts(env_id)), max(player_counts(env_id))})
]
IDS = [f"{env_id}-{n}p" for env_id, n in CASES]
EVERY_COUNT = [(env_id, n) for env_id in smuggle_envs.ENV_IDS for n in player_counts(env_id)]
EVERY_COUNT_IDS = [f"{env_id}-{n}p" for env_id, n in EVERY_COUNT]


def config_id(config: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in config.items()) or "default"


# ----- a game's own test helpers ---------------------------------------------------------------
_GAME_TESTS = Path(__file__).resolve().parents[2] / "games"


@functools.cache
def _game_test_helper(game: str, module: str, name: str) -> Callable:
    """A function from ``tests/games/<game>/<module>.py`` (a consistency check the game's own
    tests use too), loaded by path: the game test folders are not importable packages."""
    path = _GAME_TESTS / game / f"{module}.py"
    spec = importlib.util.spec_from_file_location(f"_families_{game}_{module}", path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return getattr(loaded, name)


def _check(game: str, module: str, name: str, *, with_game: bool = False, skip_phase: int | None = None):
    def check(state) -> None:
        if skip_phase is not None and state.phase == skip_phase:
            return
        fn = _game_test_helper(game, module, name)
        fn(state, state.game) if with_game else fn(state)

    return check


# ----- the facts --------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Sweep:
    """Positions of random games to resample in: a config, how many games, every how many steps."""

    num_players: int
    config: dict = dataclasses.field(default_factory=dict)
    games: int = 4
    every: int = 4

    @property
    def id(self) -> str:
        return f"{self.num_players}p-{config_id(self.config)}"


@dataclasses.dataclass(frozen=True)
class Facts:
    # the registry and the env
    title: str  # registry.describe()
    players: str
    num_actions: int
    observation_sizes: dict[int, int]  # sizes the rulebook's layout gives, by player count
    score_scale: float
    variant: dict  # non-default game options: the constructors pass them on, replays record them
    api_options: tuple[dict, ...] = ()  # more game options api_test and seed_test run with, at every count
    turn_holder: str | None = None  # the attribute naming whose turn it is, where others decide out of turn
    out_of_turn_at_least: int = 0  # decisions out of turn in a random game of the variant
    # determinism
    deal: tuple[str, ...] = ("deck",)  # attributes holding a shuffled deck
    game_length_at_least: int = 20  # decisions of a random game at the default config, at least
    arrange: Callable | None = None  # lays a position out by hand before the first action
    arranged_by: str = "arrange()"  # ... which the refusal to replay names
    arrange_only_before_the_first_action: bool = True
    shared_by_clones: tuple[str, ...] = ()  # attributes a clone may share: replaced whole, never changed in place
    # hidden information
    check: Callable = lambda state: None  # a consistent position (every card somewhere, once)
    known: Callable = lambda state, p: None  # what seat p knows as data: a redraw for p keeps it
    hidden: dict[str, Callable] = dataclasses.field(default_factory=dict)  # what a redraw for p moves
    moved_at_least: dict[str, int] = dataclasses.field(default_factory=dict)
    sweeps: tuple[Sweep, ...] = ()
    always_sample: Callable = lambda state: False  # rare decisions: sampled whenever they occur
    policy: Callable = lambda state, rng: rng.choice(state.legal_actions())
    phases: Callable = lambda n, config: set()  # decision types every sweep must meet
    phases_are_all: bool = False  # ... and no others
    flow: tuple[str, ...] = ()  # observation pieces that say who decides what
    flow_sweeps: tuple[Sweep, ...] = ()
    flow_compared_at_least: int = 0


def _others_changed(piece: Callable) -> Callable:
    """A hidden piece of every seat but p, compared as a whole."""
    return lambda state, p: [piece(state, q) for q in range(state.game.num_players) if q != p]


def _humble_policy(state, rng):
    # play a Play card only half the time one can, so that rounds do not drown in them
    from smuggle_envs.games.humble_smuggle.vocab import PLAY

    legal = state.legal_actions()
    if state.phase == PLAY and len(legal) > 1 and rng.random() < 0.5:
        return rng.choice(legal[:-1])
    return rng.choice(legal)


def _smuggle_facts() -> Facts:
    from smuggle_envs.games.smuggle.vocab import DECLARE, DISCARD, OFFICER, OVER, RECEIVE

    return Facts(
        title="Smuggle (MB Games 1981)",
        players="3-6",
        num_actions=510,
        observation_sizes={},
        score_scale=3000.0,
        variant={"first_officer": 2, "bankruptcy": "eliminate"},
        api_options=({"bankruptcy": "eliminate"},),
        game_length_at_least=50,
        arrange=lambda state: state.arrange(["crown", "necklace", "necklace", "necklace"]),
        arranged_by="arrange()",
        check=_check("smuggle", "test_invariants", "check_invariants", with_game=True),
        known=lambda s, p: (
            list(s.money),
            (s.phase, s.officer, s.holder, s.receiver, s.hand_size),
            list(s.known[p]),
            s.hand.tolist() if p == s.holder else None,
        ),
        hidden={"hand": lambda s, p: s.hand.tolist(), "deck": lambda s, p: list(s.deck)},
        moved_at_least={"hand": 100, "deck": 100},
        sweeps=(Sweep(3, games=10, every=3), Sweep(4, games=10, every=3), Sweep(6, games=10, every=3)),
        phases=lambda n, config: {DECLARE, OFFICER, RECEIVE, DISCARD, OVER},
        phases_are_all=True,
        flow=("phase", "my_role", "officer", "holder", "receiver"),
        flow_sweeps=(Sweep(3, games=6, every=2), Sweep(6, games=4, every=2)),
        flow_compared_at_least=200,
    )


def _ciq_facts() -> Facts:
    from smuggle_envs.games.ciq.vocab import FIRE_DECISION, GIVE_FROM_HAND, SABOTAGE2

    rare = (SABOTAGE2, FIRE_DECISION, GIVE_FROM_HAND)
    return Facts(
        title="CIQ (Jason Reed)",
        players="2-6",
        num_actions=274,
        observation_sizes={5: 311 + 182 * 5},
        score_scale=54.0,
        variant={"ace_is_face": True},
        deal=("stock",),
        game_length_at_least=30,
        shared_by_clones=("winners", "last_fire"),  # replaced whole, never changed in place
        arrange=lambda state: state.arrange(hands={0: ["Ac", "7h"]}),
        check=_check("ciq", "_checks", "check_state"),
        known=lambda s, p: (
            s.hand[p].tolist(),
            sorted(s.exp[p]),
            s.hand_size.tolist(),
            s.exp_size.tolist(),
            [pub.tolist() for pub in s.exp_pub],  # what everyone saw go into each Export pile
            s.phase,
            list(s.history),
        ),
        hidden={
            "hands": _others_changed(lambda s, q: s.hand[q].tolist()),
            "stock": lambda s, p: list(s.stock),
            "exports": _others_changed(lambda s, q: sorted(s.exp[q])),
        },
        moved_at_least={"hands": 50, "stock": 50, "exports": 5},
        sweeps=(
            Sweep(2, games=8, every=5),
            Sweep(3, games=8, every=5),
            Sweep(5, games=8, every=5),
            Sweep(6, games=8, every=12),
        ),
        always_sample=lambda s: s.phase in rare,
        phases=lambda n, config: set(range(8)) - ({1} if n == 2 else set()),
        phases_are_all=True,
        flow=("phase", "turn", "target"),
        flow_sweeps=(Sweep(2, games=6, every=2), Sweep(6, games=4, every=2)),
        flow_compared_at_least=200,
    )


def _illegal_facts() -> Facts:
    from smuggle_envs.games.illegal import vocab as R

    rare = (R.TRADE_PARTNER, R.TARGET, R.TAKE, R.PAY, R.LOSE)

    def phases(n, config):
        seen = {R.PLAY, R.EXTRA, R.LOSE, R.PASS, R.REACT, R.OVER}
        return seen | (
            {R.TRADE_GIVE, R.TRADE_WANT, R.TRADE_PARTNER, R.TRADE_ANSWER} if config.get("trading") else set()
        )

    def hidden_hands(s, p):
        return [s.hands[q].tolist() for q in range(s.n) if q != p and not s.is_open(q)]

    return Facts(
        title="Illegal (ElPadre)",
        players="2-6",
        num_actions=187,
        observation_sizes={5: 177 + 70 * 5},
        score_scale=100_000.0,
        variant={"trading": True},
        api_options=({"trading": True}, {"target_score": 60_000, "max_hands": 3}),
        turn_holder="active",  # reactions, passes, trade answers: decided out of turn
        out_of_turn_at_least=20,
        arrange=lambda state: state.arrange(hands={0: ["magnum"]}),
        check=_check("illegal", "test_invariants", "check", with_game=True, skip_phase=R.OVER),
        known=lambda s, p: (s.phase, s.active, s.hands[p].tolist()),
        hidden={"hands": hidden_hands, "deck": lambda s, p: list(s.deck)},
        moved_at_least={"hands": 300, "deck": 300},
        sweeps=(
            Sweep(2, games=8, every=4),
            Sweep(4, games=8, every=4),
            Sweep(6, games=8, every=4),
            Sweep(3, {"trading": True, "trade_max": 2}, games=8, every=4),
            Sweep(4, {"target_score": 100_000, "max_hands": 2}, games=8, every=4),
        ),
        always_sample=lambda s: s.phase in rare,
        phases=phases,
        flow=("phase", "active", "decider"),
        flow_sweeps=(
            Sweep(3, games=10, every=2),
            Sweep(5, games=10, every=2),
            Sweep(4, {"trading": True}, games=10, every=2),
        ),
        flow_compared_at_least=500,
    )


def _humble_facts() -> Facts:
    from smuggle_envs.games.humble_smuggle.vocab import DISCARD, DRAFT, OVER, PLAY, SELECT

    return Facts(
        title="Humble smuggle",
        players="2-5",
        num_actions=217,
        observation_sizes={5: 386 + 108 * 5 + 25},
        score_scale=10.0,
        variant={"first_player": 2, "discard_count": "values", "end_card_depth": 30},
        deal=("deck", "bdeck"),
        game_length_at_least=80,
        arrange=lambda state: state.arrange(hands={0: [45, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]}),
        check=_check("humble_smuggle", "_checks", "check_state"),
        known=lambda s, p: (
            s.hands[p],
            s.sel[p],
            s.black[p],
            s.known,
            s.scored,
            s.centre,
            [[seat for seat, _ in t] for t in s.attached],  # who attached a Play card where: public
        ),
        hidden={
            "hands": _others_changed(lambda s, q: sorted(s.hands[q])),
            "selections": _others_changed(lambda s, q: s.sel[q]),
            "play_kinds": lambda s, p: s.attached,
            "black": _others_changed(lambda s, q: list(s.black[q])),
            "deck": lambda s, p: list(s.deck),
            "bdeck": lambda s, p: list(s.bdeck),
        },
        moved_at_least=dict.fromkeys(("hands", "selections", "play_kinds", "black", "deck", "bdeck"), 10),
        sweeps=(Sweep(2, games=6, every=4), Sweep(3, games=6, every=4), Sweep(5, games=6, every=4)),
        always_sample=lambda s: s.phase == DISCARD,
        policy=_humble_policy,
        phases=lambda n, config: {DRAFT, SELECT, PLAY, DISCARD, OVER},
        phases_are_all=True,
        flow=("phase", "to_act"),
        flow_sweeps=(Sweep(2, games=6, every=2), Sweep(5, games=4, every=2)),
        flow_compared_at_least=200,
    )


def _import_export_facts() -> Facts:
    from smuggle_envs.games.import_export.vocab import P_BID

    return Facts(
        title="Import / Export (Dark Flight Games)",
        players="2-6",
        num_actions=219,
        observation_sizes={},
        score_scale=50.0,
        variant={"modules": ALL_MODULES, "end_credits": 60, "first_leader": 1},
        api_options=({"modules": ALL_MODULES}, {"modules": ("jutaku",), "end_credits": 30, "turn_limit": 6}),
        turn_holder="leader",  # followers, bidders: decided out of the leader's turn
        out_of_turn_at_least=50,
        game_length_at_least=50,
        arrange=lambda state: state.arrange(hands={0: ["laptops"]}),
        arrange_only_before_the_first_action=False,
        check=_check("import_export", "test_invariants", "check"),
        known=lambda s, p: (s.phase, s.hands[p], s.bids[p]),
        hidden={
            "hands": _others_changed(lambda s, q: s.hands[q]),
            "deck": lambda s, p: list(s.deck),
            "bids": _others_changed(lambda s, q: s.bids[q]),
        },
        moved_at_least={"hands": 50, "deck": 50, "bids": 0},
        sweeps=tuple(
            Sweep(n, {"modules": modules}, games=2, every=4 * n)
            for n, modules in [(2, ()), (3, ALL_MODULES), (4, ()), (5, ALL_MODULES), (6, ALL_MODULES)]
        ),
        always_sample=lambda s: s.phase == P_BID,
        phases=lambda n, config: {P_BID},
        flow=("phase", "decider"),
        flow_sweeps=(Sweep(3, {"modules": ()}, games=4, every=3), Sweep(4, {"modules": ALL_MODULES}, games=4, every=3)),
        flow_compared_at_least=200,
    )


_FACTS = {
    "smuggle_v0": _smuggle_facts,
    "ciq_v0": _ciq_facts,
    "illegal_v0": _illegal_facts,
    "humble_smuggle_v0": _humble_facts,
    "import_export_v0": _import_export_facts,
}
# Games that live in test fixtures, registered only by their own pytest plugin (``-p
# tests.fixtures.<name>.register``): env id -> the module whose ``facts(Facts, Sweep)`` gives their
# Facts. One line a game; docs/adding_a_game.md and tests/test_sixth_game.py.
FIXTURE_GAMES = {"liars_deal_v0": "tests.fixtures.liars_deal.facts"}

KNOWN_GAMES = tuple(_FACTS) + tuple(e for e in FIXTURE_GAMES if e in smuggle_envs.ENV_IDS)


@functools.cache
def facts(env_id: str) -> Facts:
    if env_id in FIXTURE_GAMES:
        return importlib.import_module(FIXTURE_GAMES[env_id]).facts(Facts, Sweep)
    if env_id not in _FACTS:
        raise LookupError(f"{env_id} is registered but tests/core/families/_games.py has no Facts for it")
    return _FACTS[env_id]()


def sweep_params(kind: str) -> list:
    """(env id, sweep) parameters: each game's resampling sweeps (by default, its fewest and most
    players), or its flow sweeps."""
    params = []
    for env_id in smuggle_envs.ENV_IDS:
        if kind == "flow":
            sweeps = facts(env_id).flow_sweeps
        else:
            sweeps = facts(env_id).sweeps or tuple(Sweep(n) for e, n in CASES if e == env_id)
        params += [pytest.param(env_id, s, id=f"{env_id}-{s.id}") for s in sweeps]
    return params


# ----- random play ------------------------------------------------------------------------------
def play(state, rng: random.Random, steps: int | None = None):
    """Up to ``steps`` random legal actions (to the end if None); returns the state."""
    done = 0
    while not state.is_terminal() and (steps is None or done < steps):
        state.apply_action(rng.choice(state.legal_actions()))
        done += 1
    return state


def positions(game, f: Facts, games: int, every: int, seed: int = 0) -> Iterator:
    """Positions of random games (dealt with seeds 1000, 1001...): every ``every``-th one, every
    rare decision, and the final one."""
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(1000 + g)
        step = 0
        while not state.is_terminal():
            if step % every == 0 or f.always_sample(state):
                yield state
            state.apply_action(f.policy(state, rng))
            step += 1
        yield state


# ----- comparable states ------------------------------------------------------------------------
def snapshot(state) -> dict[str, Any]:
    """Every attribute of a state as plain data that ``==`` compares (the RNG by its state), but
    the game (compare configs) and the values of private caches (``_legal``...), whose names
    are kept."""
    out: dict[str, Any] = {"names": sorted(vars(state))}
    for name, value in vars(state).items():
        if name != "game" and not name.startswith("_"):
            out[name] = plain(value)
    return out


def plain(value: Any) -> Any:
    if isinstance(value, random.Random):
        return ("rng", value.getstate())
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, Counter):
        return ("counter", sorted(value.items()))
    if isinstance(value, dict):
        return ("dict", sorted((repr(k), plain(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", sorted(map(repr, value)))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [plain(v) for v in value])
    return value


_MUTABLE = (list, dict, set, bytearray, np.ndarray, random.Random)


def shared_mutables(a: Any, b: Any, path: str) -> Iterator[str]:
    """Paths of the mutable objects (lists, dicts, buffers and their views, RNGs) that ``a`` and
    ``b`` share; a clone must share none with its original. A tuple is a record the state
    replaces whole, never changes in place, so what it holds is not looked into."""
    if (isinstance(a, _MUTABLE) and a is b) or (
        isinstance(a, memoryview) and isinstance(b, memoryview) and a.obj is b.obj
    ):
        yield path
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from shared_mutables(x, y, f"{path}[{i}]")
    elif isinstance(a, dict) and isinstance(b, dict):
        for k in a.keys() & b.keys():
            yield from shared_mutables(a[k], b[k], f"{path}[{k!r}]")
