"""The browser app's marks of the truth (``training/web/games``) and the bluffing kit's labels
(``training/bluffing/games``) read the same predicates (``training/claims``): for seeded random
games of every game, each labelled decision's ``truth`` (and its catch, where a call catches) is
what the replay viewer's mark says of the same step, and every step the viewer marks as a claim
is labelled."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from smuggle_envs import ENV_IDS, make_game
from smuggle_envs.core import Replay
from smuggle_envs.games.humble_smuggle import actions as HA
from training.bluffing import Claim
from training.bluffing.games import label_replay
from training.web import views

PLAYERS = 4
SEEDS = range(3)
CONFIG: dict[str, dict[str, Any]] = {"illegal_v0": {"trading": True}}  # its declined trades too


def games(env_id: str) -> list[tuple[list[Claim], list[str | None]]]:
    """(the labels, the full view's mark of each step) of seeded random games of ``env_id``."""
    config = {"num_players": PLAYERS, **CONFIG.get(env_id, {})}
    game, played = make_game(env_id, **config), []
    for seed in SEEDS:
        state, rng, actions = game.new_initial_state(seed), random.Random(seed), []
        while not state.is_terminal():
            actions.append(rng.choice(state.legal_actions()))
            state.apply_action(actions[-1])
        _, log = views.replay_states(game, seed, actions)
        labels = [claim for claim, _ in label_replay(Replay(env_id, config, seed, actions))]
        played.append((labels, [entry["mark"] for entry in log]))
    return played


def next_mark(marks: list[str | None], step: int) -> str:
    """The first mark at or after ``step`` (a reveal settles the commitments made before it)."""
    found = next((m for m in marks[step:] if m is not None), None)
    assert found is not None, f"nothing marked after step {step}"
    return found


def seats(text: str) -> set[int]:
    return {int(s) for s in re.findall(r"\bP(\d+)\b", text)}


# ----- what each game's mark says of a label ----------------------------------------------------
def smuggle(c: Claim, marks: list[str | None]) -> None:
    if c.role == "claim":
        assert marks[c.step] == ("true" if c.truth else "false")
        return
    assert marks[c.called_step] == ("true" if c.truth else "false")  # the declaration called
    if c.challenged:
        assert (marks[c.step] == "caught") == c.caught
    else:
        assert marks[c.step] is None


def ciq(c: Claim, marks: list[str | None]) -> None:
    if c.decision == "smuggle":
        assert marks[c.step] == (
            "smuggled: target has no face card" if c.truth else "smuggled: target holds a face card"
        )
    elif c.caught:
        assert marks[c.step] == "caught"
    else:
        assert marks[c.step] == ("not caught: no face card" if c.truth else "not caught: held a face card")


def illegal(c: Claim, marks: list[str | None]) -> None:
    if c.decision == "let_pass":
        assert marks[c.step] == ("let pass: no Magnum" if c.truth else "let pass: held the Magnum")
    else:
        assert marks[c.step] == ("declined: lacked the cards" if c.truth else "declined: held the cards")


def humble_smuggle(c: Claim, marks: list[str | None]) -> None:
    on = c.seat  # a selection is the seat's own card; a Play card names the seat it goes on
    if c.decision == "play":
        on = (c.seat + (c.action - HA.PLAY) % HA.MAX_PLAYERS) % PLAYERS
    discarded, scored = next_mark(marks, c.step).split("; scored ")
    assert (on in seats(scored)) == c.truth and (on in seats(discarded)) != c.truth


def import_export(c: Claim, marks: list[str | None]) -> None:
    bids, winner = next_mark(marks, c.step).split("; ")[0].rsplit(": ", 1)  # the round of this bid
    assert c.seat in seats(bids)
    assert (seats(winner) == {c.seat}) == c.truth


AGREE: dict[str, Callable[[Claim, list[str | None]], None]] = {
    "smuggle_v0": smuggle,
    "ciq_v0": ciq,
    "illegal_v0": illegal,
    "humble_smuggle_v0": humble_smuggle,
    "import_export_v0": import_export,
}

# The marks of claims made at the step itself (a reveal or a round of bids marks a later step).
MARKED_AT_CLAIM = {
    "smuggle_v0": ("true", "false"),
    "ciq_v0": ("smuggled:",),
    "illegal_v0": ("let pass:", "declined:"),
}


def test_every_game_is_checked():
    assert set(AGREE) == set(ENV_IDS)


@pytest.mark.parametrize("env_id", sorted(AGREE))
def test_the_mark_and_the_label_agree_on_the_truth(env_id):
    truths = set()
    for labels, marks in games(env_id):
        assert labels
        for c in labels:
            AGREE[env_id](c, marks)
            truths.add(c.truth)
        claimed = {c.step for c in labels if c.role == "claim"}
        words = MARKED_AT_CLAIM.get(env_id)
        if words:  # and no claim the viewer marks goes unlabelled
            assert claimed == {i for i, m in enumerate(marks) if m is not None and m.startswith(words)}
    assert truths == {True, False}  # the games hold both
