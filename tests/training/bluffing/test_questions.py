"""``questions(state, seat)`` in the three games without calls (Illegal, Humble smuggle, Import /
Export): the question's truth is the claims' label, its uniform posterior is a probability (0 or
1 where the seat can deduce the answer), and agrees with the exact value where the hidden cards
can be enumerated or a symmetry gives it; and a tiny belief-probe study runs for every task."""

from __future__ import annotations

import random
from collections.abc import Iterator
from math import comb
from typing import Any

import numpy as np
import pytest

from agents import make_agent
from smuggle_envs.core.game import State
from smuggle_envs.games.humble_smuggle import actions as HA
from smuggle_envs.games.illegal import actions as IA
from smuggle_envs.games.illegal.vocab import PLAY, TRADE_ANSWER
from smuggle_envs.games.import_export import actions as XA
from smuggle_envs.registry import ENV_IDS, make_game
from training.bluffing import Facing, claims, facing, probes, questions
from training.bluffing.beliefs import uniform_posterior
from training.bluffing.games import plugin
from training.bluffing.games.illegal import lacks
from training.bluffing.games.import_export import outbids

NO_CALLS = ("illegal_v0", "humble_smuggle_v0", "import_export_v0")


def _play(env_id: str, seed: int, players: int = 4, **config: Any) -> Iterator[tuple[State[Any], Facing, int]]:
    """Random play of one game (``config``: the game's options): every position where the seat to
    act faces a question, with the question and the action taken there (the state is the live
    one: read it before moving on)."""
    state = make_game(env_id, num_players=players, **config).new_initial_state(seed)
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
def test_illegal_question_truth_is_the_let_pass_and_trade_label():
    # A let-pass question faces the let-pass just made, a trade question the decline just made:
    # on the true position each must read what the claims module labelled that decision.
    checked = {"react": 0, "play": 0}
    for seed in range(3):
        seen: list[tuple[str, int, bool]] = []
        state = None
        for state, found, _ in _play("illegal_v0", seed, trading=True):
            if found.claim_step is not None and found.decision in checked:
                seen.append((found.decision, found.claim_step, found.truth(state)))
        assert state is not None
        labels = _labels(state)
        for decision, step, truth in seen:
            assert labels[step] == truth
            checked[decision] += 1
    assert all(checked.values()), checked


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
            i = state.ask.context[0]
            if i + 1 == len(state.bidders) and found.claim_step is not None:  # the last bid: it reveals
                seen.append((found.claim_step, outbids(found.claimant, action - XA.BID)(state)))
        assert state is not None
        labels = _labels(state)
        for step, truth in seen:
            assert labels[step] == truth
            checked += 1
    assert checked > 0


# ----- posteriors: a probability, exact where deducible, agreeing with the exact value ----------------
def _magnum_slots(state: Any, seat: int) -> tuple[dict[int, int], int] | None:
    """Where the seat cannot place the Magnum, it is a uniform card among the slots it cannot
    account for: each other hand's unknown slots, and the unseen total (the stock included).
    None where that symmetry does not hold (an open hand, a Magnum known to be somewhere)."""
    if state.open_mask or any(state.known[seat][o][IA.MAGNUM] for o in range(state.n)):
        return None
    slots = {o: state.hsize[o] - sum(state.known[seat][o]) for o in range(state.n) if o != seat}
    return slots, len(state.deck) + sum(slots.values())


