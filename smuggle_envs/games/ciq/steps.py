"""CIQ's rules in play: what each phase allows (``legal_actions``) and what each action does
(``apply``), as functions of the state (``state.py``), which ``rules.CIQState`` binds as its
methods.

"R1.n" refers to resolution n of the rulebook resolutions; quotations are from the rulebook.
``docs/rules/ciq.md`` quotes both, maps every rule to the code and to its test, and records
every interpretation with its reason.

A turn is one or more atomic decisions of the player to move (``turn``): choose a target, play
sabotage and shipment cards one at a time, STOP; the target of a smuggled Illegal card answers
once (Fire or keep); transfers that must come from the hand are chosen card by card. Everything
else (drawing up to 7, turning Import piles over, transfers from the Stock and Export piles) is
automatic.
"""

from __future__ import annotations

from . import actions as A
from .actions import CARD_BITS, JOKER, NUM_KINDS, NUM_RANKS
from .state import CIQStateBase
from .vocab import (
    ACE,
    AFTER_SABOTAGE,
    FIRE_DECISION,
    FLAG_BRIBE,
    FLAG_FIRED,
    FLAG_SMUGGLED,
    GIVE_FROM_HAND,
    JACK,
    KING,
    MAIN,
    NUMBER,
    OPEN,
    OVER,
    PHASE_NAMES,
    QUEEN,
    SABOTAGE2,
    SHIP_FLAGS,
    SHIPPING,
)

# Outcome of pulling cards from the shipper's sources.
_GO_ON, _TURN_ENDS = 0, 1


# ----- legal actions -------------------------------------------------------------------------
def legal_actions(st: CIQStateBase) -> tuple[int, ...]:
    legal = st._legal
    if legal is None:
        legal = st._legal = tuple(compute_legal(st))
    return legal


