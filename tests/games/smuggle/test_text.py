"""The text interface's parts (``text.py``): the card glossary, a seat's private cards, the notes of
each step (search verdicts with the money that moved, rounds, the end), and the table text of a
Diplomatic Bag let pass."""

import random

import smuggle_envs
from smuggle_envs.games.smuggle import actions as A

VIEWER = 2  # a seat that neither declares nor judges in the scripted hands below


def notes_of(table, move, *args, viewer=VIEWER):
    """Make ``move`` on the table; the notes ``viewer`` is told of that step."""
    before = table.state.clone()
    action_count = len(table.state.history)
    getattr(table, move)(*args)
    action = table.state.history[action_count]
    return table.state.step_notes(before, action, viewer)


# ----- the glossary and the private cards ---------------------------------------------------------
def test_glossary_names_every_card_kind_with_its_duty_and_fine():
    game = smuggle_envs.make_game("smuggle_v0")
    glossary = dict(game.card_glossary())
    assert list(glossary) == list(game.kind_names)
    d = game.data
    for name, duty, fine, count in zip(d.item_names, d.duties, d.fines, d.item_counts):
        assert f"duty £{duty}" in glossary[name] and f"fine £{fine}" in glossary[name]
        assert f"{count} in the pack" in glossary[name]
    assert "£200" in glossary["diplomatic bag"] and "no duty" in glossary["diplomatic bag"]
    assert "no duty, no fine" in glossary["luggage"]
    free = dict(smuggle_envs.make_game("smuggle_v0", informer_pays_real_bag=False).card_glossary())
    assert "challenge of a real Bag is free" in free["diplomatic bag"]


def test_private_cards_are_the_live_hand_the_holders_table_text_shows(table):
    t = table(["wine", "wine", "diplomatic bag", "luggage"])
    assert t.state.private_cards(1) == ["wine", "wine", "diplomatic bag", "luggage"]
    assert "live hand (P1): wine x2, diplomatic bag, luggage" in t.state.render(1)
    assert all(t.state.private_cards(p) == [] for p in (0, 2, 3))
    t.claim_bag().let_pass()
    assert t.state.private_cards(1) == ["wine", "wine", "diplomatic bag", "luggage"]  # passed face down
    assert t.state.private_cards(2) == []  # not seen before accepting
    t.accept()
    assert t.state.private_cards(2) == ["wine", "wine", "diplomatic bag", "luggage"]
    assert t.state.private_cards(1) == []  # passed on: shown apart, no longer held


def test_private_cards_match_the_hand_line_of_the_table_text_in_random_play():
    game = smuggle_envs.make_game("smuggle_v0", num_players=3)
    names = set(dict(game.card_glossary()))
    rng = random.Random(5)
    state = game.new_initial_state(5)
    while not state.is_terminal():
        for p in range(3):
            cards = state.private_cards(p)
            assert set(cards) <= names
            shown = [line for line in state.render(p).splitlines() if "live hand" in line]
            assert bool(cards) == bool(shown)
            assert len(cards) == (state.hand_size if cards else 0)
        state.apply_action(rng.choice(state.legal_actions()))


# ----- the notes of searches -------------------------------------------------------------------------
def test_truthful_hand_searched_by_the_officer_shows_both_payments_that_net_to_nothing(table):
    t = table(["camera", "luggage", "luggage", "luggage"]).declare("camera")
    notes = notes_of(t, "search")
    assert notes[0] == "the Officer (P0) searches P1: camera, luggage x3 -> truthful"
    assert notes[1] == "P0 pays P1 £200 compensation; P1 pays P0 £200 duty (net: no change)"
    assert notes[2] == "P2 draws four fresh cards and declares next"
    assert t.money == [3000] * 4


def test_a_liar_searched_by_the_officer_is_fined_on_every_dutiable_card(table):
    # Rule 7's example: wine + cigars declared, wine + cigars + watch found: 50 + 100 + 300.
    t = table(["wine", "cigars", "watch", "luggage"]).declare("wine", "cigars")
    notes = notes_of(t, "search")
    assert notes[:2] == [
        "the Officer (P0) searches P1: wine, cigars, watch, luggage -> caught lying",
        "P1 pays P0 £450 in fines",
    ]


def test_a_lie_with_no_dutiable_card_still_says_what_it_costs(table):
    t = table(["luggage"] * 4).declare("wine")
    assert notes_of(t, "search")[1] == "P1 pays P0 £0 in fines"


def test_let_pass_says_the_duty_paid_and_where_the_cards_go(table):
    t = table(["wine", "cigars", "luggage", "luggage"]).declare("wine", "cigars")
    assert notes_of(t, "let_pass") == ["not searched: P1 pays the Officer (P0) £75 duty; the cards go face down to P2"]
    assert notes_of(t, "accept", viewer=0) == [
        "P2 takes the cards unseen (no money changes hands), discards one face up and draws one"
    ]