def test_illegal_magnum_posteriors_are_exact_when_the_seat_holds_it_and_agree_with_symmetry():
    deduced = symmetric = 0
    for state, found, _ in _play("illegal_v0", 0):
        if found.decision != "react":
            continue
        seat = found.seat
        asked_next = tuple(state.asked[1:]) if found.claimant is None else None  # "one of ... holds it"
        estimate = uniform_posterior(state, seat, found.truth, samples=400, rng=1)
        assert 0.0 <= estimate.p <= 1.0
        if state.hands[seat][IA.MAGNUM]:  # the one Magnum is its own: nobody else holds it
            assert estimate.p == (0.0 if asked_next else 1.0)
            deduced += 1
        elif (found_slots := _magnum_slots(state, seat)) is not None:
            slots, unseen = found_slots
            if asked_next:
                exact = sum(slots[q] for q in asked_next) / unseen
            else:
                exact = 1.0 - slots[found.claimant] / unseen
            assert estimate.agrees(exact), (found.claim, estimate, exact)
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
    if state.ask.context[0] != 1:
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


# ----- Illegal: the declined trade, the hassle, the pass; no leak; how often -------------------------
def _positions(seed: int, agent: str = "random", **config: Any) -> Iterator[tuple[Any, int, int]]:
    """One 4-player game of Illegal (``config``: its options) played by ``agent`` in every seat:
    each live position with the seat to act and the action it takes there."""
    game = make_game("illegal_v0", num_players=4, **config)
    state, rng = game.new_initial_state(seed), random.Random(seed)
    bots = [make_agent(agent, game, seed=seed * 4 + s) for s in range(4)] if agent != "random" else None
    while not state.is_terminal():
        seat = state.current_player()
        if bots is None:
            action = rng.choice(state.legal_actions())
        else:
            action = int(bots[seat].act(state.observation(seat), state.legal_action_mask()))
        yield state, seat, action
        state.apply_action(action)


def _all_declines(seeds: range, **config: Any) -> Iterator[tuple[Any, int, tuple[int, ...]]]:
    """The position right after each declined trade of the random games of ``seeds`` (the live
    state: read it before the next), with the partner and the cards asked for as the engine held
    them before the decline cleared them."""
    for seed in seeds:
        state: Any = make_game("illegal_v0", num_players=4, **config).new_initial_state(seed)  # an IllegalState
        rng = random.Random(seed)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            declined = state.phase == TRADE_ANSWER and action == IA.DECLINE
            partner, want = state.decider, tuple(state.want)
            state.apply_action(action)
            if declined:
                yield state, partner, want


def _asked(want: tuple[int, ...]) -> str:
    """The request as the claim text names it (a kind's name, "x2" for two copies)."""
    return ", ".join(f"{IA.KIND_NAMES[k]} x{n}" if n > 1 else IA.KIND_NAMES[k] for k, n in enumerate(want) if n)


@pytest.mark.parametrize("config", [{"trading": True}, {"trading": True, "trade_max": 2, "trade_unequal": True}])
def test_illegal_trade_question_is_the_proposers_next_decision(config):
    asked = several = 0
    for state, partner, want in _all_declines(range(2), **config):
        proposer = state.active
        assert state.current_player() == proposer and state.phase == PLAY  # the turn's play comes next
        found = questions(state, proposer)
        assert found is not None
        assert found.claim == f"P{partner} lacked the cards asked for ({_asked(want)})"
        assert (found.decision, found.seat, found.claimant) == ("play", proposer, partner)
        assert state.history[found.claim_step] == IA.DECLINE and found.claim_step == len(state.history) - 1
        assert found.truth(state) == any(state.hands[partner][k] < n for k, n in enumerate(want))
        asked += 1
        several += sum(want) > 1
    assert asked > 0
    assert several > 0 or config.get("trade_max", 1) == 1  # the unequal variant asks for two cards too
    # Nowhere else: a decline is faced at the proposer's next decision only.
    for state, found, _ in _play("illegal_v0", 0, **config):
        assert ("lacked" in found.claim) == (state.history[-1] == IA.DECLINE)