def compute_legal(st: CIQStateBase) -> list[int]:
    phase = st.phase
    if phase == OVER:
        return []
    if phase == FIRE_DECISION:
        h = st.hand[st.target]
        return [A.FIRE + k for k in st.game.face_kinds if h[k]] + [A.KEEP]
    p = st.turn
    present = sorted(st.kinds[p])
    if phase == MAIN:
        acts = _main_plays(st, p, present)
        if st.stock or st.exp[p]:
            acts.append(A.DRAW)
        if not acts:
            acts.append(A.PASS)
        acts.sort()
        return acts
    if phase == OPEN:
        return _open_actions(st, st.target, present)
    if phase == SABOTAGE2:
        if st.sab_card == JOKER:
            return [A.SABOTAGE + k for k in present if k != JOKER]
        s = st.sab_card // NUM_RANKS
        return [A.SABOTAGE + k for k in present if k // NUM_RANKS == s]
    if phase == AFTER_SABOTAGE:
        return _ship_first(st, st.target, present) + [A.STOP]
    if phase == SHIPPING:
        if st.bribe:
            return [A.SHIP + k for k in present] + [A.STOP]
        prev, tv = st.ship_prev, st.tol_value[st.target]
        ps, pr = prev // NUM_RANKS, prev % NUM_RANKS
        values = st.game.values
        acts = []
        for k in present:
            if k == JOKER or k // NUM_RANKS == ps:
                acts.append(A.SHIP + k)  # a Joker, a Legal card, or the one smuggle
            elif k % NUM_RANKS == pr and (not tv or values[k] <= tv):
                acts.append(A.SHIP + k)
        acts.append(A.STOP)
        return acts
    # GIVE_FROM_HAND
    return [A.GIVE + k for k in present]


def _main_plays(st: CIQStateBase, p: int, present: list[int]) -> list[int]:
    """The moves that play cards at the start of p's turn: choose a target, or Hire."""
    acts = []
    if st.n == 2:
        acts += _open_actions(st, 1 - p, present)
    else:
        for off in range(1, st.n):
            if _can_attack(st, (p + off) % st.n, present):
                acts.append(A.TARGET + off - 1)
    return acts + _hire_actions(st, p, present)


def _ship_first(st: CIQStateBase, q: int, present: list[int]) -> list[int]:
    tv = st.tol_value[q]
    values = st.game.values
    acts = [A.SHIP + k for k in present if k != JOKER and (not tv or values[k] <= tv)]
    if present and present[-1] == JOKER and st.game.config.joker_opens_shipment:
        acts.append(A.SHIP + JOKER)
    return acts


def _sabotage_first(st: CIQStateBase, q: int, present: list[int]) -> list[int]:
    tv = st.tol_value[q]
    if not tv:
        return []  # R1.3: nothing to sabotage without a Tolerance pile
    values, h = st.game.values, st.hand[st.turn]
    acts = []
    for k in present:
        if k == JOKER:
            if len(present) > 1:  # any suited card may follow a Joker
                acts.append(A.SABOTAGE + k)
        elif values[k] <= tv:
            s = k // NUM_RANKS
            if h[k] > 1 or any(j // NUM_RANKS == s for j in present if j != k):
                acts.append(A.SABOTAGE + k)
    return acts


def _open_actions(st: CIQStateBase, q: int, present: list[int]) -> list[int]:
    return _ship_first(st, q, present) + _sabotage_first(st, q, present)


def _can_attack(st: CIQStateBase, q: int, present: list[int]) -> bool:
    if not present:
        return False
    tv = st.tol_value[q]
    if not tv:
        return present[0] != JOKER or st.game.config.joker_opens_shipment
    values = st.game.values
    for k in present:
        if k != JOKER and values[k] <= tv:
            return True
    # Only Jokers and Illegal cards: a Joker may open a Sabotage (or a shipment, by config).
    return present[-1] == JOKER and (len(present) > 1 or st.game.config.joker_opens_shipment)


def _hire_actions(st: CIQStateBase, p: int, present: list[int]) -> list[int]:
    if not st.tol[p]:
        return [A.HIRE + k for k in present if k != JOKER]
    s = st.tol[p][-1] // NUM_RANKS
    return [A.HIRE + k for k in present if k // NUM_RANKS == s and k != JOKER]


# ----- the step --------------------------------------------------------------------------------
def apply(st: CIQStateBase, action: int) -> None:
    st._legal = None
    if action < A.SABOTAGE:
        _ship(st, action - A.SHIP)
    elif action < A.HIRE:
        _sabotage(st, action - A.SABOTAGE)
    elif action < A.FIRE:
        _hire(st, action - A.HIRE)
    elif action < A.GIVE:
        _fire(st, action - A.FIRE)
    elif action < A.TARGET:
        _give(st, action - A.GIVE)
    elif action < A.STOP:
        st._set_target((st.turn + action - A.TARGET + 1) % st.n)
        st._set_phase(OPEN)
    elif action == A.STOP:
        if st.phase == AFTER_SABOTAGE:
            _end_turn(st)
        else:
            _end_shipment(st)
    elif action == A.DRAW:
        _draw_one(st)
    elif action == A.KEEP:
        _resolve(st)
    else:  # PASS
        _note_pass(st, st.turn)
        _end_turn(st)


def _ship(st: CIQStateBase, k: int) -> None:
    """Shipping: the card goes face up onto the target's Import pile."""
    p = st.turn
    if st.phase == MAIN:  # two players: the target is implied
        st._set_target(1 - p)
    t = st.target
    st._hand_to_import(p, t, k)
    st.f_ship[k] += 1
    first = not st.ship
    st.ship.append(k)
    flags = st.f_ship_flags
    g = st.game
    if k == JOKER:
        st.bribe = True  # Bribing: the next card is allowed, whatever it is
        flags[FLAG_BRIBE] = 1
        st.f_ship_last[:] = g.card_bits[JOKER]
    else:
        tv = st.tol_value[t]
        if not first and not st.bribe and tv and g.values[k] > tv:
            # The one smuggled Illegal card (same suit as the previous card) ends it.
            st.smuggled = len(st.ship) - 1
            flags[FLAG_SMUGGLED] = 1
            st.f_smuggled[:] = g.card_bits[k]
            st.f_ship_last[:] = g.card_bits[k]
            _end_shipment(st)
            return
        st.bribe = False
        flags[FLAG_BRIBE] = 0
        st.ship_prev = k
        st.f_ship_last[:] = g.card_bits[k]
    st._set_phase(SHIPPING)


def _sabotage(st: CIQStateBase, k: int) -> None:
    p = st.turn
    if st.phase == MAIN:
        st._set_target(1 - p)
    st._hand_remove(p, k)
    st._reveal(k, p)  # played face up
    if st.phase != SABOTAGE2:
        st.sab_card = k
        st.f_sabotage[k] = 1
        st._set_phase(SABOTAGE2)
        return
    # The second card: judged, like the first, against the tolerance before the sabotage.
    t, first = st.target, st.sab_card
    g = st.game
    illegal = g.values[k] > st.tol_value[t]
    st._tol_push(t, first)
    st._tol_push(t, k)
    if illegal and g.face[k] and (first != JOKER or g.config.bribed_face_wipes):
        # An Illegal face card wipes the pile, both cards included, to the Export pile.
        st._face_up_to_export(t, st._tol_clear(t))
    st.f_sabotage[first] = 0
    st.sab_card = -1
    st._set_phase(AFTER_SABOTAGE)


def _hire(st: CIQStateBase, k: int) -> None:
    p = st.turn
    st._hand_remove(p, k)
    st._reveal(k, p)
    st._face_up_to_export(p, st._tol_clear(p))  # the old pile: bottom of the Export pile
    st._tol_push(p, k)
    _end_turn(st)


def _note_pass(st: CIQStateBase, p: int) -> None:
    """A PASS shows everyone that no card of p's hand can be played: all are of the kinds
    that, alone, allow no target and no Hire (or all are Jokers, if a Joker alone allows
    none). With a pass before, p's hand meets both."""
    if not st.hand_size[p]:
        return
    dead = [frozenset(k for k in range(JOKER) if not _main_plays(st, p, [k]))]
    if not _main_plays(st, p, [JOKER]):
        dead.append(frozenset((JOKER,)))
    old = st.shown[p] or ((None, frozenset(), 0),)
    options = (
        (kinds if allowed is None else allowed & kinds, counted & kinds, count)
        for allowed, counted, count in old
        for kinds in dead
    )
    # The hand (not empty) fits no option that allows no kind or counts cards of none.
    st.shown[p] = tuple(dict.fromkeys(o for o in options if o[0] and (o[1] or not o[2]))) or None


def _draw_one(st: CIQStateBase) -> None:
    p = st.turn
    if st.stock:
        st._draw_stock(p)
        if not st.stock:
            _stock_out(st)
            if st.phase == OVER:
                return
    else:
        st._draw_export(p)
    _end_turn(st)


def _fire(st: CIQStateBase, k: int) -> None:
    t = st.target
    st._hand_remove(t, k)
    st._reveal(k, t)
    cards = st._tol_clear(t)
    cards.append(k)
    st._face_up_to_export(t, cards)
    st.last_fire = (t, k)  # shown on the table: the pile may hide it again before t decides
    st.fired = True
    st.f_ship_flags[FLAG_FIRED] = 1
    _resolve(st)


def _give(st: CIQStateBase, k: int) -> None:
    st._hand_to_import(st.turn, st.target, k)
    st.res_total += 1
    st.res_pending -= 1
    _resolve(st)


# ----- shipping results ------------------------------------------------------------------------
def _end_shipment(st: CIQStateBase) -> None:
    if st.smuggled >= 0:
        # The target may Fire before anything is transferred. The decision is always
        # offered (KEEP is always legal), so nobody learns from it whether he holds a face card.
        st._set_phase(FIRE_DECISION)
    else:
        _resolve(st)


def _resolve(st: CIQStateBase) -> None:
    """Transfers of the shipped cards, in the order played (R1.7); pauses to ask the shipper
    which hand cards to transfer, and resumes on ``_give``."""
    s, t = st.turn, st.target
    g = st.game
    effects, values = g.effects, g.values
    cards = st.ship
    while True:
        if st.res_pending:
            hs = st.hand_size[s]
            if hs > st.res_pending:
                st._set_phase(GIVE_FROM_HAND)
                return
            # Every card left in hand goes: nothing to choose.
            for k in sorted(st.kinds[s]):
                for _ in range(st.hand[s][k]):
                    st._hand_to_import(s, t, k)
            st.res_total += hs
            st.res_pending = 0
            break
        i = st.res_i
        if i >= len(cards):
            break
        st.res_i = i + 1
        if i == st.smuggled and st.fired:
            continue  # Firing stops the Illegal card's own result
        k = cards[i]
        effect = effects[k]
        if effect == NUMBER:
            outcome = _pull(st, values[k])
        elif effect == QUEEN:
            outcome = _pull(st, st.res_total) if st.res_total else _GO_ON
        elif effect == KING:
            outcome = _move_import(st, s, t)
        elif effect == ACE:
            outcome = _move_export(st, s, t) if not st.stock else _GO_ON
        elif effect == JACK:
            outcome = _jack(st, s, t)
        else:
            outcome = _GO_ON  # a Joker transfers nothing
        if outcome == _TURN_ENDS or st.phase == OVER:
            break
    if st.phase == OVER:
        return
    st.res_pending = 0
    _end_turn(st)


def _pull(st: CIQStateBase, count: int) -> int:
    """Transfer ``count`` cards to the target's Import pile from the shipper's sources: the
    Stock, else the Export pile, else (only with an empty Import pile) the hand."""
    s, t = st.turn, st.target
    stock = st.stock
    if stock:
        m = min(count, len(stock))
        st._stock_to_import_many(t, m)
        st.res_total += m
        if not stock:
            _stock_out(st)  # "when the Stock Pile runs out, your turn ends"
            return _TURN_ENDS
        return _GO_ON
    e = st.exp[s]
    if e:
        m = min(count, len(e))
        for _ in range(m):
            st._export_to_import(s, t)
        st.res_total += m
        if e:
            return _GO_ON
        if st.imp_size[s]:
            return _TURN_ENDS  # Export ran out with cards in the Import pile
        count -= m
    elif st.imp_size[s]:
        return _TURN_ENDS
    st.res_pending = count  # continue by picking cards from the hand
    return _GO_ON


def _move_import(st: CIQStateBase, s: int, t: int) -> int:
    """King: the shipper's whole Import pile goes onto the target's (all face up)."""
    src, dst = st.imp[s], st.imp[t]
    moved = st.imp_size[s]
    for k in range(NUM_KINDS):
        c = src[k]
        if c:
            dst[k] += c
    src[:] = bytes(NUM_KINDS)
    st.imp_size[s] = 0
    st.imp_size[t] += moved
    st.res_total += moved
    return _GO_ON


def _move_export(st: CIQStateBase, s: int, t: int) -> int:
    """Ace (no Stock left): the shipper's whole Export pile goes onto the target's Import."""
    if not st.exp[s]:
        return _GO_ON
    moved = st.exp_size[s]
    for _ in range(moved):
        st._export_to_import(s, t)
    st.res_total += moved
    # The Export pile ran out while transferring: with Import cards left, the turn ends.
    return _TURN_ENDS if st.imp_size[s] else _GO_ON


def _jack(st: CIQStateBase, s: int, t: int) -> int:
    """Jack: turn over the top card of the Export pile (of the Stock while it exists, R1.7)
    onto the Jack; it joins the shipment and transfers double its number value."""
    if st.stock:
        k = st._stock_to_import(t)
        st.flipped.append(k)
        if not st.stock:
            _stock_out(st)
            return _TURN_ENDS
    elif st.exp[s]:
        k = st._export_to_import(s, t)
        st.flipped.append(k)
        if not st.exp[s] and st.imp_size[s]:
            return _TURN_ENDS
    else:
        return _GO_ON  # nothing to turn over
    g = st.game
    if g.effects[k] != NUMBER:
        return _GO_ON  # face cards (and Jokers) transfer nothing
    return _pull(st, 2 * g.values[k])


# ----- turns -----------------------------------------------------------------------------------
def start_turn(st: CIQStateBase, p: int) -> None:
    st._set_turn(p)
    st._set_target(-1)
    stock, e, H = st.stock, st.exp[p], st.game.hand_size
    if not stock and not e and st.imp_size[p]:
        st._import_to_export(p)
    # Fill the hand up to 7: from the Stock, then from the Export pile, which is rebuilt
    # from the Import pile whenever it runs out (also in the middle of drawing).
    while st.hand_size[p] < H:
        if stock:
            st._draw_stock(p)
            if not stock:
                _stock_out(st)
                if st.winners:
                    return
        elif e:
            st._draw_export(p)
            if not e and st.imp_size[p]:
                st._import_to_export(p)
        elif st.imp_size[p]:
            st._import_to_export(p)
        else:
            break  # every source is empty: play on with fewer
    st._set_phase(MAIN)


def _end_turn(st: CIQStateBase) -> None:
    if st._probe:  # a copy resolving a shipment (``shipment_transfers``) stops here
        st._set_phase(OVER)
        return
    s = st.turn
    if not st.stock and not st.hand_size[s] and not st.imp_size[s] and not st.exp[s]:
        # Hand, Import and Export piles all gone: a win (normally by shipping; a Sabotage or
        # a Hire may also play the last cards).
        _game_over(st, [s])
        return
    st.turns += 1
    st.counters[1] = min(st.turns, 65535)
    _reset_move_fields(st)
    limit = st.game.config.turn_limit
    if limit is not None and st.turns >= limit:
        st.drawn_game = True
        st._set_phase(OVER)
        return
    start_turn(st, (st.turn + 1) % st.n)


def _reset_move_fields(st: CIQStateBase) -> None:
    if st.ship:
        st.f_ship[:] = bytes(NUM_KINDS)
        st.f_ship_last[:] = bytes(CARD_BITS)
        st.f_ship_flags[:] = bytes(SHIP_FLAGS)
        st.f_smuggled[:] = bytes(CARD_BITS)
    st._clear_move()
    st._set_target(-1)


def _game_over(st: CIQStateBase, winners: list[int]) -> None:
    st.winners = sorted(winners)  # a new list: clones share the old one
    st._set_phase(OVER)


def _stock_out(st: CIQStateBase) -> None:
    """The Stock has run out: every Import pile is turned over into an Export pile."""
    for q in range(st.n):
        if st.imp_size[q]:
            st._import_to_export(q)
    empty = [q for q in range(st.n) if not st.hand_size[q] and not st.exp[q]]
    if empty:
        _game_over(st, empty)


# ----- read-only questions (analytics) -----------------------------------------------------------
def shipment_transfers(st: CIQStateBase, with_smuggled: bool = True) -> int:
    """At a Fire decision: the cards this shipment transfers in all if the target keeps its
    customs worker, with or without the Smuggled card's own result, resolved on a copy up to
    the end of the turn (or of the game). The cards before the Smuggled one transfer the same
    either way, in the same order, from the same sources; transfers the shipper must pick
    from its hand are picked lowest kind first (the count does not depend on the order)."""
    if st.phase != FIRE_DECISION:
        raise ValueError(f"shipment_transfers() asks at a Fire decision, not in phase {PHASE_NAMES[st.phase]!r}")
    c = st.clone()
    c._probe = True
    c.fired = not with_smuggled  # a fired customs worker stops the Smuggled card's result
    _resolve(c)
    while c.phase == GIVE_FROM_HAND:
        _give(c, min(c.kinds[c.turn]))
    return c.res_total


def smuggled_worth(st: CIQStateBase) -> int:
    """At a Fire decision: the cards the Smuggled card transfers unless the target Fires
    (its own result; 0 for, e.g., a King with an empty Import pile)."""
    return shipment_transfers(st, True) - shipment_transfers(st, False)
