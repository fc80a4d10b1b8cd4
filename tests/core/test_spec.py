"""``GameSpec``: an env id and its options as one value, checked when made."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs import GameSpec
from smuggle_envs.core import ConfigError


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_a_spec_builds_the_game_make_game_builds(env_id):
    spec = GameSpec(env_id)
    game = spec.make_game()
    assert game.env_id == env_id and spec.num_players == game.num_players
    assert game.config == smuggle_envs.make_game(env_id).config
    n = smuggle_envs.game_class(env_id).min_players
    assert spec.with_players(n).num_players == spec.with_players(n).make_game().num_players == n
    assert spec.with_players(n).config == {"num_players": n}
    assert spec.game_config() == game.config


def test_unknown_ids_options_and_values_are_one_line_config_errors():
    for env_id, config, words in [
        ("nope_v0", {}, "unknown env id"),
        ("smuggle_v0", {"colour": "red"}, "unknown option"),
        ("smuggle_v0", {"num_players": 9}, "out of range"),
        ("smuggle_v0", {"bankruptcy": "never"}, "bankruptcy"),
    ]:
        with pytest.raises(ConfigError, match=words) as failed:
            GameSpec(env_id, config)
        assert "\n" not in str(failed.value)
    with pytest.raises(ConfigError, match="out of range"):
        GameSpec("smuggle_v0").with_players(2)
    with pytest.raises(ConfigError):
        GameSpec(3)  # type: ignore[arg-type]


def test_a_spec_is_a_frozen_hashable_value_that_pickles():
    spec = GameSpec("smuggle_v0", {"num_players": np.int64(3)})
    assert spec.config == {"num_players": 3} and type(spec.config["num_players"]) is int
    assert spec == GameSpec("smuggle_v0", {"num_players": 3}) != GameSpec("smuggle_v0")
    assert len({spec, GameSpec("smuggle_v0", {"num_players": 3})}) == 1
    assert pickle.loads(pickle.dumps(spec)) == spec
    with pytest.raises(TypeError):
        spec.config["num_players"] = 4  # type: ignore[index]
    with pytest.raises(AttributeError):
        spec.env_id = "ciq_v0"  # type: ignore[misc]
    options = {"num_players": 4}
    spec = GameSpec("ciq_v0", options)
    options["num_players"] = 5  # the spec keeps its own copy
    assert spec.num_players == 4


def test_to_dict_and_from_dict_round_trip_through_json():
    spec = GameSpec("smuggle_v0", {"num_players": 5, "bankruptcy": "eliminate"})
    data = json.loads(json.dumps(spec.to_dict()))
    assert data == {"env_id": "smuggle_v0", "config": {"num_players": 5, "bankruptcy": "eliminate"}}
    assert GameSpec.from_dict(data) == spec
    assert GameSpec.from_dict({"env_id": "ciq_v0"}) == GameSpec("ciq_v0")
    with pytest.raises(ConfigError):
        GameSpec.from_dict({"config": {}})
