"""``questions(state, seat)`` in the three games without calls (Illegal, Humble smuggle, Import /
Export): the question's truth is the claims' label, its uniform posterior is a probability (0 or
1 where the seat can deduce the answer), and agrees with the exact value where the hidden cards
can be enumerated or a symmetry gives it; and a tiny belief-probe study runs for every task."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from smuggle_envs.core.game import State
from smuggle_envs.games.humble_smuggle import actions as HA
from smuggle_envs.games.illegal import actions as IA
from smuggle_envs.games.import_export import actions as XA
from smuggle_envs.registry import make_game
from training.bluffing import Facing, claims, facing, probes, questions
from training.bluffing.beliefs import uniform_posterior
from training.bluffing.games.import_export import outbids

NO_CALLS = ("illegal_v0", "humble_smuggle_v0", "import_export_v0")


def _play(env_id: str, seed: int, players: int = 4) -> Iterator[tuple[State[Any], Facing, int]]:
    """Random play of one game: every position where the seat to act faces a question, with the
    question and the action taken there (the state is the live one: read it before moving on)."""
    state = make_game(env_id, num_players=players).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_player()
        action = rng.choice(state.legal_actions())
        found = questions(state, seat)
        if found is not None:
            yield state, found, action
        state.apply_action(action)


def _labels(state: State[Any]) -> dict[int, bool]:
    """The claims module's truth of each labelled decision of the finished game, by step."""
    return {c.step: c.truth for c in claims(state.to_replay())}


# ----- facing stays the calls only ------------------------------------------------------------------
@pytest.mark.parametrize("env_id", NO_CALLS)
def test_questions_are_asked_and_facing_still_finds_no_call(env_id):
    asked = 0
    for state, found, _ in _play(env_id, 0):
        asked += 1
        assert found.seat == state.current_player() and found.claimant != found.seat
        assert facing(state, found.seat) is None  # no call: the benchmark's counts stay as they were
    assert asked > 0


# ----- the truth is the claims' label ---------------------------------------------------------------
def test_illegal_question_truth_is_the_let_pass_label():
    seen: list[tuple[int | None, bool]] = []
    state = None
    for state, found, _ in _play("illegal_v0", 0):
        seen.append((found.claim_step, found.truth(state)))
    assert seen and state is not None
    labels = _labels(state)
    assert all(step is not None and labels[step] == truth for step, truth in seen)


def test_humble_question_truth_is_the_selection_label_at_the_last_pass():
    checked = 0
    for seed in range(3):
        seen: list[tuple[int | None, bool]] = []
        state = None
        for state, found, action in _play("humble_smuggle_v0", seed, players=3):
            if action == HA.PASS and state.passes == state.n - 1:  # this pass reveals
                seen.append((found.claim_step, found.truth(state)))
        assert state is not None
        labels = _labels(state)
        for step, truth in seen:
            assert labels[step] == truth
            checked += 1
    assert checked > 0


def test_import_export_question_truth_is_the_sealed_bid_label_at_the_last_bid():
    checked = 0
    for seed in range(4):
        seen: list[tuple[int | None, bool]] = []
        state = None
        for state, found, action in _play("import_export_v0", seed):
            i = state.ask[3][0]
            if i + 1 == len(state.bidders) and found.claim_step is not None:  # the last bid: it reveals
                seen.append((found.claim_step, outbids(found.claimant, action - XA.BID)(state)))
        assert state is not None
        labels = _labels(state)
        for step, truth in seen:
            assert labels[step] == truth
            checked += 1
    assert checked > 0


