"""Smuggle's perfect-recall resample: a world drawn from what one seat has seen, never copied
from the truth (``State.resample``; ``rules.SmuggleState`` binds ``resample`` as its
``_resample``).

**What is public, what is hidden.** The live hand has a past that everyone watched: dealt fresh
to one seat, then passed on and taken seat by seat (clockwise past the Officer), each taker
throwing one card face up and drawing one blind. Who held it, in what order, and every discard are
public (``live_hand_history`` reads them from the actions). Hidden are the cards dealt and drawn,
and with them every passer's memory: ``known[q]`` is the hand ``H`` that ``q`` last passed on,
less one card for every later discard of a kind it still counts (``steps._discard``), so
``known[q][k] = max(H[k] - n[k], 0)`` with ``n`` the later discards per kind. Hence a seat that
passed earlier remembers a sub-multiset of what a later passer remembers, the two differing by at
most the cards drawn in between, and the last passer remembers exactly the kept cards (the whole
hand while it is on its way); but how many cards an earlier memory keeps is hidden too (a discard
of a kind it counts may have been its card or a later draw).

**What a seat knows.** Every hand of that past it held or took: the hand it was dealt or drew
into, and the hand it was passed. The state keeps those hands (``hand_past``, hidden, like the
hand); ``known[player]`` follows from them.

**The draw.** The hands ``player`` saw stay as they were; every other hand of the past is drawn
so that each step is legal (the discard was in the hand, and a hand holding the Bag discarded it,
rule 15) and every card drawn is a real card of the pool:

* above the last hand ``player`` saw, forwards: each blind draw is a card of the unseen pool,
  uniformly among those that let the next discard be made;
* between two hands it saw, backwards: each draw is a card of the later hand, uniformly among
  those from which the earlier seen hand is still reachable;
* below the first hand it saw (or from the live hand when it saw none), backwards: each draw is a
  uniformly chosen card of the hand (the Bag when the hand holds it and the discard just before
  that draw was not the Bag);
* when it saw none, the live hand is redrawn as the kept cards (Bag-free, rule 15) and a drawn card.

Every seat's memory is then computed from the drawn past by the engine's own rule: the memories
fit each other and the hand, and none is copied from the truth.

**The records of accepted lies.** A seat that accepts a hand sees whether it bears out its
declaration, and counts privately the ones that did not (``received_lies``; how many it accepted
from whom, ``received_from``, can be counted from the actions). For every accept but the viewer's
own, that record is redrawn from a drawn past, judged by the engine's own rule
(``steps.truthful``):

* an accept of the live hand: from the hands of its past drawn above;
* an accept of an earlier live hand (``SmuggleStateBase.finished_hands``): its last hand is
  public however it ended (laid open by the Officer's or an Informer's search or by a forfeit;
  or, when a discard left the pack empty and so ended the round (R2.8), every card of the round
  less the open suitcase: the hand kept, plus that discard), so are its discards, and the viewer
  saw the hands it held or took; every other hand of its past is drawn backwards from the last
  exactly as the live hand's are below the top one (between two known hands, or below the
  lowest). Its cards (the last hand and the discards) are all public by then and only their order
  is hidden, so each finished hand is drawn on its own.

The viewer's own record comes out as it was, and so does every lie status it saw or that the
rules make public (a Bag claim passed on was a lie just when the discard after it was not the
Bag, rule 15). The drawn hands replace the true ones in the world (``finished_hands``), so a
world resampled again for another seat does not read the truth there either.

**Approximations.** Every world is a past consistent with everything ``player`` has seen, and
every such past can be drawn, but they are not weighted exactly as likely as their deals: the
walks above choose uniformly step by step rather than weighing whole pasts, and no discard is
taken to tell anything beyond what the rules force (each is a legal choice, not weighed by how
likely a player would make it). The same holds for the finished hands' pasts, and so for the
other seats' records of accepted lies: a lie is drawn as often as the pasts that hold it are
reached by those walks, not weighed by how likely a player is to declare, let pass or accept it.
"""

