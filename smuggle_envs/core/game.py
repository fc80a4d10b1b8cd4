"""The engine contract every game implements (OpenSpiel's Game/State split).

``Game`` is immutable and built from a config dataclass. ``State`` is a mutable, cheap game
position that carries its own seeded RNG, so a game is a pure function of (config, seed, actions)
whatever the global RNGs do.

The public methods of ``State`` own the cross-cutting rules, as Pgx's single ``step`` does; a game
implements only the underscore hooks:

==========================  =========================================  ============================
public (core)               what core adds                             the game implements
==========================  =========================================  ============================
``apply_action(a)``         type, range and legality checks; refuses   ``_apply(a)``
                            actions after the end; records history
``observation(p)``          seat validation                            ``_observation(p)``
``render(p=None)``          seat validation                            ``_render(p)``
``resample(p, rng)``        seat and rng validation                    ``_resample(p, rng)``
``returns(mode)``           the termination contract (below)           ``scores()``
``action_to_string(a, v)``  what viewer ``v`` may see of the action    ``_public_action_string``
==========================  =========================================  ============================

**Termination contract.** ``is_terminal()`` is True once the game is over, by its rules or by a
cap of its own (a turn limit); ``is_truncated()`` is True in the second case. A truncated game has
no winner: ``winning_seats()`` is empty and ``returns(mode)`` is zero for every seat under every reward
mode. Otherwise core computes the rewards from ``scores()`` (before the end: as if the game ended
now; the env and the driver pay them only at the end). A game reports its outcome (scores, and
whether it was cut short), never rewards. External caps (``max_turns``, a driver's
``max_decisions``) are applied by :class:`~smuggle_envs.core.driver.Driver` under the same contract.

A refused call raises and leaves the state untouched, because validation happens before any
mutation. ``legal_actions()`` returns a tuple: the caller cannot change the state through it.
"""

from __future__ import annotations

import dataclasses
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cached_property
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

import numpy as np

from .checks import as_rng, check_seat, is_int
from .errors import ConfigError, GameOverError, IllegalActionError, MalformedActionError
from .layout import ObservationLayout
from .outcomes import check_reward_mode, normalised_scores, winners
from .outcomes import rewards as _rewards

TERMINAL = -1
"""``State.current_player()`` once the game is over."""


@dataclasses.dataclass(frozen=True)
class GameConfig:
    """Base of every game's config. Subclasses add rule variants as fields with defaults."""

    num_players: int = 4

    def validate(self, min_players: int, max_players: int) -> None:
        if not is_int(self.num_players):
            raise ConfigError(f"num_players must be an int, got {self.num_players!r}")
        if not min_players <= self.num_players <= max_players:
            raise ConfigError(
                f"num_players={self.num_players} is out of range; this game takes {min_players} to {max_players} players"
            )

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Encoder(Protocol):
    """Writes a seat's observation vector of a state (see the game's ``encoder.py``)."""

    def encode(self, state: Any, player: int) -> np.ndarray: ...


