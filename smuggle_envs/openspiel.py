"""Every smuggle_envs game as an OpenSpiel Python game (``import smuggle_envs.openspiel``).

Importing this module registers ``python_<env_id>`` for every env id, so OpenSpiel's tools run on
these games unchanged::

    import pyspiel
    import smuggle_envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_smuggle_v0", {"players": 4})
    dealt = pyspiel.load_game("python_illegal_v0", {"players": 2, "chance": "cards"})

===========================  =============================================================
Game parameters              ``players`` (the game's legal counts), ``chance`` ("deals"), ``seed``
                             (0), ``deals`` (1), ``max_game_length`` (20000)
Chance, ``chance="deals"``   one explicit chance node at the root: the deal, uniform over the
                             ``deals`` seeds ``seed, seed + 1, ...``; every later chance event
                             (draws, shuffles) follows from that seed inside the engine, so a
                             seat that tells the deals apart knows every card to come
Chance, ``chance="cards"``   every draw of the engine is a chance node of ``n`` uniform outcomes,
                             outcome ``k`` the draw ``k`` of ``range(n)`` (each step of a shuffle,
                             a random card, the first player; a one-outcome draw is no node), so a
                             seat knows only the cards it has seen. ``seed`` only names the engine
                             state, ``deals`` must stay 1; ``max_chance_outcomes`` is the largest
                             draw of the setup (the largest deck; a later draw past it raises).
                             A draw that cannot be enumerated (``random()``: Import / Export's
                             coin flip) raises ValueError
Information                  imperfect, perfect recall: ``information_state_string`` is what the
                             seat observed before each action and what it saw of that action
                             (``action_to_string(a, seat)``), then what it observes now; chance
                             outcomes are never in it
Observation                  tensor: ``state.observation(seat)`` (the game's layout, float32);
                             string: ``state.render(seat)``, the table as that seat sees it
Utility                      ``returns("win_loss")``: +1 for each top score, -1 otherwise
                             (general sum: a shared win pays every winner)
``resample_from_infostate``  the engine's ``resample(seat, rng)``: a world drawn from what the
                             seat has seen, never copied from the truth
Serialization                pickled as (env id, config, seed, actions) and replayed; with
                             ``chance="cards"``, as (env id, config, seed, each step's draws)
===========================  =============================================================

A game still running after ``max_game_length`` decisions is truncated: it ends with every return
0, the library's truncation contract. ``pyspiel`` comes with the ``openspiel`` extra
(``pip install smuggle_envs[openspiel]``). ``load(env_id, **config)`` builds a rule variant
(``pyspiel.load_game`` takes only the parameters above).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from .core.game import Game, State, drawing_from
from .core.replay import Replay
from .core.spec import GameSpec
from .registry import ENV_IDS, game_class, make_game

PREFIX = "python_"
DEFAULT_MAX_LENGTH = 20_000
CHANCE_MODES = ("deals", "cards")
_SETUP = -1  # the step that builds the engine state (its setup: the deal), not a decision
_FRESH_STATE = random.Random(0).getstate()


def _default_players(env_id: str) -> int:
    return GameSpec(env_id).num_players


def _game_type(env_id: str) -> pyspiel.GameType:
    cls = game_class(env_id)
    return pyspiel.GameType(
        short_name=PREFIX + env_id,
        long_name=f"smuggle_envs {env_id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        # the observation vector summarises the present; no fixed-size tensor holds the history
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": _default_players(env_id),
            "chance": "deals",
            "seed": 0,
            "deals": 1,
            "max_game_length": DEFAULT_MAX_LENGTH,
        },
    )


# ----- chance="cards": every draw of the engine an explicit chance node ------------------------------
class _NeedChance(Exception):
    """A draw past the end of the script: the step needs a chance node of ``n`` outcomes first."""

    def __init__(self, n: int):
        super().__init__(f"the engine drew outside an OpenSpiel chance node ({n} outcomes): apply through the adapter")
        self.n = n


class _ScriptedRandom(random.Random):
    """A ``random.Random`` whose draws are read from a script of chance outcomes. CPython's
    ``shuffle``, ``randrange``, ``choice`` and ``sample`` all draw through ``_randbelow(n)``, a
    uniform choice in ``range(n)``: each is the script's next value or, past its end,
    ``_NeedChance(n)``. A one-outcome draw takes nothing from the script (no chance node)."""

    def __init__(self, script: Sequence[int], env_id: str):
        # not seeded (``random.Random.__init__`` seeds the Mersenne Twister, a cost paid at every
        # chance node): every draw goes through the methods below, none reads the generator
        self.script, self.pos, self.env_id = script, 0, env_id

    def getstate(self) -> tuple[Any, ...]:
        # A copy (an engine clone's ``copy_rng``) cannot follow the script: it is a fresh
        # ``random.Random(0)``. The adapter gives every step its own script, so only code that
        # clones the engine and steps it by itself ever draws from such a copy.
        return _FRESH_STATE

    def _randbelow(self, n: int) -> int:
        if n <= 1:
            return 0
        if self.pos == len(self.script):
            raise _NeedChance(n)
        self.pos += 1
        return self.script[self.pos - 1]

    def random(self) -> float:
        raise self._unenumerable("random()")

    def getrandbits(self, k: int) -> int:
        raise self._unenumerable("getrandbits()")

    def _unenumerable(self, what: str) -> ValueError:
        return ValueError(
            f"chance='cards' needs every draw to be a uniform choice among n outcomes, but {self.env_id} "
            f"drew {what} (a coin flip or a weighted draw): use chance='deals'"
        )


class _CountingRandom(_ScriptedRandom):
    """Answers every draw 0 and keeps the largest outcome count asked for."""

    most = 1

    def _randbelow(self, n: int) -> int:
        self.most = max(self.most, n)
        return 0


def _setup_outcomes(game: Game, seed: int) -> int:
    """The largest draw of the setup (the largest deck shuffled): ``max_chance_outcomes``. The
    games shuffle every deck they have at setup, and no later draw (a reshuffle, a random card
    from a hand or a pile) can have more outcomes than there are cards of a deck."""
    rng = _CountingRandom((), game.env_id)
    with drawing_from(rng):
        game.new_initial_state(seed)
    return rng.most


def _first_draw(game: Game, seed: int) -> int:
    try:
        _run_step(game, None, _SETUP, (), seed)
    except _NeedChance as draw:
        return draw.n
    return 0


def _run_step(game: Game, engine: State[Any] | None, step: int, draws: Sequence[int], seed: int) -> State[Any]:
    """The engine state after ``step`` (``_SETUP``: the setup; else the decision, applied to a
    copy of ``engine``) when its draws are ``draws``; raises ``_NeedChance`` at a draw past them.
    The step is run again from its start for every new draw: the engine cannot be paused mid-step."""
    rng = _ScriptedRandom(draws, game.env_id)
    if step == _SETUP:
        with drawing_from(rng):
            return game.new_initial_state(seed)
    assert engine is not None
    after = engine.clone()
    after.rng = rng
    after.apply_action(step)
    return after


# ----- the game ---------------------------------------------------------------------------------------------
def _check_params(params: dict[str, Any]) -> tuple[str, int, int, int]:
    """(chance, seed, deals, max_game_length), or a one-line ValueError (before the engine is built)."""
    chance = params.get("chance", "deals")
    seed, deals = int(params.get("seed", 0)), int(params.get("deals", 1))
    max_length = int(params.get("max_game_length", DEFAULT_MAX_LENGTH))
    if chance not in CHANCE_MODES:
        raise ValueError(f"chance must be one of {', '.join(map(repr, CHANCE_MODES))}, got {chance!r}")
    if seed < 0 or deals < 1 or max_length < 1:
        raise ValueError(f"seed must be >= 0, deals and max_game_length positive, got {seed}, {deals}, {max_length}")
    if chance == "cards" and deals != 1:
        raise ValueError(f"deals={deals} needs chance='deals': with chance='cards' every draw is a chance node")
    return chance, seed, deals, max_length


class SmuggleGame(pyspiel.Game):
    """One smuggle_envs env as an OpenSpiel game (see the module docstring)."""

    def __init__(self, env_id: str, params: dict[str, Any] | None = None, **config: Any):
        params = dict(params or {})
        players = int(params.get("players", _default_players(env_id)))
        chance, seed, deals, max_length = _check_params(params)
        self.engine = make_game(env_id, num_players=players, **config)  # config: a rule variant (``load``)
        self.chance, self.seed, self.deals, self.max_length = chance, seed, deals, max_length
        self.max_outcomes = deals if chance == "deals" else _setup_outcomes(self.engine, seed)
        # the outcomes of the setup's first draw (0: it draws nothing), the same in every game:
        # found once here, not at every new_initial_state (OpenSpiel's clone calls it)
        self.first_draw = _first_draw(self.engine, seed) if chance == "cards" else 0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions,
            max_chance_outcomes=self.max_outcomes,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=max_length,
        )
        super().__init__(_game_type(env_id), info, {**params, "players": players})

    def __deepcopy__(self, memo: dict[int, Any]) -> SmuggleGame:
        return self  # immutable, and shared by every state (OpenSpiel clones states by deepcopy)

    def new_initial_state(self) -> SmuggleState:
        return SmuggleState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SmuggleObserver:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SmuggleObserver(self.engine.observation_layout.size, recall)


class _Engine:
    """Holds the engine state of an OpenSpiel state. OpenSpiel serializes a Python state by
    pickling its ``__dict__``; the engine's byte buffers cannot be pickled, so the holder pickles
    as the engine's replay (env id, config, seed, actions) and is rebuilt by replaying it. With
    ``chance="cards"`` the seed did not draw the cards: ``log`` keeps each step and its draws
    (None for a world of ``resample_from_infostate``, which has no such record)."""

    __slots__ = ("log", "state")

    def __init__(self, state: State[Any] | None, log: list[tuple[int, tuple[int, ...]]] | None = None):
        self.state = state
        self.log = log

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self.state is None:
            return _Engine, (None, self.log)
        if self.log is not None:
            game = self.state.game
            return _engine_from_draws, (game.env_id, game.config.to_dict(), self.state.seed, self.log)
        if self.state.__dict__.get("_not_replayable"):
            raise ValueError("a world drawn by resample_from_infostate cannot be serialized (it has no replay)")
        return _engine_from_replay, (self.state.to_replay(),)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        log = None if self.log is None else list(self.log)  # its entries are immutable tuples
        return _Engine(None if self.state is None else self.state.clone(), log)


def _engine_from_replay(replay: Replay | None) -> _Engine:
    return _Engine(None if replay is None else replay.final_state())


def _engine_from_draws(
    env_id: str, config: dict[str, Any], seed: int, log: list[tuple[int, tuple[int, ...]]]
) -> _Engine:
    game = make_game(env_id, **config)
    engine = None
    for step, draws in log:
        engine = _run_step(game, engine, step, draws, seed)
    return _Engine(engine, list(log))


def _digest(view: np.ndarray) -> str:
    # a short, exact-enough key for one observation: information states stay small strings
    return hashlib.blake2b(view.tobytes(), digest_size=8).hexdigest()


class SmuggleState(pyspiel.State):
    """An OpenSpiel state wrapping an engine state (``None`` until the setup is dealt)."""

    def __init__(self, game: SmuggleGame, engine: State[Any] | None = None, seen: list[list[str]] | None = None):
        super().__init__(game)
        self._game = game
        cards = game.chance == "cards"
        self._engine = _Engine(engine, [] if cards and engine is None else None)
        self.decisions = 0
        # per seat, for every action so far: what it observed before it and what it saw of it
        self.seen: list[list[str]] = seen if seen is not None else [[] for _ in range(game.num_players())]
        # chance="cards": the step waiting for its draws (a decision, or _SETUP), the draws
        # chosen for it so far, and how many outcomes the next one has (0: no step waits)
        self.pending: int | None = None
        self.script: list[int] = []
        self.need = 0
        if cards and engine is None:
            self.pending, self.need = _SETUP, game.first_draw
            if not self.need:
                self._advance()

    @property
    def engine(self) -> State[Any] | None:
        """The engine state (``None`` before the deal; while draws are pending, the state before
        the step that draws them)."""
        return self._engine.state

    # ----- the pyspiel.State interface -----------------------------------------------------------
    def current_player(self) -> int:
        if self.need or self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.engine.current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.need:
            return [(k, 1.0 / self.need) for k in range(self.need)]
        deals = self._game.deals
        return [(d, 1.0 / deals) for d in range(deals)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return list(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        if self.need:
            self._draw(int(action))
            return
        engine = self.engine
        if engine is None:
            # the deal is never written into ``seen``: its seed fixes every hidden card
            self._engine.state = self._game.engine.new_initial_state(self._game.seed + int(action))
            return
        seen = [
            _digest(engine.observation(seat)) + ":" + engine.action_to_string(action, seat)
            for seat in range(len(self.seen))
        ]
        if self._game.chance == "cards":
            self.pending = int(action)
            try:
                self._advance()
            except BaseException:
                self.pending = None  # refused (an illegal action, a draw that cannot be a chance node)
                raise
        else:
            engine.apply_action(action)
        for record, entry in zip(self.seen, seen, strict=True):
            record.append(entry)
        self.decisions += 1

    def _draw(self, outcome: int) -> None:
        """A chance outcome with ``chance="cards"``: the pending step's next draw."""
        if not 0 <= outcome < self.need:
            raise ValueError(f"chance outcome {outcome} is out of range [0, {self.need})")
        self.script.append(outcome)
        try:
            self._advance()
        except BaseException:
            self.script.pop()
            raise

    def _advance(self) -> None:
        """Run the pending step with the draws chosen so far: it completes, or its next draw
        becomes the chance node (``need`` outcomes)."""
        game = self._game
        assert self.pending is not None
        try:
            engine = _run_step(game.engine, self.engine, self.pending, self.script, game.seed)
        except _NeedChance as draw:
            if draw.n > game.max_outcomes:
                raise ValueError(
                    f"a draw of {draw.n} outcomes is past max_chance_outcomes={game.max_outcomes} (the setup's largest)"
                ) from None
            self.need = draw.n
            return
        if self._engine.log is not None:
            self._engine.log.append((self.pending, tuple(self.script)))
        self._engine.state = engine
        self.pending, self.script, self.need = None, [], 0

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action}" if self._game.chance == "cards" else f"deal {self._game.seed + int(action)}"
        assert self.engine is not None
        return self.engine.action_to_string(action)

    def is_terminal(self) -> bool:
        engine = self.engine
        if self.need or engine is None:
            return False
        return engine.is_terminal() or self.decisions >= self._game.max_length

    def returns(self) -> list[float]:
        if self.need or self.engine is None or not self.engine.is_terminal():
            return [0.0] * self._game.num_players()  # running, or truncated by max_game_length
        return [float(r) for r in self.engine.returns("win_loss")]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SmuggleState:
        """A world the seat cannot tell from this one: the engine's ``resample`` (see ``State.resample``)."""
        if self.engine is None:
            return self.clone()
        rng = random.Random(int(probability_sampler() * 2**53))
        world = SmuggleState(self._game, self.engine.resample(player_id, rng), [list(s) for s in self.seen])
        world.decisions = self.decisions
        world.pending, world.script, world.need = self.pending, list(self.script), self.need
        return world

    def __str__(self) -> str:
        return "(before the deal)" if self.engine is None else self.engine.render()


