"""The text interface's parts (``text.py``): the card glossary, the score in words, a seat's private
cards, and the notes of each step (the round rule, the reveal and its points, black draws and the
hand limit, rounds, the End-of-Game card, the end)."""

import random
import re

import smuggle_envs
from smuggle_envs.games.humble_smuggle import actions as A
from smuggle_envs.games.humble_smuggle.vocab import DISCARD, DRAFT

HOLDS = ["hold anchor/barrel/compass +1", "hold anchor/barrel/skull +1", "hold anchor/barrel/key +1"]
HANDS = {0: [10, 31, 8], 1: [20, 33, 6], 2: [26, 18, 65]}


def notes_of(t, action, viewer=2):
    """Apply ``action`` on the scripted table; the notes ``viewer`` is told of that step."""
    before = t.state.clone()
    t.apply(action)
    return t.state.step_notes(before, action, viewer)


def hand_line(state, seat):
    """The seat's own hand, as its table text lists it: white cards, then black cards."""
    line = next(x for x in state.render(seat).splitlines() if x.startswith(f"  P{seat} hand: "))
    whites, black = line.removeprefix(f"  P{seat} hand: ").split(" | black: ")
    cards = [] if whites == "-" else whites.split(", ")
    for part in [] if black == "-" else black.split(", "):
        name, _, count = part.rpartition(" x")
        cards += [name] * int(count) if name and count.isdigit() else [part]
    return cards


# ----- the glossary, the score and the private cards ------------------------------------------------
def test_glossary_names_every_card_and_round_rule_with_its_worth():
    game = smuggle_envs.make_game("humble_smuggle_v0")
    glossary = dict(game.card_glossary())
    names = [str(v) for v in range(1, 81)] + list(game.black_names) + list(game.rule_names) + ["symbol sets"]
    assert list(glossary) == names
    assert glossary["62"] == (
        "white card worth 6 points if it scores; draws 1 black card when it scores; "
        "round rule if left in the centre: Double Up"
    )
    assert "1 point if it scores; symbol anchor" in glossary["11"] and "symbol star" in glossary["4"]
    assert "End-of-Game" in glossary["80"]
    assert glossary["play +10"].startswith("Play card (6 in the deck)") and "its value +10" in glossary["play +10"]
    assert "cannot be discarded" in glossary["play shield"]
    assert "+2 points" in glossary["hold anchor/barrel/compass +2"]
    assert "anchor, barrel, compass" in glossary["hold anchor/barrel/compass +2"]
    assert "as many highest cards as skull symbols" in glossary["Symbol Up (skull)"]
    assert "2 of a symbol 2, 3 of a symbol 5, 4 of a symbol 9, 5 of a symbol 15" in glossary["symbol sets"]


def test_score_text_shows_the_points_and_the_tie_break_never_money():
    game = smuggle_envs.make_game("humble_smuggle_v0")
    assert game.score_text(12.03) == "12 points (tie-break: 3 scored cards)"
    assert game.score_text(1.01) == "1 point (tie-break: 1 scored card)"
    assert game.score_text(0.01) == "0 points (tie-break: 1 scored card)"  # a round's change of +0.01
    assert game.score_text(0.0) == "0 points (tie-break: 0 scored cards)"
    assert game.score_text(57 + 79 / 100) == "57 points (tie-break: 79 scored cards)"


def test_private_cards_are_the_hand_the_seats_table_text_shows(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 78], black={0: ["+10", "+10", "shield"]})
    assert t.state.private_cards(0) == ["8", "10", "31", "play +10", "play +10", "play shield"]
    assert hand_line(t.state, 0) == t.state.private_cards(0)
    t.draft(11, 13, 14).select(10)
    assert t.state.private_cards(0) == ["8", "11", "31", "play +10", "play +10", "play shield"]  # 10 is face down
    assert t.state.private_cards(1) == ["6", "13", "20", "33"]


def test_private_cards_match_the_table_text_and_the_glossary_in_random_play():
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=3)
    names = set(dict(game.card_glossary()))
    rng, state = random.Random(4), game.new_initial_state(4)
    while not state.is_terminal():
        for p in range(3):
            cards = state.private_cards(p)
            assert set(cards) <= names and cards == hand_line(state, p)
        state.apply_action(rng.choice(state.legal_actions()))


