"""The model zoo: trained agents shipped with the package, as the agent spec ``zoo:ENV_ID``.

``zoo:smuggle_v0`` is the zoo's model for Smuggle at the game's player count, ``zoo:smuggle_v0@3``
the one for 3 players, and plain ``zoo`` the one for the game being played. A model is a
MaskablePPO zip in ``agents/zoo/`` listed in ``agents/zoo/models.json``::

    {"smuggle_v0@4": {"file": "smuggle_v0-4p.zip", "sha256": "...", "command": "...",
                      "steps": 500000, "cpu_minutes": 13.0,
                      "eval": {"vs_random": [0.99, 0.98, 1.0], "vs_rule": [0.41, 0.38, 0.44]}}}

(``eval``: win rate and its 95% interval against 3 copies of each baseline, as recorded when the
model was added.) The checksum is verified on load, so a damaged or swapped file is refused. It
plays like ``ppo:PATH`` (:class:`agents.ppo.PPOAgent`): its own observation and mask only.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .ppo import PPOAgent

if TYPE_CHECKING:
    from smuggle_envs.core.game import Game

ZOO_DIR = Path(__file__).resolve().parent / "zoo"
MANIFEST = "models.json"


def zoo_dir() -> Path:
    """Where the zoo lives: ``agents/zoo``, or ``$SMUGGLE_ZOO`` (a folder of your own models)."""
    return Path(os.environ.get("SMUGGLE_ZOO", ZOO_DIR))


def manifest() -> dict[str, dict[str, Any]]:
    """The zoo's entries, keyed ``ENV_ID@PLAYERS`` (empty if it has none)."""
    path = zoo_dir() / MANIFEST
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def resolve(arg: str, game: Game) -> tuple[str, dict[str, Any]]:
    """The manifest key and entry for spec argument ``arg`` (``""``, ``ENV_ID`` or
    ``ENV_ID@N``) in ``game``; a one-line ValueError if the zoo has no such model."""
    env_id, _, players = (arg or game.env_id).partition("@")
    if env_id != game.env_id:
        raise ValueError(f"zoo:{arg} is a model for {env_id}, but the game is {game.env_id}")
    if players and (not players.isdigit() or int(players) != game.num_players):
        raise ValueError(f"zoo:{arg} is for {players} players, but the game has {game.num_players}")
    key = f"{env_id}@{game.num_players}"
    entries = manifest()
    if key not in entries:
        have = ", ".join(sorted(entries)) or "none yet"
        raise ValueError(f"the model zoo has no model for {key}; it has: {have}")
    return key, entries[key]


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class ZooAgent(PPOAgent):
    """The zoo's model for a game and player count (spec ``zoo``, ``zoo:ENV_ID`` or ``zoo:ENV_ID@N``)."""

    name = "zoo"

    def __init__(self, game: Game, arg: str = "", seed: int | None = None, deterministic: bool = False):
        key, entry = resolve(arg, game)
        path = zoo_dir() / entry["file"]
        if not path.exists():
            raise ValueError(f"the zoo's model for {key} is missing: {path}")
        if sha256(path) != entry["sha256"]:
            raise ValueError(f"the zoo's model for {key} ({path}) does not match its checksum: damaged or replaced")
        self.entry = entry
        super().__init__(game, str(path), seed=seed, deterministic=deterministic)


__all__ = ["MANIFEST", "ZOO_DIR", "ZooAgent", "manifest", "resolve", "zoo_dir"]
