"""OpenSpiel games as games of this engine: the reverse adapter (``pyspiel`` game -> ``Game``).

``smuggle_envs.openspiel`` turns the library's games into OpenSpiel games; this module does the
opposite for three small OpenSpiel games, so that the library's own tools (``smuggle exploit``,
``smuggle match`` and tournaments, the analytics, the PettingZoo env) run on games whose exact
equilibria and best responses OpenSpiel can compute:

=====================  ================  ========  ================================================
env id                 OpenSpiel game    players   what it is
=====================  ================  ========  ================================================
``os_kuhn_poker_v0``   ``kuhn_poker``    2 to 4    a card each from players + 1 cards, one bet
``os_leduc_poker_v0``  ``leduc_poker``   2         six cards, two betting rounds, a public card
``os_sheriff_v0``      ``sheriff``       2         Sheriff of Nottingham: a smuggler hides illegal
                                                   items and offers bribes, the sheriff inspects
=====================  ================  ========  ================================================

They are not among the default ``ENV_IDS``: the registry registers the games of
``OPENSPIEL_GAMES`` by itself the first time an ``os_`` env id is asked for (its ``ON_DEMAND``
table names this module by string; this module never imports the registry), so ``smuggle
exploit random --env os_kuhn_poker_v0`` just works; ``smuggle_envs.registry.register_family("os_")``
registers them ahead of use.

How the engine contract maps onto OpenSpiel:

* **Chance** is resolved inside the state, by its own seeded RNG, from ``chance_outcomes()``
  (at the start and after every action), so a game is a function of (config, seed, actions) and
  replays like any other; a state never rests on a chance node.
* **Observation**: the seat's ``information_state_tensor`` (perfect recall; every value in
  [0, 1] for these games), one piece ``information_state``. ``render(seat)`` is the seat's
  ``information_state_string``; ``render()`` OpenSpiel's full text of the state.
* **Scores**: OpenSpiel's returns once the game is over (chips, or the sheriff's money), zero
  before (nothing is paid before the end). ``score_scale`` is the largest utility in absolute
  value, so the ``score`` reward mode is the utility minus the table mean over that scale.
* **Hidden actions**: an action is shown to the other seats (``action_to_string(a, viewer)``)
  only if it changes what each of them can tell apart (their information state strings);
  Sheriff's number of illegal items reads "makes a hidden choice" to the sheriff.
* **Resample**: exact. The game tree is enumerated once per game (lazily; at most 28,085 nodes,
  Sheriff's, about a second): every history, indexed by (seat, its length, the seat's
  information state string). ``resample(seat)`` draws one history of the seat's information set
  with probability proportional to its **chance probability** (the product of the chance
  outcomes on it), every hidden choice of another seat counted once: the posterior of a seat
  that treats the others' hidden choices as uniform (in Kuhn poker, the opponent's card is each
  remaining card with equal probability; in Sheriff, the smuggler's 0 to 3 illegal items each
  one in four). The world's future chance comes from a seed drawn from the caller's ``rng``,
  never from the true state's RNG (which would foretell Leduc's public card).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import random
from collections import defaultdict
from typing import Any, ClassVar

import numpy as np
import pyspiel

from .core.errors import ConfigError
from .core.game import TERMINAL, Game, GameConfig, State, copy_rng
from .core.layout import ObservationLayout, Piece

# A history of the index: (full history with chance outcomes, the decisions alone, chance probability)
History = tuple[tuple[int, ...], tuple[int, ...], float]


@dataclasses.dataclass(frozen=True)
class OpenSpielConfig(GameConfig):
    """The one option: the player count (``players`` of the OpenSpiel game)."""

    num_players: int = 2


class OpenSpielGame(Game):
    """A pyspiel game (``pyspiel_name``, at ``num_players`` where it has a "players" parameter) as
    a ``Game``; a subclass names the game, its title and its player range."""

    pyspiel_name: ClassVar[str]
    title: ClassVar[str]
    config_class = OpenSpielConfig
    min_players = 2
    max_players = 2

    def __init__(self, config: GameConfig | None = None, **kwargs: Any):
        super().__init__(config, **kwargs)
        self.pyspiel_game = _load(self.pyspiel_name, self.num_players)
        kind = self.pyspiel_game.get_type()
        if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL or not kind.provides_information_state_tensor:
            raise ConfigError(f"{self.pyspiel_name}: only sequential games with an information state tensor")
        self._num_distinct = self.pyspiel_game.num_distinct_actions()

    @property
    def num_actions(self) -> int:
        return self._num_distinct

    @property
    def score_scale(self) -> float:
        return max(abs(self.pyspiel_game.min_utility()), abs(self.pyspiel_game.max_utility()))

    def _build_layout(self) -> ObservationLayout:
        size = self.pyspiel_game.information_state_tensor_size()
        text = f"OpenSpiel's information_state_tensor(seat) of {self.pyspiel_name}"
        return ObservationLayout([Piece("information_state", size, text)])

    def new_initial_state(self, seed: int | None = None) -> OpenSpielState:
        return OpenSpielState(self, seed)

    def action_to_string(self, action: int) -> str:
        return _action_names(self.pyspiel_name, self.num_players).get(int(action), f"action {action}")

    def infostate_index(self) -> dict[tuple[int, int, str], list[History]]:
        """(seat, history length, the seat's information state string) -> every history there,
        with its decisions and its chance probability (see the module docstring). Built once per
        OpenSpiel game and player count, and shared by every ``Game`` of them (they are immutable)."""
        return _infostate_index(self.pyspiel_name, self.num_players)


def _load(name: str, num_players: int) -> Any:
    """The pyspiel game at ``num_players`` (a game without a "players" parameter, Sheriff, is
    2-player only, which its ``max_players`` says)."""
    default = pyspiel.load_game(name)
    return pyspiel.load_game(name, {"players": num_players}) if "players" in default.get_parameters() else default


@functools.cache
def _action_names(name: str, num_players: int) -> dict[int, str]:
    """Every decision's OpenSpiel text, found by walking the tree until each action is named
    (an action id means one thing in these games, whoever takes it)."""
    game = _load(name, num_players)
    names: dict[int, str] = {}
    stack = [game.new_initial_state()]
    while stack and len(names) < game.num_distinct_actions():
        state = stack.pop()
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            for a in state.legal_actions():
                names.setdefault(a, state.action_to_string(state.current_player(), a))
        stack.extend(state.child(a) for a in state.legal_actions())
    return names


@functools.cache
def _infostate_index(name: str, num_players: int) -> dict[tuple[int, int, str], list[History]]:
    index: dict[tuple[int, int, str], list[History]] = defaultdict(list)

    def walk(state: Any, decisions: tuple[int, ...], prob: float) -> None:
        if state.is_chance_node():
            for outcome, p in state.chance_outcomes():
                walk(state.child(outcome), decisions, prob * p)
            return
        history = tuple(state.history())
        for seat in range(num_players):
            index[seat, len(history), state.information_state_string(seat)].append((history, decisions, prob))
        if not state.is_terminal():
            for a in state.legal_actions():
                walk(state.child(a), (*decisions, a), prob)

    walk(_load(name, num_players).new_initial_state(), (), 1.0)
    return dict(index)


class OpenSpielState(State[OpenSpielGame]):
    """An engine state holding a pyspiel state (``pyspiel_state``), never at a chance node."""

    def __init__(self, game: OpenSpielGame, seed: int | None, pyspiel_state: Any = None):
        super().__init__(game, seed)
        self.pyspiel_state = game.pyspiel_game.new_initial_state() if pyspiel_state is None else pyspiel_state
        self._resolve_chance()

    def _resolve_chance(self) -> None:
        """Draw every pending chance outcome with the state's RNG (one uniform draw each)."""
        state = self.pyspiel_state
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            r, total = self.rng.random(), 0.0
            pick = outcomes[-1][0]  # if rounding leaves r above the last cumulative sum
            for outcome, p in outcomes:
                total += p
                if r < total:
                    pick = outcome
                    break
            state.apply_action(pick)

    # ----- the contract -------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.pyspiel_state.is_terminal() else int(self.pyspiel_state.current_player())

    def legal_actions(self) -> tuple[int, ...]:
        if self.pyspiel_state.is_terminal():
            return ()
        return tuple(sorted(self.pyspiel_state.legal_actions()))

    def is_terminal(self) -> bool:
        return bool(self.pyspiel_state.is_terminal())

    def scores(self) -> list[float]:
        if not self.pyspiel_state.is_terminal():
            return [0.0] * self._num_players
        return [float(r) for r in self.pyspiel_state.returns()]

    def _observation(self, player: int) -> np.ndarray:
        return np.asarray(self.pyspiel_state.information_state_tensor(player), dtype=np.float32)

    def _render(self, player: int | None) -> str:
        if player is None:
            return str(self.pyspiel_state)
        return f"{self.game.seat_name(player)} sees: {self.pyspiel_state.information_state_string(player)}"

    def _apply(self, action: int) -> None:
        self.pyspiel_state.apply_action(action)
        self._resolve_chance()

    def clone(self) -> OpenSpielState:
        new = copy.copy(self)
        new.pyspiel_state = self.pyspiel_state.clone()
        new.rng = copy_rng(self.rng)
        new.history = list(self.history)
        return new

    def _public_action_string(self, action: int) -> str:
        if self._is_hidden(action):
            return f"{self.game.seat_name(self.current_player())} makes a hidden choice"
        return self.game.action_to_string(action)

    def _is_hidden(self, action: int) -> bool:
        """True when some other seat cannot tell ``action`` from another legal action: the
        children's information state strings of that seat coincide."""
        actor, state = self.current_player(), self.pyspiel_state
        others = [p for p in range(self._num_players) if p != actor]
        seen = {p: state.child(action).information_state_string(p) for p in others}
        for other in self.legal_actions():
            if other != action:
                child = state.child(other)
                if any(child.information_state_string(p) == seen[p] for p in others):
                    return True
        return False

    def _resample(self, player: int, rng: random.Random) -> OpenSpielState:
        history = self.pyspiel_state.history()
        key = (player, len(history), self.pyspiel_state.information_state_string(player))
        worlds = self.game.infostate_index()[key]
        full, decisions, _ = rng.choices(worlds, weights=[w for _, _, w in worlds])[0]
        inner = self.game.pyspiel_game.new_initial_state()
        for a in full:
            inner.apply_action(a)
        # a fresh seed from the caller: the world's future chance must not be the truth's
        world = OpenSpielState(self.game, rng.getrandbits(63), inner)
        world.history = list(decisions)
        return world


class KuhnPokerGame(OpenSpielGame):
    """Kuhn poker (OpenSpiel's ``kuhn_poker``): one private card each from a deck of players + 1
    cards (J, Q, K for two), an ante of one chip, one round of pass or bet."""

    env_id = "os_kuhn_poker_v0"
    pyspiel_name = "kuhn_poker"
    title = "Kuhn poker (OpenSpiel)"
    max_players = 4


class LeducPokerGame(OpenSpielGame):
    """Leduc poker (OpenSpiel's ``leduc_poker``): a private card, two betting rounds, one public card."""

    env_id = "os_leduc_poker_v0"
    pyspiel_name = "leduc_poker"
    title = "Leduc poker (OpenSpiel)"


class SheriffGame(OpenSpielGame):
    """Sheriff (OpenSpiel's ``sheriff``): the smuggler loads 0 to 3 illegal items in secret, then
    offers bribes over 4 rounds; the sheriff answers whether it will inspect, and inspects or not
    at the end. Player 0 is the smuggler, player 1 the sheriff."""

    env_id = "os_sheriff_v0"
    pyspiel_name = "sheriff"
    title = "Sheriff (OpenSpiel)"


OPENSPIEL_GAMES: dict[str, type[OpenSpielGame]] = {
    cls.env_id: cls for cls in (KuhnPokerGame, LeducPokerGame, SheriffGame)
}
"""env id -> its game class: the OpenSpiel games this module adapts."""


__all__ = [
    "OPENSPIEL_GAMES",
    "KuhnPokerGame",
    "LeducPokerGame",
    "OpenSpielConfig",
    "OpenSpielGame",
    "OpenSpielState",
    "SheriffGame",
]