def test_illegal_trade_question_truth_reads_the_worlds_hand():
    state, partner, want = next(_all_declines(range(1), trading=True))
    found = questions(state, state.active)
    assert found is not None
    (k,) = [k for k, n in enumerate(want) if n]  # one-for-one: one card asked
    world = state.clone()
    world.hands[partner][k] = 0
    assert found.truth(world) is True  # the world's hand, whatever the true one holds
    world.hands[partner][k] = 1
    assert found.truth(world) is False
    two = tuple(2 if i == k else 0 for i in range(IA.NUM_KINDS))
    assert lacks(partner, two)(world) is True  # one copy of two asked for: it lacks them
    world.hands[partner][k] = 2
    assert lacks(partner, two)(world) is False


def _lacks_exact(state: Any, seat: int, q: int, k: int, need: int) -> float:
    """P(``q``'s hand holds fewer than ``need`` copies of ``k``) over the worlds ``resample``
    draws for ``seat``: the cards it knows are there, the rest a uniform draw (hypergeometric)
    from the cards it cannot account for (the stock and the other closed hands' unknown cards)."""
    if state.is_open(q):
        return float(state.hands[q][k] < need)
    hidden = [o for o in range(state.n) if o != seat and not state.is_open(o)]
    pool = len(state.deck) + sum(state.hsize[o] - sum(state.known[seat][o]) for o in hidden)
    copies = list(state.deck).count(k) + sum(state.hands[o][k] - state.known[seat][o][k] for o in hidden)
    slots = state.hsize[q] - sum(state.known[seat][q])
    short = range(max(0, need - state.known[seat][q][k]))  # draws of k that still leave it short
    return sum(comb(copies, j) * comb(pool - copies, slots - j) for j in short) / comb(pool, slots)


def test_illegal_trade_question_uniform_posterior_matches_the_hypergeometric():
    compared = uncertain = 0
    for state, partner, want in _all_declines(range(3), trading=True):
        if compared >= 12:
            break
        found = questions(state, state.active)
        assert found is not None
        (k,) = [k for k, n in enumerate(want) if n]
        exact = _lacks_exact(state, found.seat, partner, k, want[k])
        estimate = uniform_posterior(state, found.seat, found.truth, samples=300, rng=compared)
        if exact in (0.0, 1.0):  # the proposer knows the card is there (or cannot be)
            assert estimate.p == exact
        else:
            assert estimate.agrees(exact), (found.claim, estimate, exact)
            uncertain += 1
        compared += 1
    assert compared > 0 and uncertain > 0


def _paranoia_share(state: Any, seat: int, r: int) -> float:
    """P(``r``'s face-down card is a Paranoia card) over the worlds ``resample`` draws for
    ``seat``: the card is uniform over ``r``'s hand, so the expected Paranoia share of that hand
    (its known cards, and each unknown slot a uniform draw from the unaccounted cards)."""
    hand = state.hsize[r]
    if state.is_open(r):
        return sum(state.hands[r][k] for k in IA.PARANOIA_KINDS) / hand
    hidden = [o for o in range(state.n) if o != seat and not state.is_open(o)]
    pool = len(state.deck) + sum(state.hsize[o] - sum(state.known[seat][o]) for o in hidden)
    bad = sum(list(state.deck).count(k) for k in IA.PARANOIA_KINDS)
    bad += sum(state.hands[o][k] - state.known[seat][o][k] for o in hidden for k in IA.PARANOIA_KINDS)
    sure = sum(state.known[seat][r][k] for k in IA.PARANOIA_KINDS)
    slots = hand - sum(state.known[seat][r])
    return (sure + slots * bad / pool) / hand


def test_illegal_pass_question_faces_the_neighbours_face_down_card():
    checked = compared = 0
    for seed in range(3):
        for state, found, _ in _play("illegal_v0", seed):
            if found.decision != "pass":
                continue
            seat, r = found.seat, found.claimant
            assert r == (seat - 1) % state.n and found.claim == f"P{r}'s face-down card to P{seat} is a Paranoia card"
            assert state.history[found.claim_step] == IA.PASS_CARD + state.pending[r]  # r's own choice
            assert found.truth(state) == (state.pending[r] in IA.PARANOIA_KINDS)
            if compared < 10:
                estimate = uniform_posterior(state, seat, found.truth, samples=300, rng=checked)
                assert estimate.agrees(_paranoia_share(state, seat, r)), (estimate, found.claim)
                compared += 1
            checked += 1
    assert checked > 0