from __future__ import annotations

import random

from . import actions as A
from .actions import BAG, NUM_KINDS
from .state import FinishedHand, Pass, SmuggleStateBase
from .steps import truthful
from .vocab import DECLARE, DISCARD, OFFICER, OVER, RECEIVE

Hand = list[int]  # counts per card kind

# Actions already taken on the live hand's present turn, by phase: its declaration, then the
# Officer's "let pass", then the accept.
_THIS_TURN = {DECLARE: 0, OFFICER: 1, RECEIVE: 2, DISCARD: 3}


def live_hand_history(st: SmuggleStateBase) -> tuple[list[int], list[int]]:
    """The public past of the live hand since it was dealt: ``(holders, discards)``.

    ``holders[0]`` was dealt it; ``holders[j]`` took it from ``holders[j - 1]``, threw
    ``discards[j - 1]`` (a card kind) face up and drew ``st.hand_past[j]``. Every holder but the
    last has passed it on, and the last has too while the phase is RECEIVE or DISCARD (in
    DISCARD, ``st.holder`` has taken it from ``holders[-1]`` and not yet discarded). Read from the
    actions: each turn that passed the hand on is a declaration, "let pass", "accept", a discard."""
    m = len(st.hand_past) - 1
    history = st.history
    end = len(history) - _THIS_TURN[st.phase]
    discards: list[int] = []
    for i in range(end, end - 4 * m, -4):
        if i < 4 or history[i - 1] < A.DISCARD or history[i - 2] != A.ACCEPT or history[i - 3] != A.LET_PASS:
            raise RuntimeError("the actions do not show the passes of the live hand's past")
        discards.append(history[i - 1] - A.DISCARD)
    discards.reverse()
    # Passing goes to the next active seat that is not the Officer (R2.6); neither changes while a
    # hand goes round (an elimination ends the hand), so the takers are read back from the last.
    seat = _previous(st, st.holder) if st.phase == DISCARD else st.holder
    holders = [seat]
    for _ in discards:
        seat = _previous(st, seat)
        holders.append(seat)
    holders.reverse()
    return holders, discards


def _previous(st: SmuggleStateBase, seat: int) -> int:
    """The seat that passes to ``seat``: the previous active seat that is not the Officer."""
    n, active, officer = st.n, st.active, st.officer
    for step in range(1, n + 1):
        s = (seat - step) % n
        if active[s] and s != officer:
            return s
    return -1


def resample(st: SmuggleStateBase, player: int, rng: random.Random) -> SmuggleStateBase:
    """Redraw what ``player`` cannot see: the pack's order, the live hand's cards and past that
    ``player`` did not see, the other seats' memories of it (computed from that past, see the
    module's docstring), the pasts of earlier hands and with them the other seats' records of
    the lies they accepted, and the state's own RNG (future shuffles)."""
    new = st.clone()
    new.rng = st._fresh_rng(rng)
    past: list[Hand] = []
    if st.phase == OVER or not st.hand_size:
        rng.shuffle(new.deck)
    else:
        past = _redraw_live_hand(st, new, player, rng)
    _redraw_received_lies(st, new, player, past, rng)
    return new


