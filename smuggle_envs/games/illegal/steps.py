"""Illegal's rules in play: what each phase allows (``legal_actions``) and what each action does
(``apply``), as functions of the state (``state.py``), which ``rules.IllegalState`` binds as its
methods.

Quotations are from the rulebook; "R4.n" refers to resolution n of the rulebook resolutions.
``docs/rules/illegal.md`` quotes both, maps every rule and card to the code and to its test, and
records every interpretation with its reason.

A turn is a sequence of atomic decisions of the player to move (``active``): an optional trade
offer, the turn's play (a card with its target and business choices, or a discard), free extras
(a second, legal business; three identical cards discarded; the Magnum), then "end the turn".
Decisions that belong to someone else are states whose current player is that someone: a Magnum
reaction window, the business a victim loses, the card every player passes left after a Paranoia
card, the answer to a trade. The flow (who decides next) depends only on public information, so
it never reveals a hidden card; choices whose options are public and single are made
automatically, choices from a hand are always asked.
"""

from __future__ import annotations

import numpy as np

from ...core.fields import set_one_hot
from . import actions as A
from .actions import (
    BRIBE,
    BUSINESS_KINDS,
    FIRST_BUSINESS,
    FIRST_HASSLE,
    MAGNUM,
    NUM_BUSINESSES,
    NUM_ILLEGAL,
    NUM_KINDS,
    RELATIVES,
)
from .state import IllegalStateBase
from .vocab import (
    AFTER_PARANOIA,
    AFTER_TURN,
    EXTRA,
    LOSE,
    LOSES_ALL,
    LOSES_TOP,
    LOSS_ANY,
    LOSS_ILLEGAL,
    OVER,
    PASS,
    PAY,
    PLAY,
    REACT,
    T_ACCOUNTING,
    T_BRIBE,
    T_HASSLE,
    T_ILLEGAL,
    T_LEGAL,
    T_MAGNUM,
    T_MARKET,
    T_PARANOIA,
    T_SOLUTION,
    T_TAKEOVER,
    TAKE,
    TARGET,
    TRADE_ANSWER,
    TRADE_GIVE,
    TRADE_PARTNER,
    TRADE_WANT,
    W_HASSLE,
    W_TAKEOVER,
)

_LET_PASS_ONLY = (A.LET_PASS,)


# ----- legal actions -------------------------------------------------------------------------
def legal_actions(st: IllegalStateBase) -> tuple[int, ...]:
    legal = st._legal
    if legal is None:
        legal = st._legal = compute_legal(st)
    return legal


def compute_legal(st: IllegalStateBase) -> tuple[int, ...]:
    phase = st.phase
    if phase == PLAY:
        return _play_actions(st, main=True)
    if phase == EXTRA:
        return _play_actions(st, main=False)
    if phase == REACT:
        s = st.decider
        if not st.hands[s][MAGNUM]:
            return _LET_PASS_ONLY
        acts = [A.PLAY + MAGNUM] if st.any_hassle else []
        acts.append(A.LET_PASS)
        if st.window == W_TAKEOVER:
            acts.append(A.CANCEL)
        return tuple(acts)
    if phase in (TARGET, TRADE_PARTNER):
        n, actor = st.n, st.decider
        return tuple(sorted(A.TARGET + (q - actor) % n for q in st.options))
    if phase == TAKE:
        return tuple(A.TAKE + b for b in st.options)
    if phase == LOSE:
        return tuple(A.LOSE + b for b in st.options)
    if phase == PAY:
        hand = st.hands[st.decider]
        return tuple(A.PAY + b for b in range(NUM_BUSINESSES) if hand[FIRST_BUSINESS + b])
    if phase == PASS:
        hand = st.hands[st.decider]
        return tuple(A.PASS_CARD + k for k in range(NUM_KINDS) if hand[k])
    if phase == TRADE_GIVE:
        hand, give = st.hands[st.decider], st.give
        acts = []
        if st.n_give < st.game.trade_limit:
            acts = [A.GIVE + k for k in range(NUM_KINDS) if hand[k] > give[k]]
        acts.append(A.DONE if st.n_give else A.NO_TRADE)
        return tuple(acts)
    if phase == TRADE_WANT:
        want, counts = st.want, st.game.kind_counts
        acts = [A.WANT + k for k in range(NUM_KINDS) if want[k] < counts[k]]
        if st.n_want and st.game.config.trade_unequal:  # equal sizes: done at n_give
            acts.append(A.DONE)
        return tuple(acts)
    if phase == TRADE_ANSWER:
        hand, want = st.hands[st.decider], st.want
        if all(hand[k] >= want[k] for k in range(NUM_KINDS)):
            return (A.ACCEPT, A.DECLINE)
        return (A.DECLINE,)
    return ()


