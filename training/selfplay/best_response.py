"""A best response: a learner trained against one frozen agent in every other seat.

Two callers: ``smuggle exploit`` (``training.exploit``: how exploitable is an agent?) and the
league's exploiters (``TrainConfig.exploiter_every``: a best response to the learner itself,
added to its opponents, as AlphaStar's league exploiters). Both run the self-play trainer's
learner (the numpy rollout, the fused update of
``update_ops``), on ``n_envs`` games of ``SelfPlayEnv`` with a one-entry pool: the learner takes a
random seat each game against one instance of the target per other seat, each reseeded every
game.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

from .config import TrainConfig, policy_spec, ppo_kwargs
from .learner import fast_distribution, learner_class, warm_start
from .single_agent import SelfPlayEnv

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO

    from smuggle_envs.core.game import Game


def learner(
    game: Game, target: str, c: TrainConfig, log: Any = print, policy: tuple[Any, dict[str, Any]] | None = None
) -> tuple[MaskablePPO, VecMonitor]:
    """A fresh learner over ``c.n_envs`` games against ``target`` (an agent spec) in every other
    seat, warm started if ``c.imitate``, and its vector env. ``policy``: MaskablePPO's policy
    class and keyword arguments (default: ``c``'s network)."""

    def make_env() -> SelfPlayEnv:
        return SelfPlayEnv(
            c.game_spec(),
            pool=[("target", target)],
            reward_mode=c.reward_mode,
            dense_score=c.dense_score,
            max_decisions=c.max_decisions,
            privileged=c.critic == "privileged",
        )

    venv = VecMonitor(DummyVecEnv([make_env] * c.n_envs))
    policy_class, kwargs = policy or policy_spec(c, game.observation_layout.size)
    model = learner_class(c)(
        policy_class, venv, seed=c.seed, device="cpu", verbose=0, policy_kwargs=kwargs, **ppo_kwargs(c)
    )
    fast_distribution(model, c)
    if c.imitate:
        data, _ = warm_start(model, game, c, c.imitation_samples)
        log(f"warm start: cloned {c.imitate!r} from {len(data)} decisions")
    return model, venv


def train(game: Game, target: str, c: TrainConfig, out: Path, start_from: MaskablePPO) -> MaskablePPO:
    """Train a best response to ``target`` for ``c.steps`` steps from ``start_from``'s weights (a
    league exploiter starts from the learner it exploits: the same network), save it as ``out``
    (a zip: the agent spec ``ppo:OUT``) and return it."""
    model, venv = learner(game, target, c, policy=(start_from.policy_class, start_from.policy_kwargs))
    model.policy.load_state_dict(start_from.policy.state_dict())
    try:
        model.learn(c.steps, progress_bar=False)
    finally:
        venv.close()
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    return model
