#!/usr/bin/env bash
# Install everything the tests need into .venv and run the whole suite (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh train,dev,ray
python -m pytest -n 2 "$@"
