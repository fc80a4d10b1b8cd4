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
    # serialize=True: every state on the way is also serialized, deserialized and compared
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


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


def test_information_states_have_perfect_recall_and_hide_face_down_choices():
    """Each information state extends the seat's previous one by what it observed then and what
    it saw of the action (so it determines every earlier one); a seat that did not move sees only
    the public text of the action, so two different face-down choices look the same to it."""
    game = pyspiel.load_game("python_humble_smuggle_v0", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(0)
    rng = random.Random(3)
    hidden_choices = 0
    for _ in range(40):
        if state.is_terminal():
            break
        mover, before = state.current_player(), [state.information_state_string(p) for p in range(2)]
        action = rng.choice(state.legal_actions())
        engine = state.engine
        texts = [engine.action_to_string(action, p) for p in range(2)]
        hidden_choices += texts[0] != texts[1]
        state.apply_action(action)
        for seat in range(2):
            *past, now = before[seat].split("|")
            *after, _ = state.information_state_string(seat).split("|")
            assert after == [*past, f"{now}:{texts[seat]}"]
        assert texts[mover] == engine.game.action_to_string(action)
    assert hidden_choices  # some action's text differed between the mover and the other seat


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


def test_cfr_lowers_nash_conv_on_a_short_humble_smuggle():
    """Humble Smuggle with every rule, for 2 players, with the End-of-Game card as shallow as the
    rules allow (``end_card_depth=6``, 2 deals): about 1,300 information states, real winners and
    face-down choices. OpenSpiel's CFR walks the whole tree, and its average policy is much less
    exploitable (NashConv) than the uniform policy it starts from."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, exploitability

    game = adapter.load("humble_smuggle_v0", players=2, deals=2, end_card_depth=6)
    uniform = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    solver = cfr.CFRSolver(game)
    for _ in range(4):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    assert len(average.state_lookup) > 500
    assert uniform > 1.0 and exploitability.nash_conv(game, average) < 0.5 * uniform


def test_outcome_sampling_mccfr_runs_on_a_full_game():
    """Sampling algorithms need no tree walk: MCCFR on the full 2-player Illegal."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game("python_illegal_v0", {"players": 2, "deals": 1000})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(20):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    state.apply_action(0)
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and sum(probs.values()) == pytest.approx(1.0)


def test_a_game_past_max_game_length_is_truncated_with_no_winner():
    game = pyspiel.load_game("python_smuggle_v0", {"players": 3, "max_game_length": 5})
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0, 0.0]


def test_bad_parameters_are_refused_with_one_line():
    for params in ({"deals": 0}, {"seed": -1}, {"max_game_length": 0}):
        with pytest.raises(Exception, match=r"seed must be >= 0, deals and max_game_length positive, got"):
            pyspiel.load_game("python_smuggle_v0", params)
    with pytest.raises(Exception, match="num_players"):
        pyspiel.load_game("python_smuggle_v0", {"players": 9})
    with pytest.raises(Exception, match="hand_size"):
        adapter.load("ciq_v0", players=2, hand_size=0)


def test_a_resampled_world_refuses_serialization_with_one_line():
    game = pyspiel.load_game("python_illegal_v0", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(0)
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(Exception, match="resample_from_infostate cannot be serialized"):
        pyspiel.serialize_game_and_state(game, world)


# ----- chance="cards": every draw of the engine an explicit chance node --------------------------------
def _cards_humble():
    return adapter.load("humble_smuggle_v0", players=2, chance="cards", end_card_depth=6)


def _deal(game, choose):
    """The state at the first decision, each chance outcome ``choose(n, i)`` for the i-th draw of n."""
    state, i = game.new_initial_state(), 0
    while state.is_chance_node():
        n = len(state.chance_outcomes())
        state.apply_action(choose(n, i))
        i += 1
    return state


def test_cards_mode_is_registered_and_the_default_stays_one_deal_node():
    assert pyspiel.load_game("python_smuggle_v0").get_parameters()["chance"] == "deals"
    game = pyspiel.load_game("python_humble_smuggle_v0", {"players": 2, "chance": "cards"})
    assert game.max_chance_outcomes() == 79  # the white deck: the setup's largest draw
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 79
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 5) == "draw 5"
    deals = pyspiel.load_game("python_humble_smuggle_v0", {"players": 2, "deals": 3}).new_initial_state()
    assert deals.chance_outcomes() == [(d, pytest.approx(1 / 3)) for d in range(3)]


@pytest.mark.parametrize("env_id", smuggle_envs.ENV_IDS)
def test_cards_mode_passes_openspiels_random_sim_test(env_id):
    n = smuggle_envs.game_class(env_id).min_players
    game = pyspiel.load_game(f"python_{env_id}", {"players": n, "chance": "cards"})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_cards_mode_chance_nodes_are_distributions_within_max_chance_outcomes():
    """A sampled walk: at every chance node the outcomes are 0..n-1, their probabilities sum to 1,
    and n never passes max_chance_outcomes; the walk reaches the end of the game."""
    game = _cards_humble()
    rng = random.Random(5)
    for _ in range(5):
        state, chance_nodes = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert [k for k, _ in outcomes] == list(range(len(outcomes)))
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                assert 2 <= len(outcomes) <= game.max_chance_outcomes()
                chance_nodes += 1
                state.apply_action(rng.randrange(len(outcomes)))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert chance_nodes >= 118  # the shuffles of both decks and the first player, at least
        assert sorted(state.returns()) in ([-1.0, 1.0], [1.0, 1.0])


