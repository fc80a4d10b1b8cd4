"""The pieces of ``benchmarks/equilibrium.py`` on its Humble smuggle variants, in a few seconds:
the games it counts replay in the library, the agents' games are not one deal repeated, an
unvisited MCCFR information state plays uniformly, a solution of the every-draw game is found on
the seeded deals it is played on, what a seat knows at the start in either chance mode, and a
rate cell shows its interval."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pyspiel  # noqa: F401  (the openspiel extra, installed by the test set-up)
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def eq():
    spec = importlib.util.spec_from_file_location("_benchmark_equilibrium", ROOT / "benchmarks" / "equilibrium.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def _variant(eq, key="humble"):
    return next(v for v in eq.VARIANTS if v.key == key)


@pytest.mark.parametrize("key, seeds", [("humble", [0, 1, 2, 3, 4, 5]), ("humble-open", [0, 1, 0, 1, 0, 1])])
def test_the_solutions_games_are_the_library_games_of_the_same_deals(eq, key, seeds):
    """Every draw a chance node: game g on the engine's seed g; 2 fixed deals: on deal g mod 2."""
    from open_spiel.python import policy

    v = _variant(eq, key)
    game = v.playing_game()
    games = eq.policy_games(v, game, policy.UniformRandomPolicy(game), 6)
    assert [seed for seed, _ in games] == seeds
    engine = v.spec().make_game()
    for seed, actions in games:
        state = engine.new_initial_state(seed)
        for a in actions:
            state.apply_action(a)
        assert state.is_terminal()
    counts = eq.frequencies(v.spec(), games)
    assert set(counts) == {"break rate", "Play cards on others"}
    assert all(0 <= num <= den for num, den in counts.values()) and counts["break rate"][1] > 0


def test_the_agents_games_on_one_deal_differ_from_game_to_game(eq):
    v = _variant(eq, "humble-open")
    games = eq.agent_games(v.spec(), "random", 8, v.agent_deals())
    on_deal_0 = {tuple(actions) for seed, actions in games if seed == 0}
    assert len(on_deal_0) > 1  # reseeded per game, not per deal


def test_an_information_state_mccfr_never_averaged_plays_uniformly(eq):
    v = _variant(eq)
    game = v.playing_game()
    state = game.new_initial_state()
    state.apply_action(0)
    average = eq.SafeAverage(game, {})
    probs = average.action_probabilities(state)
    assert probs == {a: pytest.approx(1 / len(state.legal_actions())) for a in state.legal_actions()}
    assert (average.averaged, average.asked) == (0, 1)


def test_a_solution_of_the_every_draw_game_is_found_on_the_seeded_deals_it_plays(eq):
    """An information state is what the seat observed, whatever drew the cards: the table MCCFR
    fills through chance nodes answers the games played on the engine's seeded deals."""
    import dataclasses

    v = dataclasses.replace(_variant(eq, "smuggle"), budget=4)
    solved = eq.solve_mccfr(v.adapter_game(), v.budget, "external")
    eq.policy_games(v, v.playing_game(), solved["policy"], 20)
    assert solved["policy"].averaged > solved["policy"].asked // 4


def test_the_every_draw_tree_is_measured_too_big_to_walk(eq):
    assert eq.chance_paths(_variant(eq).adapter_game()) > 100  # log10: 79! shuffles of the white deck alone
    assert eq.chance_paths(_variant(eq, "humble-open").adapter_game()) == pytest.approx(0.30103)  # 2 deals


def test_a_rate_cell_shows_the_rate_its_wilson_interval_and_its_count(eq):
    assert eq.rate_cell([0, 0]) == "- (n=0)"
    assert eq.rate_cell([50, 100]) == "50.0% [40.4, 59.6] (n=100)"


def test_in_the_two_deal_humble_variant_each_seat_knows_the_deal_from_its_first_observation(eq):
    """What the docs warn of: a seat that tells the deal (a seed) apart knows every card to come."""
    assert eq.deal_known(_variant(eq, "humble-open")) == [1.0, 1.0]


def test_with_every_draw_a_chance_node_no_seat_knows_the_others_cards(eq, monkeypatch):
    """The same variant with chance="cards": the other seat's hand stays hidden in every deal."""
    monkeypatch.setattr(eq, "KNOWN_DEALS", 20)
    assert eq.deal_known(_variant(eq)) == [0.0, 0.0]
