"""Sealed-bid analytics on scripted Import / Export games whose bids are known.

Stored game (the database and command-line path): the real deal of seed 8, three players (alice,
bob, carol), alice leading first, every move chosen by the script (a stored game is config, seed,
actions); the ship each round is on is checked:
  R1 (turn 1, alice leads RICE; bob and carol follow with AMMUNITION, PANTS): alice picks bob's
     ship 3; bids alice 4, bob 2, carol 0 (all hold 10 credits). alice wins, pays 4, overpay 2;
     bob takes the owner fee (2). alice puts DINO BONES (an Import card) in her imports, then
     CHAIRS in her goods (the only zone left: applied by the engine).
  Turns 2 and 3: bob and carol lead a draw.
  R2 (turn 4, alice leads TABLETS, both draw; DINO BONES gives her a second Import action): alone,
     alice picks bob's ship 3 again: free, bob takes 2. FIXIE BIKES to goods (imports full), then
     PISTOLS, the last container, is picked and discarded by the engine (goods full).
  R3: alice alone again picks her own ship 1: free, no fee; DANGER PETS and SUGAR are discarded.
  Turn 5: bob draws.
  R4 (turn 6, carol leads REFRIGERATORS, alice follows with BOOKS, bob draws): carol picks her own
     ship 5; carol bids 4 of 10, alice 4 of 6: a tie, broken by the leader: carol wins at a tie,
     pays 4, overpay 0. SHOES to her imports, NICE SUITS to goods.
  R5: only alice (DINO BONES) has a second Import action; carol picks alice's ship 1: a free
     import from her own ship. BAMBOO and BOK CHOY are discarded (no room).

Arranged positions (``state.arrange``, ``scenarios.arrange``; not replayable from a seed, so fed to
``add_state``): a four-player round where bob has no credits (his bid of 0 is applied by the
engine), alice, carol and dan tie at 6 and carol's Foxes breaks the tie; dan's Pants makes the
owner fee 4. And a two-player import from the supply island (Dark Flight Games).
"""

from __future__ import annotations

import math
import random
from types import SimpleNamespace

import pytest

import smuggle_envs
from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.powers.modifiers import OPT_ISLAND
from smuggle_envs.games.import_export.vocab import P_BID, P_IMPORT_SHIP, P_LEAD
from training.analytics import analyze_games, analyze_tournament
from training.analytics.import_export import ImportExportAnalysis

from ._support import check_analyzed, store_game

SEED = 8
SEATING = ["alice", "bob", "carol"]
CONFIG = {"num_players": 3, "first_leader": 0}
DRAW = A.DRAW


def _ship(s):
    return A.SHIP + s


def _bid(credits):
    return A.BID + credits // 2


def _scripted_game():
    game = smuggle_envs.make_game("import_export_v0", **CONFIG)
    state = game.new_initial_state(SEED)
    card = lambda key: A.CARD + game.card_id(key)
    cargo = lambda s: {game.names[c] for c in state.cargo[s]}

    def do(*moves):
        for move in moves:
            state.apply_action(card(move) if isinstance(move, str) else move)

    do("rice", "ammunition", "pants")
    assert state.phase == P_IMPORT_SHIP and cargo(3) == {"CHAIRS", "FIXIE BIKES", "PISTOLS", "DINO BONES"}
    do(_ship(3), _bid(4), _bid(2), _bid(0), "dino_bones", A.ZONE + A.IMPORTS, "chairs")
    assert state.credits == [6, 12, 10] and state.last_bids == [2, 1, 0]
    do(DRAW, DRAW, "tablets", DRAW, DRAW)
    assert state.actions_left[0] == 2 and state.bidders == [0]
    do(_ship(3), "fixie_bikes")
    assert not state.at_sea[3] and state.phase == P_IMPORT_SHIP and state.credits == [6, 14, 10]
    assert cargo(1) == {"DANGER PETS", "SUGAR", "BAMBOO", "BOK CHOY"}
    do(_ship(1), "danger_pets", "sugar", DRAW, "refrigerators", "books", DRAW)
    assert state.leader == 2 and cargo(5) == {"LUTEFISK", "SHOES", "APPLES", "NICE SUITS"}
    do(_ship(5), _bid(4), _bid(4), "shoes", A.ZONE + A.IMPORTS, "nice_suits")
    assert state.credits == [6, 14, 6] and state.bidders == [0]
    do(_ship(1), "bamboo")
    assert state.phase == P_LEAD and state.leader == 0 and not state.at_sea[1]
    assert [len(state.goods[p]) for p in range(3)] == [2, 0, 1]
    return state


