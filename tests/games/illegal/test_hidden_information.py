"""No hidden information in Illegal's own cases: the Bribe's payer, cards known to be in a hand
and passes not yet made, open hands under Tax Inspection, and scripted positions of every
decision type. (For sampled positions of random games, redrawing what a seat cannot see changes
nothing it observes, and who decides next tells nothing: ``tests/core/families/test_hidden_information_family.py``.)
"""

import random

import numpy as np

from smuggle_envs.games.illegal import IllegalGame
from smuggle_envs.games.illegal import actions as A
from smuggle_envs.games.illegal.actions import BUSINESS_KINDS
from smuggle_envs.games.illegal.vocab import LOSE, PAY, TAKE, TARGET, TRADE_PARTNER

from .test_invariants import check

RARE = (TRADE_PARTNER, TARGET, TAKE, PAY, LOSE)


def positions(game, games, every, seed=0):
    """Positions of random games: every ``every``-th one, and every one of a rare decision type."""
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(1000 + g)
        step = 0
        while not state.is_terminal():
            if step % every == 0 or state.phase in RARE:
                yield state, rng
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
        yield state, rng


def test_bribe_payer_is_always_redrawn_with_a_business_card():
    game = IllegalGame(num_players=4)
    rng = random.Random(3)
    found = 0
    for state, _ in positions(game, games=120, every=1, seed=5):
        if state.phase != PAY:
            continue
        found += 1
        for p in range(4):
            if p == state.active:
                continue
            for _ in range(20):
                other = state.resample(p, rng)
                assert any(other.hands[state.active][k] for k in BUSINESS_KINDS)
                assert other.legal_actions()
    assert found > 5


def test_known_cards_stay_and_pending_passes_are_redrawn(table):
    t = table(hands={0: ["death in the family", "the coup"], 1: ["weapons"], 2: ["magnum"], 3: []})
    t.play("death in the family").pass_cards("the coup")
    # P0 has passed The Coup to P1 (not moved yet: only P0 knows); P1 chooses the weapons.
    t.pass_cards("weapons")
    s = t.state
    rng = random.Random(0)
    moved = set()
    for _ in range(200):
        other = s.resample(2, rng)  # P2 knows neither choice
        moved.add((other.pending[0], other.pending[1]))
        assert other.hands[0][other.pending[0]] and other.hands[1][other.pending[1]]
        mine = s.resample(0, rng)  # P0 knows its own choice
        assert mine.pending[0] == A.COUP and mine.hands[0][A.COUP] == 1
    assert len(moved) > 5
    t.pass_cards("magnum").pass_first()
    s = t.state
    assert s.hands[1][A.COUP] == 1 and s.known[0][1][A.COUP] == 1
    for _ in range(100):
        assert s.resample(0, rng).hands[1][A.COUP] == 1  # P0 knows where The Coup went
    assert any(s.resample(3, rng).hands[1][A.COUP] == 0 for _ in range(100))


def test_tax_inspection_hand_is_never_redrawn(table):
    t = table(hands={0: ["tax inspection"], 2: ["the coup", "magnum"]}, markets=[0, 2])
    t.play("tax inspection", on=2)
    rng = random.Random(1)
    closed_changed = 0
    for _ in range(50):
        other = t.state.resample(1, rng)
        assert other.hands[2].tolist() == t.state.hands[2].tolist()  # open: stays
        closed_changed += other.hands[3].tolist() != t.state.hands[3].tolist()
    assert closed_changed > 40  # closed: redrawn


def _scripted_positions(table):
    """One arranged position per decision type, including the rare ones."""
    t = table(
        hands={0: ["hostile takeover", "bribe", "weapons"], 1: ["magnum"], 2: ["the coup"], 3: []},
        tables={2: ["weapons", "gambling"], 3: ["pimps"]},
        hassles={1: "tax inspection", 3: "raid"},
        markets=[0],
    )
    yield t.state.clone()  # PLAY
    t.play("hostile takeover", on=2)
    yield t.state.clone()  # TAKE
    t.act(A.take("weapons"))
    yield t.state.clone()  # REACT (takeover)
    t.react_until(1).play("magnum")
    yield t.state.clone()  # TARGET (the Magnum's)
    t.target(3)
    yield t.state.clone()  # EXTRA
    t2 = table(
        hands={0: ["bribe", "weapons"], 1: [], 2: [], 3: []},
        tables={2: ["gambling"], 3: ["pimps"]},
        hassles={2: "raid", 3: "tax inspection"},
        trading=True,
    )
    yield t2.state.clone()  # TRADE_GIVE
    t2.act(A.give("weapons"))
    yield t2.state.clone()  # TRADE_WANT
    t2.act(A.want("the coup"))
    yield t2.state.clone()  # TRADE_PARTNER
    t2.target(1)
    yield t2.state.clone()  # TRADE_ANSWER
    t2.act(A.DECLINE).play("bribe")
    yield t2.state.clone()  # TARGET (the Bribe's)
    t2.target(2)
    yield t2.state.clone()  # PAY
    t3 = table(hands={0: ["death in the family"], 1: [], 2: [], 3: []}, tables={0: ["gambling", "politics"]})
    t3.play("death in the family")
    yield t3.state.clone()  # LOSE
    t3.lose("politics")
    yield t3.state.clone()  # PASS
    t3.pass_first()
    yield t3.state.clone()


def test_resampling_in_scripted_positions_of_every_decision_type(table):
    rng = random.Random(11)
    phases = set()
    for state in _scripted_positions(table):
        phases.add(state.phase)
        for p in range(state.n):
            for _ in range(10):
                other = state.resample(p, rng)
                np.testing.assert_array_equal(other.observation(p), state.observation(p))
                assert other.current_player() == state.current_player()
                if p == state.current_player():
                    assert list(other.legal_actions()) == list(state.legal_actions())
                check(other, state.game)
    assert phases == set(range(12))