class Game(ABC):
    """An immutable game definition: rules variant, sizes, layout.

    A game declares ``num_actions`` (a class attribute is enough), and with :meth:`declare` what
    core builds from (each once per game, then cached): ``state_class`` (``new_initial_state(seed)``
    is ``state_class(game, seed)``), ``build_layout`` (a function of the game: its observation
    layout) and ``encoder_class`` (built with the game, after the layout). A game that writes its
    observation itself overrides ``State._observation`` and declares no encoder.
    """

    env_id: ClassVar[str]
    config_class: ClassVar[type[GameConfig]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # A search bot's playouts stop after this many decisions unless told otherwise (None: at the
    # end), for a game whose random play runs far longer than real play (Import / Export).
    playout_depth: ClassVar[int | None] = None
    state_class: ClassVar[Callable[..., State[Any]]]
    build_layout: ClassVar[Callable[[Any], ObservationLayout]]
    encoder_class: ClassVar[Callable[[Any], Encoder]]

    def __init__(self, config: GameConfig | None = None, **kwargs: Any):
        if config is not None and kwargs:
            raise ConfigError("give either a config object or keyword arguments, not both")
        self.config = config if config is not None else self.make_config(**kwargs)
        if not isinstance(self.config, self.config_class):
            raise ConfigError(f"expected a {self.config_class.__name__}, got {type(self.config).__name__}")
        self.config.validate(self.min_players, self.max_players)
        self.num_players: int = self.config.num_players

    @classmethod
    def make_config(cls, **kwargs: Any) -> GameConfig:
        known = {f.name for f in dataclasses.fields(cls.config_class)}
        unknown = sorted(set(kwargs) - known)
        # numpy integers (e.g. from a sweep) become plain ints so configs stay JSON-friendly.
        kwargs = {k: int(v) if isinstance(v, np.integer) else v for k, v in kwargs.items()}
        if unknown:
            raise ConfigError(f"unknown option(s) {unknown} for {cls.env_id}; valid options are {sorted(known)}")
        return cls.config_class(**kwargs)

    @property
    @abstractmethod
    def num_actions(self) -> int: ...

    @classmethod
    def declare(
        cls,
        *,
        state_class: Callable[..., State[Any]],
        build_layout: Callable[[Any], ObservationLayout],
        encoder_class: Callable[[Any], Encoder] | None = None,
        **texts: Callable[..., Any],
    ) -> None:
        """Declare what core builds a game of ``cls`` from: its state, its observation layout and
        its encoder, and the optional text methods (``card_glossary``, ``score_text``). A call,
        not class attributes, because the game's class sits below the modules these come from
        (they read their game through it): the module that assembles the state makes it, once."""
        if "state_class" in vars(cls):
            raise TypeError(f"{cls.__name__} is declared already")
        unknown = sorted(set(texts) - {"card_glossary", "score_text"})
        if unknown:
            raise TypeError(f"declare() takes no {unknown}; the text methods are card_glossary and score_text")
        cls.state_class = state_class
        cls.build_layout = build_layout
        if encoder_class is not None:
            cls.encoder_class = encoder_class
        for name, method in texts.items():
            setattr(cls, name, method)

    @cached_property
    def observation_layout(self) -> ObservationLayout:
        """The named pieces of the observation vector, built once per game."""
        return self._build_layout()

    @cached_property
    def encoder(self) -> Encoder:
        """The game's observation encoder, built once per game (after the layout)."""
        return self._make_encoder()

    def _build_layout(self) -> ObservationLayout:
        # Read on the class: a function declared there is not bound to the game.
        build: Callable[[Any], ObservationLayout] | None = getattr(type(self), "build_layout", None)
        if build is None:
            raise NotImplementedError(f"{type(self).__name__} must declare build_layout (or observation_layout)")
        return build(self)

    def _make_encoder(self) -> Encoder:
        make: Callable[[Any], Encoder] | None = getattr(type(self), "encoder_class", None)
        if make is None:
            raise NotImplementedError(f"{type(self).__name__} must declare encoder_class or override _observation()")
        return make(self)

    @property
    def score_scale(self) -> float:
        """The natural unit of a score difference, used by the normalised-score reward."""
        return 1.0

    def new_initial_state(self, seed: int | None = None) -> State[Any]:
        """A new game dealt from ``seed`` (a fresh one if None): the declared ``state_class``."""
        make: Callable[..., State[Any]] | None = getattr(type(self), "state_class", None)
        if make is None:
            raise NotImplementedError(f"{type(self).__name__} must declare state_class or define new_initial_state()")
        return make(self, seed)

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The full text of an action, as its actor sees it (see ``State.action_to_string``)."""

    # ----- text for people and language models (``smuggle_envs.text``); optional --------------------
    def seat_name(self, seat: int) -> str:
        """How every text names ``seat`` ("P0"; a game with seat colours adds them): the terminal,
        the prompts and the table text all use this one name."""
        return f"P{seat}"

    def score_text(self, score: float) -> str:
        """A score as texts show it ("120"): a game whose scores carry a tie-break fraction says
        so here, so that no text prints the fraction as money. Default: the number."""
        return f"{score:g}" if score != int(score) else str(int(score))

    def card_glossary(self) -> list[tuple[str, str]]:
        """Every kind of card or component a text names, in the game's order, with what it is or
        does (its duty and fine, its power): ``[(name, text), ...]``. The ``cards`` command, the
        prompts' rules brief and the hand lines read it. Default: none."""
        return []

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config})"


def new_seed() -> int:
    """A fresh seed from the OS, for games started without one (kept so they can be replayed)."""
    return random.SystemRandom().getrandbits(63)


