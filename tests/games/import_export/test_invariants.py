"""Invariants over many seeded random games (2 to 6 players, base game and every module): every
card in exactly one zone and every credit in a purse, the bank or Helicopter's passive pile at
every step; the bookkeeping agrees with the zones; every game ends; scores and returns agree."""

import random
from collections import Counter

import pytest

from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export.vocab import P_FOLLOW, P_LEAD

BANK = 520
ALL_MODULES = ("jutaku", "kickstarter", "captain")
MAX_DECISIONS = 20_000  # random games take about 500 to 2,500 decisions


def zones(st) -> list[int]:
    """Every card where it is: deck, discard, island, hands, imports, goods, shipments, contracts,
    cargo, played this turn, or pending (picked up and being placed)."""
    cards = st.deck + st.discard + st.island
    for name in ("hands", "imports", "goods", "shipments", "contracts", "cargo", "played"):
        for zone in getattr(st, name):
            cards += zone
    if st.pending >= 0:
        cards.append(st.pending)
    return cards


def check(st) -> None:
    g, n = st.game, st.n
    assert sorted(zones(st)) == sorted(g.deck_cards), "every card in exactly one zone"
    assert sum(st.credits) + st.bank + sum(st.passive) == BANK, "credits conserved"
    assert min(st.credits) >= 0 and st.bank >= 0 and min(st.passive) >= 0
    assert all(x % 2 == 0 for x in st.credits + st.passive + [st.bank]), "credits move in steps of 2"
    owner = [-1] * len(g.cards)
    for p in range(n):
        for c in st.shipments[p]:
            owner[c] = p
    assert st.owner == owner, "a power belongs to the seat whose shipments hold its card"
    for s in range(2 * n):
        if st.at_sea[s]:
            # An emptied ship returns home once its last container is placed: it may wait empty
            # at sea only while that container is being placed.
            assert st.cargo[s] or (not st.over and st.ask.phase not in (P_LEAD, P_FOLLOW)), "an empty ship returns"
            assert not st.contracts[s], "contracts wait in harbor"
    assert len(st.colour) == n and len(set(st.colour)) == n
    if not st.over:
        _phase, player, options = st.ask.phase, st.ask.player, st.ask.options
        assert 0 <= player < n and options == tuple(sorted(set(options))) and options
        assert st.current_player() == player and st.legal_actions() == options
        assert 0 <= st.leader < n


def play(game, seed, every=1, rng=None):
    st = game.new_initial_state(seed)
    rng = rng or random.Random(seed)
    decisions = 0
    while not st.is_terminal():
        if decisions % every == 0:
            check(st)
        st.apply_action(rng.choice(st.legal_actions()))
        decisions += 1
        assert decisions < MAX_DECISIONS, "every game ends"
    check(st)
    return st, decisions


@pytest.mark.parametrize("modules", [(), ALL_MODULES], ids=["base", "all-modules"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_conserve_cards_and_credits_and_end(n, modules):
    game = ImportExportGame(num_players=n, modules=modules)
    lengths, reasons = [], Counter()
    for seed in range(12):
        st, decisions = play(game, seed)
        lengths.append(decisions)
        assert st.end_reason and not st.is_truncated()
        reasons[st.end_reason.split(" ")[0]] += 1
        assert st.current_player() == -1 and list(st.legal_actions()) == [] and st.phase == -1
        scores = st.scores()
        best = max(scores)
        assert st.returns() == [1.0 if s == best else -1.0 for s in scores]
        assert sum(st.returns("score")) == pytest.approx(0.0, abs=1e-9)
    assert max(lengths) > 100


def test_capacities_hold_in_the_base_game():
    # Imports <= 1 + shipments, goods <= 2 x (1 + shipments) (R5.4); no base power lifts them.
    for n in (2, 4, 6):
        game = ImportExportGame(num_players=n)
        for seed in range(6):
            st = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not st.is_terminal():
                for p in range(n):
                    assert len(st.imports[p]) <= st.imports_cap(p)
                    assert len(st.goods[p]) <= st.goods_cap(p)
                st.apply_action(rng.choice(st.legal_actions()))


def test_a_small_turn_cap_truncates_random_games():
    for n in (2, 5):
        game = ImportExportGame(num_players=n, turn_limit=4, modules=ALL_MODULES)
        for seed in range(10):
            st, _ = play(game, seed)
            assert st.turn <= 4
            if st.is_truncated():
                assert st.turn == 4 and st.end_reason == "turn cap (4 turns)"
            else:
                assert st.end_reason and not st.end_reason.startswith("turn cap")
        truncated = sum(play(game, seed)[0].is_truncated() for seed in range(10))
        assert truncated >= 8
