"""Hidden-information analytics on scripted Illegal games whose trades, Magnum reactions and
face-down passes are known. Each plays a real deal (a stored game is config, seed, actions) and
checks the cards it relies on.

Game 1: seed 124, three players (alice, bob, carol), trading on; alice holds the Magnum.
  1. alice offers a Market Open for bob's Tropical Fish; bob accepts.
  2. bob offers Weapons for carol's White Coat; carol holds it and declines.
  3. carol offers an Informant for Gambling to alice, who holds none: she can only decline.
  4. alice plays Pimps.
  5. bob's Hostile Takeover takes alice's Pimps: carol (no Magnum) lets it happen, alice stops
     it with the Magnum (5,000 saved on her own table).
  6. carol plays Death in the Family; everyone passes a card left: carol a Raid, alice Gambling
     (a 5,000 business), bob Debris & Ash (a Paranoia card: 100,000 at the accounting).
Game 2: seed 98, two players: bob's Tax Inspection on alice; in the window alice removes it with
  the Magnum (off turn, her own hassle).
Game 3: seed 10, two players: bob's Vacation in Sweden on alice; alice lets it happen holding the
  Magnum, then removes it with the Magnum on her own turn.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import smuggle_envs
from smuggle_envs import GameSpec
from smuggle_envs.games.illegal import actions as A
from training.analytics import analyze_games
from training.analytics.illegal import IllegalAnalysis

from ._support import check_analyzed, store_game

SEATING = ["alice", "bob", "carol"]
T = A.target


def _play(config, seed, hands, script):
    game = smuggle_envs.make_game("illegal_v0", **config)
    state = game.new_initial_state(seed)
    for q, cards in hands.items():
        held = [game.kind_names[k] for k in state.hand_cards(q)]
        assert all(held.count(c) >= cards.count(c) for c in cards), (q, held)
    for player, actions in script:
        assert state.current_player() == player
        for action in actions:
            state.apply_action(action)
    return state


def _game1():
    state = _play(
        {"num_players": 3, "trading": True},
        124,
        {
            0: ["market open", "market open", "magnum"],
            1: ["tropical fish", "hostile takeover"],
            2: ["white coat", "death in the family"],
        },
        [
            (0, [A.give("market open"), A.want("tropical fish"), T(1)]),
            (1, [A.ACCEPT]),
            (0, [A.play("market open"), A.play("tropical fish"), A.END_TURN]),
            (1, [A.give("weapons"), A.want("white coat"), T(1)]),
            (2, [A.DECLINE]),
            (1, [A.play("market open"), A.play("tropical fish"), A.END_TURN]),
            (2, [A.give("informant"), A.want("gambling"), T(1)]),
            (0, [A.DECLINE]),
            (2, [A.play("market open"), A.END_TURN]),
            (0, [A.NO_TRADE, A.play("pimps"), A.END_TURN]),
            (1, [A.NO_TRADE, A.play("hostile takeover"), A.take("pimps")]),
            (2, [A.LET_PASS]),
            (0, [A.CANCEL]),
            (1, [A.END_TURN]),
            (2, [A.NO_TRADE, A.play("death in the family"), A.pass_card("raid")]),
            (0, [A.pass_card("gambling")]),
            (1, [A.pass_card("debris and ash")]),
        ],
    )
    assert [state.tables[0][b] for b in (A.business("pimps"), A.business("fish"))] == [1, 1]
    return state


def _game2():
    return _play(
        {"num_players": 2},
        98,
        {0: ["market open", "tropical fish", "magnum"], 1: ["tax inspection"]},
        [
            (0, [A.play("market open"), A.play("tropical fish"), A.END_TURN]),
            (1, [A.play("tax inspection")]),
            (0, [A.play("magnum")]),
            (1, [A.END_TURN]),
        ],
    )


def _game3():
    state = _play(
        {"num_players": 2},
        10,
        {0: ["market open", "brokering", "magnum"], 1: ["vacation in sweden"]},
        [
            (0, [A.play("market open"), A.play("brokering"), A.END_TURN]),
            (1, [A.play("vacation in sweden")]),
            (0, [A.LET_PASS]),
            (1, [A.END_TURN]),
            (0, [A.play("magnum"), A.play("weapons"), A.END_TURN]),
        ],
    )
    assert state.hassle == [-1, -1]
    return state


def _record(state, seed, seating):
    spec = GameSpec("illegal_v0", state.game.config.to_dict())
    return SimpleNamespace(spec=spec, seed=seed, actions=list(state.history), seating=seating)


def test_scripted_games_known_trades_magnum_and_passes():
    records = [_record(_game1(), 124, SEATING), _record(_game2(), 98, SEATING[:2]), _record(_game3(), 10, SEATING[:2])]
    analysis = analyze_games("illegal_v0", SEATING, records)
    assert isinstance(analysis, IllegalAnalysis) and analysis.games == 3
    alice, bob, carol = (analysis.stats[n] for n in SEATING)

    # Trades (game 1): every player proposed once; only alice's offer was accepted.
    assert (alice.trade_turns, alice.offers, alice.proposed, alice.accepted) == (2, 1, 1, 1)
    assert (bob.trade_turns, bob.offers, bob.proposed, bob.accepted) == (2, 1, 1, 0)
    assert (carol.trade_turns, carol.offers, carol.proposed, carol.accepted) == (2, 1, 1, 0)
    assert (alice.asked, alice.able, alice.agreed, alice.declined_able) == (1, 0, 0, 0)
    assert (bob.asked, bob.able, bob.agreed, bob.declined_able) == (1, 1, 1, 0)
    assert (carol.asked, carol.able, carol.agreed, carol.declined_able) == (1, 1, 0, 1)

    # Magnum: alice was asked in three windows, holding it each time.
    assert (alice.windows, alice.windows_holding, alice.reactions, alice.let_pass_holding) == (3, 3, 2, 1)
    assert (alice.stops, alice.stops_own, alice.saved_value) == (1, 1, 5000)
    assert (alice.removals_window, alice.removals_turn, alice.removals_own) == (1, 1, 2)
    assert alice.against == {"Hostile Takeover": 1, "Tax Inspection": 1, "Vacation in Sweden": 1}
    assert (carol.windows, carol.windows_holding, carol.reactions) == (1, 0, 0)
    assert (bob.windows, bob.takeovers_stopped, alice.takeovers_stopped) == (0, 1, 0)
    assert bob.against == {} and carol.against == {}

    # Passing left (game 1).
    assert (alice.passes, alice.paranoia_passed, alice.business_passed) == (1, 0, 1)
    assert alice.business_value == 5000
    assert (bob.passes, bob.paranoia_passed, bob.paranoia_value, bob.business_passed) == (1, 1, 100000, 0)
    assert (carol.passes, carol.paranoia_passed, carol.business_passed, carol.magnum_passed) == (1, 0, 0, 0)

    row = alice.row()
    assert row["magnum_reaction_rate"] == 2 / 3 and row["trade_acceptance_rate"] == 1
    assert row["magnum_vs_hostile_takeover"] == 1 and row["magnum_vs_relatives"] == 0
    assert carol.row()["trade_accept_rate"] == 0 and bob.row()["trade_accept_rate"] == 1


def test_analyze_command_prints_and_writes_the_scripted_numbers(tmp_path, run_cli, capsys):
    db, _ = store_game(tmp_path / "illegal.sqlite", _game1(), SEATING, 124)
    db.close()
    assert run_cli(["analyze", str(tmp_path / "illegal.sqlite"), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "trades (with the active player)" in out and "Magnum reactions" in out
    assert "Magnum played against" in out and "passing left after a Paranoia card" in out
    alice = [line.split() for line in out.splitlines() if line.startswith("alice")]
    # trades: agent, turns, offers, proposed, accepted, acceptance, CI (2), asked, able, agreed, ...
    assert alice[0][:6] == ["alice", "2", "1", "1", "1", "100.0%"] and alice[0][8:11] == ["1", "0", "0"]
    # Magnum: agent, windows, holding, reactions, rate, let pass holding, stops, own table, saved
    assert alice[1][:9] == ["alice", "1", "1", "1", "100.0%", "0", "1", "1", "5000"]
    bob = [line.split() for line in out.splitlines() if line.startswith("bob")]
    assert bob[3][:5] == ["bob", "1", "1", "100.0%", "100000"]  # Debris & Ash passed
    csv_text = (tmp_path / "out" / "illegal_t1_hidden_information.csv").read_text()
    assert csv_text.splitlines()[0].startswith("agent,trade_turns,trade_offers,trades_proposed")
    assert (tmp_path / "out" / "illegal_t1_hidden_information.png").read_bytes()[:4] == b"\x89PNG"


def test_analyze_a_small_tournament_end_to_end(tmp_path, analyze_small_tournament):
    out = analyze_small_tournament("illegal_v0", "trading=true")
    check_analyzed(out, tmp_path, "illegal_v0", "hidden_information")
    for metric in (
        "proposed",
        "accepted",
        "declined while able",
        "windows",
        "reaction rate",
        "stops",
        "removals in window",
        "Hostile Takeover",
        "Vacation in Sweden",
        "passes",
        "Paranoia passed",
        "penalties passed",
    ):
        assert metric in out


def test_random_games_agree_between_the_two_sides():
    """Trades counted by proposer and partner, Magnum windows by reaction, stops by taker."""
    game = smuggle_envs.make_game("illegal_v0", num_players=4, trading=True)
    names = ["w", "x", "y", "z"]
    analysis = IllegalAnalysis(names)
    for seed in range(30):
        rng, state = random.Random(seed), game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(list(state.legal_actions())))
        analysis.add_game(GameSpec("illegal_v0", game.config.to_dict()), seed, list(state.history), names)
    agents = analysis.ordered()
    total = lambda attr: sum(getattr(s, attr) for s in agents)
    assert total("proposed") == total("asked") > 0 and total("accepted") == total("agreed") > 0
    assert total("able") > total("agreed") and total("declined_able") == total("able") - total("agreed")
    for s in agents:
        assert s.let_pass_holding + s.stops + s.removals_window == s.windows_holding
        assert sum(s.against.values()) == s.stops + s.removals_window + s.removals_turn
    assert total("windows") > total("windows_holding") > 0
    assert total("stops") == total("takeovers_stopped")
    assert total("removals_window") + total("removals_turn") > 0
    assert total("paranoia_passed") > 0 and total("business_passed") > 0
