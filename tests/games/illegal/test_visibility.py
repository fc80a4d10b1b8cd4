"""What another seat sees of an action (``State.action_to_string(action, viewer)``).

One Illegal decision is secret: the card passed left after a Paranoia card goes face down ("each
player passes a card face down to the player on his left"), so other seats read only who passes
to whom; the receiver finds the card in his hand once every player has chosen. Cards played,
discarded, offered and traded, targets, answers and Magnum reactions are all shown.

The random-game checks that every seat reads another seat's action only as far as it saw it
are shared by every game: ``tests/core/families/test_visibility_family.py``. Here: the scripted
cases.
"""

from __future__ import annotations

import smuggle_envs
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import PASS


def test_a_card_passed_left_is_face_down_to_everyone_but_its_passer():
    game = smuggle_envs.make_game("illegal_v0", num_players=4)
    state = game.new_initial_state(7)
    state.arrange(hands={0: ["death in the family", "gambling", "magnum", "raid", "pimps", "alibi", "bribe"]})
    state.apply_action(A.play("death in the family"))
    assert state.phase == PASS and state.current_player() == 0
    texts = {state.action_to_string(a, 0) for a in state.legal_actions()}
    assert "pass left: magnum" in texts and len(texts) == len(state.legal_actions())
    for viewer in (1, 2, 3):  # the receiver (1) included: nothing has moved yet
        assert {state.action_to_string(a, viewer) for a in state.legal_actions()} == {
            "player 0 chooses a card to pass face down to player 1"
        }
    while state.phase == PASS:
        s = state.current_player()
        assert state.action_to_string(state.legal_actions()[0], (s + 2) % 4).startswith(f"player {s} chooses")
        state.apply_action(state.legal_actions()[0])
    assert state.action_to_string(state.legal_actions()[0], 1) == A.action_text(state.legal_actions()[0])
