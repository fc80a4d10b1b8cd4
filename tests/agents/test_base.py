"""agents.base: how every tool asks an agent for its move (``decide``) and what a search agent may
see of the game (``SeatView``)."""

import random

import numpy as np
import pytest

import smuggle_envs
from agents.base import RandomAgent, SeatView, decide, legal_of


class _Spy:
    """A search agent that records what it was given and plays the first legal action."""

    name = "spy"

    def __init__(self):
        self.views = []

    def reset(self, seed=None):
        pass

    def act_in(self, view):
        self.views.append(view)
        return view.legal_actions()[0]


def test_decide_gives_a_search_agent_its_seat_view_and_others_their_observation():
    state = smuggle_envs.make_game("smuggle_v0").new_initial_state(3)
    player = state.current_player()
    spy = _Spy()
    assert decide(spy, state, player) == state.legal_actions()[0]
    [view] = spy.views
    assert isinstance(view, SeatView) and view.player == player and view.game is state.game
    np.testing.assert_array_equal(view.observation(), state.observation(player))
    assert view.legal_actions() == state.legal_actions()
    np.testing.assert_array_equal(view.legal_action_mask(), state.legal_action_mask())
    agent = RandomAgent(seed=1)
    assert decide(agent, state, player) in state.legal_actions()


def test_a_seat_view_hides_the_true_state_and_samples_from_the_seats_information_set():
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=3)
    state = game.new_initial_state(5)
    rng = random.Random(0)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    view = SeatView(state, player)
    for name in ("state", "_state", "__state", "hands", "deck"):
        with pytest.raises(AttributeError):
            getattr(view, name)
    with pytest.raises(AttributeError):
        view.state = state  # no way to attach the truth either
    worlds = [view.sample_world(seed) for seed in range(6)]
    for world in worlds:
        np.testing.assert_array_equal(world.observation(player), state.observation(player))
        assert world.legal_actions() == state.legal_actions()
    assert len({w.render() for w in worlds}) > 1  # the hidden cards really are redrawn


def test_legal_of_refuses_an_empty_mask():
    assert legal_of(np.array([0, 1, 1], np.int8)).tolist() == [1, 2]
    with pytest.raises(ValueError, match="not to act"):
        legal_of(np.zeros(3, np.int8))
