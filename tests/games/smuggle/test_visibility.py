"""What each seat is told of an action (``state.action_to_string(action, viewer)``).

Every Smuggle action is public: declarations and Bag claims are spoken aloud, searches and the
next player's accept / inform are seen by all, and discards go face up onto the open suitcase.

The random-game checks that every seat reads another seat's action only as far as it saw it
are shared by every game: ``tests/core/families/test_visibility_family.py``. Here: the scripted
cases.
"""

import random

import smuggle_envs
from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.vocab import DISCARD

ENV = "smuggle_v0"


def positions(n, games, rng, every=7):
    game = smuggle_envs.make_game(ENV, num_players=n)
    for seed in range(games):
        state = game.new_initial_state(seed)
        step = 0
        while not state.is_terminal():
            if step % every == 0 or (state.phase == DISCARD and not state.deck):
                yield state
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1


def test_every_action_is_public_full_text_for_every_seat():
    game = smuggle_envs.make_game(ENV, num_players=4)
    state = game.new_initial_state(0)
    state.arrange(["wine", "wine", "luggage", "luggage"])
    for action in (A.declare([1] + [0] * 7), A.LET_PASS, A.ACCEPT):
        for viewer in range(4):
            assert state.action_to_string(action, viewer) == game.action_to_string(action)
        state.apply_action(action)
    assert state.phase == DISCARD
    for viewer in range(4):
        assert state.action_to_string(A.discard(0), viewer) == "discard wine"


def test_the_discard_that_ends_a_round_stays_on_the_table_text():
    game = smuggle_envs.make_game(ENV, num_players=3)
    rng = random.Random(1)
    state = next(
        s
        for s in positions(3, 20, rng, every=10**9)
        if s.phase == DISCARD and not s.deck and len(s.legal_actions()) > 1
    )
    texts = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        assert child.rounds_played == state.rounds_played + 1
        name = game.kind_names[action - A.DISCARD]
        assert f"last discard: P{state.holder} {name}" in child.render(0)
        texts.add(child.render(0))
    assert len(texts) == len(state.legal_actions())