def _arranged(num_players, modules=(), **kw):
    game = ImportExportGame(num_players=num_players, modules=tuple(modules))
    state = game.new_initial_state(0)
    kw.setdefault("discard", ["lutefisk", "flour"])  # hand powers out of the way
    return state.arrange(colours=list(range(num_players)), leader=0, **kw)


def test_scripted_game_known_bids(tmp_path):
    db, t = store_game(tmp_path / "ie.sqlite", _scripted_game(), SEATING, SEED)
    analysis = analyze_tournament(db, t)
    db.close()
    assert isinstance(analysis, ImportExportAnalysis) and analysis.games == 1 and analysis.mismatches == 0
    alice, bob, carol = (analysis.stats[n] for n in SEATING)

    def bids(s):
        return s.rounds, s.bids, s.bid_credits, s.zero_bids, s.forced_bids, s.share_bids

    assert bids(alice) == (5, 2, 8, 0, 0, 2) and alice.share_sum == pytest.approx(4 / 10 + 4 / 6)
    assert bids(bob) == (1, 1, 2, 0, 0, 1) and bob.share_sum == pytest.approx(0.2)
    assert bids(carol) == (2, 2, 4, 1, 0, 2) and carol.share_sum == pytest.approx(0.4)
    # won, won at a tie, lost at a tie, paid, overpay
    assert (alice.won, alice.won_tie, alice.lost_tie, alice.paid, alice.overpay) == (1, 0, 1, 4, 2)
    assert (bob.won, bob.won_tie, bob.lost_tie, bob.paid, bob.overpay) == (0, 0, 0, 0, 0)
    assert (carol.won, carol.won_tie, carol.lost_tie, carol.paid, carol.overpay) == (1, 1, 0, 4, 0)

    # Ships won: free imports, others' ships (owner fees), own ships, island.
    assert (alice.free, alice.won_other, alice.owner_fees, alice.won_own, alice.won_island) == (3, 2, 4, 2, 0)
    assert (carol.free, carol.won_other, carol.won_own) == (0, 0, 1)
    assert bob.ships_won == 0 and (bob.imported_from, bob.fees_received) == (2, 4)
    assert (alice.imported_from, carol.imported_from) == (0, 0)
    # Containers: taken, bought, to imports, to goods, discarded.
    assert (alice.containers, alice.containers_bought, alice.to_imports, alice.to_goods, alice.discarded) == (
        8,
        2,
        1,
        2,
        5,
    )
    assert (carol.containers, carol.containers_bought, carol.to_imports, carol.to_goods, carol.discarded) == (
        2,
        2,
        1,
        1,
        0,
    )

    # As leader: alice picked bob's ship twice and her own once; carol her own, then alice's.
    assert (alice.picks, alice.picks_forced, alice.picks_own, alice.picks_other, alice.own_at_sea) == (3, 0, 1, 2, 3)
    assert (carol.picks, carol.picks_own, carol.picks_other, carol.picks_island, carol.own_at_sea) == (2, 1, 1, 0, 2)
    assert bob.picks == 0

    row = alice.row()
    assert row["mean_bid"] == 4 and row["win_rate"] == 0.5 and row["overpay_per_win"] == 2
    assert row["bid_share"] == pytest.approx((0.4 + 4 / 6) / 2) and row["credits_per_container_bought"] == 2
    assert carol.row()["bid_share"] == pytest.approx(0.2) and math.isnan(bob.row()["overpay_per_win"])


