"""Import / Export's texts for people and language models (``text.py``): the card glossary, the
score text, the private cards, one name per seat in every text, and the step notes: each kind of
note with its numbers in a scripted position, and, at random positions, the notes a seat reads
are the same in a world resampled from what it knows."""

import random
import re

import pytest

from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.data import ACTIONS, GOOD_TYPES, MODULES
from smuggle_envs.games.import_export.scoring import FOXES_TIE_BREAK
from smuggle_envs.games.import_export.vocab import P_BID

HAND_POWERS = ["lutefisk", "flour"]  # parked in the discard pile, as ``test_rules`` does
FIVE = ["a_small_tank", "big_ammunition", "cannons", "danger_pets", "dino_bones"]
PLAYER_N = re.compile(r"\bplayers? \d")  # "player 0": the old name of a seat


def step(t, move, viewer=0) -> list[str]:
    """Apply ``move`` at the table ``t``; the notes ``viewer`` reads about it."""
    action = t.action(move)
    before = t.state.clone()
    t.state.apply_action(action)
    return t.state.step_notes(before, action, viewer)


# ----- the glossary, the score text and the hand -----------------------------------------------------
@pytest.mark.parametrize("modules", [(), MODULES[1:]], ids=["base", "all-modules"])
def test_the_glossary_has_every_card_of_the_deck_with_its_power(modules):
    game = ImportExportGame(num_players=3, modules=modules)
    glossary = game.card_glossary()
    in_play = [c for c in game.data.cards if c.module == "base" or c.module in modules]
    assert [name for name, _ in glossary] == [c.name for c in in_play]
    for (_, text), card in zip(glossary, in_play):
        assert card.power in text and text.startswith(f"{GOOD_TYPES[card.type]} good, {ACTIONS[card.action]} card")
        assert f"contract tier {card.tier}, loads {len(card.load)} container" in text
    chaptick = dict(glossary)["CHAPTICK"]
    assert chaptick.endswith(game.data.by_key("chaptick").power)


def test_a_score_with_the_foxes_tie_break_says_so_in_words():
    game = ImportExportGame(num_players=3)
    assert game.score_text(40.0) == "40" and game.score_text(40 + FOXES_TIE_BREAK) == "40 (wins the tie: Foxes)"


def test_private_cards_are_the_hand_the_render_shows():
    game = ImportExportGame(num_players=3)
    state, rng = game.new_initial_state(2), random.Random(2)
    names = dict(game.card_glossary())
    for _ in range(60):
        for seat in range(3):
            cards = state.private_cards(seat)
            assert all(c in names for c in cards) and len(cards) == len(state.hands[seat])
            assert f"  hand: {', '.join(c.title() for c in cards) or '-'}" in state.render(seat).splitlines()
        state.apply_action(rng.choice(state.legal_actions()))


# ----- one name per seat --------------------------------------------------------------------------------
def test_every_text_names_a_seat_the_same_way_and_never_player_n():
    game = ImportExportGame(num_players=4, modules=MODULES[1:])
    rng = random.Random(5)
    state, texts = game.new_initial_state(1), 0
    while not state.is_terminal():
        action, viewer = rng.choice(state.legal_actions()), len(state.history) % 4
        shown = [state.render(viewer)] + [state.action_to_string(a, viewer) for a in state.legal_actions()]
        before = state.clone()
        state.apply_action(action)
        shown += state.step_notes(before, action, viewer)
        assert not [text for text in shown if PLAYER_N.search(text)]
        texts += len(shown)
    table = state.render()
    for p in range(4):
        assert re.search(rf"^{game.seat_name(p)} \([a-z]+ harbor\): -?\d+ credits", table, re.MULTILINE)
    assert f"scores: {game.seat_name(0)} " in table and not PLAYER_N.search(table)
    assert texts > 2_000
    assert game.seat_name(2) == "P2" and game.action_to_string(A.SHIP + 5) == "ship 5 (P2's)"


