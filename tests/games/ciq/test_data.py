"""The component data file and its validating loader."""

import json
from importlib import resources

import pytest

import smuggle_envs
from smuggle_envs.core.errors import DataError
from smuggle_envs.games.ciq import data
from smuggle_envs.games.ciq.rules import ACE, JACK, KING, NUMBER, QUEEN


def raw():
    return json.loads(resources.files("smuggle_envs.games.ciq").joinpath("data", "ciq.json").read_text())


def test_packaged_data_matches_the_rulebook():
    d = data.load()
    assert d.rank_names == ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # A high
    assert d.values == (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)  # R1.1
    assert d.effects == ("number",) * 9 + ("jack", "queen", "king", "ace")
    assert [n for n, f in zip(d.rank_names, d.face) if f] == ["J", "Q", "K"]  # R1.2
    assert d.jokers_per_deck == 2 and d.decks_per_player == 1 and d.hand_size == 7
    assert d.tolerance_start_rank == "6" and (d.min_players, d.max_players) == (2, 6)


def test_game_tables_follow_the_data():
    game = smuggle_envs.make_game("ciq_v0", num_players=2)
    assert game.values[:13] == tuple(range(2, 15)) and game.values[52] == 0
    assert game.effects[:13] == (NUMBER,) * 9 + (JACK, QUEEN, KING, ACE)
    assert len(game.face_kinds) == 12
    assert len(smuggle_envs.make_game("ciq_v0", num_players=2, ace_is_face=True).face_kinds) == 16


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda r: r["ranks"][3].update(value=7), "increasing"),
        (lambda r: r["ranks"][0].update(value="2"), "integer"),
        (lambda r: r["ranks"][9].update(effect="queen"), "Result of Shipping"),
        (lambda r: r["ranks"][4].update(effect="bomb"), "unknown effect"),
        (lambda r: r["ranks"][0].update(value=1), "own value"),
        (lambda r: r["ranks"][10].update(face=False), "face"),
        (lambda r: r["ranks"].pop(), "13 ranks"),
        (lambda r: r.update(suits=["clubs", "hearts"]), "four suits"),
        (lambda r: r.update(jokers_per_deck=1), "two Jokers"),
        (lambda r: r.update(hand_size=0), "hand size"),
        (lambda r: r.update(tolerance_start_rank="X"), "tolerance start"),
        (lambda r: r["players"].update(max=7), "2 to 6"),
        (lambda r: r.pop("ranks"), "malformed"),
    ],
)
def test_loader_rejects_bad_data(mutate, message):
    r = raw()
    mutate(r)
    with pytest.raises(DataError, match=message):
        data.load(json.dumps(r))


def test_loader_rejects_bad_json():
    with pytest.raises(DataError):
        data.load("{not json")