# ----- the notes of a round --------------------------------------------------------------------------
def test_a_round_is_told_rule_reveal_points_draws_and_the_hand_limit(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 78], black={0: HOLDS}, black_top=["+10", "-10", "zero", "+20"])
    t.draft(11, 13)
    assert notes_of(t, A.draft(14)) == [
        "every player has drafted: 78, left in the centre, sets the round rule: Standard "
        "(discard the highest card, the centre card included)"
    ]
    t.select(10, 20)
    assert notes_of(t, A.select(26)) == [
        "every player has laid a card face down; now Play cards, round the table from P0, until everyone passes in a row"
    ]
    t.pass_(2)
    before = t.state.clone()
    t.pass_()
    assert t.state.step_notes(before, A.PASS, 2) == [
        "reveal (Standard): P0 10 scores 1 point; P1 20 scores 2 points; P2 26 scores 2 points; centre 78 discarded",
        "points from scored cards and sets (Hold cards count at the end): P0 1 (+1), P1 2 (+2), P2 2 (+2)",
        "black cards drawn: P0 2",
        "P0 holds 5 black cards: over the limit of 3, discards down to 3 face down",
    ]
    assert "you draw: play +10, play -10" in t.state.step_notes(before, A.PASS, 0)  # only the drawer sees which
    assert t.state.phase == DISCARD
    assert notes_of(t, A.discard(t.game.black_kind("-10"))) == [
        "P0 holds 4 black cards: over the limit of 3, discards down to 3 face down"
    ]
    notes = notes_of(t, A.discard(t.game.black_kind(HOLDS[2])), viewer=1)
    assert notes[:3] == ["black cards drawn: P1 2", "you draw: play +20, play zero", "round 1 is over"]
    assert re.fullmatch(r"round 2 begins \(\d+ rounds left\): P1 is first player; centre: [\d, ]+", notes[3])
    assert t.state.phase == DRAFT


def test_play_cards_on_the_reveal_and_the_draws_they_bring(table):
    t = table(
        hands=HANDS, centre=[11, 13, 14, 25], black={0: ["+20"]}, black_top=["+10", "-10", "+10", "-10", "shield"]
    )
    t.draft(11, 13, 14).select(10, 20, 26).play("+20", 2)
    t.pass_(2)
    notes = notes_of(t, A.PASS, viewer=2)
    # 26 + 20 = 46 is the highest: discarded, and its owner draws one card for the Play card on it
    assert notes[0] == (
        "reveal (Standard): P0 10 scores 1 point; P1 20 scores 2 points; P2 26 +20 = 46 discarded; centre 25 not discarded"
    )
    assert "black cards drawn: P0 2, P1 2, P2 1" in notes and "you draw: play shield" in notes


def test_the_end_of_game_card_and_the_final_scores_are_announced(table):
    t = table(hands=HANDS, centre=[11, 13, 14, 25], end_left=2, deck_top=[1, 2, 3, 5, 61])
    t.draft(11, 13, 14).select(10, 20, 26).pass_(2)
    notes = notes_of(t, A.PASS)
    assert notes[-3:] == [
        "round 1 is over",
        "the End-of-Game card (80) has turned up: the next round is the last",
        "round 2 begins (the final round): P1 is first player; centre: 1, 2, 3, 5",
    ]
    t.draft(1, 2, 3).select(33, 18, 31).pass_(2)
    notes = notes_of(t, A.PASS)
    scores = t.state.scores()
    final = ", ".join(f"P{s} {t.game.score_text(sc)}" for s, sc in enumerate(scores))
    assert notes[-2:] == [
        "round 2 is over",
        f"game over: final scores (Hold cards and sets included) {final}; winner: P{scores.index(max(scores))}",
    ]


# ----- only what the viewer may know -------------------------------------------------------------------
def test_notes_tell_only_what_the_viewer_may_know(notes_survive_resampling):
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=4)
    assert notes_survive_resampling(game, range(2), every=2, rng=random.Random(12))[0] > 200
