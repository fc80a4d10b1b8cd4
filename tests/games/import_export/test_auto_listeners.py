"""``State.auto_listeners``: the public hook that tells a watcher (the analytics) of every decision
the engine applies by itself, a single option that is public, with the position before it."""

import random

from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.vocab import P_BID, P_IMPORT_SHIP


def test_a_forced_decision_is_told_with_the_position_before_it(table):
    # One ship at sea: the leader's pick is applied by the engine, right after the last follow.
    t = table(
        2,
        hands={0: ["champagne"], 1: ["jets"]},
        ships={1: {"at_sea": True, "cargo": ["laptops", "telescopes"]}},
        discard=["lutefisk", "flour"],
    )
    st = t.state
    seen = []
    st.auto_listeners.append(lambda state, player, action: seen.append((state.phase, player, action, state.bidders[:])))
    t.do("champagne")
    assert seen == []  # players' own decisions are not told
    t.do("jets")
    assert seen == [(P_IMPORT_SHIP, 0, A.SHIP + 1, [0, 1])]
    assert t.phase == P_BID and st.import_ship == 1  # applied after the listener saw it


def test_clones_and_resampled_states_start_without_listeners():
    game = ImportExportGame(num_players=3)
    state = game.new_initial_state(4)
    calls = []
    state.auto_listeners.append(lambda st, player, action: calls.append((st.ask, player, action)))
    assert state.clone().auto_listeners == [] and state.resample(1, 5).auto_listeners == []
    rng = random.Random(4)
    copy = state.clone()
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert calls == []  # the copy's forced decisions are not the watched game's
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert calls  # the watched game's forced decisions: a single public option, told before it
    assert all(ask.options == (action,) and ask.public and ask.player == player for ask, player, action in calls)