def copy_rng(rng: random.Random) -> random.Random:
    """An independent ``random.Random`` in the same state. Made without ``__init__`` (no
    seeding at all: ``setstate`` overwrites every word of the state), which saves a few
    microseconds per ``clone``."""
    new = random.Random.__new__(random.Random)
    new.setstate(rng.getstate())
    return new


# The rng that states built inside ``drawing_from`` take instead of ``random.Random(seed)``. A
# context variable rather than a constructor argument: every game's state class and
# ``new_initial_state`` stay as they are, and the setup they run draws from it unchanged.
_outside_rng: ContextVar[random.Random | None] = ContextVar("outside_rng", default=None)


@contextmanager
def drawing_from(rng: random.Random) -> Iterator[None]:
    """States built inside this block draw from ``rng`` (the deal, and every draw after it)
    instead of ``random.Random(seed)``, and refuse ``to_replay``: their seed does not say what
    they drew. For an adapter that makes every draw a chance event (``smuggle_envs.openspiel``)."""
    if not isinstance(rng, random.Random):
        raise ValueError(f"drawing_from needs a random.Random, got {type(rng).__name__}")
    token = _outside_rng.set(rng)
    try:
        yield
    finally:
        _outside_rng.reset(token)


G = TypeVar("G", bound=Game)


