"""Humble smuggle's rules in play: what each phase allows (``legal_actions``) and what each action
does (``apply``), as functions of the state (``state.py``), which ``rules.HumbleSmuggleState``
binds as its methods.

Section numbers in comments are those of the rulebook and "R3.n" the resolutions of its
ambiguities, both quoted and mapped to the code and to their tests in
``docs/rules/humble_smuggle.md``, which also records each interpretation.

A round is a sequence of atomic decisions, one seat at a time:

* ``DRAFT``: in turn order from the first player, each seat takes one centre card (public);
* ``SELECT``: in the same order, each seat lays one hand card face down (hidden: the others see
  only *that* it chose);
* ``PLAY``: round-robin from the first player, each seat plays one Play card onto any face-down
  white card or passes; a full lap of passes ends the phase (R3.7). Who attached a card to which
  white card is public, its kind is not;
* reveal, resolution, Play cards to the discard pile and black draws are automatic; a seat over
  the hand limit of 3 black cards then decides its discards (``DISCARD``, face down: the others
  see only *that* it discarded) before the next seat draws; the centre is cleaned up and refilled
  and the first player passes clockwise.
"""

from __future__ import annotations

import numpy as np

from . import actions as A
from .actions import MAX_PLAYERS, NK, NP, W
from .state import HumbleSmuggleStateBase
from .vocab import (
    DISCARD,
    DOUBLE_UP,
    DRAFT,
    HIGH_LOW,
    NUM_SYMBOLS,
    OVER,
    PLAY,
    SAFE_ZONE,
    SELECT,
    STANDARD,
    SYMBOL_UP,
    Reveal,
)


# ----- legal actions -------------------------------------------------------------------------
def legal_actions(st: HumbleSmuggleStateBase) -> tuple[int, ...]:
    phase = st.phase
    if phase == DRAFT:
        return tuple([v - 1 for v in sorted(st.centre)])
    if phase == SELECT:
        return tuple([A.SELECT + v - 1 for v in sorted(st.hands[st.actor])])
    if phase == PLAY:
        b, by_kind = st.black[st.actor], st.game.play_actions
        actions: list[int] = []
        for k in range(NP):
            if b[k]:
                actions += by_kind[k]
        actions.append(A.PASS)
        return tuple(actions)
    if phase == DISCARD:
        b = st.black[st.actor]
        return tuple([A.DISCARD + k for k in range(NK) if b[k]])
    return ()


def legal_action_mask(st: HumbleSmuggleStateBase) -> np.ndarray:
    # A handful of legal actions: set them in a fresh byte string (faster than numpy's
    # fancy indexing for so few entries).
    mask = bytearray(A.NUM_ACTIONS)
    for a in st.legal_actions():
        mask[a] = 1
    return np.frombuffer(mask, np.int8)


def is_legal(st: HumbleSmuggleStateBase, action: int) -> bool:
    phase = st.phase
    if phase == DRAFT:
        return action < A.SELECT and action + 1 in st.centre
    if phase == SELECT:
        return A.SELECT <= action < A.PLAY and action - A.SELECT + 1 in st.hands[st.actor]
    if phase == PLAY:
        if action == A.PASS:
            return True
        if not A.PLAY <= action < A.PASS:
            return False
        kind, offset = divmod(action - A.PLAY, MAX_PLAYERS)
        return offset < st.n and st.black[st.actor][kind] > 0
    if phase == DISCARD:
        return action >= A.DISCARD and st.black[st.actor][action - A.DISCARD] > 0
    return False


# ----- the step --------------------------------------------------------------------------------
def apply(st: HumbleSmuggleStateBase, action: int) -> None:
    phase = st.phase
    if phase == DRAFT:
        _draft(st, action + 1)
    elif phase == SELECT:
        _select(st, action - A.SELECT + 1)
    elif phase == PLAY:
        if action == A.PASS:
            _pass(st)
        else:
            kind, offset = divmod(action - A.PLAY, MAX_PLAYERS)
            _play(st, kind, (st.actor + offset) % st.n)
    else:
        _discard(st, action - A.DISCARD)


# Step 1: draft, in turn order from the first player (public).
def _draft(st: HumbleSmuggleStateBase, v: int) -> None:
    actor, game = st.actor, st.game
    st.centre.remove(v)
    st.f_centre[v - 1] = 0
    st.f_centre_rules[game.rule_of[v]] -= 1
    st.hands[actor].append(v)
    st.f_hand[actor * W + v - 1] = 1
    st.known[actor].append(v)
    st.f_known[actor * W + v - 1] = 1
    st.f_drafted[actor] = 1
    st.drafts += 1
    if st.drafts < st.n:
        st._set_actor((actor + 1) % st.n)
        return
    # Section 8 / R3.1: the icon of the one card left in the centre is the round rule.
    st.rule = game.rule_of[st.centre[0]]
    st.f_rule[st.rule] = 1
    st._set_phase(SELECT)
    st._set_actor(st.first)


