"""The reverse adapter (``smuggle_envs.pyspiel_game``): OpenSpiel's Kuhn poker, Leduc poker and
Sheriff as games of this engine, checked against pyspiel itself, and run through the library's
env, match, tournament and analytics.

Every test registers the games inside the fixture ``openspiel_games`` (``conftest.py``), which
puts the registry back as it was afterwards."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import smuggle_envs

ENV_IDS = ("os_kuhn_poker_v0", "os_leduc_poker_v0", "os_sheriff_v0")


def _play(env_id: str, seed: int):
    """A game of random legal moves; returns the final engine state."""
    state = smuggle_envs.make_game(env_id).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_os_ids_register_on_first_use_and_the_five_games_stay_the_default(registry_snapshot):
    assert not any(e.startswith("os_") for e in smuggle_envs.ENV_IDS)
    assert len(smuggle_envs.ENV_IDS) == 5
    smuggle_envs.game_class("os_sheriff_v0")  # the first request registers the family
    assert smuggle_envs.ENV_IDS[-3:] == ENV_IDS
    with pytest.raises(smuggle_envs.core.errors.ConfigError, match="unknown env id 'os_nothing_v0'"):
        smuggle_envs.game_class("os_nothing_v0")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_game_replays_and_pays_what_pyspiel_pays_for_the_same_chance_and_actions(openspiel_games, env_id):
    for seed in range(20):
        state = _play(env_id, seed)
        # the same chance outcomes and actions, applied to a bare pyspiel state
        bare = state.game.pyspiel_game.new_initial_state()
        for action in state.pyspiel_state.history():
            bare.apply_action(action)
        assert bare.is_terminal() and state.scores() == list(bare.returns())
        decisions = [pa.action for pa in state.pyspiel_state.full_history() if pa.player >= 0]
        assert state.history == decisions
        again = state.to_replay().final_state()  # (seed, actions) replays the chance draws too
        assert again.pyspiel_state.history() == state.pyspiel_state.history()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_observation_is_the_information_state_and_fits_its_bounds(openspiel_games, env_id):
    """Over the whole tree: the acting seat's observation determines its information state (so a
    table keyed by observation is a complete policy: ``agents.tabular``), within the layout's bounds."""
    game = smuggle_envs.make_game(env_id)
    layout = game.observation_layout
    seen: dict[bytes, str] = {}
    stack = [game.pyspiel_game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            player = state.current_player()
            tensor = np.asarray(state.information_state_tensor(player), np.float32)
            assert (layout.low <= tensor).all() and (tensor <= layout.high).all()
            infostate = state.information_state_string(player)
            assert seen.setdefault(tensor.tobytes(), infostate) == infostate
        stack.extend(state.child(a) for a in state.legal_actions())
    assert len(seen) == {"os_kuhn_poker_v0": 12, "os_leduc_poker_v0": 936, "os_sheriff_v0": 4681}[env_id]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_resample_keeps_what_the_seat_knows_and_redraws_the_rest(openspiel_games, env_id):
    rng = random.Random(0)
    varied = Counter()
    for seed in range(8):
        state = smuggle_envs.make_game(env_id).new_initial_state(seed)
        while not state.is_terminal():
            for seat in range(state.game.num_players):
                known = state.pyspiel_state.information_state_string(seat)
                for _ in range(4):
                    world = state.resample(seat, rng)
                    assert world.pyspiel_state.information_state_string(seat) == known
                    assert (world.observation(seat) == state.observation(seat)).all()
                    assert world.current_player() == state.current_player()
                    if state.current_player() == seat:
                        assert world.legal_actions() == state.legal_actions()
                    varied[world.pyspiel_state.history() != state.pyspiel_state.history()] += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert varied[True] > 0  # worlds do differ from the truth in what the seat cannot see


def test_resample_weights_a_world_by_its_chance_probability(openspiel_games):
    """Kuhn poker: P0 holds the Jack; the opponent holds the Queen or the King, one half each."""
    state = smuggle_envs.make_game("os_kuhn_poker_v0").new_initial_state(0)
    while state.pyspiel_state.history()[0] != 0:  # a deal that gives P0 the Jack
        state = state.game.new_initial_state(state.seed + 1)
    rng = random.Random(1)
    counts = Counter(state.resample(0, rng).pyspiel_state.history()[1] for _ in range(4000))
    assert set(counts) == {1, 2} and abs(counts[1] / 4000 - 0.5) < 0.03
    # Sheriff: the smuggler's secret load is each of 0 to 3 items, one in four, for the sheriff
    sheriff = smuggle_envs.make_game("os_sheriff_v0").new_initial_state(0)
    sheriff.apply_action(5)  # actions 2 to 5 load 0 to 3 items
    loads = Counter(sheriff.resample(1, rng).pyspiel_state.history()[0] for _ in range(4000))
    assert set(loads) == {2, 3, 4, 5} and all(abs(c / 4000 - 0.25) < 0.03 for c in loads.values())


def test_a_hidden_choice_reads_hidden_to_the_others_and_in_full_to_its_actor(openspiel_games):
    sheriff = smuggle_envs.make_game("os_sheriff_v0").new_initial_state(0)
    assert sheriff.action_to_string(4, viewer=0) == "PlaceIllegalItems(num=2)"
    assert sheriff.action_to_string(4, viewer=1) == "P0 makes a hidden choice"
    sheriff.apply_action(4)
    assert sheriff.action_to_string(7, viewer=1) == "Bribe(amount=1)"  # bribes are public
    kuhn = smuggle_envs.make_game("os_kuhn_poker_v0").new_initial_state(0)
    assert kuhn.action_to_string(1, viewer=1) == kuhn.action_to_string(1, viewer=0) == "Bet"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_api_test_passes_on_the_wrapped_env(openspiel_games, env_id):
    from pettingzoo.test import api_test

    api_test(smuggle_envs.make(env_id), num_cycles=30)


def test_kuhn_poker_at_three_players_plays_to_the_end(openspiel_games):
    state = smuggle_envs.make_game("os_kuhn_poker_v0", num_players=3).new_initial_state(4)
    rng = random.Random(0)
    while not state.is_terminal():
        world = state.resample(state.current_player(), rng)
        assert world.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.scores()) == 0 and len(state.scores()) == 3


def test_match_tournament_and_analytics_run_on_an_openspiel_game(openspiel_games, tmp_path, capsys):
    from training.cli import main

    assert main(["match", "os_kuhn_poker_v0", "--agents", "random,random", "--games", "6", "--quiet"]) == 0
    db = tmp_path / "t.sqlite"
    argv = ["tournament", "os_leduc_poker_v0", "--agents", "random,rule", "--games", "4"]
    argv += ["--workers", "1", "--db", str(db), "--out", str(tmp_path), "--no-plots", "--quiet"]
    assert main(argv) == 0
    assert main(["analyze", str(db), "--out", str(tmp_path), "--no-plots"]) == 0
    out = capsys.readouterr()
    assert "no hidden-information analysis exists for os_leduc_poker_v0 yet" in out.out
