"""What each seat is told of an action (``state.action_to_string(action, viewer)``).

Hidden when taken (rulebook step 2 "secretly", step 3 "attach face-down"; the hand-limit discard
is face down, docs/rules/humble_smuggle.md): the white card a seat selects, the kind of a Play
card it attaches (not who attached it to which card, which is public), and the black card it
discards for the hand limit. Drafts (from the face-up centre) and passes are public. Two
properties of the viewer's text, on random games at 2 and 5 players:

* it uses only what the viewer may know: redrawing the hidden cards from the viewer's seat never
  changes it;
* it never tells apart two actions that leave the viewer's observation and table text identical.
"""

import random

import pytest

import smuggle_envs
from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.rules import DISCARD, PLAY, SELECT

ENV = "humble_smuggle_v0"


def positions(n, games, rng, every=3):
    game = smuggle_envs.make_game(ENV, num_players=n)
    for seed in range(games):
        state = game.new_initial_state(seed)
        step = 0
        while not state.is_terminal():
            if step % every == 0 or state.phase == DISCARD:
                yield state
            legal = state.legal_actions()
            # pass half the time in the Play phase, so that rounds end
            state.apply_action(A.PASS if state.phase == PLAY and rng.random() < 0.5 else rng.choice(legal))
            step += 1


def after(state, action, viewer):
    child = state.clone()
    child.apply_action(action)
    return child.observation(viewer).tobytes(), child.render(viewer)


@pytest.mark.parametrize("n", [2, 5])
def test_a_viewers_text_never_depends_on_hidden_cards(n):
    rng = random.Random(n)
    for state in positions(n, 3, rng):
        actor = state.current_player()
        for viewer in range(n):
            other = state.resample(viewer, rng)
            assert other.current_player() == actor
            for action in set(state.legal_actions()) & set(other.legal_actions()):
                assert state.action_to_string(action, viewer) == other.action_to_string(action, viewer)


@pytest.mark.parametrize("n", [2, 5])
def test_actions_a_viewer_cannot_tell_apart_read_the_same(n):
    rng = random.Random(10 + n)
    for state in positions(n, 2, rng, every=5):
        actor = state.current_player()
        for viewer in range(n):
            told: dict = {}
            for action in state.legal_actions():
                told.setdefault(after(state, action, viewer), set()).add(state.action_to_string(action, viewer))
            for texts in told.values():
                assert len(texts) == 1, f"viewer {viewer} of player {actor}: {texts}"


def test_hidden_choices_read_face_down_to_the_others_and_in_full_to_the_actor(table):
    t = table(hands={0: [45, 31, 8], 1: [51, 33, 6], 2: [26, 18, 65]}, centre=[11, 13, 14, 25], black={0: ["+10"]})
    s = t.state
    assert [s.action_to_string(A.draft(11), v) for v in range(3)] == ["draft 11"] * 3  # public
    t.draft(11, 13, 14)
    assert s.phase == SELECT
    assert s.action_to_string(A.select(45), 0) == "select 45"
    assert s.action_to_string(A.select(45), 1) == "player 0 selects a card face down"
    assert s.action_to_string(A.select(8), 2) == "player 0 selects a card face down"
    t.select(45, 51, 26)
    kind = t.game.black_kind("+10")
    assert s.action_to_string(A.play(kind, 0), 0) == "play +10 on your own card"
    assert s.action_to_string(A.play(kind, 0), 1) == "player 0 plays a Play card face down on their own card"
    assert s.action_to_string(A.play(kind, 2), 1) == "player 0 plays a Play card face down on player 2's card"
    assert s.action_to_string(A.play(kind + 1, 2), 1) == s.action_to_string(A.play(kind, 2), 1)
    assert s.action_to_string(A.PASS, 1) == "pass"  # public
    assert s.action_to_string(A.discard(kind), 2) == "player 0 discards a black card face down"
    assert s.action_to_string(A.discard(kind), None) == "discard play +10"
