"""Smuggle's rules in play: what each phase allows (``legal_actions``) and what each action does
(``apply``), as functions of the state (``state.py``), which ``rules.SmuggleState`` binds as
its methods.

Rule numbers in comments are those of the rulebook and "R2.n" the resolutions of its ambiguities,
both quoted and mapped to the code here and to their tests in ``docs/rules/smuggle.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul

import numpy as np

from ...core.fields import set_one_hot
from ...core.game import State
from . import actions as A
from .actions import BAG, HAND_SIZE, NUM_ITEMS, NUM_KINDS
from .state import NO_CARDS, SmuggleStateBase
from .vocab import (
    DECLARE,
    DISCARD,
    DUTY_UNIT,
    LYING,
    NUM_SEARCH_RECORDS,
    OFFICER,
    OVER,
    R_BAG_FALSE,
    R_CAUGHT,
    R_INFORM_HIT,
    R_INFORMED_ON,
    R_INFORMS,
    R_NEXT_DECISIONS,
    R_OFF_HIT,
    R_OFF_SEARCH,
    R_SEARCHED,
    R_TRUTHFUL,
    REAL_BAG,
    RECEIVE,
    TRUTHFUL,
    Reveal,
)

_DECLARE_ACTIONS = tuple(range(A.NUM_DECLARATIONS + 1))  # every declaration + the Bag claim
_OFFICER_ACTIONS = (A.SEARCH, A.LET_PASS)
_RECEIVE_ACTIONS = (A.ACCEPT, A.INFORM)
_DECLARED = tuple(list(c) for c in A.DECLARATIONS)
_DECLARED_BYTES = tuple(bytes(c) for c in A.DECLARATIONS)
_NO_ITEMS = bytes(NUM_ITEMS)


def _mask(actions: Sequence[int]) -> np.ndarray:
    m = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    m[list(actions)] = 1
    return m


_MASKS = {DECLARE: _mask(_DECLARE_ACTIONS), OFFICER: _mask(_OFFICER_ACTIONS), RECEIVE: _mask(_RECEIVE_ACTIONS)}


# ----- legal actions -------------------------------------------------------------------------
def legal_actions(st: SmuggleStateBase) -> tuple[int, ...]:
    phase = st.phase
    if phase == DECLARE:
        return _DECLARE_ACTIONS
    if phase == OFFICER:
        return _OFFICER_ACTIONS
    if phase == RECEIVE:
        return _RECEIVE_ACTIONS
    if phase == DISCARD:
        hand = st.hand
        if hand[BAG]:  # rule 15: a passed-on Bag must be the discard
            return (A.DISCARD + BAG,)
        return tuple([A.DISCARD + k for k in range(NUM_KINDS) if hand[k]])
    return ()


def legal_action_mask(st: SmuggleStateBase) -> np.ndarray:
    mask = _MASKS.get(st.phase)
    if mask is not None:
        return mask.copy()
    return State.legal_action_mask(st)  # core's


def is_legal(st: SmuggleStateBase, action: int) -> bool:
    phase = st.phase
    if phase == DECLARE:
        return action <= A.CLAIM_BAG
    if phase == OFFICER:
        return action == A.SEARCH or action == A.LET_PASS
    if phase == RECEIVE:
        return action == A.ACCEPT or action == A.INFORM
    return action in st.legal_actions()


# ----- the step ------------------------------------------------------------------------------
def apply(st: SmuggleStateBase, action: int) -> None:
    phase = st.phase
    if phase == DECLARE:
        _declare(st, action)
    elif phase == OFFICER:
        if action == A.SEARCH:
            _search(st, by_informer=False)
        else:
            _let_pass(st)
    elif phase == RECEIVE:
        if action == A.INFORM:
            _search(st, by_informer=True)
        else:
            _accept(st)
    else:
        _discard(st, action - A.DISCARD)


def _declare(st: SmuggleStateBase, action: int) -> None:
    # Rule 4 / rule 14: a declaration of items, or a claim of Diplomatic Immunity.
    holder = st.holder
    st.decl_action = action
    st.declarations[holder] += 1
    if action == A.CLAIM_BAG:
        st.f_bag_claim[0] = 1
        st.bag_claims[holder] += 1
    else:
        st.f_declaration[:] = _DECLARED_BYTES[action]
        st.declared_duty[holder] += st.game.declared_duty[action]
    # The mean over all declarations (a Bag claim declares no duty), in units of 25 and
    # rounded half up, so that it fits the byte the observation reads.
    count = st.declarations[holder]
    st.mean_declared_duty[holder] = (2 * st.declared_duty[holder] + DUTY_UNIT * count) // (2 * DUTY_UNIT * count)
    st._set_phase(OFFICER)


def _let_pass(st: SmuggleStateBase) -> None:
    # Rule 5: believed, the passer pays the declared duty (R2.3); a Bag claim pays nothing.
    holder = st.holder
    if st.decl_action != A.CLAIM_BAG:
        _pay(st, holder, st.officer, st.game.declared_duty[st.decl_action])
        if not st.active[holder]:
            _forfeit_hand(st, holder)
            return
    st.f_duty_paid[0] = 1
    # Rule 11: the cards pass face down to the next player; the passer remembers them.
    st.known[holder][:] = st.hand
    st._set_receiver(_next_player(st, holder))
    st._set_phase(RECEIVE)


def _accept(st: SmuggleStateBase) -> None:
    # Rule 11A: the next player takes the cards without any money changing hands (R2.4).
    # He now sees them, so he privately learns whether the passer told the truth.
    passer, receiver = st.holder, st.receiver
    st.search_record[receiver * NUM_SEARCH_RECORDS + R_NEXT_DECISIONS] += 1
    cell = receiver * st.n + passer
    st.received_from[cell] += 1
    if not truthful(st.decl_action, st.hand.tolist()):
        st.received_lies[cell] += 1
    # Kept (hidden, with ``hand_past``) so that a resample can redraw the other seats' records
    # from the hands it draws; the discard that follows is read from the actions at ``at + 1``.
    st.hand_passes += ((passer, receiver, st.decl_action, len(st.history)),)
    st._set_holder(receiver)
    st._set_receiver(-1)
    st._set_phase(DISCARD)


def _discard(st: SmuggleStateBase, kind: int) -> None:
    # Rule 11A: discard one face up onto the open suitcase, then draw one (rule 15: the Bag).
    st.hand[kind] -= 1
    st.suitcase[kind] += 1
    st.last_discard = (st.holder, kind)
    for counts in st.known:
        if counts[kind]:
            counts[kind] -= 1
    st.kept = st.hand_size = st.hand_size - 1
    if not st.deck:
        _end_round(st)  # R2.8: a draw that cannot be made ends the round
        return
    st._draw(1)
    _new_declaration(st)


def _search(st: SmuggleStateBase, by_informer: bool) -> None:
    """Rules 6-10, 11B and 14: open the live hand and settle duty, fines and rewards."""
    d, holder, officer = st.data, st.holder, st.officer
    informer = st.receiver if by_informer else -1
    counts = st.hand.tolist()
    fines = sum(map(mul, counts, st.game.kind_fines))
    if st.decl_action == A.CLAIM_BAG:  # a Diplomatic Bag claim (rule 14)
        if truthful(A.CLAIM_BAG, counts):
            outcome = REAL_BAG
            if not by_informer:
                _pay(st, officer, holder, d.defamation)
            elif st.game.config.informer_pays_real_bag:
                _pay(st, informer, holder, d.defamation)
        else:
            outcome = LYING
            st.search_record[holder * NUM_SEARCH_RECORDS + R_BAG_FALSE] += 1
            _pay(st, holder, officer, d.false_bag_fine + fines)
    elif truthful(st.decl_action, counts):  # the complete truth (R2.2)
        outcome = TRUTHFUL
        if by_informer:
            _pay(st, informer, holder, d.defamation)  # rule 11B; duty already paid
        else:
            _pay(st, officer, holder, d.defamation)  # rule 9 ...
            _pay(st, holder, officer, st.game.declared_duty[st.decl_action])  # ... and duty
    else:
        outcome = LYING
        _pay(st, holder, officer, fines)  # rules 7, 8: fines on everything
    if outcome == LYING and by_informer:
        _pay(st, officer, informer, d.informer_reward)  # rule 11B
    _record_search(st, holder, informer, outcome, by_informer)
    _reveal(st, holder, counts, outcome, by_informer)
    st._to_suitcase()  # rule 10: face up on the suitcase
    if not st.active[st.officer]:
        _end_round(st)
    elif by_informer:
        # Rule 11B / rule 14: the Informer (or, if he is out, the next player) restarts play.
        _fresh_hand(st, informer if st.active[informer] else _next_player(st, informer))
    else:
        _fresh_hand(st, _next_player(st, holder))


def truthful(declared: int, counts: list[int]) -> bool:
    """Whether a hand of ``counts`` bears out the declaration action ``declared``: a Bag claim if
    the Bag is held, a declaration if it matches exactly (R2.2). ``resample`` judges the hands it
    draws by it too, so its worlds' records of accepted lies follow the same rule."""
    if declared == A.CLAIM_BAG:
        return counts[BAG] > 0
    return counts[:NUM_ITEMS] == _DECLARED[declared]


