"""The full view's marks of the truth (``training/web/marks.py``) agree with the hidden state.

For every game: seeded random games are replayed through ``views.replay_states`` and each log
entry's mark is checked against the positions before and after its action, read where possible
another way than the marker reads them (the hand where the marker asks the legal actions, and
the reverse), and against what the engine then did: its verdict and record of a Smuggle search
against the declaration's mark, a Tolerance pile cleared by a Fire, the cards on the scored
piles, the bids it revealed. Where the rules allow a lie, a true and a false one are also made
on purpose. A seat's log never carries a mark.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from smuggle_envs import ENV_IDS, make_game
from smuggle_envs.games.ciq import actions as CA
from smuggle_envs.games.ciq.vocab import FIRE_DECISION
from smuggle_envs.games.humble_smuggle import actions as HA
from smuggle_envs.games.humble_smuggle.vocab import PLAY as HUMBLE_PLAY
from smuggle_envs.games.illegal import actions as IA
from smuggle_envs.games.illegal.vocab import REACT, TRADE_ANSWER
from smuggle_envs.games.import_export.vocab import P_BID
from smuggle_envs.games.smuggle import actions as SA
from smuggle_envs.games.smuggle.vocab import DECLARE, NUM_SEARCH_RECORDS, OFFICER, R_CAUGHT, R_TRUTHFUL, RECEIVE
from training.web import views

PLAYERS = 4
SEEDS = range(4)
CONFIG = {"illegal_v0": {"trading": True}}  # trades too: more of Illegal's hidden answers


def random_actions(game: Any, seed: int) -> list[int]:
    """A whole random game's actions (the seed also seeds the choices)."""
    state, rng, actions = game.new_initial_state(seed), random.Random(seed), []
    while not state.is_terminal():
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    return actions


def steps(env_id: str, seeds=SEEDS, **config: Any) -> Iterator[tuple[Any, int, Any, dict]]:
    """(position before, action, position after, log entry) of seeded random games, the log made
    by ``views.replay_states`` as the replay viewer makes it."""
    game = make_game(env_id, num_players=PLAYERS, **config)
    for seed in seeds:
        actions = random_actions(game, seed)
        _, log = views.replay_states(game, seed, actions)
        assert len(log) == len(actions)
        state = game.new_initial_state(seed)
        for action, entry in zip(actions, log):
            before = state.clone()
            state.apply_action(action)
            yield before, action, state, entry


def logged(state: Any, *actions: int) -> list[dict]:
    """The log of ``actions`` applied to a copy of ``state`` through ``apply_logged``."""
    state, log = state.clone(), []
    for action in actions:
        views.apply_logged(state, action, log)
    return log


def first(env_id: str, found, **config: Any) -> Any:
    """The first position of the seeded random games where ``found(position)`` holds."""
    for before, _, _, _ in steps(env_id, range(40), **config):
        if found(before):
            return before
    raise AssertionError(f"no such position in 40 {env_id} games")


# ----- Smuggle ---------------------------------------------------------------------------------
def _declared_truly(state: Any, action: int) -> bool:
    hand = [int(c) for c in state.hand]
    if action == SA.CLAIM_BAG:
        return hand[SA.BAG] > 0
    return hand[: SA.NUM_ITEMS] == list(SA.DECLARATIONS[action])


def test_smuggle_marks_declarations_and_searches_as_the_search_finds_them():
    declared, counts = None, {"true": 0, "false": 0, "caught": 0, "not caught": 0}
    for before, action, after, entry in steps("smuggle_v0"):
        mark = entry["mark"]
        if before.phase == DECLARE:
            declared = mark
            assert mark == ("true" if _declared_truly(before, action) else "false")
            counts[mark] += 1
        elif (before.phase, action) in ((OFFICER, SA.SEARCH), (RECEIVE, SA.INFORM)):
            # The engine's verdict on the hand searched, against the declaration's mark, and its
            # record of the search (a lie caught, or the truth found).
            caught = mark == "caught"
            assert caught if declared == "false" else mark in ("truthful: not caught", "real bag")
            record = after.last_reveal.seat * NUM_SEARCH_RECORDS + (R_CAUGHT if caught else R_TRUTHFUL)
            assert after.search_record[record] == before.search_record[record] + 1
            counts["caught" if caught else "not caught"] += 1
        else:
            assert mark is None
    assert all(counts.values()), counts