# ----- the notes, scripted --------------------------------------------------------------------------------
def test_a_turn_a_declaration_a_draw_and_the_actions_are_told(table):
    t = table(3, hands={0: ["beer", "laptops"], 1: ["chaptick"], 2: []}, deck_top=FIVE, discard=HAND_POWERS)
    declared = step(t, "beer")
    assert declared == [
        "P0 declares supply: each other player in turn follows with a supply card (or two cards of one colour)"
        " or draws."
    ]
    assert step(t, "chaptick") == []
    assert step(t, "draw", viewer=1) == [
        "P2 draws 5 cards (hand: 5).",
        "The supply actions (1 for following, 1 per matching card in one's imports): P0 1, P1 1.",
    ]
    assert step(t, "laptops") == [
        "P0 sells LAPTOPS to the supply island for 4 credits.",
        "Credits now: P0 14 (+4).",
    ]


def test_a_sealed_bid_round_is_told_when_the_bids_are_revealed(table):
    t = table(
        3,
        hands={0: ["champagne"], 1: ["jets"], 2: ["vintage_wines"]},
        ships={1: {"at_sea": True, "cargo": ["laptops", "telescopes"]}},
        discard=["lutefisk", "flour"],
        credits={1: 20},
    )
    t.do("champagne", "jets")
    notes = step(t, "vintage_wines", viewer=2)
    assert notes[0].startswith("The import actions (1 for following, 1 per matching card in one's imports): P0 1")
    assert notes[1:] == [
        "P0 (the only option): ship 1 (P0's).",
        "Import round on ship 1 (P0's): P0, P1, P2 bid in secret, in even credits.",
    ]
    assert (t.phase, t.decider) == (P_BID, 0)
    assert step(t, ("bid", 4), viewer=1) == [] and step(t, ("bid", 2), viewer=0) == []
    revealed = step(t, ("bid", 6), viewer=0)
    assert revealed == [
        "The sealed bids on ship 1 (P0's) are revealed: P0 4, P1 2, P2 6. P2 wins and pays 6 credits; P0, the"
        " ship's owner, takes 2 from the bank.",
        "Credits now: P0 12 (+2), P2 4 (-6).",
    ]


def test_a_completed_shipment_names_its_payout_and_its_new_powers(table):
    t = table(
        2,
        hands={0: ["chairs", "message_tables", "sauna"], 1: FIVE},
        imports={0: ["nice_suits"]},
        ships={
            0: {
                "contracts": ["miri_machines", "diamond_rings"],
                "cargo": ["laptops", "telescopes", "cologne", "velvet_robes"],
            }
        },
        deck_top=["pants", "shoes"],
        discard=HAND_POWERS,
    )
    t.do("chairs", "draw", "message_tables")
    notes = step(t, "sauna", viewer=1)
    assert notes[:3] == [
        "P0 (the only option): SAUNA onto ship 0 (P0's).",
        "P0's ship 0 completes with 6 containers: it pays 14 credits; MIRI MACHINES, DIAMOND RINGS join P0's"
        " shipments (their powers are P0's now), and the ship sails.",
        "Credits now: P0 24 (+14).",
    ]


def test_reaching_the_end_credits_and_the_end_are_told(table):
    t = table(
        3,
        hands={0: ["beer", "laptops"], 1: ["chaptick", "shoes"], 2: []},
        credits={0: 46, 1: 44},
        deck_top=FIVE,
        discard=HAND_POWERS,
    )
    t.do("beer", "chaptick", "draw")
    assert step(t, "laptops", viewer=2) == [
        "P0 sells LAPTOPS to the supply island for 4 credits.",
        "Credits now: P0 50 (+4).",
        "P0 reached 50 active credits: the game ends after this turn.",
    ]
    notes = step(t, "shoes", viewer=0)
    assert notes[:2] == ["P1 sells SHOES to the supply island for 4 credits.", "Credits now: P1 48 (+4)."]
    assert re.fullmatch(
        r"Game over \(P0 reached 50 active credits\)\. Final scores: P0 \d+, P1 \d+, P2 \d+\. P0 wins\.", notes[-1]
    ), notes


# ----- the notes say only what the seat may know ---------------------------------------------------------
def test_notes_are_the_same_in_a_world_resampled_for_the_viewer(notes_survive_resampling):
    """Wherever the action is legal in a world drawn from the viewer's information, and its
    outcome looks the same to the viewer (chance, such as the card a completion draws onto the
    island, may come out otherwise), the viewer reads the same notes."""
    game = ImportExportGame(num_players=3, modules=MODULES[1:])
    compared, told = notes_survive_resampling(game, range(2), 3, random.Random(7), tries=3, max_steps=400)
    assert compared > 150 and told > 40