# ----- posteriors: a probability, exact where deducible, agreeing with the exact value ----------------
def test_illegal_posterior_is_exact_when_the_seat_holds_the_magnum_and_agrees_with_symmetry():
    deduced = symmetric = 0
    for state, found, _ in _play("illegal_v0", 0):
        seat, q = found.seat, found.claimant
        estimate = uniform_posterior(state, seat, found.truth, samples=400, rng=1)
        assert 0.0 <= estimate.p <= 1.0
        if state.hands[seat][IA.MAGNUM]:  # the one Magnum is its own: nobody else holds it
            assert estimate.p == 1.0
            deduced += 1
        elif state.open_mask == 0 and not any(state.known[seat][o][IA.MAGNUM] for o in range(state.n)):
            # The Magnum is a uniform card among the slots the seat cannot account for.
            slots = [state.hsize[o] - sum(state.known[seat][o]) for o in range(state.n) if o != seat]
            unseen = len(state.deck) + sum(slots)
            exact = 1.0 - (state.hsize[q] - sum(state.known[seat][q])) / unseen
            assert estimate.agrees(exact), (estimate, exact)
            symmetric += 1
    assert deduced and symmetric


def _humble_exact(state: Any, found: Facing) -> float | None:
    """Two seats, nothing attached by the other: the answer depends only on which card the other
    seat laid face down, uniform over its hand, whose unknown cards are uniform over the pool."""
    q = found.claimant
    if state.n != 2 or any(a == q for att in state.attached for a, _ in att):
        return None
    held = [*state.hands[q], state.sel[q]]
    rest = list(held)
    for c in state.known[q]:
        rest.remove(c)
    pool = list(state.deck) + rest

    def fits(card: int) -> float:
        world = state.clone()
        world.sel[q] = card
        return float(found.truth(world))

    known = sum(fits(c) for c in state.known[q]) / len(held)
    return known + len(rest) / len(held) * (sum(fits(c) for c in pool) / len(pool) if pool else 0.0)


def _import_export_exact(state: Any, found: Facing) -> float | None:
    """The seat bids second: the answer depends only on the first bid, uniform over what the
    first bidder could bid (``resample``'s draw)."""
    if state.ask[3][0] != 1:
        return None
    q = found.claimant
    top = min(state.credits[q] // 2, XA.MAX_BID_STEPS)
    hits = 0
    for k in range(top + 1):
        world = state.clone()
        world.bids[q] = k
        hits += found.truth(world)
    return hits / (top + 1)


@pytest.mark.parametrize(
    ("env_id", "players", "exact_of"),
    [("humble_smuggle_v0", 2, _humble_exact), ("import_export_v0", 4, _import_export_exact)],
)
def test_posterior_agrees_with_enumeration(env_id, players, exact_of):
    compared = deduced = 0
    for seed in range(2):
        for state, found, _ in _play(env_id, seed, players):
            exact = exact_of(state, found)
            if exact is None or compared >= 12:
                continue
            estimate = uniform_posterior(state, found.seat, found.truth, samples=300, rng=seed)
            assert 0.0 <= estimate.p <= 1.0
            if exact in (0.0, 1.0):  # the seat can deduce the answer: no world says otherwise
                assert estimate.p == exact
                deduced += 1
            else:
                assert estimate.agrees(exact), (estimate, exact)
            compared += 1
    assert compared > 0


# ----- probe tasks ------------------------------------------------------------------------------------
def test_every_game_has_a_question_task():
    games = {task.env_id for name, task in probes.TASKS.items() if name.endswith(":question")}
    assert games == set(probes.GAMES)


@pytest.mark.parametrize("task", [f"{env}:question" for env in NO_CALLS] + ["ciq_v0:facing"])
def test_a_tiny_study_runs(task, monkeypatch):
    # Each Newton step solves in as many unknowns as features (hundreds to thousands): the test
    # probes one hidden layer with a few steps, which is what running the task needs, to stay fast.
    features, fit = probes._features, probes.fit_probe
    monkeypatch.setattr(probes, "_features", lambda net, obs: {"hidden0": features(net, obs)["hidden0"]})
    monkeypatch.setattr(probes, "fit_probe", lambda x, y, l2=1.0: fit(x, y, l2=l2, iterations=2))
    config = probes.StudyConfig(
        task=task, agents="random", games=3, samples=10, eval_positions=3, min_ess=1.0, max_samples=20
    )
    report = probes.probe_study(config)
    assert report["positions"]["evaluated"] > 0
    assert np.isfinite(report["posteriors"]["uniform"]["brier"])
    assert "hidden0" in report["probes"]
