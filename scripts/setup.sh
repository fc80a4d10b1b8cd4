#!/usr/bin/env bash
# Create .venv (if needed) and install the project with the given extras, torch first.
# Usage: source scripts/setup.sh EXTRAS     e.g.  source scripts/setup.sh train,dev
set -euo pipefail
extras="${1:-train}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' || { echo "smuggle_envs needs Python 3.10+" >&2; exit 1; }
[ -x "$root/.venv/bin/python" ] || python3 -m venv "$root/.venv"
# shellcheck disable=SC1091
. "$root/.venv/bin/activate"
# torch first, pinned: a bare requirement would pull several GB of CUDA packages.
python -m pip install -q "torch==2.13.0"
python -m pip install -q -c "$root/constraints.txt" -e "$root[$extras]"
