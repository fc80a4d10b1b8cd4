"""The model zoo: trained agents shipped with the package, as the agent spec ``zoo:ENV_ID``.

``zoo:smuggle_v0`` is the zoo's model for Smuggle at the game's player count, ``zoo:smuggle_v0@3``
the one for 3 players, and plain ``zoo`` the one for the game being played. A model is the
policy network of a trained MaskablePPO model as a numpy ``.npz`` (``NumpyPolicy.save``: no
optimizer state, no torch needed to play it) in ``agents/zoo/``, listed in
``agents/zoo/models.json``::

    {"smuggle_v0@4": {"file": "smuggle_v0-4p.npz", "sha256": "...",
                      "command": "smuggle train smuggle_v0 --players 4 --steps 200000 ...",
                      "checkpoint": "best.zip", "steps": 151552, "commit": "...",
                      "wall_minutes": 6.1, "deterministic": true,
                      "eval": {"rule": {"games": 1000, "win_rate": 0.45, "ci": [0.42, 0.48]}, ...},
                      "value": {"command": "smuggle zoo value smuggle_v0@4 --games 2000 ...",
                                "games": 2000, "positions": 421517, "mode": "win_loss",
                                "held_out_mse": 0.65, "baseline_mse": 0.86, "best_epoch": 7.25,
                                "commit": "...", "wall_minutes": 0.8}}}

``add_model`` writes the file and its entry (``smuggle zoo add RUN_DIR``); ``eval`` is what
``benchmarks/zoo.py`` measured. ``deterministic``: the model plays its most probable legal
action instead of sampling its policy (chosen per model by measuring both). The checksum is
verified on load, so a damaged or swapped file is refused. It plays like ``ppo:PATH``
(:class:`agents.ppo.PPOAgent`): its own observation and mask only.

The value head (``critic_*`` arrays beside the policy, ``NumpyPolicy.critic``) is what the
search's ``value=zoo`` leaves read (``agents.search_net``). ``add_model`` ships the run's own
critic. A file without one (a model shipped before critics were saved) gets one from
``smuggle zoo value ENV_ID[@N]`` (``training/zoo_value.py``): a network fitted afresh to the
final returns of games the fixed policy plays, the policy arrays left bit-identical, its
``value`` record saying how to make it again and how well it predicts held-out games.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .ppo import PPOAgent, load_model

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
    entries: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return entries


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


def git_commit() -> str:
    """The short commit of the checkout this package runs from ("?" outside a git checkout): what
    a manifest record names as the code that made it."""
    root = Path(__file__).resolve().parents[1]
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10
        )
    except OSError:
        return "?"
    return out.stdout.strip() or "?"


def write_manifest(entries: dict[str, dict[str, Any]]) -> None:
    """Replace the manifest (sorted keys, one entry per model; written whole, then renamed)."""
    path = zoo_dir() / MANIFEST
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(dict(sorted(entries.items())), indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def add_model(model_path: str | os.PathLike[str], game: Game, info: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Put the policy of the MaskablePPO zip ``model_path`` (trained for ``game``) in the zoo as
    ``ENV_ID-Np.npz``, replacing any model for the same game and player count, with ``info``
    (command, steps, ...) in its manifest entry; returns the key and the entry."""
    _, policy = load_model(str(model_path))
    if policy is None:
        raise ValueError(f"{model_path}: the zoo ships plain MLP policies only, and this one is not")
    if policy.obs_size != game.observation_layout.size or policy.num_actions != game.num_actions:
        raise ValueError(
            f"{model_path} takes observations of size {policy.obs_size} and {policy.num_actions} actions, "
            f"but {game.env_id} with {game.num_players} players has {game.observation_layout.size} "
            f"and {game.num_actions}"
        )
    key = f"{game.env_id}@{game.num_players}"
    folder = zoo_dir()
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / f"{game.env_id}-{game.num_players}p.npz"
    policy.save(file)
    entry = {"file": file.name, "sha256": sha256(file), "env_id": game.env_id, "players": game.num_players, **info}
    entries = manifest()
    entries[key] = entry
    write_manifest(entries)
    return key, entry


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
        # A model measured stronger playing its most probable action ships with
        # "deterministic": true; the manifest says how it was measured (benchmarks/zoo.py).
        deterministic = deterministic or bool(entry.get("deterministic", False))
        super().__init__(game, str(path), seed=seed, deterministic=deterministic)


__all__ = [
    "MANIFEST",
    "ZOO_DIR",
    "ZooAgent",
    "add_model",
    "git_commit",
    "manifest",
    "resolve",
    "sha256",
    "write_manifest",
    "zoo_dir",
]
