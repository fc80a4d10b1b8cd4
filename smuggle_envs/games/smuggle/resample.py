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

**Kept work.** A search resamples thousands of times from one position, so what a finished
hand's walk needs from the viewer's information is worked out once per record and viewer and
kept (``_FinishedWalk``, see the comment above it); every draw is still made afresh, with the
same calls of the RNG as the plain walk, so the worlds are the same to the bit.

**Approximations.** Every world is a past consistent with everything ``player`` has seen, and
every such past can be drawn, but they are not weighted exactly as likely as their deals: the
walks above choose uniformly step by step rather than weighing whole pasts, and no discard is
taken to tell anything beyond what the rules force (each is a legal choice, not weighed by how
likely a player would make it). The same holds for the finished hands' pasts, and so for the
other seats' records of accepted lies: a lie is drawn as often as the pasts that hold it are
reached by those walks, not weighed by how likely a player is to declare, let pass or accept it.
"""

from __future__ import annotations

import itertools
import random
from bisect import bisect_right
from collections.abc import Sequence
from typing import NamedTuple

from . import actions as A
from .actions import BAG, NUM_KINDS
from .state import NO_CARDS, FinishedHand, Pass, SmuggleStateBase
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
        _shuffle(new.deck, rng)
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
        _shuffle(new.deck, rng)
    elif top >= 0:
        new.deck = _draw_forward(st, hands, discards, top, rng)
    else:
        hands[m], drawn, new.deck = _redraw_hand(st, rng)
    _draw_backward(hands, discards, drawn, rng)
    past = [hand for hand in hands if hand is not None]
    if len(past) != m + 1:
        raise RuntimeError("a hand of the live hand's past was left undrawn")
    _set_memories(st, new, holders, discards, past)
    if bytes(new.known[player]) != bytes(st.known[player]):
        raise RuntimeError(f"seat {player}'s memory does not follow from the live hand's past")
    new.hand[:] = bytes(past[m])
    new.hand_past = tuple(bytes(hand) for hand in past)
    return past


def _set_memories(
    st: SmuggleStateBase, new: SmuggleStateBase, holders: list[int], discards: list[int], past: list[Hand]
) -> None:
    """Each seat's memory of the live hand in ``new``: the hand of its last pass (``past``),
    worn down by the discards since; nothing for a seat that has not passed it."""
    m = len(discards)
    passes = m + 1 if st.phase in (RECEIVE, DISCARD) else m
    if not passes:  # a hand just dealt: nobody has passed it yet
        new.known_all[:] = st.game.no_known
        return
    last_pass = {seat: j for j, seat in enumerate(holders[:passes])}
    wanted = set(last_pass.values())
    later = [0] * NUM_KINDS  # the discards after pass j, per kind
    memory = {}
    for j in range(passes - 1, -1, -1):
        if j < m:
            later[discards[j]] += 1
        if j in wanted:
            memory[j] = bytes([max(h - n, 0) for h, n in zip(past[j], later)])
    # One write of the whole field (``known`` are its windows, one per seat): a resample's
    # every call writes it.
    new.known_all[:] = b"".join([memory[last_pass[q]] if q in last_pass else NO_CARDS for q in range(st.n)])


def _redraw_received_lies(
    st: SmuggleStateBase, new: SmuggleStateBase, player: int, live: list[Hand], rng: random.Random
) -> None:
    """Redraw every finished hand's past into ``new`` and recount, from those pasts and the live
    hand's drawn past (``live``), the lies each seat but ``player`` accepted."""
    n = st.n
    walks, accepted = _finished_walks(st.finished_hands, player, n)
    lies, accepted = [0] * (n * n), list(accepted)
    finished = []
    for walk in walks:
        drawn = _draw(walk.root, rng)
        finished.append(drawn.record)
        for cell in drawn.lies:
            lies[cell] += 1
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


# **The finished hands' walks, kept.** A search resamples thousands of times from one position,
# and a finished hand's walk back (``_draw_backward``) depends only on its record's public part
# (passes, discards, last hand) and the hands the viewer saw of it (``_FinishedWalk`` reads no
# other hand of the record, so nothing kept is hidden from the viewer it is kept for): so each
# (record, viewer) gets one ``_FinishedWalk``, whose choice points (``_Choice``) are built the
# first time a draw reaches them and whose ends (``_Drawn``) hold the drawn record ready to put
# in a world. A draw then only picks, with the same ``rng.random()`` calls and the same
# comparisons as ``_pick``, so the worlds are those ``_draw_backward`` draws, to the bit. Records
# are immutable and a key's record is held by its entry, so its ``id`` cannot be reused while
# the entry lives: an entry cannot go stale. Nothing here is part of any state, so no seat
# observes it. The drawn records are the kept ``_Drawn.record`` objects, so a world resampled
# again (for another seat) finds its walks kept too.
_WALKS: dict[tuple[int, int, int], tuple[FinishedHand, _FinishedWalk]] = {}
# The same for a state's whole ``finished_hands`` (a tuple, shared by clones until a hand
# finishes): its walks in order, and the ``received_from`` counts of their passes.
_ALL_WALKS: dict[tuple[int, int, int], tuple[tuple[FinishedHand, ...], tuple[_FinishedWalk, ...], list[int]]] = {}
# Past this many entries a cache starts afresh: a game has tens of records and a search one
# viewer, so a decision's search keeps its walks; worlds resampled again (each a new tuple of
# kept records) add entries and may start it afresh, which costs one walk per record again.
_MAX_WALKS = 1024