# The rulebook's solution to each hassle that leaves the hand closed (Tax Inspection opens it).
SOLUTION = {IA.RAID: IA.INFORMANT, IA.PROTECTION: IA.MISTER_ZERO, IA.VACATION: IA.ALIBI}


def test_illegal_hassle_question_reads_the_hassled_hand():
    seen = 0
    for state, found, _ in _play("illegal_v0", 0):
        if found.decision != "play":
            continue
        q = int(found.claim.split()[0][1:])
        hassle = IA.FIRST_HASSLE + state.hassle[q]
        assert q != found.seat and state.hassle[q] >= 0 and not state.is_open(q)
        assert found.claim == f"P{q} holds a card that lifts its {IA.KIND_NAMES[hassle]}" and found.claimant is None
        world = state.clone()
        for cards, lifts in (
            ([IA.MARKET, IA.FISH], False),
            ([IA.BRIBE, IA.MARKET], False),  # a Bribe needs a business card to pay with
            ([IA.BRIBE, IA.FISH], True),
            ([SOLUTION[hassle]], True),
            ([IA.RELATIVES], True),
            ([IA.MAGNUM], True),
        ):
            world.hands[q][:] = bytes(IA.NUM_KINDS)
            for k in cards:
                world.hands[q][k] += 1
            assert found.truth(world) is lifts, cards
        seen += 1
    assert seen > 0


def _key(found: Facing | None) -> tuple[Any, ...] | None:
    """What the seat is told of a question: everything but the truth."""
    return None if found is None else (found.seat, found.decision, found.claim, found.claimant, found.claim_step)


@pytest.mark.parametrize(("agent", "config"), [("random", {"trading": True}), ("rule", {})])
def test_illegal_questions_are_the_same_in_every_world_the_seat_cannot_tell_apart(agent, config):
    rng = random.Random(7)
    asked = varied = 0
    for state, seat, _ in _positions(1, agent, **config):
        found = questions(state, seat)
        worlds = [state.resample(seat, rng) for _ in range(3)]
        assert all(_key(questions(world, seat)) == _key(found) for world in worlds)
        if found is not None:
            asked += 1
            varied += len({found.truth(world) for world in worlds}) > 1  # read on each world
    assert asked > 0 and varied > 0


def test_illegal_questions_are_common_in_a_four_player_game():
    # Four rule bots, the default game. Before, only a seat asked after a let-pass had a question
    # (the let-pass ones below): about 16 a game here, under a third of what is asked now.
    total = let_pass = 0
    decisions: set[str] = set()
    for seed in range(3):
        for state, seat, _ in _positions(seed, "rule"):
            found = questions(state, seat)
            if found is not None:
                total += 1
                let_pass += found.decision == "react" and found.claimant is not None
                decisions.add(found.decision)
    assert total >= 150 and total > 2.5 * let_pass, (total, let_pass)
    assert decisions == {"react", "pass", "play"}


# ----- probe tasks ------------------------------------------------------------------------------------
def test_every_game_has_a_question_task():
    games = {task.env_id for name, task in probes.TASKS.items() if name.endswith(":question")}
    assert games == set(probes.GAMES) == set(ENV_IDS)  # asked of the kit's plugins (issue #35)
    calls = {task.env_id for name, task in probes.TASKS.items() if name.endswith(":facing")}
    assert calls == {env for env in ENV_IDS if plugin(env).has_calls}
    # the package's games with calls; a registered sixth game (tests/fixtures) may add its own
    assert calls & {"smuggle_v0", "ciq_v0", "illegal_v0", "humble_smuggle_v0", "import_export_v0"} == {
        "smuggle_v0",
        "ciq_v0",
    }


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
