"""Every smuggle_envs game as an OpenSpiel Python game (``import smuggle_envs.openspiel``).

Importing this module registers ``python_<env_id>`` for every env id, so OpenSpiel's tools run on
these games unchanged::

    import pyspiel
    import smuggle_envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_smuggle_v0", {"players": 4})

===========================  =============================================================
Game parameters              ``players`` (the game's legal counts), ``seed`` (0), ``deals`` (1),
                             ``max_game_length`` (20000)
Chance                       one explicit chance node at the root: the deal, uniform over the
                             ``deals`` seeds ``seed, seed + 1, ...``; every later chance event
                             (draws, shuffles) follows from that seed inside the engine
Information                  imperfect, perfect recall: ``information_state_string`` is what the
                             seat observed before each action and what it saw of that action
                             (``action_to_string(a, seat)``), then what it observes now
Observation                  tensor: ``state.observation(seat)`` (the game's layout, float32);
                             string: ``state.render(seat)``, the table as that seat sees it
Utility                      ``returns("win_loss")``: +1 for each top score, -1 otherwise
                             (general sum: a shared win pays every winner)
``resample_from_infostate``  the engine's ``resample(seat, rng)``: a world drawn from what the
                             seat has seen, never copied from the truth
Serialization                pickled as (env id, config, seed, actions) and replayed
===========================  =============================================================

A game still running after ``max_game_length`` decisions is truncated: it ends with every return
0, the library's truncation contract. ``pyspiel`` comes with the ``openspiel`` extra
(``pip install smuggle_envs[openspiel]``). ``load(env_id, **config)`` builds a rule variant
(``pyspiel.load_game`` takes only the parameters above).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np
import pyspiel

from .core.game import State
from .core.replay import Replay
from .core.spec import GameSpec
from .registry import ENV_IDS, game_class, make_game

PREFIX = "python_"
DEFAULT_MAX_LENGTH = 20_000


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
            "seed": 0,
            "deals": 1,
            "max_game_length": DEFAULT_MAX_LENGTH,
        },
    )


class SmuggleGame(pyspiel.Game):
    """One smuggle_envs env as an OpenSpiel game (see the module docstring)."""

    def __init__(self, env_id: str, params: dict[str, Any] | None = None, **config: Any):
        params = dict(params or {})
        players = int(params.get("players", _default_players(env_id)))
        seed, deals = int(params.get("seed", 0)), int(params.get("deals", 1))
        max_length = int(params.get("max_game_length", DEFAULT_MAX_LENGTH))
        # checked before the engine is built, so a bad value is refused with one line
        if seed < 0 or deals < 1 or max_length < 1:
            raise ValueError(
                f"seed must be >= 0, deals and max_game_length positive, got {seed}, {deals}, {max_length}"
            )
        self.engine = make_game(env_id, num_players=players, **config)  # config: a rule variant (``load``)
        self.seed, self.deals, self.max_length = seed, deals, max_length
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions,
            max_chance_outcomes=deals,
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
    as the engine's replay (env id, config, seed, actions) and is rebuilt by replaying it."""

    __slots__ = ("state",)

    def __init__(self, state: State[Any] | None):
        self.state = state

    def __reduce__(self) -> tuple[Any, tuple[Replay | None]]:
        if self.state is None:
            return _Engine, (None,)
        if self.state.__dict__.get("_not_replayable"):
            raise ValueError("a world drawn by resample_from_infostate cannot be serialized (it has no replay)")
        return _engine_from_replay, (self.state.to_replay(),)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(None if self.state is None else self.state.clone())


def _engine_from_replay(replay: Replay | None) -> _Engine:
    return _Engine(None if replay is None else replay.final_state())


def _digest(view: np.ndarray) -> str:
    # a short, exact-enough key for one observation: information states stay small strings
    return hashlib.blake2b(view.tobytes(), digest_size=8).hexdigest()


class SmuggleState(pyspiel.State):
    """An OpenSpiel state wrapping an engine state (``None`` until the chance node deals)."""

    def __init__(self, game: SmuggleGame, engine: State[Any] | None = None, seen: list[list[str]] | None = None):
        super().__init__(game)
        self._game = game
        self._engine = _Engine(engine)
        self.decisions = 0
        # per seat, for every action so far: what it observed before it and what it saw of it
        self.seen: list[list[str]] = seen if seen is not None else [[] for _ in range(game.num_players())]

    @property
    def engine(self) -> State[Any] | None:
        """The engine state (``None`` before the deal)."""
        return self._engine.state

    # ----- the pyspiel.State interface -----------------------------------------------------------
    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.engine.current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self._game.deals
        return [(d, 1.0 / deals) for d in range(deals)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return list(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        engine = self.engine
        if engine is None:
            # the deal is never written into ``seen``: its seed fixes every hidden card
            self._engine.state = self._game.engine.new_initial_state(self._game.seed + int(action))
            return
        for seat, seen in enumerate(self.seen):
            seen.append(_digest(engine.observation(seat)) + ":" + engine.action_to_string(action, seat))
        engine.apply_action(action)
        self.decisions += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._game.seed + int(action)}"
        assert self.engine is not None
        return self.engine.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.engine is not None and (self.engine.is_terminal() or self.decisions >= self._game.max_length)

    def returns(self) -> list[float]:
        if self.engine is None or not self.engine.is_terminal():
            return [0.0] * self._game.num_players()  # running, or truncated by max_game_length
        return [float(r) for r in self.engine.returns("win_loss")]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SmuggleState:
        """A world the seat cannot tell from this one: the engine's ``resample`` (see ``State.resample``)."""
        if self.engine is None:
            return self.clone()
        rng = random.Random(int(probability_sampler() * 2**53))
        world = SmuggleState(self._game, self.engine.resample(player_id, rng), [list(s) for s in self.seen])
        world.decisions = self.decisions
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


def load(env_id: str, *, players: int | None = None, deals: int = 1, seed: int = 0, **config: Any) -> SmuggleGame:
    """The OpenSpiel game of ``env_id`` with a rule variant: ``config`` goes to the game's config
    (e.g. ``load("humble_smuggle_v0", players=2, deals=2, end_card_depth=6)``, small enough for
    CFR). Such a game is not in OpenSpiel's registry, so ``pyspiel.deserialize_game_and_state``
    rebuilds its states' engines but not the game's config."""
    params: dict[str, Any] = {"deals": deals, "seed": seed}
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
