"""smuggle_envs.openspiel: every env as an OpenSpiel Python game. OpenSpiel's own checks and
algorithms run on it, and nothing it shows a seat changes when that seat's hidden information is
redrawn."""

from __future__ import annotations

import random

import numpy as np
import pyspiel  # the [openspiel] extra, installed by scripts/test.sh
import pytest

import smuggle_envs
import smuggle_envs.openspiel as adapter

CASES = [
    (env_id, n)
    for env_id in smuggle_envs.ENV_IDS
    for n in range(smuggle_envs.game_class(env_id).min_players, smuggle_envs.game_class(env_id).max_players + 1)
]


@pytest.mark.parametrize("env_id, n", CASES, ids=[f"{e}-{n}p" for e, n in CASES])
def test_openspiel_random_sim_test_passes_for_every_env_and_player_count(env_id, n):
    game = pyspiel.load_game(f"python_{env_id}", {"players": n, "deals": 3})
    assert game.num_players() == n and game.num_distinct_actions() == smuggle_envs.make_game(env_id).num_actions
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_deal_is_the_chance_node_and_each_outcome_is_the_engines_seeded_game():
    game = pyspiel.load_game("python_smuggle_v0", {"players": 3, "seed": 40, "deals": 4})
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(d, 0.25) for d in range(4)]
    state.apply_action(2)
    engine = smuggle_envs.make_game("smuggle_v0", num_players=3).new_initial_state(42)
    assert state.observation_tensor(0) == pytest.approx(engine.observation(0).tolist())
    assert state.legal_actions() == list(engine.legal_actions())


def _positions(env_id: str, n: int, count: int = 6):
    game = pyspiel.load_game(f"python_{env_id}", {"players": n, "deals": 2})
    rng = random.Random(0)
    state = game.new_initial_state()
    state.apply_action(1)
    found = []
    while not state.is_terminal() and len(found) < count:
        for _ in range(rng.randrange(1, 12)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(state.clone())
    return found


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_resample_from_infostate_changes_nothing_the_seat_is_shown(env_id):
    """The no-leak check through OpenSpiel's interface: information state, observation string and
    tensor, and legal actions (for the seat to move) are the same in every world the seat's
    resample draws; the worlds do differ in what others hold."""
    n = smuggle_envs.game_class(env_id).min_players + 1
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = False
    for state in _positions(env_id, n):
        for seat in range(n):
            shown = (
                state.information_state_string(seat),
                state.observation_string(seat),
                state.observation_tensor(seat),
            )
            for _ in range(3):
                world = state.resample_from_infostate(seat, sampler)
                assert (world.information_state_string(seat), world.observation_string(seat)) == shown[:2]
                assert world.observation_tensor(seat) == shown[2]
                if seat == state.current_player():
                    assert world.legal_actions() == state.legal_actions()
                other = (seat + 1) % n
                differs |= world.observation_tensor(other) != state.observation_tensor(other)
    assert differs  # the resample really redraws hidden cards


def test_information_states_remember_what_the_seat_saw_of_every_action():
    game = pyspiel.load_game("python_illegal_v0", {"players": 2})
    a, b = game.new_initial_state(), game.new_initial_state()
    for state in (a, b):
        state.apply_action(0)
    # the same observation reached by different actions is a different information state
    assert a.information_state_string(0) == b.information_state_string(0)
    a.apply_action(a.legal_actions()[0])
    b.apply_action(b.legal_actions()[-1])
    assert a.information_state_string(0) != b.information_state_string(0)


class _RestartableISMCTS:
    """OpenSpiel's Python ISMCTSBot, restartable for ``evaluate_bots`` (which restarts every bot)."""

    @staticmethod
    def make(game, seed):
        from open_spiel.python.algorithms import ismcts, mcts

        class Bot(ismcts.ISMCTSBot):
            def restart_at(self, state):
                self.reset()

        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        return Bot(
            game, evaluator, 2.0, 4, random_state=np.random.RandomState(seed), allow_inconsistent_action_sets=True
        )


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_openspiel_ismcts_and_evaluate_bots_play_every_game(env_id):
    from open_spiel.python.algorithms import evaluate_bots

    n = smuggle_envs.game_class(env_id).min_players
    game = pyspiel.load_game(f"python_{env_id}", {"players": n, "deals": 2})
    bots = [_RestartableISMCTS.make(game, 0)] + [pyspiel.make_uniform_random_bot(p, p) for p in range(1, n)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == n and set(returns) <= {-1.0, 1.0} and 1.0 in returns


def test_cfr_and_exploitability_run_end_to_end_on_a_tiny_variant():
    """No faithful variant of these games is small enough for CFR (docs/interop.md); CIQ cut at
    two turns (a truncated game: every return 0) proves the plumbing: a full tree walk, the
    average policy, NashConv."""
    from open_spiel.python.algorithms import cfr, exploitability

    game = adapter.load("ciq_v0", players=2, deals=2, hand_size=2, turn_limit=2)
    solver = cfr.CFRSolver(game)
    for _ in range(3):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    assert len(policy.state_lookup) > 1
    assert exploitability.nash_conv(game, policy) == pytest.approx(0.0)


def test_a_game_past_max_game_length_is_truncated_with_no_winner():
    game = pyspiel.load_game("python_smuggle_v0", {"players": 3, "max_game_length": 5})
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0, 0.0]


def test_bad_parameters_are_refused_with_one_line():
    with pytest.raises(Exception, match="deals and max_game_length must be positive"):
        adapter.load("smuggle_v0", deals=0)
    with pytest.raises(Exception, match="num_players"):
        pyspiel.load_game("python_smuggle_v0", {"players": 9})
