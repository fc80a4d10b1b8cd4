"""The card-data file of every registered game and its validating loader (``<game>/data.py``):
the packaged file loads, the same text given explicitly loads the same, and each kind of broken
file is refused with a ``DataError`` that names the file and the problem (the ways to break each
game's file are in ``_data_breaks.py``; what the data says is each game's own ``test_data.py``)."""

from __future__ import annotations

import importlib
import json
import re
from importlib import resources

import pytest

import smuggle_envs
from smuggle_envs.core.errors import DataError

from ._data_breaks import BREAKS


def _data_module(env_id: str):
    package = smuggle_envs.game_class(env_id).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.data")


def _packaged_text(env_id: str) -> str:
    data = _data_module(env_id)
    return resources.files(data.__package__).joinpath("data", data.DATA_FILE).read_text(encoding="utf-8")


def test_every_registered_game_has_ways_to_break_its_data():
    assert set(BREAKS) == set(smuggle_envs.ENV_IDS), "add the game's table to tests/core/families/_data_breaks.py"
    assert all(len(breaks) >= 5 for breaks in BREAKS.values())


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_the_packaged_file_loads_and_so_does_its_text_given_explicitly(env_id):
    data = _data_module(env_id)
    packaged = data.load()
    assert data.load(_packaged_text(env_id)) == packaged
    assert data.load(json.dumps(json.loads(_packaged_text(env_id)))) == packaged


@pytest.mark.parametrize(
    "env_id, change, message",
    [
        pytest.param(env_id, change, message, id=f"{env_id}-{i}-{message}")
        for env_id, breaks in BREAKS.items()
        for i, (change, message) in enumerate(breaks)
    ],
)
def test_loader_rejects_bad_data(env_id, change, message):
    data = _data_module(env_id)
    doc = json.loads(_packaged_text(env_id))
    change(doc)
    with pytest.raises(DataError, match=message) as err:
        data.load(json.dumps(doc))
    assert str(err.value).startswith(f"{data.DATA_FILE}: ")


@pytest.mark.parametrize("text", ["{not json", "", "[]", "{}", "null", "3", '"cards"'])
@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_loader_rejects_bad_json(env_id, text):
    data = _data_module(env_id)
    with pytest.raises(DataError, match=rf"^{re.escape(data.DATA_FILE)}: malformed"):
        data.load(text)
