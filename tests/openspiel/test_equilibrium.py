"""The pieces of ``benchmarks/equilibrium.py`` on its Humble smuggle variant, in a few seconds:
the games it counts replay in the library, the agents' games are not one deal repeated, an
unvisited MCCFR information state plays uniformly, and a rate cell shows its interval."""

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


def _humble(eq):
    return next(v for v in eq.VARIANTS if v.key == "humble")


def test_the_solutions_games_are_the_library_games_of_the_same_deals(eq):
    from open_spiel.python import policy

    v = _humble(eq)
    game = v.adapter_game()
    games = eq.policy_games(v, game, policy.UniformRandomPolicy(game), 6)
    assert [seed for seed, _ in games] == [0, 1, 0, 1, 0, 1]  # game g on deal g mod deals
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
    v = _humble(eq)
    games = eq.agent_games(v.spec(), "random", 8, v.deals)
    on_deal_0 = {tuple(actions) for seed, actions in games if seed == 0}
    assert len(on_deal_0) > 1  # reseeded per game, not per deal


def test_an_information_state_mccfr_never_averaged_plays_uniformly(eq):
    v = _humble(eq)
    game = v.adapter_game()
    state = game.new_initial_state()
    state.apply_action(0)
    probs = eq.SafeAverage(game, {}).action_probabilities(state)
    assert probs == {a: pytest.approx(1 / len(state.legal_actions())) for a in state.legal_actions()}


def test_a_rate_cell_shows_the_rate_its_wilson_interval_and_its_count(eq):
    assert eq.rate_cell([0, 0]) == "- (n=0)"
    assert eq.rate_cell([50, 100]) == "50.0% [40.4, 59.6] (n=100)"


def test_in_the_two_deal_humble_variant_each_seat_knows_the_deal_from_its_first_observation(eq):
    """What the docs warn of: a seat that tells the deal (a seed) apart knows every card to come."""
    assert eq.deal_known(_humble(eq)) == [1.0, 1.0]
