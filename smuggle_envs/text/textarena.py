"""The games behind TextArena's env protocol, so TextArena's agents and loops play them.

TextArena (``pip install textarena``; not needed here, nothing imports it) runs a game as::

    env.reset(num_players=4, seed=0)
    done = False
    while not done:
        player_id, observation = env.get_observation()
        done, info = env.step(action=agents[player_id](observation))
    rewards, game_info = env.close()

``TextArenaEnv`` implements that protocol over any registered game. Each observation is the
whole prompt of ``smuggle_envs.text.observe`` (header, the seat's history, table, cards, scores,
numbered menu), so it is what TextArena's own observation wrappers would build from a message
list: use the env unwrapped or with TextArena's action wrappers and agent wrappers, not with its
observation wrappers (they expect message lists).

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

from typing import Any

from ..core.game import State
from ..core.outcomes import check_reward_mode
from ..registry import make_game
from .log import SeatLog
from .parse import parse_action
from .prompt import DEFAULT_HISTORY, TextObservation, history_text, observe, scores_text


class TextArenaEnv:
    """A registered game (``env_id``, game options ``config``) as a TextArena env.

    ``error_allowance``: unreadable answers allowed per decision before the fallback is played.
    ``history``: lines of the seat's log in each prompt (None: all). ``reward_mode``: as the
    PettingZoo env's."""

    def __init__(
        self,
        env_id: str,
        *,
        error_allowance: int = 1,
        history: int | None = DEFAULT_HISTORY,
        reward_mode: str = "win_loss",
        **config: Any,
    ):
        if "num_players" in config:
            raise ValueError("give the player count to reset(num_players=...), as TextArena does")
        if not isinstance(error_allowance, int) or error_allowance < 0:
            raise ValueError(f"error_allowance must be an int >= 0, got {error_allowance!r}")
        self.env_id = env_id
        self.config = config
        self.error_allowance = error_allowance
        self.history = history
        self.reward_mode = check_reward_mode(reward_mode)
        make_game(env_id, **config)  # a bad id or option fails here, not at the first reset
        self.state: State[Any] | None = None

    def reset(self, num_players: int, seed: int | None = None) -> None:
        """Deal a new game of ``num_players`` (``seed``: the deal; None, a fresh one)."""
        game = make_game(self.env_id, num_players=num_players, **self.config)
        self.state = game.new_initial_state(seed)
        self._logs = [SeatLog(game, p) for p in range(num_players)]
        self._errors = 0
        self._notice = ""
        self._pending: TextObservation | None = None
        self._last_player = 0
        self.game_info: dict[int, dict[str, Any]] = {
            p: {"role": game.seat_name(p), "invalid_move": False, "turn_count": 0, "fallback_moves": 0}
            for p in range(num_players)
        }

    def _live(self) -> State[Any]:
        if self.state is None:
            raise RuntimeError("call reset(num_players, seed) first")
        return self.state

    def get_observation(self) -> tuple[int, str]:
        """``(player_id, prompt)`` of the seat that decides; once the game is over, the last
        actor and the final table."""
        state = self._live()
        if state.is_terminal():
            return self._last_player, self._final_text(self._last_player)
        return state.current_player(), self._notice + self._observation().prompt

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
                return False, {**info, "invalid_move": True, "reason": parsed.reason}
            chosen = shown.legal[0]
            self.game_info[seat]["invalid_move"] = True
            self.game_info[seat]["fallback_moves"] += 1
            info.update(fallback=True, reason=parsed.reason)
        info["action"] = shown.texts[shown.legal.index(chosen)]
        state.apply_action(chosen)
        self.game_info[seat]["turn_count"] += 1
        self._last_player, self._errors, self._notice, self._pending = seat, 0, "", None
        return state.is_terminal(), info

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
        parts += ["The table:\n" + state.render(seat).rstrip("\n"), scores_text(state, seat)]
        return "\n\n".join(parts) + "\n"