def _play_actions(st: IllegalStateBase, main: bool) -> tuple[int, ...]:
    """PLAY (the turn's play still to make) or EXTRA (made: only free extras remain)."""
    g, p, n = st.game, st.active, st.n
    types = g.types
    market, hassle = st.market, st.hassle
    mk, h = market[p], hassle[p]
    uncovered = mk and h < 0
    legal_ok = mk and not (h >= 0 and g.blocks_legal[h]) and (main or not st.bonus_used)
    plays, discards, triples = [], [], []
    victims = takeable = None
    k = -1
    for c in st.hands[p]:
        k += 1
        if not c:
            continue
        if c >= 3:
            triples.append(A.TRIPLE + k)
        t = types[k]
        if t == T_LEGAL:
            ok = legal_ok
        elif t == T_MAGNUM:
            ok = st.any_hassle
        elif not main:
            continue
        elif t in (T_ILLEGAL, T_ACCOUNTING):
            ok = uncovered
        elif t == T_PARANOIA:
            plays.append(k)  # always playable, never discarded alone
            continue
        elif t == T_MARKET:
            ok = not mk
        elif t == T_HASSLE:
            if victims is None:
                victims = any(market[q] and hassle[q] < 0 for q in range(n) if q != p)
            ok = victims
        elif t == T_SOLUTION:
            ok = g.solves[k] in hassle
        elif t == T_BRIBE:
            ok = st.any_hassle and _holds_business(st, p)
        else:  # takeover, relatives
            if takeable is None:
                takeable = any(market[q] and st.nbiz[q] for q in range(n) if q != p)
            ok = (uncovered and takeable) if t == T_TAKEOVER else (mk and (takeable or h >= 0))
        if ok:
            plays.append(k)  # PLAY + k == k
        if main:
            discards.append(A.DISCARD + k)
    if main:
        if plays and g.strict_discard:
            return tuple(plays + triples)
        return tuple(plays + discards + triples)
    triples.append(A.END_TURN)
    return tuple(plays + triples)


def _holds_business(st: IllegalStateBase, p: int) -> bool:
    hand = st.hands[p]
    return any(hand[k] for k in BUSINESS_KINDS)


def legal_action_mask(st: IllegalStateBase) -> np.ndarray:
    legal = st.legal_actions()
    masks = st.game.masks
    mask = masks.get(legal)
    if mask is None:
        if len(masks) > 100_000:
            masks.clear()
        mask = masks[legal] = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        mask[list(legal)] = 1
    return mask.copy()


# ----- the step --------------------------------------------------------------------------------
def apply(st: IllegalStateBase, action: int) -> None:
    st._legal = None
    phase = st.phase
    if phase in (PLAY, EXTRA):
        if action < A.DISCARD:
            _play(st, action)
        elif action < A.TRIPLE:
            _discard_turn(st, action - A.DISCARD)
        elif action < A.TARGET:
            _triple(st, action - A.TRIPLE)
        else:
            _end_turn(st)
    elif phase == TARGET:
        _on_target(st, (st.decider + action - A.TARGET) % st.n)
    elif phase == TAKE:
        _on_take(st, action - A.TAKE)
    elif phase == LOSE:
        _on_lose(st, action - A.LOSE)
    elif phase == PAY:
        _on_pay(st, action - A.PAY)
    elif phase == PASS:
        _on_pass(st, action - A.PASS_CARD)
    elif phase == REACT:
        _on_react(st, action)
    else:
        _on_trade(st, action)


# ----- tables and hassles ---------------------------------------------------------------------------
def _lose_business(st: IllegalStateBase, q: int, b: int) -> None:
    """A business leaves ``q``'s table for the discard pile."""
    st._drop_business(q, b)
    st.discards[FIRST_BUSINESS + b] += 1
    check_hassle(st, q)


