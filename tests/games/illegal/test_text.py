"""The text interface's parts (``text.py``): the card glossary, a seat's private cards, and the notes
of each step (hassles, losses and takeovers, the Magnum, Paranoia and the passing, trades, draws,
the accounting and the end)."""

import random

from smuggle_envs.games.illegal import IllegalGame
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.vocab import PASS, REACT

RAID_EFFECT = "no illegal businesses; an illegal business lost at the end of each turn (it goes once none is left)"


def notes_of(t, action, viewer=3):
    """Apply ``action`` on the scripted table; the notes ``viewer`` is told of that step."""
    before = t.state.clone()
    t.act(action)
    return t.state.step_notes(before, action, viewer)


# ----- the glossary and the private cards ---------------------------------------------------------
def test_glossary_names_every_card_with_its_value_or_effect():
    game = IllegalGame()
    glossary = dict(game.card_glossary())
    assert list(glossary) == list(A.KIND_NAMES)
    for k in A.BUSINESS_KINDS:
        assert f"worth {game.values[k]:,} EUR" in glossary[A.KIND_NAMES[k]]
    assert (
        glossary["weapons"].startswith("illegal business worth 50,000 EUR") and "(6 in the deck)" in glossary["weapons"]
    )
    assert "second card in a turn" in glossary["politics"]
    assert (
        RAID_EFFECT in glossary["raid"] and "removed by Informant, a Bribe, Relatives or the Magnum" in glossary["raid"]
    )
    assert "no businesses at all" in glossary["vacation in sweden"] and "Alibi" in glossary["vacation in sweden"]
    assert "face up" in glossary["tax inspection"]
    assert glossary["mister zero"].startswith("removes Protection Money from any player")
    assert (
        "2 turns and your most expensive business" in glossary["loan shark"] and "-50,000 EUR" in glossary["loan shark"]
    )
    assert "every business (not the Market Open)" in glossary["debris and ash"]
    smallest = dict(IllegalGame(takeover="smallest").card_glossary())
    assert "lowest-valued" in smallest["hostile takeover"] and "lowest-valued" not in glossary["hostile takeover"]


def own_hand_line(state, seat):
    """The cards of the seat's own hand line in its table text (the line after its seat line)."""
    lines = state.render(seat).splitlines()
    line = lines[next(i for i, x in enumerate(lines) if x.startswith(f"  P{seat} (you):")) + 1]
    listed = line.split("): ", 1)[1]
    cards = []
    for part in [] if listed == "-" else listed.split(", "):
        name, _, count = part.rpartition(" x")
        cards += [name] * int(count) if name and count.isdigit() else [part]
    return cards


def test_private_cards_are_the_hand_the_seats_table_text_shows():
    game = IllegalGame(num_players=3)
    names = set(dict(game.card_glossary()))
    rng, state = random.Random(6), game.new_initial_state(6)
    while not state.is_terminal():
        for p in range(3):
            cards = state.private_cards(p)
            assert cards == own_hand_line(state, p) and set(cards) <= names
        state.apply_action(rng.choice(state.legal_actions()))


# ----- the notes of a turn --------------------------------------------------------------------------
def test_a_hassle_placed_its_magnum_window_and_the_business_it_costs(table):
    t = table(
        hands={0: ["raid"], 1: ["weapons", "politics"]},
        tables={1: ["gambling", "merchandise", "tropical fish"]},
        markets=[0],
        stock=["pimps"],
    )
    assert notes_of(t, A.play("raid")) == [
        f"P1's Market Open is covered by Raid: {RAID_EFFECT}",
        "each player who might hold the Magnum is asked in turn whether to remove a hassle with it",
    ]
    t.all_let_pass()
    before = t.state.clone()
    t.end_turn()
    assert t.state.step_notes(before, A.END_TURN, 0) == ["P0 draws 1 card", "you draw: pimps"]
    assert t.state.step_notes(before, A.END_TURN, 1) == ["P0 draws 1 card"]  # which, only the drawer sees
    t.play("politics").discard("weapons").end_turn()
    assert notes_of(t, A.lose("gambling"))[0] == "P1 loses gambling (5,000 EUR)"


def test_a_hassle_with_nothing_to_cost_and_a_solution_are_told(table):
    t = table(hands={0: ["raid"]}, tables={1: ["politics"]}, markets=[0])
    assert notes_of(t, A.play("raid")) == ["the Raid has nothing to cost and is discarded at once"]
    t = table(hands={0: ["informant"]}, tables={0: ["gambling"]}, hassles={0: "raid"})
    assert notes_of(t, A.play("informant")) == ["the Raid on P0's Market Open is removed"]
    t = table(hands={0: ["white coat"]}, hassles={1: "tax inspection"})
    assert notes_of(t, A.play("white coat")) == [
        "the Tax Inspection on P1's Market Open is removed; the hand is closed again (everyone has seen it)"
    ]


