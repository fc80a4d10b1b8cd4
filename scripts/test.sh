#!/usr/bin/env bash
# Install everything the tests need into .venv, then lint, type-check and run the whole suite
# (what CI runs). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# The opt-in compiled engine is built first, in the background, while the rest installs and the
# linters run (its compiler then uses the cores the downloads leave idle); the suite's
# tests/core/test_compiled_build.py waits for it (a lock file) and runs the engine's tests on it.
mkdir -p build
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q -c constraints.txt cython "setuptools>=68" wheel
.venv/bin/python scripts/build_compiled.py > build/compiled.log 2>&1 &
build_pid=$!
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
wait "$build_pid" || true  # the test above has already reported a failed build
