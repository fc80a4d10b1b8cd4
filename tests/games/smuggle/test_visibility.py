"""What each seat is told of an action (``state.action_to_string(action, viewer)``).

Every Smuggle action is public: declarations and Bag claims are spoken aloud, searches and the
next player's accept / inform are seen by all, and discards go face up onto the open suitcase.
Two properties of the viewer's text, on random games at 3 and 6 players:

* it uses only what the viewer may know: redrawing the hidden cards from the viewer's seat never
  changes it;
* it never tells apart two actions that leave the viewer's observation and table text identical.
"""

import random

import pytest

import smuggle_envs
from smuggle_envs.games.smuggle import actions as A
from smuggle_envs.games.smuggle.rules import DISCARD

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


def after(state, action, viewer):
    child = state.clone()
    child.apply_action(action)
    return child.observation(viewer).tobytes(), child.render(viewer)


@pytest.mark.parametrize("n", [3, 6])
def test_a_viewers_text_never_depends_on_hidden_cards(n):
    rng = random.Random(n)
    for state in positions(n, 4, rng):
        actor = state.current_player()
        for viewer in range(n):
            other = state.resample(viewer, rng)
            if other.current_player() != actor:
                continue
            for action in set(state.legal_actions()) & set(other.legal_actions()):
                assert state.action_to_string(action, viewer) == other.action_to_string(action, viewer)


@pytest.mark.parametrize("n", [3, 6])
def test_actions_a_viewer_cannot_tell_apart_read_the_same(n):
    rng = random.Random(10 + n)
    for state in positions(n, 3, rng, every=11):
        actor = state.current_player()
        legal = state.legal_actions()
        if len(legal) > 40:
            legal = sorted(rng.sample(legal, 40))
        for viewer in range(n):
            told: dict = {}
            for action in legal:
                told.setdefault(after(state, action, viewer), set()).add(state.action_to_string(action, viewer))
            for texts in told.values():
                assert len(texts) == 1, f"viewer {viewer} of player {actor}: {texts}"


def test_every_action_is_public_full_text_for_every_seat():
    game = smuggle_envs.make_game(ENV, num_players=4)
    state = game.new_initial_state(0)
    state.stack_pack(["wine", "wine", "luggage", "luggage"])
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