def _record_search(st: SmuggleStateBase, holder: int, informer: int, outcome: int, by_informer: bool) -> None:
    rec, n_rec = st.search_record, NUM_SEARCH_RECORDS
    caught = outcome == LYING
    rec[holder * n_rec + (R_INFORMED_ON if by_informer else R_SEARCHED)] += 1
    rec[holder * n_rec + (R_CAUGHT if caught else R_TRUTHFUL)] += 1
    base = (informer if by_informer else st.officer) * n_rec
    rec[base + (R_INFORMS if by_informer else R_OFF_SEARCH)] += 1
    if by_informer:
        rec[base + R_NEXT_DECISIONS] += 1
    if caught:
        rec[base + (R_INFORM_HIT if by_informer else R_OFF_HIT)] += 1


def _reveal(st: SmuggleStateBase, seat: int, counts: list[int], outcome: int, by_informer: bool) -> None:
    old = st.last_reveal
    # tuple.__new__ skips the NamedTuple's Python-level constructor (searches are frequent)
    st.last_reveal = tuple.__new__(Reveal, (seat, counts, outcome, by_informer))
    st.f_reveal[:] = bytes(counts)
    set_one_hot(st.f_reveal_seat, old.seat if old else -1, seat)
    st.f_reveal_outcome[:] = bytes((outcome == TRUTHFUL, outcome == LYING, outcome == REAL_BAG, by_informer))