def check_hassle(st: IllegalStateBase, q: int) -> None:
    """Raid goes once the victim has no illegal business, Protection Money once he has no
    business at all (R4.6), whenever that happens."""
    h = st.hassle[q]
    if h >= 0:
        loss = st.game.turn_loss[h]
        if (loss == LOSS_ILLEGAL and not st.nill[q]) or (loss == LOSS_ANY and not st.nbiz[q]):
            _remove_hassle(st, q)


def _remove_hassle(st: IllegalStateBase, q: int) -> None:
    h = st.hassle[q]
    st.discards[FIRST_HASSLE + h] += 1
    was_open = st.open_mask >> q & 1
    st._set_hassle(q, -1)
    if was_open:
        # "Only then may one return one's cards to one's hand": everyone saw them.
        hand = bytes(st.hands[q])
        for o in range(st.n):
            if o != q:
                st.known[o][q][:] = hand


# ----- the turn -------------------------------------------------------------------------------------
def start_turn(st: IllegalStateBase, seat: int) -> None:
    n, skip = st.n, st.skip
    while skip[seat]:  # R4.8: a lost turn is skipped whole, draw included
        skip[seat] -= 1
        seat = (seat + 1) % n
    set_one_hot(st.f_active, st.active, seat)
    st.active = seat
    st.main_used = st.bonus_used = False
    st.f_slots[0] = st.f_slots[1] = 0
    st._set_decider(seat)
    st._set_phase(TRADE_GIVE if st.game.trade_limit else PLAY)


def _resume(st: IllegalStateBase) -> None:
    """Back to the player to move once a card is resolved; a hand emptied ends the game."""
    if 0 in st.hsize:
        _end_hand(st)
        return
    st._set_card(-1)
    st._set_target(-1)
    st._set_biz(-1)
    st._set_decider(st.active)
    st._set_phase(EXTRA if st.main_used else PLAY)


def _use_slot(st: IllegalStateBase, k: int) -> None:
    """One card per turn, plus one legal business (R4.2); the Magnum is free."""
    t = st.game.types[k]
    if t == T_LEGAL and not st.bonus_used:
        st.bonus_used = True
        st.f_slots[1] = 1
    elif t != T_MAGNUM:
        st.main_used = True
        st.f_slots[0] = 1


def _play(st: IllegalStateBase, k: int) -> None:
    g, p = st.game, st.active
    st._from_hand(p, k)
    _use_slot(st, k)
    st._set_card(k)
    t = g.types[k]
    n, market, hassle = st.n, st.market, st.hassle
    if t in (T_ILLEGAL, T_LEGAL):
        st._add_business(p, k - FIRST_BUSINESS)
        _resume(st)
    elif t == T_MARKET:
        market[p] = 1
        _resume(st)
    elif t == T_ACCOUNTING:
        st.discards[k] += 1
        _end_hand(st)  # "The game is over."
    elif t == T_HASSLE:
        _choose_target(st, [q for q in range(n) if q != p and market[q] and hassle[q] < 0])
    elif t == T_SOLUTION:
        h = g.solves[k]
        _choose_target(st, [q for q in range(n) if hassle[q] == h])
    elif t == T_BRIBE:
        _choose_target(st, [q for q in range(n) if hassle[q] >= 0])
    elif t == T_PARANOIA:
        _paranoia(st, k)
    elif t == T_MAGNUM:
        st.magnum_actor = p
        st.f_magnum[0] = 1
        _choose_target(st, [q for q in range(n) if hassle[q] >= 0])
    else:  # Hostile Takeover, Relatives
        targets = [q for q in range(n) if q != p and market[q] and st.nbiz[q]]
        if targets:
            _choose_target(st, targets)
        else:  # Relatives that only sends the hassle away
            st.discards[k] += 1
            _remove_hassle(st, p)
            _resume(st)


def _discard_turn(st: IllegalStateBase, k: int) -> None:
    p = st.active
    st._from_hand(p, k)
    st.discards[k] += 1
    st.main_used = True
    st.f_slots[0] = 1
    _resume(st)


