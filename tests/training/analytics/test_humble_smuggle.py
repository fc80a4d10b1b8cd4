"""Face-down analytics on a scripted three-player Humble smuggle game with known outcomes.

The script plays the real deal of seed 4 (first player alice), checking the cards it uses:
  Round 1, rule Double Up (centre 52 left): alice selects 39, bob 62, carol 9. On printed values
    62 and 52 are the two highest: bob would break. bob plays -10 on his own card, carol -20 on
    bob's: 62 -> 32, so 52 and alice's 39 go. alice is sunk by Play cards, bob saved.
  Round 2, rule Standard (centre 36 left): bob selects 51, carol 29, alice 14. Printed: bob's 51
    is the highest. bob shields his own card, alice plays +10 on carol's: 29 -> 39 is the highest
    unshielded card. bob saved again, carol sunk (by alice's Play card).
  Round 3, rule Double Up (centre 2 left): carol selects 47, alice 38, bob 53; nobody plays.
    bob's 53 and carol's 47 break, on printed values too.
  Round 4 (Double Up): alice and bob select, then the game stops before carol selects: two
    selections are never revealed.
"""

from __future__ import annotations

import random

import pytest

import smuggle_envs
from smuggle_envs import GameSpec
from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.vocab import SELECT
from training.analytics import analyze_tournament
from training.analytics.humble_smuggle import HumbleSmuggleAnalysis

from ._support import check_analyzed, store_game

SEED = 4
SEATING = ["alice", "bob", "carol"]
CONFIG = {"num_players": 3, "first_player": 0}


def _scripted_game():
    game = smuggle_envs.make_game("humble_smuggle_v0", **CONFIG)
    state = game.new_initial_state(SEED)
    assert state.hands == [[31, 39, 14], [51, 62, 20], [12, 9, 3]]
    assert sorted(state.centre) == [8, 29, 38, 52]
    play = lambda name, offset: A.play(game.black_kind(name), offset)
    rounds = [
        # drafts, selections, Play phase (from the first player), the round's rule
        ([38, 8, 29], [39, 62, 9], [A.PASS, play("-10", 0), play("-20", 2), A.PASS, A.PASS, A.PASS], "Double Up"),
        ([53, 47, 23], [51, 29, 14], [play("shield", 0), A.PASS, play("+10", 2), A.PASS, A.PASS, A.PASS], "Standard"),
    ]
    for drafts, selections, plays, rule in rounds:
        for v in drafts:
            state.apply_action(A.draft(v))
        assert game.rule_names[state.rule] == rule
        for v in selections:
            state.apply_action(A.select(v))
        for action in plays:
            state.apply_action(action)
    assert state.last[3] == [2] and state.last[1] == [14, 51, 39]  # round 2: carol's 39 went
    for action in [*map(A.draft, (77, 7, 17)), *map(A.select, (47, 38, 53)), A.PASS, A.PASS, A.PASS]:
        state.apply_action(action)  # round 3: carol first
    assert state.last[3] == [1, 2] and game.rule_names[state.last[6]] == "Double Up"
    for action in [*map(A.draft, (54, 61, 70)), *map(A.select, (31, 20))]:
        state.apply_action(action)  # round 4: alice first
    assert game.rule_names[state.rule] == "Double Up"
    assert state.current_player() == 2 and state.phase == SELECT  # carol still to select
    return state


