"""The bluffing kit's registry (``training.bluffing.games.CLAIMS``): one module a game, found by
listing the package, every env in ``smuggle_envs.ENV_IDS`` served; the schema; what the package
imports (the command line's parser nothing heavy; nothing of the browser app)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from smuggle_envs import ENV_IDS
from training.bluffing import CLAIM_COLUMNS, COLUMNS, ROLES, Claim, claims
from training.bluffing.games import CLAIMS, GameClaims, plugin
from training.bluffing.stored import WEB_KEY_PREFIX

from ._support import positions, replays


def test_every_game_has_its_bluffing_module():
    assert not CLAIMS.missing(ENV_IDS), CLAIMS.describe_missing(ENV_IDS)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_each_module_declares_its_game_labeller_and_facing(env_id):
    module = CLAIMS.modules()[env_id]
    if module.__name__.startswith("training.bluffing."):  # else a game's module registered from outside
        assert module.__name__ == f"training.bluffing.games.{env_id.rsplit('_v', 1)[0]}"
    assert env_id == module.ENV_ID and isinstance(module.CLAIMS, GameClaims) and plugin(env_id) is module.CLAIMS
    assert module.__doc__ and "truth" in module.__doc__  # what the game makes a claim, call, commitment


def test_a_game_without_a_module_is_named():
    with pytest.raises(LookupError, match="add training/bluffing/games/dice.py defining ENV_ID and CLAIMS"):
        plugin("dice_v0")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_game_labels_its_stored_games_in_one_schema(env_id, stored):
    rows = [c for r in replays(stored(env_id)) for c in claims(r)]
    assert rows, f"no claim in six games of {env_id}"
    for c in rows:
        assert isinstance(c, Claim) and c.env_id == env_id and c.role in ROLES and isinstance(c.truth, bool)
        assert (c.called_step is not None) == (c.role == "call") == (c.claimant is not None)
        if c.caught:  # a lie exposed: challenged, and the claim false
            assert c.challenged and not c.truth
        if c.role == "commitment":
            assert c.challenged is None and c.caught is None


def test_the_schema_is_the_dataclass():
    assert [c.name for c in CLAIM_COLUMNS] == [f.name for f in dataclasses.fields(Claim)]
    assert [c.name for c in COLUMNS[: len(CLAIM_COLUMNS)]] == [f.name for f in dataclasses.fields(Claim)]
    assert all(c.doc and c.type for c in COLUMNS) and len({c.name for c in COLUMNS}) == len(COLUMNS)


def test_the_web_key_prefix_is_the_apps():
    from training.web.store import WEB_KEY_PREFIX as APP_PREFIX

    assert WEB_KEY_PREFIX == APP_PREFIX


def _probe(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_parser_imports_nothing_heavy():
    # 'smuggle --help' and 'smuggle dataset --help' build it: the schema without the games.
    out = _probe(
        "import argparse, sys; from training.bluffing.parser import add_dataset; "
        "add_dataset(argparse.ArgumentParser().add_subparsers()); "
        "print('HEAVY', [m for m in ('numpy', 'agents', 'smuggle_envs', 'pyarrow', 'torch') if m in sys.modules])"
    )
    assert "HEAVY []" in out


def test_the_kit_never_imports_the_browser_app():
    out = _probe(
        "import sys; import training.bluffing.dataset; from training.bluffing.games import CLAIMS; "
        "CLAIMS.modules(); print('WEB', [m for m in sys.modules if m.startswith('training.web')])"
    )
    assert "WEB []" in out


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_which_calls_challenge_is_asked_of_the_plugin(env_id, stored):
    # One rule a game (issue #35): the labeller's ``challenged`` and the probabilities of
    # challenging of ``smuggle analyze --deception`` read the plugin's ``challenge``; no table.
    from training.bluffing import deception

    found = plugin(env_id)
    assert not hasattr(deception, "CHALLENGES") and deception.challenge_rule(env_id) is found.challenge
    assert (found.challenge is not None) == found.has_calls == deception.calls_possible(env_id)
    for replay in replays(stored(env_id)):
        states = positions(replay)
        for c in claims(replay):
            if c.role == "call":
                assert found.challenge is not None and found.challenge(states[c.step], c.action) == c.challenged
    assert deception.challenge_rule("dice_v0") is None