def _triple(st: IllegalStateBase, k: int) -> None:
    p = st.active
    for _ in range(3):
        st._from_hand(p, k)
    st.discards[k] += 3
    _resume(st)


def _end_turn(st: IllegalStateBase) -> None:
    p = st.active
    h = st.hassle[p]
    if h >= 0:  # Raid, Protection Money: one business a turn
        loss = st.game.turn_loss[h]
        table = st.tables[p]
        if loss == LOSS_ILLEGAL:
            options = [b for b in range(NUM_ILLEGAL) if table[b]]
        elif loss == LOSS_ANY:
            options = [b for b in range(NUM_BUSINESSES) if table[b]]
        else:
            options = None
        if options:
            _ask_lose(st, p, options, AFTER_TURN)
            return
    _finish_turn(st)


def _finish_turn(st: IllegalStateBase) -> None:
    g, p = st.game, st.active
    need = g.hand_size - st.hsize[p] if g.config.refill == "hand" else 1
    for _ in range(need):
        if not st.deck:
            if g.config.stock_out == "end":  # R4.3: a draw that cannot be made ends it
                _end_hand(st)
                return
            break
        st._draw(p)
    start_turn(st, (p + 1) % st.n)


# ----- targets and resolutions ----------------------------------------------------------------------
def _choose_target(st: IllegalStateBase, targets: list[int]) -> None:
    if len(targets) == 1:
        _on_target(st, targets[0])
        return
    st.options = targets
    actor = st.magnum_actor if st.magnum_actor >= 0 else st.active
    st._set_decider(actor)
    st._set_phase(TARGET)


def _on_target(st: IllegalStateBase, q: int) -> None:
    if st.magnum_actor >= 0:
        _magnum_removes(st, q)
        return
    g, k, p = st.game, st.card, st.active
    st._set_target(q)
    t = g.types[k]
    if t == T_HASSLE:
        h = k - FIRST_HASSLE
        st._set_hassle(q, h)
        check_hassle(st, q)  # a Raid on a table with no illegal business goes
        if st.hassle[q] == h:
            _open_window(st, W_HASSLE)
        else:
            _resume(st)
    elif t == T_SOLUTION:
        st.discards[k] += 1
        _remove_hassle(st, q)
        _resume(st)
    elif t == T_BRIBE:
        st._set_decider(p)
        st._set_phase(PAY)
    else:  # Hostile Takeover, Relatives
        table = st.tables[q]
        options = [b for b in range(NUM_BUSINESSES) if table[b]]
        if g.config.takeover == "smallest":
            low = min(g.biz_values[b] for b in options)
            options = [b for b in options if g.biz_values[b] == low]
        if len(options) == 1:
            _on_take(st, options[0])
        else:
            st.options = options
            st._set_decider(p)
            st._set_phase(TAKE)


def _on_take(st: IllegalStateBase, b: int) -> None:
    st._set_biz(b)
    _open_window(st, W_TAKEOVER)


def _on_pay(st: IllegalStateBase, b: int) -> None:
    p, k = st.active, FIRST_BUSINESS + b
    st._from_hand(p, k)
    st.discards[k] += 1
    st.discards[BRIBE] += 1
    _remove_hassle(st, st.target)
    _resume(st)


def _resolve_takeover(st: IllegalStateBase, cancelled: bool) -> None:
    p, q, b, k = st.active, st.target, st.biz, st.card
    st.discards[k] += 1
    if not cancelled:
        st._drop_business(q, b)
        st._add_business(p, b)
        if k == RELATIVES and st.hassle[p] >= 0:
            _remove_hassle(st, p)
        check_hassle(st, q)
    _resume(st)


# ----- the Magnum -----------------------------------------------------------------------------------
def _reaction_seats(st: IllegalStateBase) -> list[int]:
    """Who is asked, in turn from the player to move's left, whether to use the Magnum: every
    seat that might hold it as far as the table can tell (R4.10). Asking only its holder
    would tell everyone where it is."""
    p, n = st.active, st.n
    if st.discards[MAGNUM]:
        return []
    seats = [(p + i) % n for i in range(1, n)]
    mask = st.open_mask
    if mask:
        for q in range(n):
            if mask >> q & 1 and st.hands[q][MAGNUM]:
                return [q] if q != p else []
        seats = [q for q in seats if not mask >> q & 1]
    hsize = st.hsize
    return [q for q in seats if hsize[q]]