def test_arranged_round_forced_bid_foxes_tie_and_pants_fee():
    sea = {
        1: ["laptops", "telescopes", "segways", "playstations"],
        3: ["almonds", "bamboo", "coffee", "sugar"],
        5: ["beer", "cups", "paper", "rope"],
        7: ["bubblegum", "seeds", "cannabis", "pistols"],
    }
    state = _arranged(
        4,
        hands={0: ["champagne"], 1: ["jets"], 2: ["vintage_wines"], 3: ["ammunition"]},
        shipments={2: ["foxes"], 3: ["pants"]},
        credits={0: 6, 1: 0},
        ships={s: {"at_sea": True, "cargo": cards} for s, cards in sea.items()},
    )
    g = state.game
    card = lambda key: A.CARD + g.card_id(key)
    names = ["ann", "ben", "cat", "dan"]
    analysis = ImportExportAnalysis(names)
    moves = [
        card("champagne"),
        card("jets"),
        card("vintage_wines"),
        card("ammunition"),
        _ship(7),
        _bid(6),  # ben, with no credits, bids 0: applied by the engine
        _bid(6),
        _bid(6),
        card("seeds"),
        A.ZONE + A.IMPORTS,
        card("cannabis"),
    ]
    analysis.add_state(state, moves, names)
    # The engine agrees: carol's Foxes broke the three-way tie; dan took 4 (Pants).
    assert state.last_bids == [3, 0, 3, 3] and state.credits == [6, 0, 4, 14]
    assert state.imports[2] == [g.card_id("seeds")] and state.goods[2] == [g.card_id("cannabis")]
    assert analysis.mismatches == 0 and "_ask" not in vars(state)
    ann, ben, cat, dan = (analysis.stats[n] for n in names)
    assert [s.bids for s in (ann, ben, cat, dan)] == [1, 1, 1, 1]
    assert [s.bid_credits for s in (ann, ben, cat, dan)] == [6, 0, 6, 6]
    assert (ben.zero_bids, ben.forced_bids, ben.share_bids) == (1, 1, 0)
    assert math.isnan(ben.row()["bid_share"]) and ann.row()["bid_share"] == 1.0
    assert cat.row()["bid_share"] == 0.6
    assert (cat.won, cat.won_tie, cat.paid, cat.overpay, cat.won_other, cat.owner_fees) == (1, 1, 6, 0, 1, 4)
    assert (ann.lost_tie, ben.lost_tie, dan.lost_tie) == (1, 0, 1)
    assert (dan.imported_from, dan.fees_received) == (1, 4)
    assert (cat.containers, cat.to_imports, cat.to_goods, cat.discarded) == (2, 1, 1, 0)
    assert (ann.picks, ann.picks_other, ann.own_at_sea, ann.picks_forced) == (1, 1, 1, 0)


def test_arranged_island_import_pays_the_dark_flight_holder():
    state = _arranged(
        2,
        modules=("captain",),
        hands={0: ["champagne"], 1: ["jets"]},
        shipments={0: ["dark_flight_games"]},
        island=["almonds", "bamboo", "coffee"],
        ships={1: {"at_sea": True, "cargo": ["laptops", "telescopes"]}},
    )
    g = state.game
    card = lambda key: A.CARD + g.card_id(key)
    names = ["ann", "ben"]
    analysis = ImportExportAnalysis(names)
    analysis.add_state(
        state,
        [
            card("champagne"),
            card("jets"),
            OPT_ISLAND,
            _bid(2),
            _bid(4),
            card("almonds"),
            A.ZONE + A.GOODS,
            card("bamboo"),
            A.ZONE + A.GOODS,
        ],
        names,
    )
    assert state.credits == [14, 6] and len(state.goods[1]) == 2 and state.phase == P_LEAD
    ann, ben = analysis.stats["ann"], analysis.stats["ben"]
    assert (ann.picks, ann.picks_island, ann.own_at_sea, ann.lost_tie) == (1, 1, 1, 0)  # ship 1 is hers
    assert (ben.won, ben.won_island, ben.paid, ben.overpay, ben.owner_fees) == (1, 1, 4, 2, 0)
    assert (ben.containers, ben.to_goods) == (2, 2) and ann.fees_received == 0
    assert analysis.mismatches == 0