def test_smuggle_a_true_and_a_false_declaration_made_on_purpose():
    state = first(
        "smuggle_v0", lambda s: s.phase == DECLARE and s.hand[SA.BAG] == 0 and sum(s.hand[: SA.NUM_ITEMS]) > 0
    )
    truth = SA.declare([int(c) for c in state.hand[: SA.NUM_ITEMS]])
    lie = SA.declare([0] * SA.NUM_ITEMS)  # "nothing", with dutiable items in the hand
    for action, declared, verdict in ((truth, "true", "truthful: not caught"), (lie, "false", "caught")):
        assert [e["mark"] for e in logged(state, action, SA.SEARCH)] == [declared, verdict]
    assert [e["mark"] for e in logged(state, SA.CLAIM_BAG, SA.SEARCH)] == ["false", "caught"]
    bag = first("smuggle_v0", lambda s: s.phase == DECLARE and s.hand[SA.BAG] > 0)
    assert [e["mark"] for e in logged(bag, SA.CLAIM_BAG, SA.SEARCH)] == ["true", "real bag"]


# ----- CIQ -------------------------------------------------------------------------------------
def _holds_face(state: Any, seat: int) -> bool:
    return any(state.hand[seat][k] for k in state.game.face_kinds)


def test_ciq_marks_smuggles_and_fire_decisions():
    seen = set()
    for before, action, after, entry in steps("ciq_v0"):
        mark = entry["mark"]
        if before.phase == FIRE_DECISION:
            target = before.target
            assert before.tol_size[target] > 0  # only a Tolerance pile makes a card Illegal
            if CA.FIRE <= action < CA.GIVE:  # Fired: the Tolerance pile is gone
                assert mark == "caught" and after.tol_size[target] == 0
            else:
                held = _holds_face(before, target)
                assert mark == ("not caught: held a face card" if held else "not caught: no face card")
                assert after.tol_size[target] == before.tol_size[target]
        elif after.phase == FIRE_DECISION:  # this card was Smuggled
            assert CA.SHIP <= action < CA.SABOTAGE
            held = _holds_face(after, after.target)
            assert mark == ("smuggled: target holds a face card" if held else "smuggled: target has no face card")
        else:
            assert mark is None
        seen.add(mark)
    assert {"caught", "not caught: held a face card", "smuggled: target holds a face card"} <= seen


def test_ciq_fire_and_keep_made_on_purpose():
    state = first("ciq_v0", lambda s: s.phase == FIRE_DECISION and _holds_face(s, s.target))
    fire = next(a for a in state.legal_actions() if CA.FIRE <= a < CA.GIVE)
    assert logged(state, fire)[0]["mark"] == "caught"
    assert logged(state, CA.KEEP)[0]["mark"] == "not caught: held a face card"


# ----- Illegal ---------------------------------------------------------------------------------
def test_illegal_marks_what_a_seat_held_when_it_declined_or_let_pass():
    seen = set()
    for before, action, _, entry in steps("illegal_v0", **CONFIG["illegal_v0"]):
        mark, seat = entry["mark"], before.decider
        if before.phase == REACT and action == IA.LET_PASS:
            holding = len(before.legal_actions()) > 1  # the Magnum offers more than letting pass
            assert mark == ("let pass: held the Magnum" if holding else "let pass: no Magnum")
        elif before.phase == TRADE_ANSWER and action == IA.DECLINE:
            able = all(before.hands[seat][k] >= before.want[k] for k in range(IA.NUM_KINDS))
            assert mark == ("declined: held the cards" if able else "declined: lacked the cards")
        else:
            assert mark is None
        seen.add(mark)
    assert {"let pass: no Magnum", "declined: held the cards", "declined: lacked the cards"} <= seen


