"""Where the learner runs: ``smuggle train ENV --device cpu|cuda|auto`` (``TrainConfig.device``).

``cpu`` (the default) keeps runs bit-exact: the same seed gives the same model on any machine,
and a resumed run the same model as an uninterrupted one. ``cuda`` puts the PPO model and its
update on the GPU (faster updates on big batches; GPU kernels are not bit-reproducible, and the
checkpoints save the CPU RNGs only, so such a run is not bit-exact). ``auto`` takes the GPU where
torch sees one, else the CPU, and says which. Rollouts, evaluations, league snapshots and the
model zoo run numpy copies of the network (``agents.ppo.NumpyPolicy``) on the CPU either way.
"""

from __future__ import annotations

from collections.abc import Callable

from smuggle_envs.core.errors import ConfigError

DEVICES = ("cpu", "cuda", "auto")


def check_device(device: object) -> str:
    """``device`` if it is one of ``DEVICES``, else a one-line ``ConfigError``."""
    if device not in DEVICES:
        raise ConfigError(f"device must be one of {', '.join(DEVICES)}, got {device!r}")
    return str(device)


def cuda_available() -> bool:
    """Whether torch sees a usable GPU (a function, so tests can pretend either way)."""
    import torch

    return bool(torch.cuda.is_available())


def resolve_device(device: str, workers: int = 0, log: Callable[[str], None] | None = None) -> str:
    """The torch device a run's learner uses: ``cpu`` or ``cuda``. ``auto`` picks one and writes a
    one-line note to ``log``; ``cuda`` without a GPU, or with data-parallel ``workers`` (whose
    learners average their gradients through CPU memory), is a one-line ``ConfigError`` raised
    before any training starts."""
    check_device(device)
    if device == "cpu":
        return "cpu"  # no torch import: the default path stays exactly as it was
    if workers:
        if device == "auto":
            if log is not None:
                log("--device auto: data-parallel workers (--workers) learn on the CPU")
            return "cpu"
        raise ConfigError(
            f"--device cuda runs the in-process learner; with --workers {workers} the workers learn on the CPU "
            "(drop --workers, or use --device cpu)"
        )
    available = cuda_available()
    if device == "auto":
        if log is not None:
            log(
                f"--device auto: {'a GPU is available, training on cuda' if available else 'no GPU, training on the CPU'}"
            )
        return "cuda" if available else "cpu"
    if not available:
        raise ConfigError("--device cuda: torch sees no GPU on this machine (use --device cpu or --device auto)")
    return "cuda"


__all__ = ["DEVICES", "check_device", "cuda_available", "resolve_device"]