def test_analyze_command_prints_and_writes_the_scripted_numbers(tmp_path, run_cli, capsys):
    db, _ = store_game(tmp_path / "ie.sqlite", _scripted_game(), SEATING, SEED)
    db.close()
    assert run_cli(["analyze", str(tmp_path / "ie.sqlite"), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "sealed Import bids" in out and "ships won" in out and "as leader" in out
    assert "disagreed with the resolution" not in out  # the engine's reveal agrees (a one-game database is warned of)
    alice = [line.split() for line in out.splitlines() if line.startswith("alice")]
    # agent, rounds bid, mean bid, bids of 0, forced, bid share, won, won at tie, lost at tie,
    # win rate, CI (2 cells), paid, overpay, overpay/win
    assert alice[0][:10] == ["alice", "2", "4", "0", "0", "53.3%", "1", "0", "1", "50.0%"]
    assert alice[0][12:] == ["4", "2", "2"]
    # ships won, free, others' ships, owner fees, own ship, island, containers, to imports, to
    # goods, discarded, credits/container, imported from, fees received
    assert alice[1] == ["alice", "4", "3", "2", "4", "2", "0", "8", "1", "2", "5", "2", "0", "0"]
    assert alice[2] == ["alice", "3", "0", "1", "2", "0", "3", "33.3%"]  # as leader
    bob = [line.split() for line in out.splitlines() if line.startswith("bob")]
    assert bob[1][-2:] == ["2", "4"]
    csv_text = (tmp_path / "out" / "ie_t1_sealed_bids.csv").read_text()
    assert csv_text.splitlines()[0].startswith("agent,import_rounds,rounds_bid,bid_credits,mean_bid")
    assert (tmp_path / "out" / "ie_t1_sealed_bids.png").read_bytes()[:4] == b"\x89PNG"


def test_analyze_a_small_tournament_end_to_end(tmp_path, analyze_small_tournament):
    out = analyze_small_tournament("import_export_v0")
    check_analyzed(out, tmp_path, "import_export_v0", "sealed_bids")
    for metric in (
        "rounds bid",
        "mean bid",
        "bids of 0",
        "bid share",
        "won at tie",
        "win rate",
        "paid",
        "overpay",
        "free imports",
        "others' ships",
        "owner fees",
        "own ship",
        "containers",
        "to imports",
        "to goods",
        "discarded",
        "ships picked",
        "own when at sea",
    ):
        assert metric in out
    assert "disagreed with the resolution" not in out


def test_random_games_agree_with_the_engine():
    """Every round the engine reveals matches the bids; the counts add up between agents."""
    game = smuggle_envs.make_game("import_export_v0", num_players=4)
    names = ["w", "x", "y", "z"]
    records = []
    for seed in range(4):
        rng, state = random.Random(seed), game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(list(state.legal_actions())))
        spec = smuggle_envs.GameSpec("import_export_v0", game.config.to_dict())
        records.append(SimpleNamespace(spec=spec, seed=seed, actions=list(state.history), seating=names))
    analysis = analyze_games("import_export_v0", names, records)
    assert isinstance(analysis, ImportExportAnalysis) and analysis.games == 4 and analysis.mismatches == 0
    agents = analysis.ordered()
    total = lambda attr: sum(getattr(s, attr) for s in agents)
    assert total("picks") == total("won") + total("free") > 0  # one leader's pick per round
    assert total("bids") >= 2 * total("won") and total("won_tie") <= total("lost_tie")
    assert total("fees_received") == total("owner_fees") > 0 and total("imported_from") == total("won_other")
    assert total("forced_bids") > 0 and total("picks_forced") > 0  # decisions the engine applied
    for s in agents:
        assert s.ships_won == s.won_other + s.won_own + s.won_island
        assert s.picks == s.picks_own + s.picks_other + s.picks_island
        assert s.containers == s.to_imports + s.to_goods + s.discarded
        assert s.zero_bids >= s.forced_bids and s.won_tie <= s.won


def test_a_forced_pick_is_counted_and_a_round_left_unbid_is_not():
    """The leader's pick with one ship at sea is applied by the engine and counted; a replay
    that stops before the bids counts nothing for that round."""
    state = _arranged(
        2, hands={0: ["champagne"], 1: ["jets"]}, ships={1: {"at_sea": True, "cargo": ["laptops", "telescopes"]}}
    )
    g = state.game
    analysis = ImportExportAnalysis(["ann", "ben"])
    analysis.add_state(state, [A.CARD + g.card_id("champagne"), A.CARD + g.card_id("jets")], ["ann", "ben"])
    # One ship at sea: the leader's pick was applied by the engine; the bids are still to come.
    assert state.phase == P_BID
    ann, ben = analysis.stats["ann"], analysis.stats["ben"]
    assert (ann.picks, ann.picks_forced, ann.picks_own, ann.own_at_sea) == (1, 1, 1, 1)
    assert ann.bids == ben.bids == 0
    assert state.auto_listeners == []  # the analysis stops watching when the replay ends
