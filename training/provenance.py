"""What machine and library versions made a result, for the zoo's manifest.

A training run is a function of its command on one machine: a repeat there gives the same
weights bit for bit. Another CPU kind, or other torch / numpy builds, may pick other float
kernels (vector widths, summation orders), and a run diverges from the first update on (a fresh
clone on an AMD Zen 5 did). So every ``smuggle zoo add`` and ``smuggle zoo value`` record keeps
``machine_record()``, and a claim that a command makes a model again holds for that record.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path
from typing import Any

CPUINFO = Path("/proc/cpuinfo")


def cpu_model(cpuinfo: Path = CPUINFO) -> str:
    """The CPU's model name (Linux's ``/proc/cpuinfo``), else ``platform.processor()``, else
    ``platform.machine()``; "unknown" when none says."""
    try:
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            name, sep, value = line.partition(":")
            if sep and name.strip() == "model name" and value.strip():
                return value.strip()
    except OSError:  # not Linux, or no /proc: the fallbacks below
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine_record() -> dict[str, Any]:
    """The CPU model, its core count, and the Python, torch and numpy versions of this process."""
    import numpy
    import torch

    return {
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count() or 1,
        "python": platform.python_version(),
        "torch": str(torch.__version__),
        "numpy": str(numpy.__version__),
        "platform": sys.platform,
    }


__all__ = ["cpu_model", "machine_record"]