def test_a_takeover_and_the_magnum_that_stops_it(table):
    t = table(hands={0: ["hostile takeover"], 2: ["magnum"]}, tables={2: ["weapons"]}, markets=[0])
    assert notes_of(t, A.play("hostile takeover")) == [
        "each player who might hold the Magnum is asked in turn whether to stop the takeover with it"
    ]
    t.let_pass()
    assert notes_of(t, A.CANCEL) == ["the Magnum stops the Hostile Takeover: P2 keeps weapons"]
    t = table(hands={0: ["hostile takeover"]}, tables={2: ["weapons"]}, markets=[0])
    t.act(A.play("hostile takeover"))
    while t.state.phase == REACT:
        notes = notes_of(t, A.LET_PASS)
    assert notes == ["P0 takes weapons (50,000 EUR) from P2"]


def test_paranoia_lost_turns_and_the_cards_passed_left(table):
    t = table(hands={0: ["death in the family"]}, tables={0: ["weapons", "tropical fish"]})
    assert notes_of(t, A.play("death in the family")) == ["P0 loses 1 turn"]
    assert notes_of(t, A.lose("tropical fish")) == [
        "P0 loses tropical fish (1,000 EUR)",
        "every player with cards passes one face down to the left, from P0",
    ]
    passed = {}
    while t.state.phase == PASS:
        passer, action = t.state.decider, t.state.legal_actions()[0]
        passed[passer] = A.KIND_NAMES[action - A.PASS_CARD]
        before = t.state.clone()
        t.act(action)
    for viewer in (0, 1):  # P0 gets the last chooser's card (the step's own action), P1 an earlier one
        giver = (viewer - 1) % 4
        assert t.state.step_notes(before, action, viewer) == [
            "the chosen cards have passed to the left",
            f"you receive {passed[giver]} from P{giver}",
        ]
    t.end_turn().idle().idle()
    t.act(next(a for a in t.state.legal_actions() if A.DISCARD <= a < A.TRIPLE))
    notes = notes_of(t, A.END_TURN)  # P3 ends its turn: P0's is skipped
    assert notes[-1] == "P0 sits out a lost turn"


def test_trades_are_told_with_both_sides(table):
    t = table(hands={0: ["gambling"], 2: ["market open"]}, trading=True)
    t.act(A.give("gambling"), A.want("market open")).target(2)
    assert notes_of(t, A.ACCEPT) == ["trade made: P0 gives gambling to P2 and gets market open"]
    t = table(hands={0: ["gambling"], 1: []}, trading=True)
    t.act(A.give("gambling"), A.want("the coup")).target(1)
    assert notes_of(t, A.DECLINE) == ["P1 declines: no trade"]


# ----- the end of a hand and of the game -------------------------------------------------------------
def test_day_of_accounting_ends_the_game_with_the_accounting(table):
    t = table(hands={0: ["day of accounting"], 1: ["loan shark", "politics"]}, tables={0: ["weapons"], 1: ["gambling"]})
    assert notes_of(t, A.play("day of accounting")) == [
        "hand 1 ends: Day of Accounting",
        "accounting (businesses on the table, minus Paranoia cards and the best business left in hand): "
        + "P0 50,000 EUR (50,000 EUR on the table), P1 -55,000 EUR (5,000 EUR on the table), "
        + f"P2 {t.state.last_scores[2]:,} EUR (0 EUR on the table), P3 {t.state.last_scores[3]:,} EUR (0 EUR on the table)",
        "game over; winner: P0 with 50,000 EUR",
    ]


def test_a_hand_of_several_is_followed_by_the_totals_and_the_next_deal(table):
    t = table(hands={0: ["day of accounting"]}, tables={0: ["weapons"]}, target_score=500_000)
    notes = notes_of(t, A.play("day of accounting"))
    assert notes[0] == "hand 1 ends: Day of Accounting"
    assert notes[2].startswith("totals: P0 50,000 EUR, P1 ")
    assert notes[3] == "hand 2 is dealt: P1 plays first"


# ----- only what the viewer may know -------------------------------------------------------------------
def test_notes_tell_only_what_the_viewer_may_know(notes_survive_resampling):
    game = IllegalGame(num_players=4, trading=True, target_score=150_000, max_hands=2)
    assert notes_survive_resampling(game, range(2), every=3, rng=random.Random(13))[0] > 200
