"""``facing(state, seat)``: the claim a seat must call or believe at its decision, and a truth that
evaluates it in any world (the real one, or one resampled for the seat)."""

from __future__ import annotations

import random

import pytest

from smuggle_envs.games.ciq.vocab import FIRE_DECISION, SHIPPING
from smuggle_envs.games.smuggle.vocab import OFFICER, RECEIVE
from training.bluffing import Facing, claims, facing

from ._support import positions, replays


def test_smuggle_the_officer_and_the_next_player_face_the_declaration(stored):
    rng, met = random.Random(0), 0
    for replay in replays(stored("smuggle_v0"))[:2]:
        states, rows = positions(replay), {c.step: c for c in claims(replay)}
        for step, state in enumerate(states[:-1]):
            judge = state.officer if state.phase == OFFICER else state.receiver if state.phase == RECEIVE else None
            if judge is None:
                assert all(facing(state, s) is None for s in range(state.game.num_players))
                continue
            met += 1
            found = facing(state, judge)
            call = rows[step]
            assert isinstance(found, Facing) and found.decision == ("search" if state.phase == OFFICER else "inform")
            assert (found.claim_step, found.claimant, found.claim) == (call.called_step, call.claimant, call.claim)
            assert found.truth(state) == call.truth
            assert facing(state, state.holder) is None  # the holder knows his hand: he faces nothing
            world = state.resample(judge, rng)  # the hand redrawn from what the judge saw
            assert isinstance(found.truth(world), bool)
    assert met


def test_ciq_the_target_faces_the_smuggle_and_the_shipper_the_question(stored):
    rng, shipping = random.Random(0), 0
    for replay in replays(stored("ciq_v0")):
        states, rows = positions(replay), {c.step: c for c in claims(replay)}
        for step, state in enumerate(states[:-1]):
            if state.phase == FIRE_DECISION:
                found = facing(state, state.target)
                fire = rows[step]
                assert (found.decision, found.claim_step, found.claimant, found.claim) == (
                    "fire",
                    fire.called_step,
                    fire.claimant,
                    fire.claim,
                )
                # the target knows its own hand: every world it can be in has the same truth
                assert found.truth(state) == fire.truth == found.truth(state.resample(state.target, rng))
                assert facing(state, state.turn) is None
            elif state.phase == SHIPPING and (found := facing(state, state.turn)) is not None:
                shipping += 1
                assert found.decision == "smuggle" and found.claimant is None
                assert isinstance(found.truth(state.resample(state.turn, rng)), bool)
    assert shipping


@pytest.mark.parametrize("env_id", ["illegal_v0", "humble_smuggle_v0", "import_export_v0"])
def test_games_without_calls_face_nothing(env_id, stored):
    replay = replays(stored(env_id))[0]
    for state in positions(replay)[:-1:5]:
        assert all(facing(state, s) is None for s in range(state.game.num_players))