def _redraw_live_hand(st: SmuggleStateBase, new: SmuggleStateBase, player: int, rng: random.Random) -> list[Hand]:
    """Redraw into ``new`` the live hand, its past, the memories of it and the pack; returns the
    drawn past (``past[j]``: the hand ``holders[j]`` held, see ``live_hand_history``)."""
    holders, discards = live_hand_history(st)
    m = len(discards)
    hands: list[Hand | None] = [None] * (m + 1)
    for j in _seen(st, player, holders):
        # the live hand from ``hand``, the one record a scenario may have set by hand
        hands[j] = st.hand.tolist() if j == m else list(st.hand_past[j])
    top = max((j for j, hand in enumerate(hands) if hand is not None), default=-1)
    drawn = -1
    if top == m:
        rng.shuffle(new.deck)
    elif top >= 0:
        new.deck = _draw_forward(st, hands, discards, top, rng)
    else:
        hands[m], drawn, new.deck = _redraw_hand(st, rng)
    _draw_backward(hands, discards, drawn, rng)
    past = [hand for hand in hands if hand is not None]
    if len(past) != m + 1:
        raise RuntimeError("a hand of the live hand's past was left undrawn")
    # Each seat's memory: the hand of its last pass, worn down by the discards since.
    passes = m + 1 if st.phase in (RECEIVE, DISCARD) else m
    last_pass = {seat: j for j, seat in enumerate(holders[:passes])}
    later = [0] * NUM_KINDS  # the discards after pass j, per kind
    memory = {}
    for j in range(m, -1, -1):
        if j < m:
            later[discards[j]] += 1
        memory[j] = bytes(max(h - n, 0) for h, n in zip(past[j], later))
    for q in range(st.n):
        new.known[q][:] = memory[last_pass[q]] if q in last_pass else bytes(NUM_KINDS)
    if bytes(new.known[player]) != bytes(st.known[player]):
        raise RuntimeError(f"seat {player}'s memory does not follow from the live hand's past")
    new.hand[:] = bytes(past[m])
    new.hand_past = tuple(bytes(hand) for hand in past)
    return past


def _redraw_received_lies(
    st: SmuggleStateBase, new: SmuggleStateBase, player: int, live: list[Hand], rng: random.Random
) -> None:
    """Redraw every finished hand's past into ``new`` and recount, from those pasts and the live
    hand's drawn past (``live``), the lies each seat but ``player`` accepted."""
    n = st.n
    lies, accepted = [0] * (n * n), [0] * (n * n)
    finished = []
    for record in st.finished_hands:
        drawn = _draw_finished(player, record, rng)
        finished.append(FinishedHand(record.passes, tuple([bytes(hand) for hand in drawn]), record.discards))
        _count_lies(lies, accepted, n, record.passes, drawn)
    new.finished_hands = tuple(finished)
    _count_lies(lies, accepted, n, st.hand_passes, live)
    if bytes(accepted) != bytes(st.received_from):
        raise RuntimeError("the recorded passes do not account for every accepted hand")
    # The viewer saw every hand it accepted, so its own row comes out as it was.
    mine = slice(player * n, (player + 1) * n)
    if bytes(lies[mine]) != bytes(st.received_lies[mine]):
        raise RuntimeError(f"seat {player}'s record of accepted lies does not follow from the hands it saw")
    new.received_lies[:] = bytes(lies)


def _count_lies(lies: list[int], accepted: list[int], n: int, passes: tuple[Pass, ...], past: list[Hand]) -> None:
    """Add each pass (accepted hand ``past[j]``) to its receiver's counts of ``accepted`` hands
    and of ``lies``, by the rule ``steps._accept`` applies."""
    if len(passes) > len(past):
        raise RuntimeError("an accepted hand is missing from the drawn past")
    for (passer, receiver, declared, _), hand in zip(passes, past):
        cell = receiver * n + passer
        accepted[cell] += 1
        lies[cell] += not truthful(declared, hand)


def _draw_finished(player: int, record: FinishedHand, rng: random.Random) -> list[Hand]:
    """A past for a finished hand: its last hand (public) and those ``player`` saw kept, the
    others drawn backwards (``_draw_backward``)."""
    hands = record.hands
    top = len(hands) - 1
    drawn: list[Hand | None] = [None] * (top + 1)
    for j in _seen_finished(player, record.passes, top):
        drawn[j] = list(hands[j])
    _draw_backward(drawn, list(record.discards), -1, rng)
    past = [hand for hand in drawn if hand is not None]
    if len(past) != top + 1:
        raise RuntimeError("a hand of a finished hand's past was left undrawn")
    return past


