"""A sampled world agrees with everything the seat has seen and never copies a hidden hand.

What a seat saw go into another hand (a Hawaiian Salt reveal, a card taken from a public place, a
card it gave) stays there in every world it samples until it sees the card leave; a decision in
progress from another seat's hand (Chairs, Rope, Paprika, Jasmine Tea, Flour, a two-card wild...)
is asked again of a redrawn hand, never answered from the real one. The generic check for every
game is ``tests/core/families/_recall.py``.
"""

from __future__ import annotations

import random

import pytest

from smuggle_envs.games.import_export import resample as R
from smuggle_envs.games.import_export.actions import CARD, DONE
from smuggle_envs.games.import_export.powers import HAND_REASKS
from smuggle_envs.games.import_export.state import Ask
from smuggle_envs.games.import_export.vocab import P_POWER, P_WILD2

from .test_powers_immediate import finish, ids


def _hands(st, viewer, worlds=100, seed=0):
    rng = random.Random(seed)
    return [st.resample(viewer, rng).hands for _ in range(worlds)]


def test_hawaiian_salt_reveal_is_kept_in_every_sampled_world(table):
    t = finish(
        table,
        "hawaiian_salt",
        ["wheat", "iceland_water"],
        "jasmine_tea",
        n=3,
        hands={1: ["sugar", "candy"], 2: ["onions", "lumber", "foxes"]},
    )
    st = t.state
    salted = sorted(ids(t, "sugar", "onions", "lumber"))
    assert sorted(st.seen_in_hand(1, 0)) == salted and st.seen_in_hand(1, 2) == ids(t, "foxes")
    assert st.seen_in_hand(2, 1) == ids(t, "candy") and st.seen_in_hand(0, 2) == ids(t, "foxes")
    for hands in _hands(st, 1):
        assert sorted(hands[0]) == salted and hands[2] == ids(t, "foxes")
    for hands in _hands(st, 0):
        assert hands[1] == ids(t, "candy") and hands[2] == ids(t, "foxes")
    # the observation keeps it: rows are the other seats, seat-relative (for seat 1: 2, then 0)
    layout = t.game.observation_layout
    seen = layout.get(st.observation(1), "seen_in_hands").reshape(2, -1)
    assert seen[0, t.id("foxes")] == 1 and seen[1, salted].tolist() == [1, 1, 1] and seen.sum() == 4


def test_a_known_card_seen_leaving_the_hand_is_forgotten_and_a_hidden_one_is_not(table):
    t = finish(
        table,
        "hawaiian_salt",
        ["wheat", "iceland_water"],
        "jasmine_tea",
        n=3,
        hands={1: ["sugar", "candy"], 2: ["onions", "lumber", "foxes"]},
    )
    st = t.state
    foxes, candy = t.id("foxes"), t.id("candy")
    st.hands[2].remove(foxes)
    st.discard.append(foxes)  # face up: seen leaving
    assert st.seen_in_hand(1, 2) == []
    st.hands[1].remove(candy)
    st.hands[2].append(candy)  # face down to seat 2: for seat 0, still with seat 1
    assert st.seen_in_hand(0, 1) == [candy]
    assert st.seen_in_hand(2, 1) == []  # seat 2 holds it now


def test_a_power_decision_from_another_hand_is_asked_again_of_a_redrawn_hand(table):
    t = table(3, hands={1: ["cups", "beer"]}, shipments={1: ["chairs"]})
    t.do("draw")
    st = t.state
    assert st.ask.phase == P_POWER and st.ask.context[0] == "chairs" and st.current_player() == 1
    truth = sorted(st.hands[1])
    rng = random.Random(3)
    redrawn = 0
    for _ in range(50):
        world = st.resample(0, rng)
        hand = sorted(world.hands[1])
        redrawn += hand != truth
        assert len(hand) == 2 and world.current_player() == 1
        assert world.legal_actions() == tuple(sorted([DONE] + [CARD + c for c in hand]))
    assert redrawn >= 45  # the real hand is one of many, not kept


@pytest.mark.parametrize("key", sorted(HAND_REASKS))
def test_every_hidden_power_decision_can_be_asked_again(key):
    """A hidden power decision with no re-ask would make ``resample`` fail: each key has one,
    registered by the module that asks it."""
    assert callable(HAND_REASKS[key])


def test_a_decision_without_a_re_ask_is_refused_not_answered_from_the_truth():
    with pytest.raises(RuntimeError, match="cannot be asked again"):
        R._reasker(Ask(P_POWER, 1, (DONE,), ("no_such_power", 1), False))


def test_a_two_card_wild_partner_is_dealt_when_random_redraws_fail(table, monkeypatch):
    """With no random redraw allowed, the decider is dealt one card that fits (here, one of
    the first wild card's type), drawn from what the viewer cannot see, not its real card."""
    t = table(3, hands={0: ["sugar", "onions", "cups"]}, leader=0)
    st = t.state
    assert st.wild_firsts(0)  # sugar and onions: two agriculture cards
    t.do("wild", "sugar")
    assert st.ask.phase == P_WILD2 and st.current_player() == 0
    monkeypatch.setattr(R, "_REDRAWS", 0)
    rng = random.Random(1)
    partners = set()
    for _ in range(40):
        world = st.resample(1, rng)
        t_type = world.game.ctype[world.played[0][-1]]
        fits = [c for c in world.hands[0] if world.game.ctype[c] == t_type]
        assert fits and world.legal_actions() == tuple(sorted(CARD + c for c in fits))
        partners.update(fits)
    assert len(partners) > 3  # many cards of the type, not only the real onions
