"""What another seat sees of an action (``State.action_to_string(action, viewer)``).

One Illegal decision is secret: the card passed left after a Paranoia card goes face down ("each
player passes a card face down to the player on his left"), so other seats read only who passes
to whom; the receiver finds the card in his hand once every player has chosen. Cards played,
discarded, offered and traded, targets, answers and Magnum reactions are all shown. Checked on
random games at the smallest and largest tables, with and without trading:

(a) a viewer's text of an action never depends on what the viewer cannot see: resampling the
    hidden cards from its seat never changes it;
(b) two actions after which the viewer's observation and view of the table are alike read alike
    to it, unless they leave every seat's observation and the whole table alike too: then the
    difference was public when made and an automatic consequence erased it (a Raid played on a
    table without an illegal business goes straight to the discard pile, like a discarded Raid).
"""

from __future__ import annotations

import random

import pytest

import smuggle_envs
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import PASS


def _check_position(state, rng: random.Random) -> None:
    game = state.game
    n, actor, legal = game.num_players, state.current_player(), state.legal_actions()
    children = []
    for action in legal:
        child = state.clone()
        child.apply_action(action)
        everything = (tuple(child.observation(p).tobytes() for p in range(n)), child.render())
        children.append((action, child, everything))
    for viewer in range(n):
        if viewer == actor:
            continue
        other = state.resample(viewer, rng)
        for action in set(legal) & set(other.legal_actions()):  # (a)
            assert state.action_to_string(action, viewer) == other.action_to_string(action, viewer)
        seen: dict[tuple[bytes, str], tuple[int, str, object]] = {}
        for action, child, everything in children:  # (b)
            key = (child.observation(viewer).tobytes(), child.render(viewer))
            text = state.action_to_string(action, viewer)
            if key not in seen:
                seen[key] = (action, text, everything)
                continue
            first, first_text, first_everything = seen[key]
            if first_text != text and first_everything != everything:
                pytest.fail(f"{A.action_text(first)!r} and {A.action_text(action)!r} look alike to seat {viewer}")


@pytest.mark.parametrize("n, config", [(2, {}), (6, {}), (3, {"trading": True, "trade_max": 2, "trade_unequal": True})])
def test_other_seats_see_what_the_table_shows(n, config):
    game = smuggle_envs.make_game("illegal_v0", num_players=n, **config)
    for seed in range(12 // n):
        rng, state = random.Random(seed), game.new_initial_state(seed)
        while not state.is_terminal():
            if len(state.history) % 2 == 0 or state.phase == PASS:
                _check_position(state, rng)
            state.apply_action(rng.choice(state.legal_actions()))


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
