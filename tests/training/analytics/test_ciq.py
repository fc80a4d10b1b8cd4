"""Smuggling analytics on a scripted two-player CIQ game whose Smuggles and Fires are known.

A stored game is (config, seed, actions), so the script plays the real deal of seed 0 (both
Tolerance piles start at a 6, so 7 and up is Illegal), checking the hands it relies on:
  1. alice ships 5d and Smuggles Kd: a King transfers the shipper's Import pile, empty now, so
     it is worth 0; bob Fires with Jd anyway (unjustified; his 6 goes to his Export pile).
  2. bob ships 2d and stops, though 8d and Ad were on offer (a chance not taken).
  3. alice draws (bob has no Tolerance pile now: nothing is Illegal to him).
  4. bob ships 6h and Smuggles 10h (worth 10); alice holds Js but keeps: 10 cards come through.
  5. alice draws.
  6. bob ships 2h and Smuggles 8h (worth 8); alice Fires with Js (justified; her 6 goes).
"""

from __future__ import annotations

import math
import random

import pytest

import smuggle_envs
from smuggle_envs import GameSpec
from smuggle_envs.games.ciq import actions as A
from training.analytics import analyze_tournament
from training.analytics.ciq import CIQAnalysis

from ._support import check_analyzed, store_game

SEED = 0
SEATING = ["alice", "bob"]


def _scripted_game():
    game = smuggle_envs.make_game("ciq_v0", num_players=2)
    state = game.new_initial_state(SEED)

    def hand(seat):
        return {A.card_name(k) for k in state.cards_of(state.hand[seat])}

    script = [
        (0, {"5d", "Kd"}, [A.ship("5d"), A.ship("Kd")]),
        (1, {"Jd"}, [A.fire("Jd")]),
        (1, {"2d", "8d", "Ad"}, [A.ship("2d"), A.STOP]),
        (0, set(), [A.DRAW]),
        (1, {"6h", "10h"}, [A.ship("6h"), A.ship("10h")]),
        (0, {"Js"}, [A.KEEP]),
        (0, set(), [A.DRAW]),
        (1, {"2h", "8h"}, [A.ship("2h"), A.ship("8h")]),
        (0, {"Js"}, [A.fire("Js")]),
    ]
    for player, cards, actions in script:
        assert state.current_player() == player
        assert cards <= hand(player)
        for action in actions:
            state.apply_action(action)
    assert [state.imp_size[q] for q in range(2)] == [25, 7]
    assert not state.tol[0] and not state.tol[1]  # both customs workers fired
    return state


def test_scripted_game_known_smuggles_and_fires(tmp_path):
    db, t = store_game(tmp_path / "ciq.sqlite", _scripted_game(), SEATING, SEED)
    analysis = analyze_tournament(db, t)
    db.close()
    assert isinstance(analysis, CIQAnalysis) and analysis.games == 1
    alice, bob = (analysis.stats[n] for n in SEATING)

    # As shipper.
    assert (alice.shipments, alice.chances, alice.smuggles, alice.into_face) == (1, 1, 1, 1)
    assert (alice.caught, alice.worth, alice.stopped_against, alice.through) == (1, 0, 0, 0)
    assert (bob.shipments, bob.chances, bob.smuggles, bob.into_face) == (3, 3, 2, 2)
    assert (bob.caught, bob.worth, bob.stopped_against, bob.through) == (1, 18, 8, 10)

    # As target: alice faced two Smuggles holding Js, kept one (10 through), Fired on the other
    # (8 stopped, her 6 lost); bob Fired on a King worth nothing.
    assert (alice.faced, alice.able, alice.fires, alice.justified, alice.worth_firing) == (2, 2, 1, 1, 2)
    assert (alice.cards_stopped, alice.tolerance_lost, alice.kept_able, alice.let_through) == (8, 1, 1, 10)
    assert (bob.faced, bob.able, bob.fires, bob.justified, bob.worth_firing) == (1, 1, 1, 0, 0)
    assert (bob.cards_stopped, bob.tolerance_lost, bob.kept_able, bob.let_through) == (0, 1, 0, 0)

    a, b = alice.row(), bob.row()
    assert (a["smuggle_rate"], a["fire_rate"], a["fire_precision"], a["fire_recall"]) == (1, 0.5, 1, 0.5)
    assert a["fire_net_cards"] == 7 and b["fire_net_cards"] == -1
    assert b["smuggle_rate"] == pytest.approx(2 / 3) and b["caught_rate"] == 0.5
    assert (b["fire_rate"], b["fire_precision"]) == (1, 0) and math.isnan(b["fire_recall"])
    assert b["smuggled_worth_per_smuggle"] == 9


def test_analyze_command_prints_and_writes_the_scripted_numbers(tmp_path, run_cli, capsys):
    db, _ = store_game(tmp_path / "ciq.sqlite", _scripted_game(), SEATING, SEED)
    db.close()
    assert run_cli(["analyze", str(tmp_path / "ciq.sqlite"), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "as shipper: a Smuggle is the one Illegal card" in out
    assert "as target of a Smuggle" in out and "Fire rate" in out and "precision" in out
    bob = [line.split() for line in out.splitlines() if line.startswith("bob")]
    # shipper row: agent, shipments, chances, smuggles, rate, CI (2 cells), into face, caught, ...
    assert bob[0][:5] == ["bob", "3", "3", "2", "66.7%"] and bob[0][-4:] == ["18", "9", "8", "10"]
    # target row: agent, faced, able, Fires, Fire rate, CI (2), justified, precision, ...
    assert bob[1][:5] == ["bob", "1", "1", "1", "100.0%"] and bob[1][7:9] == ["0", "0.0%"]
    csv_text = (tmp_path / "out" / "ciq_t1_smuggling.csv").read_text()
    assert csv_text.splitlines()[0].startswith("agent,shipments,smuggle_chances,smuggles,smuggle_rate")
    assert (tmp_path / "out" / "ciq_t1_smuggling.png").read_bytes()[:4] == b"\x89PNG"


def test_analyze_a_small_tournament_end_to_end(tmp_path, analyze_small_tournament):
    out = analyze_small_tournament("ciq_v0")
    check_analyzed(out, tmp_path, "ciq_v0", "smuggling")
    for metric in (
        "shipments",
        "chances",
        "smuggle rate",
        "caught",
        "worth",
        "Fires",
        "Fire rate",
        "justified",
        "precision",
        "recall",
        "Tolerance lost",
    ):
        assert metric in out


def test_random_games_agree_between_shippers_and_targets():
    """Both sides of every Smuggle are counted once: as shipper and as target."""
    game = smuggle_envs.make_game("ciq_v0", num_players=3)
    analysis = CIQAnalysis(["x", "y", "z"])
    for seed in range(12):
        rng, state = random.Random(seed), game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(list(state.legal_actions())))
        analysis.add_game(GameSpec("ciq_v0", game.config.to_dict()), seed, list(state.history), ["x", "y", "z"])
    agents = analysis.ordered()
    total = lambda attr: sum(getattr(s, attr) for s in agents)
    assert total("smuggles") == total("faced") > 0
    assert total("into_face") == total("able") < total("smuggles")  # some targets had no face card
    assert total("caught") == total("fires") > 0
    assert total("stopped_against") == total("cards_stopped")
    assert total("worth") == total("cards_stopped") + total("let_through")
    assert total("smuggles") <= total("chances") <= total("shipments")
    assert 0 < total("justified") < total("fires")  # some Fires stopped nothing
