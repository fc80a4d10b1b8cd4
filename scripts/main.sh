#!/usr/bin/env bash
# Install into .venv and run the main job on defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh train
smuggle match "$@"