def _open_window(st: IllegalStateBase, window: int) -> None:
    asked = _reaction_seats(st)
    if not asked:
        _close_window(st, window, cancelled=False)
        return
    st.window = window
    st.f_window[window] = 1
    st.asked, st.ask_i = asked, 0
    st._set_decider(asked[0])
    st._set_phase(REACT)


def _on_react(st: IllegalStateBase, action: int) -> None:
    s = st.decider
    if action == A.LET_PASS:
        st.ask_i += 1
        if st.ask_i < len(st.asked):
            st._set_decider(st.asked[st.ask_i])
            st._legal = None
        else:
            _close_window(st, st.window, cancelled=False)
    elif action == A.CANCEL:
        st._from_hand(s, MAGNUM)
        st.discards[MAGNUM] += 1
        _close_window(st, st.window, cancelled=True)
    else:  # play the Magnum on a hassle, off turn
        st._from_hand(s, MAGNUM)
        st.magnum_actor = s
        st.f_magnum[0] = 1
        _choose_target(st, [q for q in range(st.n) if st.hassle[q] >= 0])


def _magnum_removes(st: IllegalStateBase, q: int) -> None:
    st.discards[MAGNUM] += 1
    _remove_hassle(st, q)
    st.magnum_actor = -1
    st.f_magnum[0] = 0
    if st.window >= 0:
        _close_window(st, st.window, cancelled=False)
    else:
        _resume(st)


def _close_window(st: IllegalStateBase, window: int, cancelled: bool) -> None:
    if st.window >= 0:
        st.f_window[st.window] = 0
        st.window = -1
    if window == W_TAKEOVER:
        _resolve_takeover(st, cancelled)
    else:
        _resume(st)


# ----- losses and Paranoia --------------------------------------------------------------------------
def _ask_lose(st: IllegalStateBase, q: int, options: list[int], after: int) -> None:
    st.lose_after = after
    if len(options) == 1:
        _on_lose(st, options[0], q)
        return
    st.options = options
    st._set_decider(q)
    st._set_phase(LOSE)


def _on_lose(st: IllegalStateBase, b: int, q: int | None = None) -> None:
    _lose_business(st, st.decider if q is None else q, b)
    if st.lose_after == AFTER_TURN:
        _finish_turn(st)
    else:
        _start_pass(st)


def _paranoia(st: IllegalStateBase, k: int) -> None:
    g, p = st.game, st.active
    st.discards[k] += 1
    st.skip[p] += g.lost_turns[k]
    table = st.tables[p]
    held = [b for b in range(NUM_BUSINESSES) if table[b]]
    mode = g.loses[k]
    if mode == LOSES_ALL:
        for b in held:
            while table[b]:
                st._drop_business(p, b)
                st.discards[FIRST_BUSINESS + b] += 1
        check_hassle(st, p)
        _start_pass(st)
    elif not held:
        _start_pass(st)
    else:
        if mode == LOSES_TOP:
            top = max(g.biz_values[b] for b in held)
            held = [b for b in held if g.biz_values[b] == top]
        _ask_lose(st, p, held, AFTER_PARANOIA)


def _start_pass(st: IllegalStateBase) -> None:
    """ "After the play of a Paranoia card, each player passes a card face down to the player
    on his left": chosen one by one from the player to move on, then moved together."""
    p, n, hsize = st.active, st.n, st.hsize
    st.pass_order = [s for s in ((p + i) % n for i in range(n)) if hsize[s]]
    st.pass_i = 0
    st._set_decider(st.pass_order[0])
    st._set_phase(PASS)