# Step 2: secret selection, taken in turn order and hidden from the others.
def _select(st: HumbleSmuggleStateBase, v: int) -> None:
    actor, n = st.actor, st.n
    st.hands[actor].remove(v)
    st.f_hand[actor * W + v - 1] = 0
    st.sel[actor] = v
    st.f_sel[actor * W + v - 1] = 1
    st.f_selected[actor] = 1
    nxt = (actor + 1) % n
    if nxt != st.first:
        st._set_actor(nxt)
        return
    st._set_phase(PLAY)
    st.passes = 0
    st.f_passes[0] = 0
    st._set_actor(st.first)


# Step 3: Play cards onto face-down white cards, round-robin until a full lap of passes.
def _play(st: HumbleSmuggleStateBase, kind: int, target: int) -> None:
    actor, n = st.actor, st.n
    st.black[actor][kind] -= 1
    st.f_black[actor * NK + kind] -= 1
    st.f_black_count[actor] -= 1
    st.attached[target].append((actor, kind))
    st.f_attach[target * n + actor] += 1
    st.f_my_attach[(actor * n + target) * NP + kind] += 1
    st.passes = 0
    st.f_passes[0] = 0
    st._set_actor((actor + 1) % n)


def _pass(st: HumbleSmuggleStateBase) -> None:
    st.passes += 1
    if st.passes < st.n:
        st.f_passes[0] = st.passes
        st._set_actor((st.actor + 1) % st.n)
        return
    _resolve(st)


# Steps 4-5: reveal and resolution.
def _resolve(st: HumbleSmuggleStateBase) -> None:
    """Steps 4-6: the reveal, the resolution under the round rule, scores and discards, then the
    centre card goes and the black draws begin."""
    n, centre_card = st.n, st.centre[0]
    values = [0] * n
    shielded = [False] * n
    for s in range(n):
        values[s], shielded[s] = st.effective_value(s)
    chosen = _discarded(st, values, shielded, centre_card)
    _record_reveal(st, values, chosen, centre_card)
    _score(st, chosen)
    # Step 6 (clean-up, first half): the centre card is discarded whatever the rule did.
    game = st.game
    st.white_discards.append(centre_card)
    st.f_out[centre_card - 1] = 1
    st.f_centre[centre_card - 1] = 0
    st.f_centre_rules[game.rule_of[centre_card]] = 0
    st.centre = []
    st.f_rule[st.rule] = 0
    st.f_passes[0] = 0
    st.passes = 0
    st.draw_idx = 0
    st._set_phase(DISCARD)  # while drawing; _continue_draws moves on
    _continue_draws(st)


def _discarded(st: HumbleSmuggleStateBase, values: list[int], shielded: list[bool], centre_card: int) -> set[int]:
    """The ids of the revealed cards the round rule discards (seats, and ``n`` for the centre
    card)."""
    game, n, rule = st.game, st.n, st.rule
    # Candidates: every revealed card but the shielded ones; the centre card (id n) counts.
    cands = [(values[s], s) for s in range(n) if not shielded[s]]
    cands.append((centre_card, n))
    k = 0
    if rule == HIGH_LOW:
        hi = max(c[0] for c in cands)
        lo = min(c[0] for c in cands)
        return {i for value, i in cands if value in (hi, lo)}
    if rule == STANDARD:
        k = 1
    elif rule == DOUBLE_UP:
        k = 2
    elif rule == SAFE_ZONE:
        cands = [c for c in cands if c[0] >= game.safe_zone_min]
        k = 1
    else:  # Symbol Up: that symbol on the revealed white cards, centre included (R3.4)
        symbol, sym = rule - SYMBOL_UP, game.symbol
        k = sum(1 for s in range(n) if sym[st.sel[s]] == symbol) + (sym[centre_card] == symbol)
    return _top(cands, k, game.config.discard_count == "values")


