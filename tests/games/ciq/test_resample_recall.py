"""``CIQState.resample`` keeps what a seat saw of the others' Export piles, and never copies the
true hidden cards.

A seat's private draws from its own Export pile hide which cards it drew, not that it drew them:
the cards everyone saw go in and that are no longer in the pile are in its hand, unless it has
played a card of the same kind face up since. Cards that went in after its last draw are surely
still in the pile. A pass shows that no card of the hand can be played. Mid-move, the player to
move has shown he holds a card he may play: such a card is dealt to him, the rest at random,
however unlikely a random hand would hold one (no world keeps the true hidden cards).
"""

import random

import pytest

import smuggle_envs
from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq import resample as resample_module
from smuggle_envs.games.ciq.actions import NUM_KINDS
from smuggle_envs.games.ciq.vocab import MAIN, OPEN, SABOTAGE2

WORLDS = 200
HEARTS = ["Kh", "Qh", "Jh"]


def drew_from_export(decks=1, hand_1=("2d", "3d", "4d", "5d", "7d", "9d")):
    """Three players, no Stock: P1 (6 cards) starts its turn by drawing one of Kh Qh Jh unseen
    from its Export pile. P2's customs worker, an Ace, lets any card be shipped to it."""
    game = smuggle_envs.make_game("ciq_v0", num_players=3, decks=decks)
    state = game.new_initial_state(0)
    state.arrange(
        hands={
            0: ["2c", "3c", "4c", "5c", "7c", "8c", "9c"],
            1: list(hand_1),
            2: ["2s", "3s", "4s", "5s", "7s", "8s", "9s"],
        },
        tolerance={0: ["6c"], 1: ["6d"], 2: ["As"]},
        exports={1: HEARTS},
        stock=[],
        turn=1,
    )
    assert state.phase == MAIN and state.turn == 1
    assert state.hand_size[1] == 7 and state.exp_size[1] == 2
    return state


def worlds(state, viewer, seed=0):
    rng = random.Random(seed)
    return [state.resample(viewer, rng) for _ in range(WORLDS)]


def drawn_cards_in_hand(world, q) -> bool:
    """Every card everyone saw go into q's Export pile and not in it now is in q's hand."""
    return all(world.hand[q][k] >= world.exp_pub[q][k] - world.exp_cnt[q][k] for k in range(NUM_KINDS))


def test_cards_drawn_unseen_from_an_export_pile_are_in_the_hand():
    state = drew_from_export()
    assert drawn_cards_in_hand(state, 1)
    for viewer in (0, 2):
        for world in worlds(state, viewer):
            assert drawn_cards_in_hand(world, 1)
        # which one was drawn is still a guess
        assert len({tuple(sorted(w.exp[1])) for w in worlds(state, viewer)}) == 3


def test_cards_put_into_an_export_pile_after_the_last_draw_are_still_in_it():
    state = drew_from_export()
    state.apply_action(A.hire("9d"))  # P1's old customs worker, 6d, goes face down into its pile
    assert state.exp_size[1] == 3 and state.turn == 2
    for world in worlds(state, 0):
        assert world.exp_cnt[1][A.card("6d")] == 1
        assert drawn_cards_in_hand(world, 1)


def test_a_drawn_card_can_leave_the_hand_unseen_among_copies_of_its_kind():
    # Two decks: P1 also holds a Kh of its own. After it ships a Kh, nobody knows which one it
    # was: the drawn card may have been that Kh. Qh and Jh are still P1's, in hand or pile.
    state = drew_from_export(decks=2, hand_1=("Kh", "3d", "4d", "5d", "7d", "9d"))
    state.apply_action(A.target(1))
    state.apply_action(A.ship("Kh"))
    state.apply_action(A.STOP)
    assert state.phase == MAIN and state.turn == 2 and state.hand_size[1] == 6
    kh, qh, jh = (A.card(c) for c in HEARTS)
    seen = worlds(state, 0)
    for world in seen:
        assert world.hand[1][qh] + world.exp_cnt[1][qh] >= 1
        assert world.hand[1][jh] + world.exp_cnt[1][jh] >= 1
    assert any(world.hand[1][kh] + world.exp_cnt[1][kh] == 0 for world in seen)
    assert any(world.exp_cnt[1][kh] == 1 for world in seen)


def _no_twos_or_jokers(used):
    """Every card but the 2s, the Jokers and ``used``, in a fixed order (one deck)."""
    return [
        f"{rank}{suit}"
        for suit in "cdhs"
        for rank in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
        if f"{rank}{suit}" not in used
    ]