def _finished_walks(
    records: tuple[FinishedHand, ...], player: int, n: int
) -> tuple[tuple[_FinishedWalk, ...], list[int]]:
    """The kept walks of ``records`` seen by ``player`` (``n`` seats), and the ``received_from``
    counts of their passes, made on first use."""
    key = (id(records), player, n)
    entry = _ALL_WALKS.get(key)
    if entry is not None and entry[0] is records:
        return entry[1], entry[2]
    walks = tuple(_finished_walk(record, player, n) for record in records)
    accepted = [0] * (n * n)
    for walk in walks:
        for cell in walk.accepted:
            accepted[cell] += 1
    if len(_ALL_WALKS) >= _MAX_WALKS:
        _ALL_WALKS.clear()
    _ALL_WALKS[key] = (records, walks, accepted)
    return walks, accepted


def _finished_walk(record: FinishedHand, player: int, n: int) -> _FinishedWalk:
    """The kept walk for ``record`` seen by ``player`` (``n`` seats), made on first use."""
    key = (id(record), player, n)
    entry = _WALKS.get(key)
    if entry is not None and entry[0] is record:
        return entry[1]
    if len(_WALKS) >= _MAX_WALKS:
        _WALKS.clear()
    walk = _FinishedWalk(record, player, n)
    _WALKS[key] = (record, walk)
    return walk


def _draw(node: _Choice | _Drawn, rng: random.Random) -> _Drawn:
    """A drawn past of a finished hand: from its walk's root, one pick at each choice, as
    ``_pick`` picks (one ``rng.random()``, the first running total above it)."""
    while type(node) is _Choice:
        totals = node.totals
        # ``min``: the last kind, as ``_pick``, should rounding leave the draw at the total
        i = min(bisect_right(totals, rng.random() * totals[-1]), len(totals) - 1)
        child = node.children[i]
        if child is None:
            child = node.children[i] = node.walk.grow(node, i)
        node = child
    return node  # type: ignore[return-value]


class _Drawn(NamedTuple):
    """The end of a finished hand's walk: the record as the world holds it (its past drawn), and
    the cells of ``received_lies`` (``receiver * n + passer``) of the lies accepted in it."""

    record: FinishedHand
    lies: tuple[int, ...]


class _FinishedWalk:
    """A past for a finished hand, as ``_draw_backward`` draws it from the hands ``player`` saw
    (the last one, public, and those of ``_seen_finished``), its steps worked out once.
    ``rules[i]`` says how hand ``i`` follows from hand ``i + 1``: the hand itself when the viewer
    saw it; the hands reachable from the known hand below (``_reach``, as ``_bridge`` walks) when
    there is one; else None (``_walk_back``). ``accepted``: the ``received_from`` cells of its
    passes."""

    def __init__(self, record: FinishedHand, player: int, n: int):
        top = len(record.hands) - 1
        if len(record.passes) > top + 1:
            raise RuntimeError("an accepted hand is missing from the drawn past")
        self.record, self.n = record, n
        self.accepted = tuple(receiver * n + passer for passer, receiver, _, _ in record.passes)
        seen = sorted(_seen_finished(player, record.passes, top))
        self.rules: list[Hand | set[tuple[int, ...]] | None] = [None] * top
        for j in seen[:-1]:
            self.rules[j] = list(record.hands[j])
        for lo, hi in itertools.pairwise(seen):
            reach = _reach(list(record.hands[lo]), list(record.hands[hi]), record.discards, lo, hi)
            for j in range(lo + 1, hi):
                self.rules[j] = reach[j]
        self.root = self.walk([list(record.hands[top])])

    def walk(self, path: list[Hand]) -> _Choice | _Drawn:
        """Walk back from the last hand of ``path`` (the past from the top down) to the next
        choice, or to hand 0: what is forced is done here, once."""
        discards = self.record.discards
        for i in range(len(self.rules) - len(path), -1, -1):
            cur, d, rule = path[-1], discards[i], self.rules[i]
            if isinstance(rule, list):
                path.append(rule)
            elif rule is not None:
                allowed = [k for k in range(NUM_KINDS) if cur[k] and _undone(cur, k, d) in rule]
                if not allowed:
                    raise RuntimeError("no past of the live hand joins the hands a seat saw")
                return _Choice(self, path, allowed)
            elif d != BAG and cur[BAG]:
                path.append(_before(cur, BAG, d))  # the hand that threw ``d`` held no Bag
            else:
                return _Choice(self, path, [k for k in range(NUM_KINDS) if cur[k]])
        return self.end(path[::-1])

    def end(self, past: list[Hand]) -> _Drawn:
        """A whole drawn past, as the world keeps it, with its accepted lies."""
        record, n = self.record, self.n
        lies = tuple(
            receiver * n + passer
            for (passer, receiver, declared, _), hand in zip(record.passes, past)
            if not truthful(declared, hand)
        )
        return _Drawn(FinishedHand(record.passes, tuple([bytes(hand) for hand in past]), record.discards), lies)

    def grow(self, node: _Choice, i: int) -> _Choice | _Drawn:
        """Where undoing ``node.kinds[i]`` at ``node`` leads."""
        path = node.path
        return self.walk([*path, _before(path[-1], node.kinds[i], node.discard)])


