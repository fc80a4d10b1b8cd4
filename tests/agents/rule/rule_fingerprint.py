"""A fingerprint of every rule bot's choices: seeded games of rule bots (and one random seat) in
each game at each player count, every action hashed in order.

``python tests/agents/rule/rule_fingerprint.py`` writes ``tests/agents/rule/data/rule_actions.json``;
``test_rule_fingerprint.py`` checks the bots still choose exactly the same actions (a speed-up of a
bot must not change what it plays). Regenerate only for an intended change of play, and say so.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).parent / "data" / "rule_actions.json"

# (env id, player counts, games per count): small enough for a unit test, every phase reached.
CASES: tuple[tuple[str, tuple[int, ...], int], ...] = (
    ("smuggle_v0", (3, 4, 5), 6),
    ("illegal_v0", (3, 4), 4),
    ("humble_smuggle_v0", (3, 4), 4),
    ("ciq_v0", (3, 4), 3),
    ("import_export_v0", (3, 4), 2),
)
MAX_DECISIONS = 3000


def fingerprint(env_id: str, players: int, games: int) -> dict[str, object]:
    """The hash of every action of ``games`` seeded games: rule bots in every seat but the last
    (a random agent there, so the bots also meet play unlike their own)."""
    from agents import make_agent
    from agents.arena import play_game
    from smuggle_envs.registry import make_game

    game = make_game(env_id, num_players=players)
    digest = hashlib.sha256()
    decisions = 0
    for g in range(games):
        agents = [make_agent("rule", game, seed=100 * g + s) for s in range(players - 1)]
        agents.append(make_agent("random", game, seed=100 * g + players))

        def record(state: object, player: int, action: int) -> None:
            nonlocal decisions
            decisions += 1
            digest.update(f"{player}:{action};".encode())

        play_game(game, agents, seed=g, on_step=record, max_decisions=MAX_DECISIONS)
    return {"env_id": env_id, "players": players, "games": games, "decisions": decisions, "sha256": digest.hexdigest()}


def all_fingerprints() -> list[dict[str, object]]:
    return [fingerprint(env_id, n, games) for env_id, counts, games in CASES for n in counts]


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(all_fingerprints(), indent=1) + "\n")
    print(f"written: {DATA}")
