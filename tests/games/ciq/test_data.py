"""What the component data file says, against the rulebook, and the game tables built from it. (The
loader takes the packaged file and refuses broken ones, as for every game:
``tests/core/families/test_data_family.py``.)"""

import smuggle_envs
from smuggle_envs.games.ciq import data
from smuggle_envs.games.ciq.vocab import ACE, JACK, KING, NUMBER, QUEEN


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