class State(ABC, Generic[G]):
    """A game position. Subclasses implement the underscore hooks and the abstract methods;
    ``State[MyGame]`` types ``self.game`` as the game's own class."""

    def __init__(self, game: G, seed: int | None):
        self.game: G = game
        self.seed = new_seed() if seed is None else _check_seed(seed)
        outside = _outside_rng.get()
        self.rng = random.Random(self.seed) if outside is None else outside
        if outside is not None:
            self.__dict__["_not_replayable"] = "its draws came from an outside rng (core.game.drawing_from)"
        self.history: list[int] = []
        self._num_actions = game.num_actions
        self._num_players = game.num_players
        # A game that keeps the default ``_observation`` is encoded straight from ``observation``
        # (one call less on the hottest path of every loop).
        self._encoder: Encoder | None = game.encoder if type(self)._observation is State._observation else None

    # ----- what each game implements -------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat that decides next, or ``TERMINAL``."""

    @abstractmethod
    def legal_actions(self) -> tuple[int, ...]:
        """Legal actions of the current player, ascending, as a tuple. Empty once terminal."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over, by its rules or by a cap of its own (see ``is_truncated``)."""

    def is_truncated(self) -> bool:
        """True when the game was stopped by a cap of its own (a turn limit) rather than ended by
        its rules. A truncated game is terminal, has no winner and pays no rewards."""
        return False

    @abstractmethod
    def scores(self) -> list[float]:
        """Raw scores of every seat (money, points). Before the end they must use only public
        information (self-play reads them every step as a dense reward), so a game with hidden
        scoring cards reports its public part until the game is over."""

    def _observation(self, player: int) -> np.ndarray:
        """The float32 observation of a valid seat ``player``, seat-relative (by default, the
        game's encoder writes it)."""
        return self.game.encoder.encode(self, player)

    @abstractmethod
    def _render(self, player: int | None) -> str:
        """Text of the table: everything if ``player`` is None, else what that seat sees."""

    @abstractmethod
    def _resample(self, player: int, rng: random.Random) -> State[G]:
        """A copy consistent with everything ``player`` has observed, hidden cards redrawn from
        ``player``'s information set (never copied from the truth)."""

    @abstractmethod
    def clone(self) -> State[G]: ...

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an action already known to be legal."""

    def _public_action_string(self, action: int) -> str:
        """What a seat other than the actor sees of ``action`` in this state. Every action is
        public unless the game says otherwise; a game hides the ones whose choice is secret (a
        face-down selection, a sealed bid, a card passed face down)."""
        return self.game.action_to_string(action)

    # ----- the contract, validated here once for every game -----------------------------------
    def observation(self, player: int) -> np.ndarray:
        """The float32 observation of ``player``, seat-relative; see the game's layout."""
        if type(player) is not int or not 0 <= player < self._num_players:
            player = check_seat(player, self._num_players)
        encoder = self._encoder
        if encoder is not None:
            return encoder.encode(self, player)
        return self._observation(player)

    def global_observation(self, player: int) -> np.ndarray:
        """**Privileged**: what every seat knows at once, for critics only (a value function that
        sees the whole table while training, as PerfectDou's and Suphx's oracle critics do; the
        policy must never see it). The seats' observations concatenated, starting with
        ``player``'s and going round the table, so it is seat-relative like ``observation``:
        every hand, pile and private memory any seat holds (nothing that no seat knows, such as
        the order of a face-down deck). Shape ``(num_players * observation size,)``."""
        player = check_seat(player, self._num_players)
        n = self._num_players
        return np.concatenate([self.observation((player + i) % n) for i in range(n)])

    def render(self, player: int | None = None) -> str:
        """Text of the table: everything if ``player`` is None, else what that seat sees."""
        if player is not None:
            player = check_seat(player, self._num_players)
        return self._render(player)

    def private_cards(self, viewer: int) -> list[str]:
        """The names (as in ``game.card_glossary()``) of the cards ``viewer`` holds in private,
        one entry a card, so a text can put each card's text beside it. Default: none."""
        return self._private_cards(check_seat(viewer, self._num_players, "viewer"))

    def _private_cards(self, viewer: int) -> list[str]:
        return []

    def step_notes(self, before: State[G], action: int, viewer: int) -> list[str]:
        """Called on the state just after ``action`` was applied to ``before`` (a copy taken
        before it): what ``viewer`` is told happened beyond the action itself, one line each (a
        new round and who leads it, a search's verdict and who paid whom). Only what the seat may
        know: the text family checks it by resampling. Default: nothing."""
        return self._step_notes(before, action, check_seat(viewer, self._num_players, "viewer"))

    def _step_notes(self, before: State[G], action: int, viewer: int) -> list[str]:
        return []

    def resample(self, player: int, rng: Any = None) -> State[G]:
        """A copy consistent with everything ``player`` has observed, hidden cards redrawn.

        ``rng``: a ``random.Random``, an int seed, a numpy ``Generator`` or None (OS entropy)."""
        player = check_seat(player, self._num_players)
        world = self._resample(player, as_rng(rng))
        # Its seed and actions would replay the true deal, not this one: refuse to_replay().
        world.__dict__["_not_replayable"] = "a resampled state is a hypothetical deal"
        return world

    def apply_action(self, action: Any) -> None:
        action = self.check_action(action)
        self._apply(action)
        self.history.append(action)

    def check_action(self, action: object) -> int:
        """Return ``action`` as an int, or raise a clear error; never mutates the state."""
        if type(action) is int and 0 <= action < self._num_actions and self._is_legal(action):
            return action  # the common case, kept cheap; ``_is_legal`` is False once terminal
        if not is_int(action):
            raise MalformedActionError(
                f"an action must be an int in [0, {self._num_actions}), got {type(action).__name__} {action!r}"
            )
        action = int(cast(int, action))
        if self.is_terminal():
            raise GameOverError(f"the game is over; action {action} was not applied", action, [])
        legal = list(self.legal_actions())
        shown = ", ".join(f"{a} ({self.game.action_to_string(a)})" for a in legal[:12])
        shown += f", ... ({len(legal)} in all)" if len(legal) > 12 else ""
        if not 0 <= action < self._num_actions:
            raise IllegalActionError(
                f"action {action} is out of range [0, {self._num_actions}); legal actions: {shown}", action, legal
            )
        if not self._is_legal(action):
            raise IllegalActionError(
                f"action {action} ({self.game.action_to_string(action)}) is not legal for player "
                f"{self.current_player()} now; legal actions: {shown}",
                action,
                legal,
            )
        return action

    def _is_legal(self, action: int) -> bool:
        return action in self.legal_actions()

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(self._num_actions, dtype=np.int8)
        mask[list(self.legal_actions())] = 1
        return mask

    # ----- termination -------------------------------------------------------------------------
    def returns(self, mode: str = "win_loss") -> list[float]:
        """Rewards of every seat under a reward mode (see ``core.outcomes``), from the scores as
        they stand (final once terminal); zero for a truncated game, which has no winner."""
        check_reward_mode(mode, "mode")
        if self.is_truncated():
            return [0.0] * self._num_players
        return _rewards(self.scores(), mode, self.game.score_scale)

    def winning_seats(self) -> list[int]:
        """The seats that won (several on a shared top score); empty before the end and for a
        truncated game."""
        if not self.is_terminal() or self.is_truncated():
            return []
        return winners(self.scores())

    def normalised_scores(self) -> list[float]:
        """Score minus the table mean over the game's ``score_scale``, now: the dense shaping
        signal (public information only before the end, as ``scores()`` promises)."""
        return normalised_scores(self.scores(), self.game.score_scale)

    # ----- text ----------------------------------------------------------------------------------
    def action_to_string(self, action: int, viewer: int | None = None) -> str:
        """``action`` (about to be taken by ``current_player()``) as ``viewer`` sees it.

        ``viewer`` None (the full view) or the actor: the full text. Any other seat: only what
        that seat may see, so a face-down choice reads "selects a card face down", never which.
        Every interface that shows one seat another seat's action (terminal play, logs, replays
        shown to a seat, the browser app) goes through here."""
        if not is_int(action) or not 0 <= action < self._num_actions:
            raise MalformedActionError(f"an action must be an int in [0, {self._num_actions}), got {action!r}")
        action = int(action)
        if viewer is None:
            return self.game.action_to_string(action)
        viewer = check_seat(viewer, self._num_players, "viewer")
        if viewer == self.current_player():
            return self.game.action_to_string(action)
        return self._public_action_string(action)

    def to_replay(self) -> Replay:
        reason = self.__dict__.get("_not_replayable")
        if reason:
            raise ValueError(f"this state cannot be replayed from (config, seed, actions): {reason}")
        return Replay(self.game.env_id, self.game.config.to_dict(), self.seed, list(self.history))

    def __str__(self) -> str:
        return self.render()


