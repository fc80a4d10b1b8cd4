#!/usr/bin/env bash
# Install everything the tests need into .venv, then lint, type-check and run the whole suite
# (what CI runs). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh train,dev,ray,openspiel,torchrl,rllib,web,docs,text,llm,dataset
# the example agent package (examples/smuggle_agent_example): its entry point is seated by the tests
python -m pip install -q --no-deps --no-build-isolation -e examples/smuggle_agent_example
bash scripts/browser.sh  # chromium + chromedriver for tests/training/web/test_browser.py
echo "ruff: lint and format"
ruff check .
ruff format --check .
echo "mypy (strict on smuggle_envs/core)"
mypy
python -m pytest -n 2 "$@"
