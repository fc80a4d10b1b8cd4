"""``training.selfplay.evaluate``: seats rotated, seeded, tallied like ``smuggle match``."""

from __future__ import annotations

import numpy as np
import pytest

from agents import RandomAgent
from agents.arena import play_game
from smuggle_envs import make_game
from training.selfplay.evaluate import EvalResult, baseline_agents, evaluate, results_table
from training.stats import win_shares


def test_seats_rotate_and_results_match_a_manual_tally():
    game = make_game("smuggle_v0", num_players=4)
    result = evaluate(game, RandomAgent(), "rule", games=8, seed=100)
    # Manual tally: game g, agent at seat g % 4 against three rule bots seeded as evaluate does.
    wins = score = 0.0
    for g in range(8):
        others, _ = baseline_agents("rule", game, 100)
        lineup = list(others)
        lineup.insert(g % 4, RandomAgent())
        state = play_game(game, lineup, 100 + g)
        wins += win_shares(state.scores())[g % 4]
        score += state.scores()[g % 4]
    assert result.games == 8 and result.wins == wins
    assert result.mean_score == pytest.approx(score / 8)
    assert result.to_dict()["chance"] == 0.25
    again = evaluate(game, RandomAgent(), "rule", games=8, seed=100)
    assert again.to_dict() == result.to_dict()


def test_the_agent_sits_in_every_seat():
    game = make_game("smuggle_v0", num_players=3)
    seen = []

    class Where(RandomAgent):
        def reset(self, seed=None):
            super().reset(seed)
            seen.append(seed % 1000)  # play_game resets seat i with seed * 1000 + i

    evaluate(game, Where(), "random", games=6, seed=7)
    assert seen == [0, 1, 2, 0, 1, 2]


def test_unfinished_games_count_as_not_won():
    game = make_game("smuggle_v0", num_players=3)
    result = evaluate(game, RandomAgent(), "random", games=3, seed=0, max_decisions=10)
    assert result.unfinished == 3 and result.wins == 0


def test_results_table_shows_rate_interval_and_chance():
    table = results_table([EvalResult("random", 1000, 612.5, 1e6, 4), EvalResult("rule", 1000, 300, 0.0, 4)])
    lines = table.splitlines()
    assert lines[0].split() == ["table", "games", "wins", "win", "rate", "95%", "CI", "chance", "mean", "score"]
    assert "trained vs 3 x random" in lines[2] and "61.3%" in lines[2] and "612.5" in lines[2]
    assert "[27.2%, 32.9%]" in lines[3] and "25.0%" in lines[3]
    assert np.isclose(EvalResult("rule", 0, 0, 0, 4).win_rate, 0.0)


def test_a_mixed_table_seats_baselines_in_turn_and_tallies_their_wins_too():
    game = make_game("smuggle_v0", num_players=4)
    result = evaluate(game, RandomAgent(), "rule+random", games=8, seed=100)
    assert result.opponent == "rule+random"
    # Manual tally: opponents rule, random, rule (in turn), the agent inserted at seat g % 4.
    others, labels = baseline_agents("rule+random", game, 100)[0], ["rule", "random", "rule"]
    assert [type(a).__name__ for a in others][1] == "RandomAgent"
    wins, rivals = 0.0, {"rule": 0.0, "random": 0.0}
    for g in range(8):
        lineup = list(baseline_agents("rule+random", game, 100)[0])
        lineup.insert(g % 4, RandomAgent())
        shares = win_shares(play_game(game, lineup, 100 + g).scores())
        wins += shares[g % 4]
        for label, share in zip(labels, shares[: g % 4] + shares[g % 4 + 1 :]):
            rivals[label] += share
    assert result.wins == wins
    assert result.rival_rates == {"rule": rivals["rule"] / 16, "random": rivals["random"] / 8}
    assert result.rival_win_rate == max(rivals["rule"] / 16, rivals["random"] / 8)
    assert result.to_dict()["rivals"] == result.rival_rates
    row = result.csv_row(5)
    assert float(row[-1]) == pytest.approx(result.rival_win_rate)
    assert "best rival at the table" in results_table([result])
    single = evaluate(game, RandomAgent(), "rule", games=4, seed=100)
    assert single.rival_win_rate is None and single.csv_row(5)[-1] == "" and "rivals" not in single.to_dict()