def _check_seed(seed: Any) -> int:
    if not is_int(seed):
        raise ConfigError(f"a seed must be an int, got {type(seed).__name__} {seed!r}")
    if seed < 0:
        # random.Random(-s) deals the same game as random.Random(s): refuse rather than alias.
        raise ConfigError(f"a seed must be a non-negative int, got {seed}")
    return int(seed)


# ----- replays: a game as (env id, config, seed, actions) --------------------------------------------
# Defined here, beside the State that makes them (``to_replay``) and that they rebuild, so that no
# core module imports another in a circle; ``core.replay`` is their documented home.
GameFactory = Callable[..., "Game"]  # the registry's make_game, handed down (set_game_factory)
_factory: GameFactory | None = None


def set_game_factory(factory: GameFactory) -> None:
    """Called by the registry: how ``Replay`` turns ``(env_id, **config)`` into a ``Game``."""
    global _factory
    _factory = factory


@dataclasses.dataclass
class Replay:
    """A game as (env id, config, seed, actions): JSON on disk, rebuilt bit for bit."""

    env_id: str
    config: dict[str, Any]
    seed: int
    actions: list[int]

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Replay:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("replay JSON must be an object")
        missing = {"env_id", "config", "seed", "actions"} - set(data)
        if missing:
            raise ValueError(f"replay JSON lacks {sorted(missing)}")
        actions, seed = data["actions"], data["seed"]
        if not isinstance(actions, list) or not all(_is_int(a) for a in actions):
            raise ValueError("replay JSON 'actions' must be a list of integers")
        if not _is_int(seed):
            raise ValueError(f"replay JSON 'seed' must be an integer, got {seed!r}")
        if not isinstance(data["config"], dict):
            raise ValueError("replay JSON 'config' must be an object")
        if not isinstance(data["env_id"], str):
            raise ValueError("replay JSON 'env_id' must be a string")
        return cls(data["env_id"], data["config"], seed, actions)

    def game(self) -> Game:
        """The game this replay was played in (its env id and config)."""
        if _factory is None:
            raise RuntimeError("no game registry loaded: import smuggle_envs first")
        return _factory(self.env_id, **self.config)

    def _initial_state(self, game: Game | None) -> State[Any]:
        if game is None:
            game = self.game()
        elif game.env_id != self.env_id:
            raise ValueError(f"this replay is of {self.env_id}, not {game.env_id}")
        return game.new_initial_state(self.seed)

    def states(self, game: Game | None = None) -> Iterator[tuple[State[Any], int | None]]:
        """Yield (snapshot of the state, action about to be applied); the last has action None."""
        state = self._initial_state(game)
        for action in self.actions:
            yield state.clone(), action
            state.apply_action(action)
        yield state, None

    def final_state(self, game: Game | None = None) -> State[Any]:
        state = self._initial_state(game)
        for action in self.actions:
            state.apply_action(action)
        return state


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
