"""One generic PettingZoo AEC environment over any :class:`~smuggle_envs.core.game.Game`.

Agents are ``player_0 .. player_{n-1}`` (seat order, clockwise). Observations are
``{"observation": float32 vector, "action_mask": int8 vector}``, the PettingZoo classic
convention; a seat that is not to act gets an all-zero mask. Rewards arrive only when the game
ends, under ``reward_mode``:

* ``"win_loss"`` (default): +1 to every seat with the top score, -1 to the rest;
* ``"rank"``: linear in rank from +1 (first) to -1 (last), ties shared;
* ``"score"``: score minus the table mean, divided by the game's ``score_scale``.

``max_turns`` (decisions, all seats together) truncates a runaway game with zero rewards, and so
does a game's own cap (``State.is_truncated()``, e.g. a turn limit that ends the game as a draw):
the env steps its game through the core :class:`~smuggle_envs.core.driver.Driver`, which owns the
termination contract. Illegal or malformed actions raise a ``ValueError``/``TypeError`` subclass
and change nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .checks import is_int
from .driver import Driver
from .errors import ConfigError, GameOverError, MalformedActionError
from .game import Game, State
from .outcomes import check_reward_mode


class GameEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """The PettingZoo AEC environment of one game; see the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "name": "smuggle_envs", "is_parallelizable": False}

    def __init__(
        self,
        game: Game,
        render_mode: str | None = None,
        reward_mode: str = "win_loss",
        max_turns: int | None = None,
        render_perspective: int | None = None,
    ):
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ConfigError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        check_reward_mode(reward_mode)
        if max_turns is not None and (not is_int(max_turns) or max_turns < 1):
            raise ConfigError(f"max_turns must be a positive int or None, got {max_turns!r}")
        self.game = game
        self.metadata = dict(self.metadata, name=game.env_id)
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self.max_turns = max_turns
        if render_perspective is not None and (
            not is_int(render_perspective) or not 0 <= render_perspective < game.num_players
        ):
            raise ConfigError(
                f"render_perspective must be None or a seat in [0, {game.num_players}), got {render_perspective!r}"
            )
        self.render_perspective = render_perspective
        self.possible_agents = [f"player_{i}" for i in range(game.num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        layout = game.observation_layout
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(layout.low, layout.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
            }
        )
        act_space = spaces.Discrete(game.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._zero_mask = np.zeros(game.num_actions, dtype=np.int8)
        self.driver = Driver(game, max_turns)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----- AEC API -----------------------------------------------------------------------
    @property
    def game_state(self) -> State[Any] | None:
        """The engine state of the episode (None before the first ``reset``)."""
        return self.driver.state if self.driver.has_game else None

    @property
    def turns(self) -> int:
        """Decisions taken this episode, all seats together."""
        return self.driver.decisions

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.driver.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.driver.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.agent_name_mapping[agent]
        state = self._require_state()
        if not self.driver.done and state.current_player() == player:
            mask = state.legal_action_mask()
        else:
            mask = self._zero_mask.copy()
        return {"observation": state.observation(player), "action_mask": mask}

    def step(self, action: Any) -> None:
        state = self._require_state()
        agent = self.agent_selection
        if agent not in self.agents:
            raise GameOverError("the episode is over and every agent has left; call reset()")
        driver = self.driver
        if driver.done:
            if action is not None:
                raise GameOverError(
                    f"{agent} cannot act: the game is over; step(None) for each finished agent, then reset()"
                )
            self._was_dead_step(action)
            return
        if action is None:
            raise MalformedActionError(f"{agent} must act: None is only for finished agents")
        driver.step(action)  # raises before changing anything
        self._cumulative_rewards[agent] = 0.0
        if not driver.done:
            # Rewards are all zero until the end (reset() made them so): nothing to rebuild.
            self.agent_selection = self.possible_agents[state.current_player()]
        elif driver.truncated:
            # a cap (the game's own turn limit or max_turns): no winner, zero rewards
            self.truncations = {a: True for a in self.agents}
        else:
            rewards = driver.returns(self.reward_mode)
            self.rewards = {a: float(rewards[i]) for i, a in enumerate(self.possible_agents)}
            self.terminations = {a: True for a in self.agents}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self._require_state().render(self.render_perspective)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def _require_state(self) -> State[Any]:
        state = self.driver.current
        if state is None:
            raise RuntimeError("call reset() before using the environment")
        return state
