"""The learner itself: which MaskablePPO class trains, its cheaper masked distribution, and its
imitation warm start. Shared by the self-play trainer (``trainer``) and the best responses
(``best_response``: ``smuggle exploit`` and the league's exploiters)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .config import TrainConfig

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO

    from smuggle_envs.core.game import Game


def warm_start(
    model: MaskablePPO, game: Game, c: TrainConfig, samples: int, limit: int | None = None
) -> tuple[Any, dict[str, float]]:
    """Behaviour cloning of ``c.imitate`` into ``model`` from ``samples`` recorded decisions, under
    the learner's own reward (see ``imitation``), then ``c.imitation_dagger`` DAgger rounds of
    ``samples / 2`` more, keeping at most ``limit`` rows (default: all); returns the
    demonstrations and the last fit's stats."""
    from agents.ppo import NumpyPolicy, PolicyAgent

    from .imitation import clone, collect, join

    def demonstrations(count: int, seed: int, student: Any = None) -> Any:
        return collect(
            game,
            c.imitate or "rule",
            count,
            seed=seed,
            privileged=c.critic == "privileged",
            reward_mode=c.reward_mode,
            dense_score=c.dense_score,
            gamma=c.gamma,
            max_decisions=c.max_decisions,
            progress=c.progress,
            random_share=c.imitation_random_share,
            student=student,
        )

    def fit(data: Any, seed: int) -> dict[str, float]:
        return clone(
            model,
            data,
            c.imitation_epochs,
            batch_size=c.imitation_batch_size or c.batch_size,
            seed=seed,
            learning_rate=c.imitation_learning_rate,
            vf_coef=c.vf_coef,
            progress=c.progress,
        )

    data = demonstrations(samples, c.seed)
    stats = fit(data, c.seed)
    for round_ in range(1, c.imitation_dagger + 1):  # DAgger: the clone plays, the teacher labels
        student = PolicyAgent(NumpyPolicy.from_sb3(model.policy), seed=c.seed + round_)
        more = demonstrations(max(1, samples // 2), c.seed + round_, student)
        data = join(data, more, limit or len(data) + len(more))
        stats = fit(data, c.seed + round_)
    return data, stats


def learner_class(config: TrainConfig) -> type[MaskablePPO]:
    """MaskablePPO with its rollouts in numpy (``rollout``), or its data-parallel form when
    ``config.workers`` is set."""
    if config.workers:
        from .distributed import data_parallel_ppo

        return data_parallel_ppo()
    from .rollout import numpy_rollout_ppo

    cls: type[MaskablePPO] = numpy_rollout_ppo()
    return cls


def fast_distribution(model: MaskablePPO, config: TrainConfig) -> None:
    """The learner's masked distribution made cheaper (``policy``: ``config.update_ops``)."""
    from .policy import install

    install(model.policy, config.update_ops)
