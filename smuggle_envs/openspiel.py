"""Every smuggle_envs game as an OpenSpiel Python game (``import smuggle_envs.openspiel``).

Importing this module registers ``python_<env_id>`` for every env id, so OpenSpiel's tools run on
these games unchanged::

    import pyspiel
    import smuggle_envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_smuggle_v0", {"players": 4})

=========================  ===============================================================
Game parameters            ``players`` (the game's legal counts), ``seed`` (0), ``deals`` (1),
                           ``max_game_length`` (20000)
Chance                     one explicit chance node at the root: the deal, uniform over the
                           ``deals`` seeds ``seed, seed + 1, ...``; every later chance event
                           (draws, shuffles) follows from that seed inside the engine
Information                imperfect; ``information_state_string`` is the seat's observation
                           and what it saw of every action (``action_to_string(a, seat)``)
Observation tensor         ``state.observation(seat)`` (the game's layout, float32)
Utility                    ``returns("win_loss")``: +1 for each top score, -1 otherwise
                           (general sum: a shared win pays every winner)
``resample_from_infostate``  the engine's ``resample(seat, rng)``: a world drawn from what the
                           seat has seen, never copied from the truth
=========================  ===============================================================

A game still running after ``max_game_length`` decisions is truncated: it ends with every return
0, the library's truncation contract. ``pyspiel`` comes with the ``openspiel`` extra
(``pip install smuggle_envs[openspiel]``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from .core.game import State
from .registry import ENV_IDS, game_class, make_game

PREFIX = "python_"
DEFAULT_MAX_LENGTH = 20_000


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
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": cls.config_class.num_players
            if cls.min_players <= cls.config_class.num_players <= cls.max_players
            else cls.min_players,
            "seed": 0,
            "deals": 1,
            "max_game_length": DEFAULT_MAX_LENGTH,
        },
    )


class SmuggleGame(pyspiel.Game):
    """One smuggle_envs env as an OpenSpiel game (see the module docstring)."""

    def __init__(self, env_id: str, params: dict[str, Any] | None = None, **config: Any):
        params = dict(params or {})
        game_type = _game_type(env_id)
        defaults = game_type.parameter_specification
        players = int(params.get("players", defaults["players"]))
        self.engine = make_game(env_id, num_players=players, **config)  # config: a rule variant (see ``load``)
        self.seed, self.deals = int(params.get("seed", 0)), int(params.get("deals", 1))
        self.max_length = int(params.get("max_game_length", DEFAULT_MAX_LENGTH))
        if self.deals < 1 or self.max_length < 1:
            raise ValueError(f"deals and max_game_length must be positive, got {self.deals}, {self.max_length}")
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions,
            max_chance_outcomes=self.deals,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=self.max_length,
        )
        super().__init__(game_type, info, {**params, "players": players})

    def __deepcopy__(self, memo: dict[int, Any]) -> SmuggleGame:
        return self  # immutable, and shared by every state (OpenSpiel clones states by deepcopy)

    def new_initial_state(self) -> SmuggleState:
        return SmuggleState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SmuggleObserver:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SmuggleObserver(self.engine.observation_layout.size, recall)


class SmuggleState(pyspiel.State):
    """An OpenSpiel state wrapping an engine state (``None`` until the chance node deals)."""

    def __init__(self, game: SmuggleGame, engine: State[Any] | None = None, seen: list[list[str]] | None = None):
        super().__init__(game)
        self._game = game
        self.engine = engine
        self.decisions = 0
        # what each seat saw of every action so far (its information state's history)
        self.seen: list[list[str]] = seen if seen is not None else [[] for _ in range(game.num_players())]

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
        if self.engine is None:
            self.engine = self._game.engine.new_initial_state(self._game.seed + int(action))
            return
        for seat, seen in enumerate(self.seen):
            seen.append(self.engine.action_to_string(action, seat))
        self.engine.apply_action(action)
        self.decisions += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._game.seed + int(action)}"
        assert self.engine is not None
        return self.engine.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.engine is not None and (self.engine.is_terminal() or self.decisions >= self._game.max_length)

    def returns(self) -> list[float]:
        if self.engine is None or not self.is_terminal() or not self.engine.is_terminal():
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
        view = state.engine.observation(player).tobytes().hex()
        if not self.perfect_recall:
            return view
        return view + "|" + "|".join(state.seen[player])


def load(env_id: str, *, players: int | None = None, deals: int = 1, seed: int = 0, **config: Any) -> SmuggleGame:
    """The OpenSpiel game of ``env_id`` with a rule variant: ``config`` goes to the game's config
    (e.g. ``load("illegal_v0", players=2, deals=2, hand_size=1, max_hands=1)``, small enough for
    CFR). ``pyspiel.load_game`` takes only the parameters of the module docstring."""
    params: dict[str, Any] = {"deals": deals, "seed": seed}
    if players is not None:
        params["players"] = players
    return SmuggleGame(env_id, params, **config)


def register(env_ids: tuple[str, ...] = ENV_IDS) -> None:
    """Register ``python_<env_id>`` for these env ids (done for all of them on import)."""
    registered = set(pyspiel.registered_names())
    for env_id in env_ids:
        if PREFIX + env_id in registered:
            continue
        pyspiel.register_game(_game_type(env_id), _game_class_for(env_id))


def _game_class_for(env_id: str) -> type[SmuggleGame]:
    # OpenSpiel registers a class (a closure kept by its C++ registry outlives the interpreter).
    def __init__(self: SmuggleGame, params: dict[str, Any] | None = None) -> None:
        SmuggleGame.__init__(self, env_id, params)

    name = PREFIX + env_id
    cls = type(name, (SmuggleGame,), {"__init__": __init__, "__module__": __name__, "__qualname__": name})
    globals()[name] = cls  # pickle (OpenSpiel's serialization) finds game classes by name
    return cls


register()

__all__ = ["PREFIX", "SmuggleGame", "SmuggleObserver", "SmuggleState", "register"]
