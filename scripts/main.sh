#!/usr/bin/env bash
# The main job: a short self-play run on Smuggle (4 players, 200k steps, on both cores with
# --workers 2) with the zoo's Smuggle recipe (docs/zoo.md: the warm start clones the rule bot
# with random agents in half the seats and two DAgger rounds; half the games at mixed tables),
# then a duplicate tournament of the trained agent (the model the run recommends, playing its
# most probable action) against the rule-based bots and the random agent, printed as a
# leaderboard. Minutes on 2 cores. Run again: it resumes (and, once trained,
# only re-evaluates). Extra arguments go to the training, e.g. --steps 400000.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh train
out=runs/main
resume=()
[ -f "$out/config.json" ] && resume=(--resume)
smuggle train smuggle_v0 --players 4 --steps 200000 --workers 2 --set imitation_random_share=0.5 \
    --set imitation_dagger=2 --set mixed_tables=0.5 --out "$out" ${resume[@]+"${resume[@]}"} "$@"
model=$(python -c 'import json, sys; print(json.load(open(sys.argv[1]))["recommended"].split(":", 1)[1])' "$out/final_eval.json")
smuggle tournament smuggle_v0 --players 4 --games 200 --db "$out/tournament.sqlite" \
    --agents "ppo_argmax:$model,rule,rule,random,random"