class SmuggleObserver:
    """Observation tensor and strings for one seat (``perfect_recall``: the information state)."""

    def __init__(self, size: int, perfect_recall: bool):
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: SmuggleState, player: int) -> None:
        if state.engine is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state.engine.observation(player)

    def string_from(self, state: SmuggleState, player: int) -> str:
        if state.engine is None:
            return "(before the deal)"
        if not self.perfect_recall:
            return state.engine.render(player)
        now = _digest(state.engine.observation(player))
        return "|".join([*state.seen[player], now])


def load(
    env_id: str,
    *,
    players: int | None = None,
    chance: str = "deals",
    deals: int = 1,
    seed: int = 0,
    **config: Any,
) -> SmuggleGame:
    """The OpenSpiel game of ``env_id`` with a rule variant: ``config`` goes to the game's config
    (e.g. ``load("humble_smuggle_v0", players=2, deals=2, end_card_depth=6)``, small enough for
    CFR; ``chance="cards"`` makes every draw a chance node). Such a game is not in OpenSpiel's
    registry, so ``pyspiel.deserialize_game_and_state`` rebuilds its states' engines but not the
    game's config."""
    params: dict[str, Any] = {"chance": chance, "deals": deals, "seed": seed}
    if players is not None:
        params["players"] = players
    return SmuggleGame(env_id, params, **config)


def register(env_ids: tuple[str, ...] = ENV_IDS) -> None:
    """Register ``python_<env_id>`` for these env ids (done for all of them on import)."""
    registered = set(pyspiel.registered_names())
    for env_id in env_ids:
        if PREFIX + env_id not in registered:
            pyspiel.register_game(_game_type(env_id), _game_class_for(env_id))


def _game_class_for(env_id: str) -> type[SmuggleGame]:
    # OpenSpiel's registry calls the class with the parameters alone; the env id is bound here.
    def __init__(self: SmuggleGame, params: dict[str, Any] | None = None) -> None:
        SmuggleGame.__init__(self, env_id, params)

    name = PREFIX + env_id
    cls = type(name, (SmuggleGame,), {"__init__": __init__, "__module__": __name__, "__qualname__": name})
    globals()[name] = cls  # pickle finds classes by module and name
    return cls


register()

__all__ = ["PREFIX", "SmuggleGame", "SmuggleObserver", "SmuggleState", "load", "register"]
