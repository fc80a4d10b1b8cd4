"""No hidden information in Import / Export's own cases: other hands and the deck's order, sealed
bids until revealed, redrawn bids within the bidder's credits, and decisions asked from a hand
(even with one option, and again from a redrawn hand). (For sampled positions of random games,
redrawing what a seat cannot see changes nothing it observes, and who decides next tells nothing:
``tests/core/families/test_hidden_information_family.py``.)
"""

import random

import numpy as np
import pytest

from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.vocab import P_BID, P_IMPORT_PICK


def test_other_hands_and_the_deck_order_do_not_enter_the_observation():
    game = ImportExportGame(num_players=4)
    st = game.new_initial_state(5)
    rng = random.Random(5)
    for _ in range(40):
        st.apply_action(rng.choice(st.legal_actions()))
    for p in range(4):
        other = st.clone()
        q = (p + 1) % 4
        # swap a card of q's hand with the top of the deck, and shuffle the deck
        if other.hands[q] and other.deck:
            i = len(other.hands[q]) - 1
            other.hands[q][i], other.deck[-1] = other.deck[-1], other.hands[q][i]
        rng.shuffle(other.deck)
        np.testing.assert_array_equal(other.observation(p), st.observation(p))
        if other.hands[q] != st.hands[q]:
            assert not np.array_equal(other.observation(q), st.observation(q))


def test_sealed_bids_are_hidden_until_revealed(table):
    t = table(
        3,
        hands={0: ["champagne"], 1: ["jets"], 2: ["vintage_wines"]},
        ships={1: {"at_sea": True, "cargo": ["laptops", "telescopes"]}},
        discard=["lutefisk", "flour"],
    )
    t.do("champagne", "jets", "vintage_wines")
    st = t.state
    assert (t.phase, t.decider) == (P_BID, 0)
    t.do(("bid", 4))
    assert (t.phase, t.decider) == (P_BID, 1) and st.bids[0] == 2
    # seat 0's bid is in: seats 1 and 2 see that it is in, not what it is; seat 0 sees its own
    lower = st.clone()
    lower.bids[0] = 1
    layout = st.game.observation_layout
    for p in (1, 2):
        np.testing.assert_array_equal(lower.observation(p), st.observation(p))
        assert lower.render(p) == st.render(p)
        has_bid = [0.0] * 3
        has_bid[(0 - p) % 3] = 1.0
        assert layout.get(st.observation(p), "has_bid").tolist() == has_bid
        assert layout.get(st.observation(p), "my_bid")[0] == 0
    assert layout.get(st.observation(0), "my_bid")[0] == pytest.approx(4 / 50)
    assert not np.array_equal(lower.observation(0), st.observation(0))
    t.do(("bid", 2), ("bid", 6))
    # revealed: every seat sees every bid of the round
    assert (t.phase, t.decider) == (P_IMPORT_PICK, 2)
    for p in range(3):
        seen = layout.get(st.observation(p), "last_bids")
        assert [round(float(x) * 50) for x in seen] == [[4, 2, 6][(p + i) % 3] for i in range(3)]


def test_resampled_bids_stay_within_the_bidders_credits(table):
    t = table(
        3,
        hands={0: ["champagne"], 1: ["jets"], 2: ["vintage_wines"]},
        credits={0: 6},
        ships={1: {"at_sea": True, "cargo": ["laptops", "telescopes"]}},
        discard=["lutefisk", "flour"],
    )
    t.do("champagne", "jets", "vintage_wines", ("bid", 6))
    rng = random.Random(0)
    seen = {t.state.resample(1, rng).bids[0] for _ in range(200)}
    assert seen == {0, 1, 2, 3}
    assert {t.state.resample(0, rng).bids[0] for _ in range(20)} == {3}
    other = t.state.resample(1, rng)
    assert list(other.legal_actions()) == list(t.state.legal_actions())
    with pytest.raises(ValueError, match="resampled"):
        other.to_replay()


def test_the_ask_of_a_hand_card_is_asked_even_with_one_option(table):
    # Who decides must not reveal a hand: a follower with no matching card is still asked.
    t = table(2, hands={0: ["champagne"], 1: ["laptops"]}, discard=["lutefisk", "flour"])
    t.do("champagne")
    assert t.decider == 1 and list(t.state.legal_actions()) == [A.DRAW]


def test_a_resampled_state_asks_from_the_redrawn_hand(table):
    # A redraw for seat 0 gives seat 1 (deciding whether to follow) a new hand; the decision in
    # progress must offer that hand's cards, or the resampled game cannot be played on.
    t = table(3, hands={0: ["champagne"], 1: ["jets", "laptops"], 2: []}, discard=["lutefisk", "flour"])
    t.do("champagne")
    st = t.state
    game = st.game
    rng = random.Random(0)
    for _ in range(20):
        other = st.resample(0, rng)
        hand = other.hands[1]
        types = [game.ctype[c] for c in hand]
        expected = {A.DRAW} | {A.CARD + c for c in hand if game.caction[c] == game.caction[t.id("champagne")]}
        if any(types.count(k) >= 2 for k in types):
            expected.add(A.WILD)
        assert set(other.legal_actions()) == expected
        for action in other.legal_actions():
            other.clone().apply_action(action)


def test_a_resampled_two_card_wild_keeps_what_the_table_saw(table):
    # Everyone saw seat 0 start a two-card wild with Jets: whatever the redraw, seat 0 still holds
    # a second luxury card, and its options are the luxury cards of its redrawn hand.
    t = table(3, hands={0: ["jets", "cologne", "laptops"], 1: [], 2: []}, discard=["lutefisk", "flour"])
    t.do("wild", "jets")
    st = t.state
    game = st.game
    luxury = game.ctype[t.id("jets")]
    rng = random.Random(1)
    for _ in range(20):
        other = st.resample(1, rng)
        mine = [c for c in other.hands[0] if game.ctype[c] == luxury]
        assert mine, "seat 0 was seen to hold a second luxury card"
        assert list(other.legal_actions()) == sorted(A.CARD + c for c in mine)
        for action in other.legal_actions():
            other.clone().apply_action(action)