class _Choice:
    """A point of a finished hand's walk where a card drawn is undone at random: ``path`` the
    hands from the top down to the current one, ``kinds`` the cards it may undo and ``totals``
    their running card counts (``_pick``'s weights); ``children[i]``: where undoing
    ``kinds[i]`` leads, made on first use."""

    __slots__ = ("children", "discard", "kinds", "path", "totals", "walk")

    def __init__(self, walk: _FinishedWalk, path: list[Hand], kinds: list[int]):
        cur = path[-1]
        self.walk, self.path, self.kinds = walk, path, kinds
        self.totals = list(itertools.accumulate(cur[k] for k in kinds))
        self.discard = walk.record.discards[len(walk.rules) - len(path)]
        self.children: list[_Choice | _Drawn | None] = [None] * len(kinds)


def _before(hand: Hand, card: int, discard: int) -> Hand:
    """The hand before it threw ``discard`` and drew ``card``."""
    before = list(hand)
    before[card] -= 1
    before[discard] += 1
    return before


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
    _shuffle(pool, rng)
    hand = [0] * NUM_KINDS
    # Kept cards are never the Bag (rule 15), so draw those from the Bag-free part of the pool.
    for _ in range(st.kept):
        first = next(i for i, c in enumerate(pool) if c != BAG)
        hand[pool.pop(first)] += 1
    # Shuffle again: skipping the Bag above left it nearer the front, so the card drawn after the
    # kept ones would be the Bag with 1/pool, not the 1/(pool - kept) of a fair deal (found by the
    # enumeration test of training/bluffing/beliefs.py).
    _shuffle(pool, rng)
    drawn = -1
    for _ in range(st.hand_size - st.kept):
        drawn = pool.pop()
        hand[drawn] += 1
    return hand, drawn if st.kept else -1, pool


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """``rng.shuffle(cards)``, written out: the same swaps from the same ``rng.getrandbits``
    calls (CPython's ``shuffle`` and ``_randbelow``), so the same order, about a third faster.
    Every resample shuffles a pack of tens of cards, once or twice, and that was its largest
    cost; ``tests/games/smuggle/test_resample_cache.py`` checks it against ``rng.shuffle``."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        k = (i + 1).bit_length()  # a place among the i + 1 first, drawn as ``_randbelow`` does
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


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
    _shuffle(deck, rng)
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
    reach = _reach(hands[lo] or [], hands[hi] or [], discards, lo, hi)
    for j in range(hi, lo + 1, -1):
        cur, d = hands[j] or [], discards[j - 1]
        allowed = [k for k in range(NUM_KINDS) if cur[k] and _undone(cur, k, d) in reach[j - 1]]
        if not allowed:
            raise RuntimeError("no past of the live hand joins the hands a seat saw")
        hands[j - 1] = list(_undone(cur, _pick(rng, cur, allowed), d))


def _reach(low: Hand, high: Hand, discards: Sequence[int], lo: int, hi: int) -> dict[int, set[tuple[int, ...]]]:
    """The hands ``lo`` to ``hi - 1`` that can be reached from hand ``lo`` (``low``) on the way to
    hand ``hi`` (``high``), by index, found forwards."""
    # Every card drawn in between ends in hand ``hi`` or is discarded on the way, so only those
    # kinds are drawn forwards: that drops only hands on no path to ``hi``, which the walk back
    # never chooses, and keeps the sets small (a resample bridges every finished hand).
    drawn = list(high)
    for d in discards[lo:hi]:
        drawn[d] += 1
    kinds = [k for k, (n, h) in enumerate(zip(drawn, low)) if n > h]
    reach = {lo: {tuple(low)}}
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
    return reach


def _undone(hand: Hand, card: int, discard: int) -> tuple[int, ...]:
    """The hand before it threw ``discard`` and drew ``card``, if it could throw it, else ()."""
    before = list(hand)
    before[card] -= 1
    before[discard] += 1
    return tuple(before) if _legal(before, discard) else ()
