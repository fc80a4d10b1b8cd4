"""The global random number generators a training run depends on, saved and restored as one.

Python's ``random``, numpy's legacy global RNG and torch's CPU generator all feed a run
(minibatch shuffles, SB3's own draws, weight initialisation). An exact resume restores all three,
in the trainer and in every data-parallel worker alike.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np


def global_rng_state() -> dict[str, Any]:
    """The state of Python's, numpy's and torch's global RNGs (picklable)."""
    import torch

    return {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}


def set_global_rng_state(state: dict[str, Any]) -> None:
    """Restore what ``global_rng_state`` returned."""
    import torch

    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])


__all__ = ["global_rng_state", "set_global_rng_state"]
