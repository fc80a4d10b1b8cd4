"""Starting Ray the one way every Ray backend here starts it (``smuggle tournament --backend ray``,
``smuggle train --backend ray``, expert iteration's game workers).

``init_ray(ray, address, cpus)``: nothing if Ray already runs; ``address`` joins that cluster
and ships this checkout's code to its workers (they still need numpy etc.); ``RAY_ADDRESS``
names a cluster; otherwise a local Ray starts with ``cpus`` CPUs. It returns whether Ray was
started here, so that the caller shuts down only a Ray of its own. The caller imports ``ray``
itself, with its own one-line error where Ray is not installed. Imports nothing of ``training``
at module level: the tournament and self-play packages, which must not import each other, both
use it.
"""

from __future__ import annotations

import os
from typing import Any


def init_ray(ray: Any, address: str | None, cpus: int | None, **local: Any) -> bool:
    """Start Ray unless it runs (see the module docstring); ``local``: more ``ray.init``
    options for a local Ray. True if Ray was started here."""
    if ray.is_initialized():
        return False
    if address:
        import agents
        import smuggle_envs
        import training

        ray.init(address=address, runtime_env={"py_modules": [smuggle_envs, agents, training]})
    elif os.environ.get("RAY_ADDRESS"):
        ray.init()  # the cluster named by RAY_ADDRESS
    else:
        ray.init(num_cpus=cpus, include_dashboard=False, **local)
    return True


__all__ = ["init_ray"]