def _seen_finished(player: int, passes: tuple[Pass, ...], top: int) -> set[int]:
    """The hands of a finished hand's past that ``player`` knows: the last one (public), each it
    held (it passed it, or drew into it after taking the one before) and each it took."""
    seen = {top}
    for j, (passer, receiver, _, _) in enumerate(passes):
        if player in (passer, receiver):
            seen.add(j)
        if receiver == player and j < top:
            seen.add(j + 1)
    return seen


def _seen(st: SmuggleStateBase, player: int, holders: list[int]) -> set[int]:
    """Where in the past ``player`` saw the live hand: each hand it held (dealt or drawn into)
    and each hand it took (the one before)."""
    seen = set()
    for j, seat in enumerate(holders):
        if seat == player:
            seen.add(j)
            if j:
                seen.add(j - 1)
    if st.phase == DISCARD and st.holder == player:
        seen.add(len(holders) - 1)
    return seen


def _redraw_hand(st: SmuggleStateBase, rng: random.Random) -> tuple[Hand, int, list[int]]:
    """The live hand redrawn for a seat that never saw it: ``(hand, drawn, pack)``, ``drawn``
    the card drawn after the kept ones (-1 if none was) and ``pack`` the rest, shuffled."""
    pool = st.deck + st.hand_cards()
    rng.shuffle(pool)
    hand = [0] * NUM_KINDS
    # Kept cards are never the Bag (rule 15), so draw those from the Bag-free part of the pool.
    for _ in range(st.kept):
        hand[pool.pop(next(i for i, c in enumerate(pool) if c != BAG))] += 1
    # Shuffle again: skipping the Bag above left it nearer the front, so the card drawn after the
    # kept ones would be the Bag with 1/pool, not the 1/(pool - kept) of a fair deal (found by the
    # enumeration test of training/bluffing/beliefs.py).
    rng.shuffle(pool)
    drawn = -1
    for _ in range(st.hand_size - st.kept):
        drawn = pool.pop()
        hand[drawn] += 1
    return hand, drawn if st.kept else -1, pool


def _legal(hand: Hand, discard: int) -> bool:
    """Whether ``hand`` can throw ``discard``: it holds one, and a Bag is discarded (rule 15)."""
    return hand[discard] > 0 and (discard == BAG or not hand[BAG])


def _pick(rng: random.Random, hand: Hand, allowed: list[int]) -> int:
    """A uniformly chosen card of ``hand`` among the kinds ``allowed``. The same choice, from the
    same one draw of ``rng``, as ``rng.choices(allowed, weights)``: the first kind whose running
    total of cards exceeds the draw. Written out because a resample picks for every undone draw
    of every finished hand, and ``choices`` builds two lists a call."""
    x = rng.random() * sum([hand[k] for k in allowed])
    total = 0
    for k in allowed:
        total += hand[k]
        if x < total:
            return k
    return allowed[-1]  # as ``choices`` does, should rounding leave ``x`` at the total


def _draw_forward(
    st: SmuggleStateBase, hands: list[Hand | None], discards: list[int], top: int, rng: random.Random
) -> list[int]:
    """Fill ``hands`` above the last one seen (``top``) by drawing from the unseen pool, each
    card one that lets the next discard be made; returns the pack left, shuffled."""
    m = len(discards)
    hand = list(hands[top] or ())
    pool = [0] * NUM_KINDS  # the pack at ``top``: unseen now, and the cards discarded since
    for card in st.deck + st.hand_cards() + discards[top:]:
        pool[card] += 1
    pool = [p - h for p, h in zip(pool, hand)]
    for j in range(top + 1, m + 1):
        hand[discards[j - 1]] -= 1
        allowed = [k for k in range(NUM_KINDS) if pool[k]]
        if j < m:
            nxt = discards[j]
            allowed = [k for k in allowed if _legal([h + (i == k) for i, h in enumerate(hand)], nxt)]
        card = _pick(rng, pool, allowed)
        pool[card] -= 1
        hand[card] += 1
        hands[j] = list(hand)
    deck = [k for k in range(NUM_KINDS) for _ in range(pool[k])]
    rng.shuffle(deck)
    return deck


