"""Every game's claims checked against the positions of the replays they come from: the truth read
from the hands at the decision, the challenge and the catch from the engine's own verdicts, the
payoffs from the scores."""

from __future__ import annotations

from collections import defaultdict

from smuggle_envs.core import Replay
from smuggle_envs.games.ciq import actions as CA
from smuggle_envs.games.ciq.vocab import FIRE_DECISION
from smuggle_envs.games.humble_smuggle import actions as HA
from smuggle_envs.games.humble_smuggle.vocab import PLAY, SELECT
from smuggle_envs.games.illegal import actions as IA
from smuggle_envs.games.illegal.vocab import REACT, TRADE_ANSWER
from smuggle_envs.games.import_export import actions as EA
from smuggle_envs.games.import_export.vocab import P_BID
from smuggle_envs.games.smuggle import actions as SA
from smuggle_envs.games.smuggle.vocab import DECLARE, LYING, OFFICER, RECEIVE
from training.bluffing import claims

from ._support import positions, replays


# ----- Smuggle --------------------------------------------------------------------------------------
def _smuggle_truth(state, action: int) -> bool:
    """The complete truth of a declaration, read from the hand as the rulebook says (R2.2)."""
    hand = state.hand.tolist()
    if action == SA.CLAIM_BAG:
        return hand[SA.BAG] > 0
    return all(hand[k] == SA.DECLARATIONS[action][k] for k in range(SA.NUM_ITEMS))


def test_smuggle_declarations_and_calls_against_the_replays(stored):
    lies = searches = 0
    for replay in replays(stored("smuggle_v0")):
        states, rows = positions(replay), claims(replay)
        by_step = {c.step: c for c in rows}
        decided = [i for i, s in enumerate(states[:-1]) if s.phase in (DECLARE, OFFICER, RECEIVE)]
        assert sorted(by_step) == decided  # every declaration and every call on one, nothing else
        for c in rows:
            state, after = states[c.step], states[c.step + 1]
            assert c.seat == state.current_player() and c.action == replay.actions[c.step]
            if c.role == "claim":
                assert c.decision == ("bag_claim" if c.action == SA.CLAIM_BAG else "declaration")
                assert c.truth == _smuggle_truth(state, c.action) and c.claim == state.action_to_string(c.action, 0)
                lies += not c.truth
            else:
                declared = by_step[c.called_step]
                assert (c.truth, c.claim, c.claimant) == (declared.truth, declared.claim, declared.seat)
                assert c.challenged == (c.action in (SA.SEARCH, SA.INFORM))
                if c.challenged:  # the engine's verdict: caught exactly when the holder lied
                    searches += 1
                    assert c.caught == (after.last_reveal.outcome == LYING) == (not c.truth)
                    assert declared.challenged and declared.caught == c.caught
            assert c.caught == (c.challenged and not c.truth)
    assert lies and searches  # the games hold both


def test_smuggle_payoffs_sum_as_the_money_moved(stored):
    for replay in replays(stored("smuggle_v0")):
        states, rows = positions(replay), claims(replay)
        first, last = states[0].scores(), states[-1].scores()
        for seat in range(len(first)):  # every payment falls in one window of each seat it involves
            assert sum(c.payoff for c in rows if c.seat == seat) == last[seat] - first[seat]
        by_hand = defaultdict(float)  # money only changes hands: each live hand sums to zero
        for c in rows:
            by_hand[c.step if c.role == "claim" else c.called_step] += c.payoff
        assert set(by_hand.values()) == {0.0}


def test_a_record_cut_short_leaves_what_it_never_settled_unknown(stored):
    replay = replays(stored("smuggle_v0"))[0]
    full = claims(replay)
    declaration = next(c for c in full if c.role == "claim")
    cut = claims(Replay(replay.env_id, replay.config, replay.seed, replay.actions[: declaration.step + 1]))
    assert cut[-1].step == declaration.step and cut[-1].truth == declaration.truth
    assert (cut[-1].challenged, cut[-1].caught, cut[-1].payoff) == (None, None, None)


# ----- CIQ ------------------------------------------------------------------------------------------
def test_ciq_smuggles_and_fire_decisions_against_the_replays(stored):
    fires = keeps = 0
    for replay in replays(stored("ciq_v0")):
        states, rows = positions(replay), claims(replay)
        fire_steps = [i for i, s in enumerate(states[:-1]) if s.phase == FIRE_DECISION]
        assert [c.step for c in rows if c.decision == "fire"] == fire_steps
        assert [c.step + 1 for c in rows if c.decision == "smuggle"] == fire_steps  # each ends at one
        by_step = {c.step: c for c in rows}
        for c in (c for c in rows if c.decision == "smuggle"):
            state, at_fire = states[c.step], states[c.step + 1]
            card, target = c.action - CA.SHIP, state.target
            assert state.tol_value[target] and state.game.values[card] > state.tol_value[target] and not state.bribe
            held = any(at_fire.hand[target][k] for k in state.game.face_kinds)
            assert c.truth == (not held)
            fire = by_step[c.step + 1]
            fired = CA.FIRE <= fire.action < CA.GIVE
            assert (fire.called_step, fire.claimant, fire.seat, fire.truth) == (c.step, c.seat, target, c.truth)
            assert fire.challenged == fire.caught == c.challenged == c.caught == fired
            worth = at_fire.smuggled_worth()
            if fired:
                fires += 1
                assert c.payoff == 0 and fire.payoff == -len(at_fire.tol[target]) and not c.truth
            else:
                keeps += 1
                assert c.payoff == worth == -fire.payoff
    assert fires and keeps


