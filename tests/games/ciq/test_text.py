"""CIQ's texts for people and language models (``text.py``): the card glossary, the private
cards, and the step notes: each kind of note with its numbers in a scripted position, and, at
random positions, the notes a seat reads are the same in a world resampled from what it knows."""

import random

import pytest

import smuggle_envs
from smuggle_envs.games.ciq import actions as A

LOW = ["4c", "4d", "4h", "4s", "5c", "5d", "5h", "5s"] * 2
STOCK = LOW + ["7c", "7d", "7h", "7s", "8c", "8d", "8h", "8s"] * 2
P1_HAND = ["2s", "3s", "8s", "9c", "9d", "10s", "Js"]


def step(t, action, viewer=0) -> list[str]:
    """Apply ``action`` at the table ``t``; the notes ``viewer`` reads about it."""
    before = t.state.clone()
    t.act(action)
    return t.state.step_notes(before, action, viewer)


# ----- the glossary and the hand ----------------------------------------------------------------
def test_the_glossary_names_every_card_kind_with_its_value_and_result_and_scores_read_as_cards_left():
    game = smuggle_envs.make_game("ciq_v0", num_players=3)
    glossary = dict(game.card_glossary())
    assert list(glossary) == [A.card_name(k) for k in range(A.NUM_KINDS)]
    assert "value 7" in glossary["7h"] and "transfers 7 cards" in glossary["7h"]
    assert glossary["Jc"].startswith("Jack of clubs, value 11") and "double" in glossary["Jc"]
    assert "Queen" in glossary["Qd"] and "King" in glossary["Ks"] and "Export pile" in glossary["As"]
    assert "face card" in glossary["Kh"] and "face card" not in glossary["Ah"]  # J, Q, K only by default
    assert "bribe" in glossary["joker"]
    assert game.score_text(-3.0) == "3 cards left" and game.score_text(-1.0) == "1 card left"  # minus cards left
    ace_face = smuggle_envs.make_game("ciq_v0", num_players=3, ace_is_face=True)
    assert "face card" in dict(ace_face.card_glossary())["Ah"]


def test_private_cards_are_the_hand_the_render_shows():
    game = smuggle_envs.make_game("ciq_v0", num_players=3)
    state, rng = game.new_initial_state(3), random.Random(3)
    names = dict(game.card_glossary())
    for _ in range(40):
        for seat in range(3):
            cards = state.private_cards(seat)
            assert all(c in names for c in cards) and len(cards) == state.hand_size[seat]
            assert f"      hand: {' '.join(cards) or '-'}" in state.render(seat).splitlines()
        state.apply_action(rng.choice(state.legal_actions()))


# ----- the notes, scripted ------------------------------------------------------------------------
def test_a_target_a_smuggle_and_a_fire_are_told_with_their_cards(table):
    t = table(
        3,
        hands={0: ["6h", "2h", "2d", "10d", "3c", "4c", "5c"], 1: ["Qs", "Kd", "3s", "8s", "9c", "9d", "7s"]},
        tolerance={1: ["6s", "9s"]},
        stock=STOCK,
    )
    assert step(t, A.target(1)) == ["P0 targets P1."]
    assert step(t, A.ship("6h")) == [] and step(t, A.ship("2h")) == [] and step(t, A.ship("2d")) == []
    smuggled = step(t, A.ship("10d"))
    assert smuggled == [
        "10d is Illegal for P1 (Tolerance 9): it is smuggled and the shipment ends; P1 may Fire its customs"
        " worker with a face card to stop its result."
    ]
    fired = step(t, A.fire("Kd"), viewer=2)
    assert fired[0] == (
        "P1 fires its customs worker: its Tolerance pile (2 cards) and Kd go into its Export pile; P1 has no"
        " Tolerance now (every card is Legal for it); the smuggled 10d transfers nothing."
    )
    # 6 + 2 + 2 from the Stock; then P1's turn, its hand (less the Kd) filled up again
    assert fired[1:] == [
        "The shipment transferred 10 cards in all onto P1's Import pile (from the Stock).",
        "Turn 2: P1 to play.",
        "P1 draws 1 card (hand: 7).",
    ]


def test_keeping_the_worker_lets_the_smuggled_card_transfer(table):
    t = table(hands={0: ["6h", "2h", "10h", "3c", "4c", "5c", "7c"], 1: P1_HAND}, tolerance={1: ["9s"]}, stock=STOCK)
    t.ship("6h", "2h", "10h")
    notes = step(t, A.KEEP, viewer=0)
    assert notes[:2] == [
        "P1 keeps its customs worker: the smuggled 10h has its result.",
        "The shipment transferred 18 cards in all onto P1's Import pile (from the Stock).",
    ]


