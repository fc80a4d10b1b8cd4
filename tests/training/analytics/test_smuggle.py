"""Bluffing analytics on a scripted Smuggle game whose lies, searches and Bag claims are known.

A stored game is (config, seed, actions), so the script plays the deal of a fixed seed (a
stacked pack would not survive the replay): seed 60 deals, in order of drawing,
  P1: brandy, watch, watch, luggage | P2 draws: watch | P3: perfume, luggage, Diplomatic Bag,
  camera | P1: wine, cigars, luggage, brandy | P2: luggage, necklace, luggage, perfume |
  P3 draws: wine.
The test checks those hands first, so a change of dealing fails loudly here.
"""

from __future__ import annotations

import pytest

import smuggle_envs
from smuggle_envs.games.smuggle import actions as A
from training.analytics import analyze_tournament, analyzer_for

from ._support import store_game

SEED = 60
SEATING = ["alice", "bob", "carol", "dave"]  # P0 alice is the Officer all along


def _declare(game, *items):
    counts = [0] * A.NUM_ITEMS
    for item in items:
        counts[game.kind(item)] += 1
    return A.declare(counts)


def _scripted_game():
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    state = game.new_initial_state(SEED)
    hand = lambda: sorted(game.kind_names[k] for k in state.hand_cards())
    discard = lambda item: A.discard(game.kind(item))
    script = [
        # 1. bob (P1) declares the truth, 375 duty; alice lets pass; carol accepts.
        (1, ["brandy", "luggage", "watch", "watch"], _declare(game, "brandy", "watch", "watch")),
        (0, None, A.LET_PASS),
        (2, None, A.ACCEPT),
        (2, None, discard("luggage")),
        # 2. carol lies: declares brandy, hides three watches (450 duty); alice searches: caught,
        #    fines 150 + 3 x 300 = 1050.
        (2, ["brandy", "watch", "watch", "watch"], _declare(game, "brandy")),
        (0, None, A.SEARCH),
        # 3. dave truly claims the Bag; alice searches: real Bag, alice pays dave 200.
        (3, ["camera", "diplomatic bag", "luggage", "perfume"], A.CLAIM_BAG),
        (0, None, A.SEARCH),
        # 4. bob lies: declares wine (pays 25), hides cigars and brandy (125 duty); alice lets
        #    pass; carol informs: caught, fines 50 + 100 + 150 = 300; alice pays carol 100.
        (1, ["brandy", "cigars", "luggage", "wine"], _declare(game, "wine")),
        (0, None, A.LET_PASS),
        (2, None, A.INFORM),
        # 5. carol falsely claims the Bag (necklace + perfume, 350 duty); alice lets pass; dave
        #    accepts, discards a luggage and draws wine.
        (2, ["luggage", "luggage", "necklace", "perfume"], A.CLAIM_BAG),
        (0, None, A.LET_PASS),
        (3, None, A.ACCEPT),
        (3, None, discard("luggage")),
        # 6. dave declares the truth (375 duty); alice searches: truthful, pays dave 200, gets 375.
        (3, ["luggage", "necklace", "perfume", "wine"], _declare(game, "necklace", "perfume", "wine")),
        (0, None, A.SEARCH),
    ]
    for player, expected_hand, action in script:
        assert state.current_player() == player
        if expected_hand is not None:
            assert hand() == expected_hand
        state.apply_action(action)
    assert state.money == [4625, 2300, 2050, 3025]
    return state


def test_scripted_game_known_lies_searches_and_bag_claims(tmp_path):
    state = _scripted_game()
    db, t = store_game(tmp_path / "scripted.sqlite", state, SEATING, SEED)
    analysis = analyze_tournament(db, t)
    db.close()
    assert analysis.games == 1 and analysis.mismatches == 0
    s = analysis.stats
    alice, bob, carol, dave = (s[n] for n in SEATING)

    # As holder.
    assert (bob.declarations, bob.lies, bob.undeclared_value) == (2, 1, 125)
    assert (bob.caught, bob.caught_by_officer, bob.caught_by_informer) == (1, 0, 1)
    assert (bob.lies_let_pass, bob.duty_saved, bob.fines_paid, bob.profit) == (1, 150 - 25, 300, -175)
    assert bob.caught_by == {"carol": 1}
    assert (carol.declarations, carol.lies, carol.undeclared_value) == (2, 2, 450 + 350)
    assert (carol.caught, carol.caught_by_officer, carol.caught_by_informer) == (1, 1, 0)
    assert (carol.lies_let_pass, carol.duty_saved, carol.fines_paid, carol.profit) == (1, 350, 1050, -700)
    assert carol.caught_by == {"alice": 1}
    assert (dave.declarations, dave.lies, dave.caught, dave.truthful_searched) == (2, 0, 0, 2)
    assert (dave.profit, dave.undeclared_value) == (0, 0)
    assert alice.declarations == 0 and bob.truthful_searched == 0

    # Diplomatic Bag claims.
    assert (dave.bag_true, dave.bag_true_searched, dave.bag_false) == (1, 1, 0)
    assert (carol.bag_false, carol.bag_false_searched, carol.bag_false_caught, carol.bag_true) == (1, 0, 0, 0)
    assert bob.bag_true + bob.bag_false == 0

    # As Officer: 6 declarations judged, 3 searches, 1 caught a liar; 3 lies faced.
    assert (alice.judged, alice.searches, alice.search_hits, alice.lies_faced_officer) == (6, 3, 1, 3)
    row = alice.row()
    assert row["officer_search_rate"] == 0.5
    assert row["officer_precision"] == pytest.approx(1 / 3)
    assert row["officer_recall"] == pytest.approx(1 / 3)
    assert bob.judged == carol.judged == dave.judged == 0

    # As next player: carol judged two passed hands (one honest, one lie) and informed on the lie;
    # dave accepted carol's false Bag claim.
    assert (carol.receives, carol.informs, carol.inform_hits, carol.lies_faced_receiver) == (2, 1, 1, 1)
    assert carol.row()["inform_precision"] == 1.0 and carol.row()["inform_rate"] == 0.5
    assert (dave.receives, dave.informs, dave.lies_faced_receiver) == (1, 0, 1)
    assert (bob.receives, alice.receives) == (0, 0)
    assert bob.row()["lie_rate"] == 0.5 and carol.row()["profit_per_lie"] == -350


def test_analyze_command_prints_and_writes_the_scripted_numbers(tmp_path, run_cli, capsys):
    db, _ = store_game(tmp_path / "scripted.sqlite", _scripted_game(), SEATING, SEED)
    db.close()
    assert run_cli(["analyze", str(tmp_path / "scripted.sqlite"), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    first = next(line.split() for line in out.splitlines() if line.startswith("carol"))
    # agent, declared, lies, lie rate, CI(2 cells), undeclared/lie, caught, caught rate, ...
    assert first[:4] == ["carol", "2", "2", "100.0%"]
    assert first[6:8] == ["400", "1"] and first[-2:] == ["-700", "-350"]
    csv_text = (tmp_path / "out" / "scripted_t1_bluffing.csv").read_text()
    assert csv_text.splitlines()[0].startswith("agent,declarations,lies,lie_rate")
    assert (tmp_path / "out" / "scripted_t1_bluffing.png").read_bytes()[:4] == b"\x89PNG"


def test_other_games_get_the_fallback():
    analysis = analyzer_for("some_future_v0", ["x", "y"])
    assert "no hidden-information analysis exists for some_future_v0" in analysis.text()