def test_scripted_game_known_selections_and_play_cards(tmp_path):
    db, t = store_game(tmp_path / "humble.sqlite", _scripted_game(), SEATING, SEED)
    analysis = analyze_tournament(db, t)
    db.close()
    assert isinstance(analysis, HumbleSmuggleAnalysis) and analysis.games == 1
    alice, bob, carol = (analysis.stats[n] for n in SEATING)

    # Selections: selected, revealed, broke, points kept / lost.
    def selections(s):
        return s.selected, s.revealed, s.broke, s.points_fit, s.points_lost

    assert selections(alice) == (4, 3, 1, 4, 3)
    assert selections(bob) == (4, 3, 1, 11, 5)
    assert selections(carol) == (3, 3, 2, 0, 6)
    # Against printed values: bob would have broken three times and was saved twice; alice and
    # carol were sunk once each.
    assert (alice.printed_broke, alice.saved, alice.sunk) == (0, 0, 1)
    assert (bob.printed_broke, bob.saved, bob.sunk) == (3, 2, 0)
    assert (carol.printed_broke, carol.saved, carol.sunk) == (1, 0, 1)
    assert alice.by_rule == {"Double Up": [2, 1], "Standard": [1, 0]}
    assert bob.by_rule == {"Double Up": [2, 1], "Standard": [1, 0]}
    assert carol.by_rule == {"Double Up": [2, 1], "Standard": [1, 1]}
    # Never revealed: three cards in hand and one selection of round 4 (alice, bob), four cards
    # in hand (carol: drafted, not yet selected).
    assert [s.left_in_hand for s in (alice, bob, carol)] == [3, 3, 4]
    assert [s.never_revealed for s in (alice, bob, carol)] == [4, 4, 4]

    # Play cards: bob twice on his own card (both then fit); carol once on bob's (it fit);
    # alice once on carol's (it broke).
    assert (bob.plays, bob.plays_own, bob.plays_own_fit, bob.plays_other) == (2, 2, 2, 0)
    assert (carol.plays, carol.plays_other, carol.plays_other_broke) == (1, 1, 0)
    assert (alice.plays, alice.plays_own, alice.plays_other, alice.plays_other_broke) == (1, 0, 1, 1)

    row = alice.row()
    assert row["break_rate"] == pytest.approx(1 / 3) and row["broke_double_up"] == 1
    assert row["revealed_double_up"] == 2 and row["revealed_standard"] == 1
    assert carol.row()["break_rate"] == pytest.approx(2 / 3) and carol.row()["play_cards_other_broke"] == 0


def test_analyze_command_prints_and_writes_the_scripted_numbers(tmp_path, run_cli, capsys):
    db, _ = store_game(tmp_path / "humble.sqlite", _scripted_game(), SEATING, SEED)
    db.close()
    assert run_cli(["analyze", str(tmp_path / "humble.sqlite"), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "face-down selections" in out and "No searches or challenges" in out
    bob = [line.split() for line in out.splitlines() if line.startswith("bob")]
    # agent, selected, revealed, broke, break rate, CI (2 cells), fit, points, points lost,
    # on printed values, saved, sunk, never revealed
    assert bob[0][:5] == ["bob", "4", "3", "1", "33.3%"]
    assert bob[0][7:] == ["2", "11", "5", "3", "2", "0", "4"]
    assert bob[1] == ["bob", "0/1", "1/2", "0/0", "0/0", "0/0"]  # broke/revealed by rule
    assert bob[2] == ["bob", "2", "2", "2", "100.0%", "0", "0", "-"]  # Play cards
    csv_text = (tmp_path / "out" / "humble_t1_face_down.csv").read_text()
    assert csv_text.splitlines()[0].startswith("agent,selected,revealed,broke_rule,fit_rule,break_rate")
    assert (tmp_path / "out" / "humble_t1_face_down.png").read_bytes()[:4] == b"\x89PNG"


def test_analyze_a_small_tournament_end_to_end(tmp_path, analyze_small_tournament):
    out = analyze_small_tournament("humble_smuggle_v0")
    check_analyzed(out, tmp_path, "humble_smuggle_v0", "face_down")
    for metric in (
        "selected",
        "revealed",
        "broke",
        "break rate",
        "on printed values",
        "saved",
        "sunk",
        "never revealed",
        "Play cards",
        "on own",
        "on others",
        *("Standard", "Double Up"),
    ):
        assert metric in out


@pytest.mark.parametrize(
    "rule, family",
    [(0, "Standard"), (1, "Double Up"), (2, "High & Low"), (3, "Symbol Up"), (7, "Symbol Up"), (8, "Safe Zone")],
)
def test_rule_families(rule, family):
    from training.analytics.humble_smuggle import _family

    assert _family(rule) == family


def test_random_games_agree_with_the_resolution():
    """Every seat's card is revealed each round; Play cards change outcomes only as counted."""
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=4)
    names = ["w", "x", "y", "z"]
    analysis = HumbleSmuggleAnalysis(names)
    for seed in range(8):
        rng, state = random.Random(seed), game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(list(state.legal_actions())))
        analysis.add_game(GameSpec("humble_smuggle_v0", game.config.to_dict()), seed, list(state.history), names)
    agents = analysis.ordered()
    assert len({s.revealed for s in agents}) == 1 and agents[0].revealed == 8 * 11  # 11 rounds
    for s in agents:
        assert s.selected == s.revealed and s.never_revealed == s.left_in_hand
        assert s.broke == s.printed_broke - s.saved + s.sunk
        assert s.plays == s.plays_own + s.plays_other
        assert sum(seen for seen, _ in s.by_rule.values()) == s.revealed
        assert sum(broke for _, broke in s.by_rule.values()) == s.broke
    assert sum(s.saved for s in agents) > 0 and sum(s.sunk for s in agents) > 0