# ----- Illegal --------------------------------------------------------------------------------------
def test_illegal_let_passes_and_declined_trades_against_the_replays(stored):
    seen = defaultdict(int)
    for replay in replays(stored("illegal_v0")):
        states, rows = positions(replay), claims(replay)
        by_step = {c.step: c for c in rows}
        expected = [
            i
            for i, (s, a) in enumerate(zip(states, replay.actions))
            if (s.phase == REACT and a == IA.LET_PASS) or (s.phase == TRADE_ANSWER and a == IA.DECLINE)
        ]
        assert sorted(by_step) == expected
        for c in rows:
            state = states[c.step]
            hand = state.hands[c.seat]
            if c.decision == "let_pass":
                assert c.truth == (hand[IA.MAGNUM] == 0)
                closed = next(s for s in states[c.step + 1 :] if s.window < 0)
                assert c.payoff == closed.scores()[c.seat] - state.scores()[c.seat]
            else:
                assert c.decision == "trade" and c.payoff == 0
                assert c.truth == (not all(hand[k] >= state.want[k] for k in range(IA.NUM_KINDS)))
            assert c.forced == (len(state.legal_actions()) == 1) and c.challenged is None is c.caught
            seen[c.decision, c.truth] += 1
    assert set(seen) == {("let_pass", True), ("let_pass", False), ("trade", True), ("trade", False)}, seen


# ----- Humble smuggle -------------------------------------------------------------------------------
def _points(state, seat: int) -> float:
    return state.points(holds=False)[seat] + len(state.scored[seat]) / 100


def test_humble_selections_and_play_cards_against_the_reveals(stored):
    for replay in replays(stored("humble_smuggle_v0")):
        states, rows = positions(replay), claims(replay)
        committed = [
            i
            for i, (s, a) in enumerate(zip(states, replay.actions))
            if s.phase == SELECT or (s.phase == PLAY and a != HA.PASS)
        ]
        assert [c.step for c in rows] == committed  # every game here is revealed to the end
        for c in rows:
            state = states[c.step]
            reveal_at = next(i for i in range(c.step + 1, len(states)) if states[i].last is not state.last)
            reveal = states[reveal_at].last
            if c.decision == "select":
                assert c.truth == (c.seat not in reveal.discarded) and reveal.cards[c.seat] == c.action - HA.SELECT + 1
                assert c.payoff == round(_points(states[reveal_at], c.seat) - _points(state, c.seat), 9)
                assert (c.payoff > 0) == c.truth  # a scored card is worth at least its hundredth
            else:
                on = (c.seat + (c.action - HA.PLAY) % HA.MAX_PLAYERS) % state.n
                assert c.truth == (on not in reveal.discarded) and c.payoff is None


# ----- Import / Export ------------------------------------------------------------------------------
def _revealed_rounds(replay: Replay) -> list[tuple[int, list[int]]]:
    """(step, bids) of every sealed-bid reveal: a live state makes a new ``last_bids`` list at each."""
    state = replay.game().new_initial_state(replay.seed)
    rounds, last = [], state.last_bids
    for step, action in enumerate(replay.actions):
        state.apply_action(action)
        if state.last_bids is not last:
            last = state.last_bids
            rounds.append((step, list(last)))
    return rounds


def test_import_export_sealed_bids_against_the_reveals(stored):
    winners = 0
    for replay in replays(stored("import_export_v0")):
        states, rows = positions(replay), claims(replay)
        assert [c.step for c in rows] == [i for i, s in enumerate(states[:-1]) if s.ask and s.ask.phase == P_BID]
        pending = list(rows)
        for step, bids in _revealed_rounds(replay):
            mine = [c for c in pending if c.step <= step]
            pending = [c for c in pending if c.step > step]
            top = max(bids)
            assert all(bids[c.seat] == c.action - EA.BID for c in mine)  # the bids the engine revealed
            won = [c for c in mine if c.truth]
            assert len(won) <= 1 and all(bids[c.seat] == top for c in won)
            winners += len(won)
        assert not pending  # every bid was revealed
    assert winners
