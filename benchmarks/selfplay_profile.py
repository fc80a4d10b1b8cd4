"""Where self-play training spends its time: a py-spy profile of ``smuggle train`` cut into shares.

    py-spy record -r 50 --format raw -o prof.txt -- python -m training.selfplay train smuggle_v0 \\
        --players 4 --steps 32768 --imitate none --no-progress --eval-games 0 --out /tmp/run
    python benchmarks/selfplay_profile.py prof.txt --command "..."   # illustrative

Reads py-spy's raw (collapsed-stack) output and writes the shares of the learning time
(``MaskablePPO.learn``) to ``--out`` (default ``docs/img/data/selfplay_profile.json``), with the
command that produced the profile: the update (``MaskablePPO.train``: its forward
``evaluate_actions``, of which the masked distribution, the backward, the optimizer step) and the
rollout (``collect_rollouts``: the learner's forward, the opponents' decisions, of which the rule
bot, and the engine with its observation). A stack is counted once, in the first category
(in this order) whose frame it contains.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# sb3-contrib's masked distribution, torch's, and this package's faster one (training/selfplay/policy.py).
_DISTRIBUTION = ("maskable/distributions.py", "torch/distributions", "selfplay/policy.py")
# SB3's torch forward, or the numpy copy and its draw (training/selfplay/rollout.py).
_LEARNER_FORWARD = ("MaskableActorCriticPolicy.forward ", "NumpyActorCritic.__call__ ", "sample_masked ")
# (share, parent, frame substrings): a stack belongs to a share when one of its frames contains
# one of the substrings, checked in order, inside its parent; the engine's share leaves out the
# opponents' decisions (the driver calls them) and the learner's forward.
SHARES: tuple[tuple[str, str | None, tuple[str, ...]], ...] = (
    ("learning", None, ("MaskablePPO.learn ",)),
    ("update", "learning", ("MaskablePPO.train ",)),
    ("update: forward (evaluate_actions)", "update", ("evaluate_actions ",)),
    ("update: masked distribution", "update: forward (evaluate_actions)", _DISTRIBUTION),
    ("update: backward", "update", ("backward ",)),
    ("update: optimizer step", "update", ("Adam.step", "Optimizer.", "clip_grad_norm")),
    ("rollout", "learning", ("collect_rollouts ",)),
    ("rollout: learner forward", "rollout", _LEARNER_FORWARD),
    ("rollout: learner forward, masked distribution", "rollout: learner forward", (*_DISTRIBUTION, "sample_masked ")),
    ("rollout: opponents' decisions", "rollout", ("_opponent_action ",)),
    ("rollout: rule bot", "rollout: opponents' decisions", ("agents/rule/",)),
    ("rollout: engine and observation", "rollout", ("smuggle_envs/",)),
)
_EXCLUDE = {"rollout: engine and observation": ("_opponent_action ", *_LEARNER_FORWARD)}


def parse(path: str) -> list[tuple[list[str], int]]:
    """py-spy's raw format: one ``frame;frame;... count`` per line."""
    stacks = []
    for line in Path(path).read_text().splitlines():
        frames, _, count = line.rpartition(" ")
        stacks.append((frames.split(";"), int(count)))
    return stacks


def shares(stacks: list[tuple[list[str], int]]) -> dict[str, float]:
    """Each share's samples over the learning time's."""
    members: dict[str, set[int]] = {}
    for name, parent, keys in SHARES:
        pool = range(len(stacks)) if parent is None else members[parent]
        drop = _EXCLUDE.get(name, ())
        members[name] = {
            i
            for i in pool
            if any(k in f for f in stacks[i][0] for k in keys) and not any(k in f for f in stacks[i][0] for k in drop)
        }
    total = sum(stacks[i][1] for i in members["learning"])
    return {name: round(sum(stacks[i][1] for i in ids) / total, 3) for name, ids in members.items()} | {
        "learning samples": total
    }


def table_data(report: dict) -> dict:
    """Each share (% of the learning time) per stored profile, as ``scripts/update_docs.py``
    draws it (``<!-- data-table: selfplay_profile -->``)."""
    labels = [k for k in report if k != "table"]
    rows = [
        [name, *(f"{100 * report[label]['shares'].get(name, 0):.0f}%" for label in labels)] for name, _, _ in SHARES
    ]
    return {"headers": ["share of the learning time", *labels], "align": "l" + "r" * len(labels), "rows": rows}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("profile", help="py-spy --format raw output")
    p.add_argument("--command", required=True, help="the command that produced the profile (stored with it)")
    p.add_argument("--label", default="before", help="the key this profile is stored under (before, after, ...)")
    p.add_argument("--out", default="docs/img/data/selfplay_profile.json")
    args = p.parse_args(argv)
    result = shares(parse(args.profile))
    out = Path(args.out)
    report = json.loads(out.read_text()) if out.exists() else {}
    report[args.label] = {"command": args.command, "shares": result}
    report["table"] = table_data(report)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    for name, value in result.items():
        print(f"{name:50s} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