def test_illegal_a_magnum_window_made_on_purpose():
    state = make_game("illegal_v0", num_players=PLAYERS).new_initial_state(1)
    state.arrange(
        hands={
            0: ["hostile takeover"] + ["tropical fish"] * 6,
            2: ["magnum", "gambling", "pimps", "merchandise", "alibi", "informant", "brokering"],
        },
        tables={1: ["weapons"]},
        markets=[0, 1],
        active=0,
    )
    # The takeover of P1's only business; then every seat that might hold the Magnum is asked.
    log = logged(state, IA.play("hostile takeover"), IA.LET_PASS, IA.LET_PASS, IA.LET_PASS)
    assert [(e["seat"], e["mark"]) for e in log] == [
        (0, None),
        (1, "let pass: no Magnum"),
        (2, "let pass: held the Magnum"),
        (3, "let pass: no Magnum"),
    ]


# ----- Humble smuggle --------------------------------------------------------------------------
def _seats_in(part: str) -> set[int]:
    return {int(word[1:]) for word in part.replace(",", " ").split() if word[:1] == "P" and word[1:].isdigit()}


def test_humble_smuggle_marks_each_reveal_with_the_cards_discarded_and_scored():
    reveals = 0
    for before, action, after, entry in steps("humble_smuggle_v0"):
        mark = entry["mark"]
        if after.last == before.last:
            assert mark is None
            continue
        reveals += 1
        assert before.phase == HUMBLE_PLAY and action == HA.PASS
        discarded, scored = mark.split("; scored ")
        # The engine's outcome: a scored card is on its owner's scored pile, a discarded one not.
        selected = list(before.sel)
        on_pile = {s for s in range(PLAYERS) if after.scored[s] and after.scored[s][-1] == selected[s]}
        assert _seats_in(scored) == on_pile and _seats_in(discarded) == set(range(PLAYERS)) - on_pile
        for s in range(PLAYERS):
            assert re.search(rf"\bP{s} {selected[s]}\b", mark)
    assert reveals > 20


# ----- Import / Export -------------------------------------------------------------------------
def test_import_export_marks_every_revealed_round_of_sealed_bids():
    game = make_game("import_export_v0", num_players=PLAYERS)
    marked = inside = 0
    for seed in (3, 11):  # games with a round completed by a forced bid
        actions = random_actions(game, seed)
        _, log = views.replay_states(game, seed, actions)
        state = game.new_initial_state(seed)
        for action, entry in zip(actions, log):
            shown, ask = state.last_bids, state.ask
            completes = ask is not None and ask.phase == P_BID and ask.context[0] + 1 == len(state.bidders)
            state.apply_action(action)
            revealed = state.last_bids is not shown  # the engine makes a new list at each reveal
            assert (entry["mark"] is not None) == revealed
            if not revealed:
                continue
            marked += 1
            inside += not completes  # completed by a forced bid, which the engine placed by itself
            bids_text, winner_text = entry["mark"].split("; ")[-1].rsplit(": ", 1)
            bids = {int(q[1:]): int(b) for q, b in (p.split() for p in bids_text.removeprefix("bids ").split(", "))}
            assert bids == {q: 2 * b for q, b in enumerate(state.last_bids) if b >= 0}
            winner = int(winner_text.split()[0][1:])
            assert bids[winner] == max(bids.values())
            assert winner_text.endswith("(tie)") == (list(bids.values()).count(bids[winner]) > 1)
    assert marked > 10 and inside > 0


# ----- no marks for a seat ---------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_seats_log_never_carries_a_mark(env_id):
    game = make_game(env_id, num_players=PLAYERS, **CONFIG.get(env_id, {}))
    state, log = views.replay_states(game, 3, random_actions(game, 3))
    labels = [f"P{p}" for p in range(PLAYERS)]
    marks = {e["mark"] for e in views.full_log(log)} - {None}
    assert marks  # the full view marks every game
    for seat in range(PLAYERS):
        entries = views.seat_log(log, seat)
        assert all(set(e) == {"n", "seat", "text"} for e in entries)
        assert [e["text"] for e in entries] == [e["seen"][seat] for e in log]
        shown = json.dumps(views.seat_view(state, seat, labels, log))
        assert not [m for m in marks if len(m) > 6 and m in shown]
