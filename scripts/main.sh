#!/usr/bin/env bash
# The main job: a short self-play run on Smuggle (4 players, default settings but the number of
# steps), then a duplicate tournament of the trained agent against the rule-based bots and the
# random agent, printed as a leaderboard. Minutes on 2 cores. Run again: it resumes (and, once
# trained, only re-evaluates). Extra arguments go to the training, e.g. --steps 400000.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh train
out=runs/main
resume=()
[ -f "$out/config.json" ] && resume=(--resume)
smuggle train smuggle_v0 --players 4 --steps 200000 --out "$out" ${resume[@]+"${resume[@]}"} "$@"
smuggle tournament smuggle_v0 --players 4 --games 100 --db "$out/tournament.sqlite" \
    --agents "ppo:$out/final.zip,rule,rule,random,random"
