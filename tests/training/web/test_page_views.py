"""What the pages are given to show, beyond the cards and the log (``views.py``, ``cards.py``,
``decisions.py``): checked against the engine's state, without a browser.

* A Smuggle search's result (whose bag, who searched, the verdict) and the money each action
  moved, in the words every seat is shown, agree with the engine's record and scores.
* The player boxes' badges name the Officer and the bag holder (and the other games' public
  roles) as the state has them.
* Import / Export's decisions carry the engine's prompt, and a sealed bid the ship or island
  being auctioned, its cargo and the bidder's credits.
* Card faces tell apart cards whose initials collide.
* A stored game's seat labels read as the live table shows them.

That none of this shows a seat what it may not see is ``test_no_leak.py``'s check (whole views,
these fields included, compared across redrawn worlds), and, for the log's outcomes, that every
seat is told the same words here.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from smuggle_envs import ENV_IDS, make_game
from smuggle_envs.games.import_export import actions as IEA
from smuggle_envs.games.smuggle import actions as SA
from smuggle_envs.games.smuggle.vocab import OVER, REAL_BAG, TRUTHFUL
from training.web import views
from training.web.cards import face_marks
from training.web.decisions import decision, engine_prompt


def random_game(env_id: str, players: int, seed: int) -> tuple[Any, list[int]]:
    game = make_game(env_id, num_players=players)
    state, rng, actions = game.new_initial_state(seed), random.Random(seed), []
    while not state.is_terminal():
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    return game, actions


# ----- Smuggle: searches and money -------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_a_smuggle_searchs_bag_verdict_and_money_are_told_to_every_seat(seed):
    game, actions = random_game("smuggle_v0", 3, seed)
    _, log = views.replay_states(game, seed, actions)
    state = game.new_initial_state(seed)
    searches = paid = 0
    for action, entry in zip(actions, log):
        before = [float(x) for x in state.scores()]
        state.apply_action(action)
        after = entry["after"]
        assert after["seen"] == [after["full"]] * 3  # public: every seat is told the same
        text = after["full"] or ""
        if action in (SA.SEARCH, SA.INFORM):
            seat, _, outcome, by_informer = state.last_reveal
            verdict = "truthful" if outcome == TRUTHFUL else "real Bag" if outcome == REAL_BAG else "caught lying"
            who = "the Informer" if by_informer else "the Officer"
            assert text.startswith(f"P{seat}'s bag searched by {who}: ") and f"\u2192 {verdict}" in text, text
            searches += 1
        else:
            assert "bag searched" not in text
        moved = {
            int(p): (-1 if sign == "\u2212" else 1) * int(amount.replace(",", ""))
            for p, sign, amount in re.findall(r"P(\d+) ([+\u2212])£([\d,]+)", text)
        }
        assert moved == {p: b - a for p, (a, b) in enumerate(zip(before, state.scores())) if b != a}
        paid += bool(moved)
    assert searches > 3 and paid > 10
    for seat in range(3):  # the page gets them per log entry
        shown = views.seat_outcomes(log, seat)
        assert shown and all(e["text"] == log[e["n"]]["after"]["seen"][seat] for e in shown)
        assert {e["n"] for e in shown} == {e["n"] for e in log if e["after"]["seen"][seat]}


def test_the_last_search_zone_says_whose_bag_and_the_verdict():
    game, actions = random_game("smuggle_v0", 4, 1)
    state = game.new_initial_state(1)
    checked = 0
    for action in actions:
        state.apply_action(action)
        if state.last_reveal is None:
            continue
        seat, _, outcome, by_informer = state.last_reveal
        verdict = "truthful" if outcome == TRUTHFUL else "real Bag" if outcome == REAL_BAG else "caught lying"
        for viewer in range(4):
            zone = next(
                z for z in views.seat_view(state, viewer, list("ABCD"), [])["zones"] if z["title"] == "Last search"
            )
            who = "the Informer" if by_informer else "the Officer"
            assert zone["note"] == f"P{seat}'s bag, searched by {who}: {verdict}"
            checked += 1
    assert checked > 20


# ----- badges ---------------------------------------------------------------------------------------------------
def test_the_officer_and_the_bag_holder_are_marked_on_their_seats():
    game, actions = random_game("smuggle_v0", 4, 2)
    state = game.new_initial_state(2)
    for action in [*actions, None]:
        for viewer in (None, 0, 3):
            badges = views.badges(state, viewer)
            if state.phase == OVER:
                assert badges == [[]] * 4
                continue
            assert [p for p in range(4) if "Officer" in badges[p]] == [state.officer]
            assert [p for p in range(4) if "bag holder" in badges[p]] == [state.holder]
            assert [p for p in range(4) if "out" in badges[p]] == [p for p in range(4) if not state.active[p]]
        if action is not None:
            state.apply_action(action)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_game_has_badges_and_a_seat_is_shown_them_as_the_full_view(env_id):
    """The badges come from public pieces: every seat and the full view show the same."""
    shown = 0
    for seed in range(3):
        game, actions = random_game(env_id, 3, seed)
        state = game.new_initial_state(seed)
        for action in actions[:150]:
            full = views.badges(state, None)
            assert all(views.badges(state, seat) == full for seat in range(3))
            shown += sum(map(len, full))
            state.apply_action(action)
    assert shown > 0


# ----- Import / Export: the engine's prompt and the sealed bid ---------------------------------------------
def test_import_export_decisions_carry_the_engines_prompt_and_the_auction():
    game = make_game("import_export_v0", num_players=3)
    bids = powers = 0
    for seed in range(6):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player()
            prompt = engine_prompt(state, seat)
            assert prompt is not None and prompt["seat"] == seat
            assert prompt == engine_prompt(state, (seat + 1) % 3)  # the same words to every seat
            assert "options:" not in prompt["text"] and "``" not in prompt["text"]
            assert state.render(seat).splitlines()[-1].startswith(f"P{seat} to decide: {prompt['text'].split(' [')[0]}")
            if prompt["card"] is not None:
                assert prompt["power"] and prompt["text"].endswith(f"[{prompt['card']}]")
                powers += 1
            form = decision(state, seat)
            if form["kind"] == "bid":
                bids += 1
                ship = state.import_ship
                assert [b["amount"] for b in form["bids"]] == [
                    2 * (a - IEA.BID) for a in state.legal_actions() if a >= IEA.BID and a < IEA.TYPE
                ]
                assert form["credits"] == state.credits[seat]
                if form["island"]:
                    assert form["ship"] is None and form["cargo"]
                else:
                    assert (form["ship"], form["owner"]) == (ship, ship // 2)
                    assert form["cargo"] == ", ".join(game.names[c].title() for c in state.cargo[ship])
            state.apply_action(rng.choice(state.legal_actions()))
        assert engine_prompt(state, 0) is None  # over: nobody is asked
    assert bids > 5 and powers > 0


def test_the_other_games_have_no_engine_prompt():
    for env_id in ("smuggle_v0", "ciq_v0", "illegal_v0", "humble_smuggle_v0"):
        state = make_game(env_id, num_players=3).new_initial_state(0)
        assert engine_prompt(state, 0) is None


# ----- card faces and seat labels ------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ["smuggle_v0", "illegal_v0"])
def test_cards_whose_initials_collide_have_different_faces(env_id):
    state = make_game(env_id, num_players=3).new_initial_state(0)
    names = tuple(state.game.kind_names)
    marks = face_marks(names)
    assert len(set(marks.values())) == len(names)
    for name, mark in marks.items():
        assert re.sub(r"\W", "", name).lower().startswith(mark.lower())
    if env_id == "smuggle_v0":
        assert marks["wine"] != marks["watch"]
        assert len({marks["cigars"], marks["camera"], marks["crown"]}) == 3
        assert marks["brandy"] == "B"  # a unique initial stays one letter


def test_a_stored_games_labels_read_as_at_the_table():
    stored = ["human:Ann", "rule", "rule#2", "human:Bob#2", "ismcts:sims=50#3", "zoo:smuggle_v0"]
    assert views.stored_seats(stored) == [
        ("Ann", "human"),
        ("rule", "agent"),
        ("rule", "agent"),
        ("Bob", "human"),
        ("ismcts:sims=50", "agent"),
        ("zoo:smuggle_v0", "agent"),
    ]
    game, actions = random_game("ciq_v0", 2, 1)
    state, log = views.replay_states(game, 1, actions[:5])
    labels, kinds = (list(x) for x in zip(*views.stored_seats(["human:Ann", "rule"])))
    for view in (views.full_view(state, labels, log, kinds), views.seat_view(state, 0, labels, log, kinds)):
        assert [(p["label"], p["kind"]) for p in view["players"]] == [("Ann", "human"), ("rule", "agent")]


# ----- what a participant is asked, and the scores ---------------------------------------------------------
GENERIC = re.compile(r"^(Your move|Your turn)$|^Your move: one of")
UNNAMED = re.compile(r"select \d+|seat clockwise|player \+\d|\(P\d+'s\)")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_decision_asks_its_step_and_names_the_people(env_id):
    """Every decision of seeded 4-player games carries the game's question (never a bare "Your
    move"), and no button reads "select 38" or "the player 1 seat clockwise": the people are named
    as the page names them, the reader "(you)"."""
    labels = ["Ann", "Bob", "rule", "Cy"]
    kinds: set[str] = set()
    for seed in range(2):
        game, actions = random_game(env_id, 4, seed)
        state = game.new_initial_state(seed)
        for action in actions[:400]:
            seat = state.current_player()
            form = decision(state, seat, labels)
            assert form["question"] and not GENERIC.search(form["question"]), form["question"]
            assert not re.search(r"\bP\d\b(?! \w)", form["question"]), form["question"]  # "P1" alone: unnamed
            for shown in form["actions"]:
                assert not UNNAMED.search(shown["text"]), (form["question"], shown["text"])
            kinds.add(form["question"].split(":")[0])
            state.apply_action(action)
    assert len(kinds) >= 3, kinds


def test_a_target_button_names_the_person_and_the_log_too():
    """CIQ's target buttons and its log name the people, not seats counted clockwise."""
    game = make_game("ciq_v0", num_players=4)
    state, log = game.new_initial_state(1), []
    labels = ["Ann", "Bob", "rule", "Cy"]
    form = decision(state, state.current_player(), labels)
    seat = state.current_player()
    targets = [a["text"] for a in form["actions"] if a["text"].startswith("target ")]
    assert targets == [f"target P{(seat + k) % 4} {labels[(seat + k) % 4]}" for k in (1, 2, 3)]
    action = next(a["id"] for a in form["actions"] if a["text"] == targets[0])
    views.apply_logged(state, action, log)
    for viewer in range(4):
        text = views.seat_view(state, viewer, labels, log)["log"][0]["text"]
        assert "clockwise" not in text and f"P{(seat + 1) % 4} Bob" in text.replace(" (you)", ""), text


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_scores_read_as_the_terminal_writes_them_with_what_they_mean(env_id):
    """Each player's ``score_text`` is the terminal's (``game.score_text``), never "-0", and the
    view says what a score is."""
    game, actions = random_game(env_id, 4, 0)
    state = game.new_initial_state(0)
    for action in [*actions[:60], None]:
        view = views.seat_view(state, 0, list("ABCD"), [])
        for player, score in zip(view["players"], state.scores()):
            assert player["score_text"] == game.score_text(score) and not player["score_text"].startswith("-0")
        assert view["score_note"].startswith("a score is")
        if action is not None:
            state.apply_action(action)
    if env_id == "ciq_v0":
        assert view["players"][0]["score_text"].endswith("cards left")
    if env_id == "humble_smuggle_v0":
        assert game.score_text(6.02) in ("6 points (tie-break: 2 scored cards)",)


def test_the_full_view_titles_and_notes_each_seats_cards_for_an_onlooker():
    """The replay's full view speaks of "P1 Bob's hand", not "the live hand, if you hold it"."""
    game, actions = random_game("smuggle_v0", 4, 1)
    state, log = views.replay_states(game, 1, actions[:30])
    zones = views.full_view(state, list("ABCD"), log)["zones"]
    assert zones and not [z for z in zones if re.search(r"\byou\b|\byour\b", f"{z['title']} {z['note']}", re.I)]
