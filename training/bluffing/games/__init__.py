"""The bluffing kit's per-game parts, one module a game: ``training/bluffing/games/<game>.py``.

Each module declares ``ENV_ID`` (its game's env id) and ``CLAIMS``, a :class:`GameClaims`: its
``Labeller`` (which decisions of a replay are claims, calls or commitments, and how their truth,
challenge, catch and payoff are read) and its ``facing(state, seat)``. ``CLAIMS`` (env id ->
``GameClaims``) is found by listing this package (``agents.plugins.PluginRegistry``) on first
use, so adding a game to the kit is adding its module; modules named ``_...`` are shared code. A
game that lives elsewhere (a test fixture's) adds its module with ``CLAIMS.register(module)``.
``tests/training/bluffing/test_games.py`` checks that every env in ``smuggle_envs.ENV_IDS`` has one.

| module               | claims                              | calls                         | commitments       |
|----------------------|-------------------------------------|-------------------------------|-------------------|
| ``smuggle``          | declarations, Diplomatic Bag claims | search / let pass, inform /   |                   |
|                      |                                     | accept                        |                   |
| ``ciq``              | smuggles (an Illegal card shipped)  | Fire decisions                |                   |
| ``illegal``          | Magnum windows let pass, trades     |                               |                   |
|                      | declined                            |                               |                   |
| ``humble_smuggle``   |                                     |                               | selections, Play  |
|                      |                                     |                               | cards face down   |
| ``import_export``    |                                     |                               | sealed bids       |

The truth of these events is read by ``training/claims/<game>.py``, which the browser app's marks
of the truth (``training/web/games``) read too: a label and a replay's mark never disagree
(``tests/training/test_claims_agree.py``). This package never imports the browser app.
"""

from __future__ import annotations

from agents.plugins import PluginRegistry
from smuggle_envs.core import Replay

from .. import Claim
from ._common import Draft, GameClaims, Labeller, Observation, walk

CLAIMS: PluginRegistry[GameClaims] = PluginRegistry(__name__, "CLAIMS", kind=GameClaims)
"""env id -> its ``GameClaims``, from the modules of this package."""


def plugin(env_id: str) -> GameClaims:
    """The bluffing kit's parts of ``env_id`` (``CLAIMS.require``): a ``LookupError`` naming the
    module to add for a game without one."""
    return CLAIMS.require(env_id)


def label_replay(replay: Replay, observe: bool = False) -> list[tuple[Claim, Observation | None]]:
    """Every claim of ``replay`` in step order, each with the deciding seat's observation when
    ``observe`` (else None)."""
    return walk(plugin(replay.env_id), replay, observe)


__all__ = ["CLAIMS", "Draft", "GameClaims", "Labeller", "label_replay", "plugin"]
