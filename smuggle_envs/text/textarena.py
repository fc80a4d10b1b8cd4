"""The games behind TextArena's env protocol, so TextArena's agents, loops and wrappers play them.

TextArena (``pip install textarena``; not needed here, nothing imports it) runs a game as::

    env.reset(num_players=4, seed=0)
    done = False
    while not done:
        player_id, observation = env.get_observation()
        done, info = env.step(action=agents[player_id](observation))
    rewards, game_info = env.close()

``TextArenaEnv`` implements that protocol over any registered game. It has two observation forms
(``observations``):

* ``"prompt"`` (the default): each observation is the whole prompt of
  ``smuggle_envs.text.observe`` (header, the seat's history, table, cards, scores, numbered menu),
  what TextArena's observation wrappers would build; use it unwrapped or with action, agent and
  render wrappers.
* ``"messages"``: TextArena's raw form, for its observation wrappers (``LLMObservationWrapper``,
  ``GameBoardObservationWrapper``...): a list of ``(from_id, text, ObservationType)`` messages,
  only what is new to the seat since its last observation: on its first, the ``PROMPT`` (header
  and rules brief); then one ``GAME_ACTION_DESCRIPTION`` per line of its log it has not been sent,
  a ``GAME_ADMIN`` notice after an unreadable answer, and the ``GAME_BOARD``: its situation (table,
  cards, scores, numbered menu). ``SingleTurnObservationWrapper`` keeps only a batch's first
  message, as it does for TextArena's own multi-turn games.

Every message is from the seat's own views (``observe``'s parts), so no wrapper shows a seat
what it may not know.

**``env.state``** is a TextArena-style state (``TextArenaState``) for the wrappers that read one
(``SimpleRenderWrapper``, the role names of ``LLMObservationWrapper``): ``num_players``,
``current_player_id``, ``role_mapping``, ``turn``, ``done``, ``game_info``, ``logs`` and
``game_state``, public information only. The engine's state is ``env.engine_state``.
``get_board_str()`` (what ``SimpleRenderWrapper`` draws) is the public board: whose turn, the
decisions taken and the scores (public until the end by the core contract); ``spectator=True``
draws the whole table instead (``state.render()``: everything, for watching programs play, never
with a person in a seat).

**Invalid answers.** An answer ``parse_action`` cannot read, like TextArena's invalid move, is
answered with the reason at the top of the same player's next observation, and the player tries
again, up to ``error_allowance`` times for one decision (TextArena's default: 1). After that the
player does not lose the game (a card game cannot drop a seat): the **first legal action** of the
menu is played for it, and its ``game_info`` records it (``invalid_move`` True,
``fallback_moves`` counted).

**Rewards.** ``close()`` returns every seat's return under ``reward_mode`` (``win_loss`` by
default: +1 for every seat sharing the top score, -1 for the others, as TextArena's
``set_winners``; zero for all in a game cut short by its turn limit) and a ``game_info`` per seat:
``role`` (the seat's name), ``invalid_move``, ``turn_count``, ``fallback_moves``, ``score`` and
``reason`` (how the game ended).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core.game import State
from ..core.outcomes import check_reward_mode
from ..registry import make_game
from .brief import rules_brief
from .log import SeatLog
from .parse import parse_action
from .prompt import (
    DEFAULT_HISTORY,
    TextObservation,
    game_title,
    header,
    history_text,
    observe,
    scores_text,
    situation,
)

GAME_ID = -1  # TextArena's sender id of the game's own messages
OBSERVATION_FORMS = ("prompt", "messages")


@dataclasses.dataclass
class TextArenaState:
    """What TextArena's wrappers read from ``env.state`` (the fields of ``textarena.State``), all
    public: who is to act, the seats' names, the decisions taken, and ``logs`` (one line a
    decision: ``(seat, "P2 has answered")``; what was played reaches each seat only as that seat
    may see it, through its observations). ``game_state``: env id, decisions taken, scores."""

    num_players: int
    role_mapping: dict[int, str]
    game_info: dict[int, dict[str, Any]]
    current_player_id: int = 0
    turn: int = 0
    done: bool = False
    max_turns: int | None = None
    logs: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    game_state: dict[str, Any] = dataclasses.field(default_factory=dict)
    step_info: dict[str, Any] = dataclasses.field(default_factory=dict)


class TextArenaEnv:
    """A registered game (``env_id``, game options ``config``) as a TextArena env.

    ``error_allowance``: unreadable answers allowed per decision before the fallback is played.
    ``history``: lines of the seat's log in each prompt (None: all). ``reward_mode``: as the
    PettingZoo env's. ``observations``: ``"prompt"`` or ``"messages"`` (the module docstring).
    ``spectator``: ``get_board_str()`` draws the whole table, not the public board."""

    def __init__(
        self,
        env_id: str,
        *,
        error_allowance: int = 1,
        history: int | None = DEFAULT_HISTORY,
        reward_mode: str = "win_loss",
        observations: str = "prompt",
        spectator: bool = False,
        **config: Any,
    ):
        if "num_players" in config:
            raise ValueError("give the player count to reset(num_players=...), as TextArena does")
        if not isinstance(error_allowance, int) or error_allowance < 0:
            raise ValueError(f"error_allowance must be an int >= 0, got {error_allowance!r}")
        if observations not in OBSERVATION_FORMS:
            raise ValueError(f"observations must be one of {OBSERVATION_FORMS}, got {observations!r}")
        self.env_id = env_id
        self.config = config
        self.error_allowance = error_allowance
        self.history = history
        self.reward_mode = check_reward_mode(reward_mode)
        self.observations = observations
        self._kinds = _observation_types() if observations == "messages" else None
        self.spectator = spectator
        make_game(env_id, **config)  # a bad id or option fails here, not at the first reset
        self.engine_state: State[Any] | None = None
        self.state: TextArenaState | None = None

    def reset(self, num_players: int, seed: int | None = None) -> None:
        """Deal a new game of ``num_players`` (``seed``: the deal; None, a fresh one)."""
        game = make_game(self.env_id, num_players=num_players, **self.config)
        self.engine_state = game.new_initial_state(seed)
        self._logs = [SeatLog(game, p) for p in range(num_players)]
        self._sent = [-1] * num_players  # lines of each seat's log sent as messages; -1: no prompt yet
        self._errors = 0
        self._notice = ""
        self._pending: TextObservation | None = None
        self._last_player = 0
        self.game_info: dict[int, dict[str, Any]] = {
            p: {"role": game.seat_name(p), "invalid_move": False, "turn_count": 0, "fallback_moves": 0}
            for p in range(num_players)
        }
        names = {p: game.seat_name(p) for p in range(num_players)}
        self.state = TextArenaState(num_players, {**names, GAME_ID: "GAME"}, self.game_info)
        self._sync()

    def _live(self) -> State[Any]:
        if self.engine_state is None:
            raise RuntimeError("call reset(num_players, seed) first")
        return self.engine_state

    def _sync(self) -> None:
        """Bring ``self.state`` up to the engine's state (public fields only)."""
        state, ta = self._live(), self.state
        assert ta is not None
        ta.done = state.is_terminal()
        ta.current_player_id = self._last_player if ta.done else state.current_player()
        ta.turn = len(state.history)
        ta.game_state = {"env_id": self.env_id, "decisions": ta.turn, "scores": self._public_scores()}

    def _public_scores(self) -> list[str]:
        state = self._live()
        return [state.game.score_text(score) for score in state.scores()]

    def get_board_str(self) -> str:
        """What ``SimpleRenderWrapper`` draws: the public board (whose turn, decisions taken,
        scores), or with ``spectator=True`` the whole table."""
        state = self._live()
        if self.spectator:
            return state.render().rstrip("\n")
        game = state.game
        who = "the game is over" if state.is_terminal() else f"{game.seat_name(state.current_player())} to act"
        scores = ", ".join(f"{game.seat_name(p)} {text}" for p, text in enumerate(self._public_scores()))
        return f"{game_title(game)}, {game.num_players} players: {len(state.history)} decisions taken; {who}.\nScores: {scores}"

    def get_observation(self) -> tuple[int, Any]:
        """``(player_id, observation)`` of the seat that decides (a prompt, or new messages);
        once the game is over, the last actor and the final table."""
        state = self._live()
        if state.is_terminal():
            seat = self._last_player
            if self._kinds is not None:
                return seat, self._messages(seat, self._final_table(seat), final=True)
            return seat, self._final_text(seat)
        seat = state.current_player()
        if self._kinds is not None:
            return seat, self._messages(seat, situation(state, seat, self._observation().texts))
        return seat, self._notice + self._observation().prompt

    def _messages(self, seat: int, board: str, final: bool = False) -> list[tuple[int, str, Any]]:
        """What is new to ``seat`` since its last observation, as TextArena messages."""
        kinds, state = self._kinds, self._live()
        assert kinds is not None
        out = []
        if self._sent[seat] < 0:
            prompt = (
                header(state.game, seat)
                + "\n\n"
                + rules_brief(self.env_id, num_players=state.game.num_players, **self.config)
            )
            out.append((GAME_ID, prompt, kinds.PROMPT))
            self._sent[seat] = 0
        log = self._logs[seat]
        log.follow(state)
        out += [(GAME_ID, line, kinds.GAME_ACTION_DESCRIPTION) for line in log.lines[self._sent[seat] :]]
        self._sent[seat] = len(log.lines)
        if self._notice or final:
            notice = f"The game is over: {self._result(state)}." if final else self._notice.strip()
            out.append((GAME_ID, notice, kinds.GAME_ADMIN))
        out.append((GAME_ID, board, kinds.GAME_BOARD))
        return out

    def _observation(self) -> TextObservation:
        state = self._live()
        if self._pending is None:
            seat = state.current_player()
            self._pending = observe(state, seat, self._logs[seat], history=self.history)
        return self._pending

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        """Play the current player's answer ``action``; returns ``(done, info)``."""
        state = self._live()
        if state.is_terminal():
            return True, {"reason": "the game is over"}
        seat, shown = state.current_player(), self._observation()
        parsed = parse_action(action, shown.legal, shown.texts)
        info: dict[str, Any] = {"player_id": seat}
        chosen = parsed.action
        if chosen is None:
            self._errors += 1
            if self._errors <= self.error_allowance:
                left = self.error_allowance - self._errors
                self._notice = (
                    f"Your last answer was not accepted: {parsed.reason}. Answer again "
                    f"({left} more unreadable answer{'s' if left != 1 else ''} and action 1 is played for you).\n\n"
                )
                self._log(GAME_ID, f"{state.game.seat_name(seat)}'s answer was not accepted")
                return False, {**info, "invalid_move": True, "reason": parsed.reason}
            chosen = shown.legal[0]
            self.game_info[seat]["invalid_move"] = True
            self.game_info[seat]["fallback_moves"] += 1
            info.update(fallback=True, reason=parsed.reason)
        info["action"] = shown.texts[shown.legal.index(chosen)]
        state.apply_action(chosen)
        self.game_info[seat]["turn_count"] += 1
        self._last_player, self._errors, self._notice, self._pending = seat, 0, "", None
        played = " (action 1, played for it)" if info.get("fallback") else ""
        self._log(seat, f"{state.game.seat_name(seat)} took decision {len(state.history)}{played}")
        self._sync()
        return state.is_terminal(), info

    def _log(self, sender: int, line: str) -> None:
        """A public line of ``state.logs``: who decided, never what (each seat is told what was
        played as it may see it, in its own observations)."""
        assert self.state is not None
        self.state.logs.append((sender, line))

    def close(self) -> tuple[dict[int, float], dict[int, dict[str, Any]]]:
        """``(rewards, game_info)``, by seat. Before the end: zero rewards, reason says so."""
        state = self._live()
        n = state.game.num_players
        if state.is_terminal():
            rewards = dict(enumerate(state.returns(self.reward_mode)))
            reason = self._result(state)
        else:
            rewards = dict.fromkeys(range(n), 0.0)
            reason = "the game was closed before its end"
        for p, score in enumerate(state.scores()):
            self.game_info[p].update(score=score, reason=reason)
        return rewards, self.game_info

    @staticmethod
    def _result(state: State[Any]) -> str:
        game = state.game
        if state.is_truncated():
            return "the game was cut short by its turn limit: no winner"
        scores = state.scores()
        names = " and ".join(game.seat_name(p) for p in state.winning_seats())
        best = game.score_text(max(scores))
        return f"{names} {'share the win' if len(state.winning_seats()) > 1 else 'wins'} with {best}"

    def _final_text(self, seat: int) -> str:
        state = self._live()
        parts = ["The game is over: " + self._result(state) + "."]
        if self.history != 0:
            log = self._logs[seat]
            log.follow(state)
            parts.append(history_text(log.lines, self.history))
        parts.append(self._final_table(seat))
        return "\n\n".join(parts) + "\n"

    def _final_table(self, seat: int) -> str:
        state = self._live()
        return "The table:\n" + state.render(seat).rstrip("\n") + "\n\n" + scores_text(state, seat)


def _observation_types() -> Any:
    """TextArena's ``ObservationType``, which its observation wrappers sort messages by."""
    try:
        from textarena.core import ObservationType
    except ImportError:
        raise ImportError(
            "observations='messages' are TextArena's messages and need it: pip install -e '.[text]'"
        ) from None
    return ObservationType