def _draw_backward(hands: list[Hand | None], discards: list[int], drawn: int, rng: random.Random) -> None:
    """Fill the hands of the past below the top one, walking back from it: between two known
    hands by ``_bridge``, below the lowest by ``_walk_back`` (``drawn``: the top hand's newest
    card, when ``_redraw_hand`` drew it)."""
    hi = len(discards)
    while hi > 0:
        if hands[hi - 1] is not None:
            hi -= 1
            continue
        lo = max((j for j in range(hi - 1) if hands[j] is not None), default=-1)
        if lo < 0:
            _walk_back(hands, discards, hi, drawn if hi == len(discards) else -1, rng)
            return
        _bridge(hands, discards, lo, hi, rng)
        hi = lo


def _walk_back(hands: list[Hand | None], discards: list[int], hi: int, drawn: int, rng: random.Random) -> None:
    """Hands ``hi - 1`` down to 0: each step undoes a draw (a uniformly chosen card of the hand,
    the Bag if the discard before it was not the Bag, ``drawn`` first if given) and its discard."""
    for j in range(hi, 0, -1):
        cur, d = hands[j] or [], discards[j - 1]
        if drawn >= 0:
            card, drawn = drawn, -1
        elif d != BAG and cur[BAG]:
            card = BAG  # the hand that threw ``d`` held no Bag: it was drawn after
        else:
            card = _pick(rng, cur, [k for k in range(NUM_KINDS) if cur[k]])
        before = list(cur)
        before[card] -= 1
        before[d] += 1
        hands[j - 1] = before


def _bridge(hands: list[Hand | None], discards: list[int], lo: int, hi: int, rng: random.Random) -> None:
    """Hands ``lo + 1`` to ``hi - 1`` between the known hands ``lo`` and ``hi``: walking back from
    ``hi``, each undone draw is a uniformly chosen card of the hand among those that leave a hand
    legally reachable from ``lo`` (the sets of those are found forwards first)."""
    # Every card drawn in between ends in hand ``hi`` or is discarded on the way, so only those
    # kinds are drawn forwards: that drops only hands on no path to ``hi``, which the walk back
    # never chooses, and keeps the sets small (a resample bridges every finished hand).
    drawn = list(hands[hi] or ())
    for d in discards[lo:hi]:
        drawn[d] += 1
    kinds = [k for k, (n, h) in enumerate(zip(drawn, hands[lo] or ())) if n > h]
    reach = {lo: {tuple(hands[lo] or ())}}
    for j in range(lo + 1, hi):
        d, step = discards[j - 1], set()
        for hand in reach[j - 1]:
            if _legal(list(hand), d):
                for k in kinds:
                    after = list(hand)
                    after[d] -= 1
                    after[k] += 1
                    step.add(tuple(after))
        reach[j] = step
    for j in range(hi, lo + 1, -1):
        cur, d = hands[j] or [], discards[j - 1]
        allowed = [k for k in range(NUM_KINDS) if cur[k] and _undone(cur, k, d) in reach[j - 1]]
        if not allowed:
            raise RuntimeError("no past of the live hand joins the hands a seat saw")
        hands[j - 1] = list(_undone(cur, _pick(rng, cur, allowed), d))


def _undone(hand: Hand, card: int, discard: int) -> tuple[int, ...]:
    """The hand before it threw ``discard`` and drew ``card``, if it could throw it, else ()."""
    before = list(hand)
    before[card] -= 1
    before[discard] += 1
    return tuple(before) if _legal(before, discard) else ()