# ----- money ---------------------------------------------------------------------------------
def _pay(st: SmuggleStateBase, payer: int, payee: int, amount: int) -> None:
    """Rule 13: a player who cannot pay borrows (loan) or is out of the game (eliminate)."""
    money = st.money
    if money[payer] < amount and st.game.config.bankruptcy == "eliminate":
        amount = max(money[payer], 0)
        st.active[payer] = 0
    money[payer] -= amount
    money[payee] += amount


def _forfeit_hand(st: SmuggleStateBase, player: int) -> None:
    """A player eliminated while paying duty: his hand is laid open and play restarts."""
    st._to_suitcase()
    if not st.active[st.officer] or sum(st.active) < 3:
        _end_round(st)
    else:
        _fresh_hand(st, _next_player(st, player))


# ----- flow ----------------------------------------------------------------------------------
def _next_player(st: SmuggleStateBase, seat: int) -> int:
    """The next active seat clockwise that is not the Officer (R2.6: passing skips him)."""
    n, active, officer = st.n, st.active, st.officer
    for step in range(1, n + 1):
        s = (seat + step) % n
        if active[s] and s != officer:
            return s
    return -1


def _fresh_hand(st: SmuggleStateBase, seat: int) -> None:
    """Rules 3, 10, 11B: ``seat`` draws four fresh cards, or the round ends (R2.8)."""
    if seat < 0 or len(st.deck) < HAND_SIZE or sum(st.active) < 3:
        _end_round(st)
        return
    st._drop_hand()
    st._draw(HAND_SIZE)
    st._set_holder(seat)
    _new_declaration(st)


def _clear_declaration(st: SmuggleStateBase) -> None:
    st.decl_action = -1
    st.f_declaration[:] = _NO_ITEMS
    st.f_bag_claim[0] = 0
    st.f_duty_paid[0] = 0


def _new_declaration(st: SmuggleStateBase) -> None:
    _clear_declaration(st)
    st._set_receiver(-1)
    st._set_phase(DECLARE)


def start_round(st: SmuggleStateBase) -> None:
    # A round is one pass through the pack with one Officer (rule 17, R2.8).
    st.deck = list(st.game.deck_template)
    st.rng.shuffle(st.deck)
    st.suitcase[:] = NO_CARDS
    _fresh_hand(st, _next_player(st, st.officer))  # R2.10: left of the Officer starts


def _end_round(st: SmuggleStateBase) -> None:
    # R2.8: an unresolved hand is dropped unseen; every card is reshuffled for the next round.
    st.officer_done[st.officer] = 1
    st.rounds_played += 1
    st.f_round[0] = st.rounds_played
    st._drop_hand()
    _clear_declaration(st)
    st._set_holder(-1)
    st._set_receiver(-1)
    nxt = _next_officer(st)
    if nxt < 0:
        st._set_phase(OVER)  # rule 17: everyone (still in) has been Officer once
        return
    st._set_officer(nxt)
    start_round(st)


def _next_officer(st: SmuggleStateBase) -> int:
    if sum(st.active) < 3:
        return -1  # a round needs an Officer, a declarer and a next player
    n = st.n
    for step in range(1, n + 1):
        s = (st.officer + step) % n
        if st.active[s] and not st.officer_done[s]:
            return s
    return -1