def _on_pass(st: IllegalStateBase, k: int) -> None:
    s = st.decider
    st.pending[s] = k
    st.f_pending[s * NUM_KINDS + k] = 1
    st.pass_i += 1
    if st.pass_i < len(st.pass_order):
        st._set_decider(st.pass_order[st.pass_i])
        st._legal = None
        return
    n, known, hands, hsize, pending = st.n, st.known, st.hands, st.hsize, st.pending
    moves = [(s, pending[s]) for s in st.pass_order]
    for s, k in moves:
        hands[s][k] -= 1
        hsize[s] -= 1
        st.f_pending[s * NUM_KINDS + k] = 0
        pending[s] = -1
    for s, k in moves:
        r = (s + 1) % n
        hands[r][k] += 1
        hsize[r] += 1
        # The receiver knows what left the passer's hand; everyone else only that something
        # did, so what they were sure of in that hand is forgotten.
        for o in range(n):
            if o == s:
                continue
            row = known[o][s]
            if o == r:
                if row[k]:
                    row[k] -= 1
            else:
                row[:] = st.game.no_known
    for s, k in moves:
        known[s][(s + 1) % n][k] += 1
    _resume(st)


# ----- trading (R4.9) -------------------------------------------------------------------------------
def _on_trade(st: IllegalStateBase, action: int) -> None:
    g, p = st.game, st.active
    if action == A.NO_TRADE:
        _resume(st)
    elif st.phase == TRADE_GIVE:
        if action == A.DONE:
            _to_want(st)
            return
        k = action - A.GIVE
        st.give[k] += 1
        st.n_give += 1
        for o in range(st.n):  # the offer shows the card: it is in his hand
            if o != p and st.known[o][p][k] < st.give[k]:
                st.known[o][p][k] = st.give[k]
        if st.n_give == g.trade_limit:
            _to_want(st)
    elif st.phase == TRADE_WANT:
        if action != A.DONE:
            st.want[action - A.WANT] += 1
            st.n_want += 1
        limit = g.trade_limit if g.config.trade_unequal else st.n_give
        if action == A.DONE or st.n_want == limit:
            n, want_n = st.n, st.n_want
            partners = [q for q in range(n) if q != p and st.hsize[q] >= want_n]
            if not partners:
                _end_trade(st)
            elif len(partners) == 1:
                _to_answer(st, partners[0])
            else:
                st.options = partners
                st._set_phase(TRADE_PARTNER)
        else:
            st._legal = None
    elif st.phase == TRADE_PARTNER:
        _to_answer(st, (p + action - A.TARGET) % st.n)
    else:  # TRADE_ANSWER
        q = st.decider
        if action == A.ACCEPT:
            give, want = bytes(st.give), bytes(st.want)
            for k in range(NUM_KINDS):
                for _ in range(give[k]):
                    st._from_hand(p, k)
                    st._to_hand_public(q, k)
                for _ in range(want[k]):
                    st._from_hand(q, k)
                    st._to_hand_public(p, k)
        _end_trade(st)


def _to_want(st: IllegalStateBase) -> None:
    st._set_phase(TRADE_WANT)


def _to_answer(st: IllegalStateBase, q: int) -> None:
    st.partner = q
    st.f_partner[q] = 1
    st._set_decider(q)
    st._set_phase(TRADE_ANSWER)


def _end_trade(st: IllegalStateBase) -> None:
    st.give[:] = st.game.no_known
    st.want[:] = st.game.no_known
    st.n_give = st.n_want = 0
    if st.partner >= 0:
        st.f_partner[st.partner] = 0
        st.partner = -1
    _resume(st)


# ----- hands (deals) and the end --------------------------------------------------------------------
def new_hand(st: IllegalStateBase) -> None:
    """A new hand: every field back to its start, a shuffled deck, the deal, the first turn."""
    g, n = st.game, st.n
    st._reset_hand()
    st.rng.shuffle(st.deck)
    for q in range(n):
        for _ in range(g.hand_size):
            st._draw(q)
    # The dealer rotates: the player left of the dealer opens each hand.
    start_turn(st, (g.config.first_player + st.rounds_played) % n)


def _end_hand(st: IllegalStateBase) -> None:
    """Accounting (R4.11); another hand follows until a total reaches ``target_score``."""
    c = st.game.config
    scores = [st.accounting(q) for q in range(st.n)]
    st.last_scores = scores
    st.totals = [t + s for t, s in zip(st.totals, scores)]
    st.rounds_played += 1
    if c.target_score is None or max(st.totals) >= c.target_score or st.rounds_played >= c.max_hands:
        st._set_decider(-1)
        st._set_phase(OVER)
        st.f_hands_played[0] = st.rounds_played
        return
    new_hand(st)