def test_cards_mode_a_seat_cannot_tell_apart_deals_that_differ_only_in_the_others_hand():
    """Draw n-1 each time deals the deck in order; drawing 0 at the fourth draw swaps a card of
    seat 1's hand with the deck's bottom card. Seat 0's information state (and observation) is
    the same in both deals, seat 1's is not."""
    game = _cards_humble()
    a = _deal(game, lambda n, i: n - 1)
    b = _deal(game, lambda n, i: 0 if i == 3 else n - 1)
    assert a.engine.hands[0] == b.engine.hands[0] and a.engine.hands[1] != b.engine.hands[1]
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    # the chance outcomes are in the state's history, never in a seat's information state
    assert len(a.history()) == 118 and "draw" not in a.information_state_string(0)


class _Recording(random.Random):
    """The engine's own seeded generator, keeping every draw of more than one outcome."""

    def __init__(self, seed):
        super().__init__(seed)
        self.draws = []

    def _randbelow(self, n):
        value = super()._randbelow(n)
        if n > 1:
            self.draws.append(value)
        return value


@pytest.mark.parametrize("env_id, n", [("humble_smuggle_v0", 2), ("illegal_v0", 2), ("smuggle_v0", 3)])
def test_cards_mode_the_engines_draws_as_chance_outcomes_replay_the_engines_seeded_game(env_id, n):
    """The draws of a seeded engine game, played as chance outcomes with the same decisions,
    give that game: the same observation for every seat at every decision, the same returns."""
    from smuggle_envs.core.game import drawing_from

    engine_game = smuggle_envs.make_game(env_id, num_players=n)
    recording = _Recording(7)
    with drawing_from(recording):
        engine = engine_game.new_initial_state(7)
    seeded = engine_game.new_initial_state(7)
    game = pyspiel.load_game(f"python_{env_id}", {"players": n, "chance": "cards"})
    state, used, rng = game.new_initial_state(), 0, random.Random(1)
    while not engine.is_terminal() and len(engine.history) < 300:
        while state.is_chance_node():
            state.apply_action(recording.draws[used])
            used += 1
        assert used == len(recording.draws)
        for seat in range(n):
            assert state.observation_tensor(seat) == engine.observation(seat).tolist()
            assert np.array_equal(seeded.observation(seat), engine.observation(seat))
        action = rng.choice(engine.legal_actions())
        for s in (state, engine, seeded):
            s.apply_action(action)
    while state.is_chance_node():
        state.apply_action(recording.draws[used])
        used += 1
    assert state.is_terminal() == engine.is_terminal() and (
        not engine.is_terminal() or state.returns() == engine.returns()
    )


def test_cards_mode_serializes_through_every_step_and_its_draws():
    game = pyspiel.load_game("python_illegal_v0", {"players": 2, "chance": "cards"})
    rng = random.Random(2)
    state = game.new_initial_state()
    for _ in range(150):  # chance nodes' legal actions are their outcomes
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_chance_node() and state.decisions > 10
    for s in (state, _deal(game, lambda n, i: i % n)):
        copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, s))[1]
        assert copy.history() == s.history() and str(copy) == str(s)
        assert [copy.information_state_string(p) for p in range(2)] == [s.information_state_string(p) for p in range(2)]
    mid = game.new_initial_state()
    for _ in range(10):
        mid.apply_action(0)  # a state waiting on its 11th draw: the pending draws pickle too
    copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, mid))[1]
    assert copy.is_chance_node() and copy.chance_outcomes() == mid.chance_outcomes()
    world = _deal(game, lambda n, i: 0).resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(Exception, match="resample_from_infostate cannot be serialized"):
        pyspiel.serialize_game_and_state(game, world)


def test_cards_mode_refuses_a_draw_it_cannot_enumerate_and_changes_nothing(monkeypatch):
    """A coin flip (``rng.random()``, as Import / Export's) has no finite uniform outcomes: the
    action is refused with one line and the state is as it was."""
    game = _cards_humble()
    state = _deal(game, lambda n, i: 0)
    before = (state.history(), [state.information_state_string(p) for p in range(2)], str(state))
    engine_class = type(state.engine)
    monkeypatch.setattr(engine_class, "_apply", lambda self, action: self.rng.random())
    with pytest.raises(ValueError, match=r"^chance='cards' needs every draw .* drew random\(\)"):
        state.apply_action(state.legal_actions()[0])
    monkeypatch.undo()
    assert (state.history(), [state.information_state_string(p) for p in range(2)], str(state)) == before
    with pytest.raises(ValueError, match="out of range"):
        game.new_initial_state().apply_action(79)


def test_cards_mode_bad_parameters_are_refused_with_one_line():
    with pytest.raises(Exception, match=r"chance must be one of 'deals', 'cards', got 'shuffle'"):
        pyspiel.load_game("python_smuggle_v0", {"chance": "shuffle"})
    with pytest.raises(Exception, match=r"deals=3 needs chance='deals'"):
        adapter.load("smuggle_v0", chance="cards", deals=3)
