#!/usr/bin/env bash
# The main job: a short self-play run on Smuggle (4 players, 200k PPO steps) that makes the
# model zoo's Smuggle model again by its recorded recipe (smuggle zoo): PPO from the weights in
# agents/zoo/init/ (the zoo's earlier model), a tenth of PPO's default learning rate, half the
# games at mixed tables of rule bots and random agents, seed 0, one data-parallel worker; then a
# 1000-game duplicate tournament of the trained agent (the checkpoint the run recommends, playing
# its most probable action) against two rule-based bots and two random agents, on both cores,
# printed as a leaderboard with 95% intervals. Why this recipe and what the others gave:
# docs/zoo.md ("Recipes tried for Smuggle").
# Same weights? On one machine a run is a function of this command: it gave the zoo's weights bit
# for bit on the machine that made them (CPU model not recorded; Python 3.11, torch 2.13.0,
# numpy 2.4.6: agents/zoo/models.json, "reproduced"). On another CPU kind it may not (a fresh
# clone on an AMD Zen 5 CPU diverged): the same recipe, other weights. update_ops="sb3": the
# update's masked softmax to the bit as it was when the model was made (the default, "fused",
# is faster and learns the same way, with other rounding: docs/training.md).
# Minutes on 2 cores. Run again: it resumes (and, once trained, only re-evaluates). MAIN_OUT sets
# the folder (default runs/main; benchmarks/main_job.py uses a fresh one). Extra arguments go to
# the training, e.g. --steps 400000.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh train
out="${MAIN_OUT:-runs/main}"
resume=()
[ -f "$out/config.json" ] && resume=(--resume)
smuggle train smuggle_v0 --players 4 --steps 200000 --seed 0 --workers 1 \
    --set 'init="ppo:agents/zoo/init/smuggle_v0-4p-c70d283.npz"' \
    --set learning_rate=3e-5 --set mixed_tables=0.5 --set 'update_ops="sb3"' \
    --set eval_every=25000 --eval-games 200 \
    --out "$out" ${resume[@]+"${resume[@]}"} "$@"
model=$(python -c 'import json, sys; print(json.load(open(sys.argv[1]))["recommended"].split(":", 1)[1])' "$out/final_eval.json")
smuggle tournament smuggle_v0 --players 4 --games 1000 --db "$out/tournament.sqlite" \
    --agents "ppo_argmax:$model,rule,rule,random,random"