def _mover_must_show(hand_1, phase):
    """P1 (hand size 1 or 2, a big Stock of cards it cannot use) has begun a move on P2, whose
    customs worker is a 2: only a 2 is Legal, and the only other 2 and Joker are P0's."""
    used = {"6c", "6d", "9s", "As"}
    game = smuggle_envs.make_game("ciq_v0", num_players=3, decks=1, hand_size=len(hand_1))
    state = game.new_initial_state(0)
    hand_0 = ["2s", "joker"][: len(hand_1)]
    hand_2 = ["9s", "As"][: len(hand_1)]
    state.arrange(
        hands={0: hand_0, 1: list(hand_1), 2: hand_2},
        tolerance={0: ["6c"], 1: ["6d"], 2: ["2d"]},
        stock=_no_twos_or_jokers(used | set(hand_1)),
        turn=1,
    )
    state.apply_action(A.target(1))
    if phase == SABOTAGE2:
        state.apply_action(A.sabotage("joker"))
    assert state.phase == phase and state.current_player() == 1
    return state


def test_a_mover_who_must_hold_a_rare_card_gets_it_and_the_rest_is_drawn_afresh():
    # Only 1 world in ~45 gives P1 the 2c at random: the redraw deals it to him, and P2's card
    # is still drawn at random (a fallback keeping the true cards would show P2's 9s each time).
    state = _mover_must_show(["2c"], OPEN)
    seen = worlds(state, 0)
    for world in seen:
        assert world.legal_actions() and world.hand[1][A.card("2c")] == 1
    assert sum(world.hand[2][A.card("9s")] for world in seen) <= WORLDS // 10


def test_a_mover_who_must_hold_a_pair_gets_one():
    # A Joker opens a Sabotage only with another card to follow it: P1 holds the Joker and some
    # card, P2's cards are drawn afresh.
    state = _mover_must_show(["joker", "Kc"], OPEN)
    seen = worlds(state, 0)
    for world in seen:
        assert world.legal_actions() and world.hand[1][A.JOKER] == 1
    assert sum(world.hand[2] == state.hand[2] for world in seen) <= WORLDS // 10
    # after the Joker, any card may follow: P1's last card is anything
    state = _mover_must_show(["joker", "Kc"], SABOTAGE2)
    assert len({tuple(world.cards_of(world.hand[1])) for world in worlds(state, 0)}) > 10


def test_a_pass_shows_the_hand_holds_no_card_that_could_be_played():
    # P1, with no Stock, Export or Import pile left, passes: none of its cards is a 2 (the only
    # Legal rank against the others' 2s), a diamond (a Hire on its 6d) or a Joker. Its hand stays
    # so in every world, until it changes.
    state = _passed_state()
    assert state.turn == 0

    def playable(kind):
        return kind == A.JOKER or A.rank_of(kind) == 0 or A.suit_of(kind) == 1

    for world in worlds(state, 0):
        assert not any(playable(k) for k in world.cards_of(world.hand[1]))


def _passed_state():
    """P1 has just passed (its only move) and P2 moved on; P1's hand is untouched."""
    game = smuggle_envs.make_game("ciq_v0", num_players=3, decks=1)
    state = game.new_initial_state(0)
    state.arrange(
        hands={
            0: ["3c", "4c", "5c", "7c", "8c", "9c", "10c"],
            1: ["Kc", "Qc", "Jc"],
            2: ["2c", "2d", "3d", "4d", "joker", "9s", "10s"],
        },
        tolerance={0: ["2h"], 1: ["6d"], 2: ["2s"]},
        stock=[],
        turn=1,
    )
    assert state.legal_actions() == (A.PASS,)
    state.apply_action(A.PASS)
    state.apply_action(A.hire("9s"))  # P2 moves on; P1's hand is untouched
    return state


def test_when_no_world_fits_the_passes_they_are_dropped_not_the_truth_copied(monkeypatch):
    state = _passed_state()
    monkeypatch.setattr(resample_module, "_fill_shown", lambda st, q, counts, free, rng: False)
    hands = {tuple(world.cards_of(world.hand[1])) for world in worlds(state, 0)}
    assert len(hands) > 10  # drawn afresh from everything P0 cannot see, not the real Kc Qc Jc each time
    assert all(len(h) == 3 for h in hands)


def test_a_resample_that_finds_no_world_says_so_and_changes_nothing(monkeypatch):
    state = _passed_state()
    before = state.clone()
    monkeypatch.setattr(resample_module, "_draw_exports", lambda st, others, hidden, rng: None)
    with pytest.raises(RuntimeError, match="no world found for seat 0"):
        state.resample(0, random.Random(0))
    assert state.buf == before.buf and state.cards_of(state.hand[1]) == before.cards_of(before.hand[1])