def test_a_sabotage_raises_or_wipes_the_tolerance_and_a_hire_replaces_it(table):
    t = table(hands={0: ["2h", "Jh", "2c", "3c", "4c", "5c", "7c"], 1: P1_HAND}, tolerance={1: ["Qs"]})
    t.act(A.sabotage("2h"))
    assert step(t, A.sabotage("Jh")) == ["The Sabotage puts 2h and Jh on P1's Tolerance pile: its Tolerance is now 11."]
    t = table(hands={0: ["5h", "Kh", "Ks", "Ac", "2d", "3d", "4d"], 1: P1_HAND}, tolerance={1: ["6s", "9s"]})
    t.act(A.sabotage("5h"))
    assert step(t, A.sabotage("Kh")) == [
        "The Sabotage's Illegal face card Kh wipes P1's Tolerance pile: all 4 cards go into its Export pile;"
        " P1 has no Tolerance now."
    ]
    t = table(hands={0: ["8h", "2c", "3c", "4c", "5c", "7c", "9c"], 1: P1_HAND}, tolerance={0: ["6h", "7h"]})
    assert step(t, A.hire("8h"))[0] == (
        "P0 hires 8h as its customs worker: its old Tolerance pile (2 cards) goes into its Export pile; its"
        " Tolerance is now 8."
    )


def test_a_jack_shows_the_card_it_turned_over(table):
    t = table(
        hands={0: ["Jc", "4c", "5c", "7c", "8c", "9c", "10c"], 1: P1_HAND}, tolerance={1: []}, stock=["3d"] + STOCK
    )
    t.ship("Jc")
    assert step(t, A.STOP)[:2] == [
        "Jacks turn over 3d onto P1's Import pile.",
        "The shipment transferred 6 cards in all onto P1's Import pile (from the Stock).",
    ]


def test_transfers_owed_from_the_hand_and_the_stock_running_out(table):
    t = table(hands={0: ["2c", "5c", "9d", "Kh", "4s"], 1: P1_HAND}, tolerance={1: []}, exports={1: ["Ad"]}, stock=[])
    t.ship("2c")
    assert step(t, A.STOP) == [
        "0 cards transferred so far; P0 must now transfer 2 more from its hand onto P1's Import pile."
    ]
    assert step(t, A.give("9d")) == [
        "1 card transferred so far; P0 must now transfer 1 more from its hand onto P1's Import pile."
    ]
    notes = step(t, A.give("Kh"))
    assert notes[0] == "The shipment transferred 2 cards in all onto P1's Import pile (from P0's hand)."
    assert notes[1] == "Turn 2: P1 to play."
    t = table(3, imports={1: ["Kc", "Qd"], 2: ["Ac"]}, exports={2: ["9h"]}, stock=["8c"])
    assert "The Stock has run out: every Import pile is turned over to become its owner's Export pile." in step(
        t, A.DRAW
    )


def test_the_end_names_the_winner_and_the_cards_left(table):
    t = table(hands={0: ["2c"], 1: P1_HAND}, tolerance={1: []}, stock=[])
    t.ship("2c")
    notes = step(t, A.STOP)
    assert notes[-2:] == [
        "Game over: P0 has no cards left in hand, Import and Export piles and wins.",
        "Cards still to get rid of: P0 0, P1 8.",  # P1 got the 2c
    ]
    assert t.state.is_terminal() and t.state.winners == [0]


def test_a_draw_at_the_turn_limit_has_no_winner():
    game = smuggle_envs.make_game("ciq_v0", num_players=2, turn_limit=1)
    state = game.new_initial_state(0)
    before = state.clone()
    state.apply_action(A.DRAW)
    assert state.step_notes(before, A.DRAW, 1)[0] == "Game over: a draw at the turn limit (1 turns); nobody wins."


# ----- the notes say only what the seat may know ----------------------------------------------------
@pytest.mark.parametrize("n", [2, 4])
def test_notes_are_the_same_in_a_world_resampled_for_the_viewer(n, notes_survive_resampling):
    """Wherever the action is legal in a world drawn from the viewer's information, and its
    outcome looks the same to the viewer (chance, such as the Stock's order, may bring another
    outcome), the viewer reads the same notes."""
    game = smuggle_envs.make_game("ciq_v0", num_players=n)
    seeds = range(6 if n == 2 else 2)  # random play ends in about 100 decisions
    compared, told = notes_survive_resampling(game, seeds, 2, random.Random(n), tries=5, chance=_no_chance)
    assert compared > 100 and told > 30


def _no_chance(notes):
    """The notes less the card a Jack turned over: chance (the Stock's top, a random card of an
    Export pile), which may differ between worlds even where the table ends the same (a pile
    transferred whole)."""
    return [note for note in notes if not note.startswith("Jacks turn over")]
