"""What each seat is told of an action (``state.action_to_string(action, viewer)``).

Hidden when taken (rulebook step 2 "secretly", step 3 "attach face-down"; the hand-limit discard
is face down, docs/rules/humble_smuggle.md): the white card a seat selects, the kind of a Play
card it attaches (not who attached it to which card, which is public), and the black card it
discards for the hand limit. Drafts (from the face-up centre) and passes are public.

The random-game checks that every seat reads another seat's action only as far as it saw it
are shared by every game: ``tests/core/families/test_visibility_family.py``. Here: the scripted
cases.
"""

from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.vocab import SELECT

ENV = "humble_smuggle_v0"


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