def test_informer_outcomes_name_every_payment(table):
    t = table(["watch", "luggage", "luggage", "luggage"]).declare("wine").let_pass()
    notes = notes_of(t, "inform", viewer=3)
    assert notes[0] == "the Informer (P2) searches P1: watch, luggage x3 -> caught lying"
    assert notes[1] == "P1 pays P0 £300 in fines; P0 pays P2 £100 informer's reward (net: P0 +£200, P2 +£100, P1 -£300)"
    assert notes[2] == "P2 draws four fresh cards and declares next"
    t = table(["wine", "luggage", "luggage", "luggage"]).declare("wine").let_pass()
    notes = notes_of(t, "inform", viewer=3)
    assert notes[:2] == ["the Informer (P2) searches P1: wine, luggage x3 -> truthful", "P2 pays P1 £200 compensation"]


def test_diplomatic_bag_outcomes(table):
    t = table(["diplomatic bag", "crown", "luggage", "luggage"]).claim_bag()
    notes = notes_of(t, "search")
    assert notes[:2] == [
        "the Officer (P0) searches P1: crown, diplomatic bag, luggage x2 -> the Diplomatic Bag is real",
        "P0 pays P1 £200 compensation",
    ]
    t = table(["crown", "wine", "luggage", "luggage"]).claim_bag()
    notes = notes_of(t, "search")
    assert notes[:2] == [
        "the Officer (P0) searches P1: wine, crown, luggage x2 -> a false Diplomatic Bag claim",
        "P1 pays P0 £1250 (£200 for the false claim + fines)",
    ]
    t = table(["diplomatic bag", "luggage", "luggage", "luggage"], informer_pays_real_bag=False).claim_bag().let_pass()
    assert notes_of(t, "inform", viewer=0)[1] == "no money changes hands"


def test_an_unchallenged_bag_pays_nothing_and_the_table_text_says_so(table):
    t = table(["diplomatic bag", "luggage", "luggage", "luggage"]).claim_bag()
    notes = notes_of(t, "let_pass")
    assert notes == ["not searched: no duty under diplomatic immunity; the cards go face down to P2"]
    assert t.money == [3000] * 4
    view = t.state.render(VIEWER)
    assert "P1 declared: the Diplomatic Bag  (not searched: no duty under diplomatic immunity, passed on)" in view
    assert "duty paid" not in view
    t = table(["wine", "luggage", "luggage", "luggage"]).declare("wine").let_pass()
    assert "P1 declared: wine  (duty paid: £25, passed on)" in t.state.render(VIEWER)


def test_a_player_who_cannot_pay_is_put_out_and_the_money_that_moved_is_told(table):
    t = table(["crown", "luggage", "luggage", "luggage"], bankruptcy="eliminate", money_per_player=100).declare()
    notes = notes_of(t, "search")
    assert notes[1] == "money: P0 +£100, P1 -£100"
    assert "P1 cannot pay and is out of the game" in notes


# ----- rounds and the end ------------------------------------------------------------------------------
def test_round_ends_new_rounds_and_the_end_are_announced():
    game = smuggle_envs.make_game("smuggle_v0", num_players=3)
    state, rng = game.new_initial_state(2), random.Random(2)
    announced = []
    while not state.is_terminal():
        before, action = state.clone(), rng.choice(state.legal_actions())
        state.apply_action(action)
        announced += [note for note in state.step_notes(before, action, 0) if note.startswith(("round", "game"))]
    assert announced[:2] == [
        "round 1 of 3 is over: the pack has run out",
        "round 2 of 3 begins: P1 is the Customs Officer; the pack is reshuffled and P2 draws four cards and declares",
    ]
    assert announced[3].startswith("round 3 of 3 begins: P2 is the Customs Officer")
    best = max(state.money)
    assert announced[-1].startswith("game over: final money P0 £") and announced[-1].endswith(f"with £{best}")


def test_search_notes_account_for_every_payment_in_random_play():
    """Where nobody runs out of money, the payments named add up to the money that moved."""
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    rng = random.Random(7)
    searches = 0
    for seed in range(4):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            before, action = state.clone(), rng.choice(state.legal_actions())
            state.apply_action(action)
            if action in (A.SEARCH, A.INFORM):
                searches += 1
                notes = state.step_notes(before, action, 1)
                assert "-> " in notes[0] and not notes[1].startswith("money:"), notes
    assert searches > 50


# ----- only what the viewer may know -------------------------------------------------------------------
def test_notes_tell_only_what_the_viewer_may_know(notes_survive_resampling):
    game = smuggle_envs.make_game("smuggle_v0", num_players=4)
    assert notes_survive_resampling(game, range(2), every=3, rng=random.Random(11))[0] > 100