def _score(st: HumbleSmuggleStateBase, chosen: set[int]) -> None:
    """Discarded cards go to the discard pile; the others score; draws follow (R3.8). Play
    cards go to the black discard pile (R3.9)."""
    game, n = st.game, st.n
    pts, syms, draws = game.points, game.symbol, game.draws
    pending = st.pending
    for s in range(n):
        v = st.sel[s]
        att = st.attached[s]
        st.f_out[v - 1] = 1
        if v in st.known[s]:
            st.known[s].remove(v)
            st.f_known[s * W + v - 1] = 0
        st.f_sel[s * W + v - 1] = 0
        st.f_selected[s] = 0
        st.sel[s] = 0
        if s in chosen:
            st.white_discards.append(v)
            pending[s] = len(att)
        else:
            st.scored[s].append(v)
            st.f_points[s] += pts[v]
            st.f_nscored[s] += 1
            if syms[v] >= 0:
                st.f_sym[s * (NUM_SYMBOLS + 1) + syms[v]] += 1
            pending[s] = draws[v]
        if att:
            for attacher, kind in att:  # Play cards to the black discard pile (R3.9)
                st.bdisc_public.append(kind)
                st.f_bdisc_seen[kind] += 1
                st.f_attach[s * n + attacher] = 0
                st.f_my_attach[(attacher * n + s) * NP + kind] = 0
            st.attached[s] = []
    st.f_bdisc[0] = len(st.bdisc_public) + len(st.bdisc_hidden)


def _record_reveal(st: HumbleSmuggleStateBase, values, chosen, centre_card) -> None:
    n = st.n
    mods = st.f_last_mods
    mods[:] = bytes(n * NP)
    for s in range(n):
        st.f_last_card[s] = st.sel[s]
        st.f_last_discarded[s] = s in chosen
        for _, kind in st.attached[s]:
            mods[s * NP + kind] += 1
    st.f_last_centre[0] = centre_card
    st.f_last_centre_discarded[0] = n in chosen
    if st.last is not None:
        st.f_last_rule[st.last[6]] = 0
    st.f_last_rule[st.rule] = 1
    st.last = Reveal(
        list(st.sel),
        values,
        [list(a) for a in st.attached],
        [s for s in range(n) if s in chosen],
        centre_card,
        n in chosen,
        st.rule,
    )


def _continue_draws(st: HumbleSmuggleStateBase) -> None:
    """Black draws in turn order from the first player; a seat over the limit discards
    (its own decisions) before the next seat draws (section 5.5, Q2)."""
    n, limit = st.n, st.game.limit
    while st.draw_idx < n:
        s = (st.first + st.draw_idx) % n
        if st.pending[s]:
            st._draw_black(s, st.pending[s])
            st.pending[s] = 0
        if st.f_black_count[s] > limit:
            st._set_actor(s)
            return
        st.draw_idx += 1
    _end_round(st)


def _discard(st: HumbleSmuggleStateBase, kind: int) -> None:
    actor = st.actor
    st.black[actor][kind] -= 1
    st.f_black[actor * NK + kind] -= 1
    st.f_black_count[actor] -= 1
    st.bdisc_hidden.append((actor, kind))  # face down: nobody else learns the kind
    st.f_bdisc[0] += 1
    if st.f_black_count[actor] <= st.game.limit:
        st.draw_idx += 1
        _continue_draws(st)


def _refill(st: HumbleSmuggleStateBase) -> None:
    """Step 6: refill the centre to players + 1 (the 80 takes no slot, R3.6)."""
    rules = st.game.rule_of
    while len(st.centre) < st.n + 1:
        v = st._draw_white()
        st.centre.append(v)
        st.f_centre[v - 1] = 1
        st.f_centre_rules[rules[v]] += 1
    st.f_rounds_left[0] = st.rounds_left()


def _end_round(st: HumbleSmuggleStateBase) -> None:
    st.rounds_played += 1
    st.f_round[0] = st.rounds_played
    if st.final:  # section 6: the 80's round was the last
        st._set_phase(OVER)
        st._set_actor(-1)
        st.f_rounds_left[0] = 0
        return
    _refill(st)
    st._set_first((st.first + 1) % st.n)  # step 7: clockwise
    _start_round(st)


def _start_round(st: HumbleSmuggleStateBase) -> None:
    st.f_drafted[:] = bytes(st.n)
    st.drafts = 0
    st.rule = -1
    st._set_phase(DRAFT)
    st._set_actor(st.first)


def start_game(st: HumbleSmuggleStateBase) -> None:
    """Setup 2 (second half): the centre, players + 1 face up; then the first round."""
    _refill(st)
    _start_round(st)


def _top(cands, k: int, by_values: bool) -> set:
    """Ids of the cards discarded as "the k highest" with tie groups (R3.3): whole groups from
    the top until at least k cards (or, by values, the k highest distinct values)."""
    if k <= 0 or not cands:
        return set()
    values = sorted({c[0] for c in cands}, reverse=True)
    if by_values:
        threshold = values[min(k, len(values)) - 1]
    else:
        taken = 0
        threshold = values[-1]
        for value in values:
            taken += sum(1 for c in cands if c[0] == value)
            if taken >= k:
                threshold = value
                break
    return {i for value, i in cands if value >= threshold}
