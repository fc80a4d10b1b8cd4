"""CIQ's perfect-recall resample: a world drawn from everything one seat has seen in the whole
game, never copied from the truth (``State.resample``; ``rules.CIQState`` binds ``resample`` as
its ``_resample``). What the others know of a seat's hidden cards is kept by the state for this
(``held``, ``exp_pub``, ``exp_fresh``, ``shown``: see ``CIQStateBase``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from operator import add

from .actions import NUM_KINDS
from .state import CIQStateBase
from .steps import compute_legal
from .vocab import OPEN, SABOTAGE2

_PLAIN_TRIES = 50  # worlds drawn at random before a mover's playable card is dealt to him first

_TRIES = 1000


def resample(st: CIQStateBase, player: int, rng: random.Random) -> CIQStateBase:
    """Redraw what ``player`` cannot see; keep everything he saw, in the whole game so far.

    Redrawn: the Stock (contents and order), the other players' hands, which of the cards
    everyone saw go into another player's Export pile are still in it, the order of every
    Export pile (the player's own included), and the state's RNG.

    Kept: every face-up card, every pile and hand size, the player's own hand and Export pile,
    and what the others have shown of their hidden cards:

    * an Export pile holds only cards everyone saw go in and not come out (``exp_pub``),
      among them every card put in since its owner last drew from it (``exp_fresh``);
    * a card everyone saw go into q's Export pile and not leave q's pile or hand since
      (``held``) is in q's Export pile or, drawn unseen from it, in q's hand: those not
      dealt to the pile are dealt to the hand, before the rest of it is filled at random;
    * a player who passed with cards in hand showed that none could be played (``shown``):
      the rest of his hand is dealt from the kinds that allow no move (once he has drawn
      since, as many of it as he had then, less those he may have played);
    * mid-move, the player to move holds a card he may play: on the target he chose, or
      after the first card of his Sabotage. A world without one is drawn again; after
      ``_PLAIN_TRIES`` tries, such a card (or a Joker and a card) is dealt to him first.

    Where a player drew unseen several times, or played a card of a kind he may also have
    drawn, these records keep a little less than was seen (more worlds, never fewer: which
    of his draws took a fresh card; after a pass and a draw, whether a card he played came
    from the cards he passed with). Nothing is copied from the true hidden cards."""
    new = st.clone()
    new.rng = st._fresh_rng(rng)
    others = st.others[player]
    hidden = _hidden_counts(st, others)
    mover = st.current_player()
    must_move = st.phase in (OPEN, SABOTAGE2) and mover != player
    # The truth is one such world, but the draws below may miss it many times over (seen once
    # in ~50,000 search decisions): then the passes' records are dropped (more worlds, still
    # none copied from the truth) rather than failing the search.
    found = _find_world(st, new, others, hidden, must_move, rng, passes=True)
    if not (found or _find_world(st, new, others, hidden, must_move, rng, passes=False)):
        raise RuntimeError(f"no world found for seat {player}'s information set")
    new.exp[player] = _shuffled(new.exp[player], rng)
    new._recount_unseen()
    new._legal = None
    return new


def _find_world(
    st: CIQStateBase,
    new: CIQStateBase,
    others: Sequence[int],
    hidden: list[int],
    must_move: bool,
    rng: random.Random,
    passes: bool,
) -> bool:
    """Lay a world of the information set into ``new`` (see ``resample``); ``passes``: deal
    hands as the players' passes showed. ``False`` after ``_TRIES`` draws that do not fit."""
    mover = st.current_player()
    for attempt in range(_TRIES):
        drawn = _draw_exports(st, others, hidden, rng)
        if drawn is None:
            continue
        exports, hands, free = drawn
        if must_move and attempt >= _PLAIN_TRIES and not _deal_witness(new, mover, hands, free, rng):
            continue
        if _lay(st, new, others, exports, hands, free, rng, passes) and (not must_move or compute_legal(new)):
            return True
    return False


def _hidden_counts(st: CIQStateBase, others: Sequence[int]) -> list[int]:
    """Per kind, the cards the viewer cannot place: the Stock, the others' hands and Export piles."""
    hidden = [0] * NUM_KINDS
    for k in st.stock:
        hidden[k] += 1
    for q in others:  # map(add) keeps the per-kind sums in C (this runs in every search iteration)
        hidden = list(map(add, map(add, hidden, st.hand[q]), st.exp_cnt[q]))
    return hidden


def _draw_exports(
    st: CIQStateBase, others: Sequence[int], hidden: list[int], rng: random.Random
) -> tuple[dict[int, list[int]], dict[int, list[int]], list[int]] | None:
    """Export contents for ``others`` and the cards their hands must hold, or ``None`` if this
    attempt does not fit. Each seat q (in random order) keeps its ``held`` cards; its pile
    is its ``exp_fresh`` cards and a random sub-multiset of the rest of ``exp_pub[q]`` (from
    its held cards, then free ones), and its held cards left out of the pile are in its hand.
    Returns (piles, hand counts so far, the free cards per kind: those for the rest of the
    hands and the Stock)."""
    free = list(hidden)
    for q in others:
        for k, c in enumerate(st.held[q]):
            if c:
                free[k] -= c
    order = list(others)
    rng.shuffle(order)
    exports: dict[int, list[int]] = {}
    hands: dict[int, list[int]] = {}
    for q in order:
        drawn = _draw_pile(st, q, free, rng)
        if drawn is None:
            return None
        exports[q], hands[q] = drawn
    return exports, hands, free


def _draw_pile(st: CIQStateBase, q: int, free: list[int], rng: random.Random) -> tuple[list[int], list[int]] | None:
    """q's Export pile (its fresh cards, then at random from the rest of ``exp_pub[q]``, as
    far as its held cards and ``free`` have them) and the held cards left for its hand, per
    kind; the free cards the pile takes are taken out of ``free``. ``None`` if they do not fit."""
    held, pub, fresh = bytes(st.held[q]), bytes(st.exp_pub[q]), bytes(st.exp_fresh[q])
    pile = st.cards_of(fresh) if any(fresh) else []
    candidates: list[int] = []
    for k, c in enumerate(pub):
        if c:
            have = held[k] + free[k]
            more = (c if c < have else have) - fresh[k]
            if more < 0:
                return None
            candidates += [k] * more
    size = st.exp_size[q] - len(pile)
    if len(candidates) < size:
        return None
    pile += rng.sample(candidates, size)
    in_hand = list(held)
    for k in pile:
        if in_hand[k]:
            in_hand[k] -= 1
        else:
            free[k] -= 1  # a copy beyond q's held ones
    if sum(in_hand) > st.hand_size[q]:
        return None
    return pile, in_hand


def _deal_witness(
    st: CIQStateBase, mover: int, hands: dict[int, list[int]], free: list[int], rng: random.Random
) -> bool:
    """Deal the mover, from ``free``, a card that lets him go on with his move (or a Joker and
    a card, for a Sabotage), at random among those that do; ``False`` if none fits. ``st``
    is the world being built: only the mover's hand is set here, ``_lay`` sets the rest."""
    hand = hands[mover]
    room = st.hand_size[mover] - sum(hand)
    if _can_go_on(st, mover, hand, ()):
        return True
    options: list[tuple[int, ...]] = []
    weights: list[int] = []
    for size in (1, 2):
        if room < size:
            break
        for cards in _card_sets(free, size):
            if _can_go_on(st, mover, hand, cards):
                options.append(cards)
                weights.append(_ways(free, cards))
        if options:
            break
    if not options:
        return False
    for k in rng.choices(options, weights)[0]:
        hand[k] += 1
        free[k] -= 1
    return True


def _can_go_on(st: CIQStateBase, mover: int, hand: list[int], cards: tuple[int, ...]) -> bool:
    """Whether the mover has a legal action with ``hand`` plus ``cards`` (sets his hand)."""
    counts = list(hand)
    for k in cards:
        counts[k] += 1
    _set_hand(st, mover, counts)
    return bool(compute_legal(st))


def _set_hand(st: CIQStateBase, q: int, counts: list[int]) -> None:
    """q's hand becomes ``counts`` (its size is unchanged by every caller)."""
    st.hand[q][:] = bytes(counts)
    st.kinds[q] = {k for k in range(NUM_KINDS) if counts[k]}


def _lay(
    st: CIQStateBase,
    new: CIQStateBase,
    others: Sequence[int],
    exports: dict[int, list[int]],
    hands: dict[int, list[int]],
    free: list[int],
    rng: random.Random,
    passes: bool = True,
) -> bool:
    """Give ``new`` these Export piles and hands, each hand filled up from the free cards at
    random (first, as his PASS showed, for a player who passed); the free cards left over are
    the Stock, shuffled. ``False`` if a hand cannot be filled as its PASS showed."""
    free = list(free)
    for q in others:
        if passes and st.shown[q] is not None and not _fill_shown(st, q, hands[q], free, rng):
            return False
    pool = [k for k in range(NUM_KINDS) for _ in range(free[k])]
    pool = _shuffled(pool, rng)
    for q in others:
        counts = hands[q]
        for _ in range(st.hand_size[q] - sum(counts)):
            counts[pool.pop()] += 1
        _set_hand(new, q, counts)
        pile = _shuffled(exports[q], rng)
        new.exp[q] = pile
        in_pile = bytearray(NUM_KINDS)
        for k in pile:
            in_pile[k] += 1
        new.exp_cnt[q][:] = bytes(in_pile)
    new.stock = pool
    return True


def _fill_shown(st: CIQStateBase, q: int, counts: list[int], free: list[int], rng: random.Random) -> bool:
    """Deal q, from ``free``, the cards one option of ``shown[q]`` asks for besides his held
    ones (``counts``): all of his hand if it names the allowed kinds; an option at random
    among those that fit."""
    options = list(st.shown[q] or ())
    rng.shuffle(options)
    room = st.hand_size[q] - sum(counts)
    for allowed, counted, count in options:
        if allowed is not None and any(counts[k] for k in range(NUM_KINDS) if k not in allowed):
            continue
        if count > room:
            continue
        left = list(free)
        cards = _pick(left, counted if allowed is None else counted & allowed, count, rng)
        if cards is not None and allowed is not None:
            more = _pick(left, allowed, room - count, rng)
            cards = None if more is None else cards + more
        if cards is None:
            continue
        for k in cards:
            counts[k] += 1
        free[:] = left
        return True
    return False


def _shuffled(cards: Sequence[int], rng: random.Random) -> list[int]:
    """A uniformly random order of ``cards``: sorting by random keys costs a fraction of
    ``random.shuffle``'s Python-level draws (resample is in every search iteration)."""
    rand = rng.random
    return sorted(cards, key=lambda _: rand())


def _card_sets(free: list[int], size: int) -> Iterable[tuple[int, ...]]:
    """The kinds (``size`` 1) or pairs of kinds (``size`` 2) that ``free`` can supply."""
    kinds = [k for k in range(NUM_KINDS) if free[k]]
    if size == 1:
        return [(k,) for k in kinds]
    return [(a, b) for i, a in enumerate(kinds) for b in kinds[i:] if a != b or free[a] > 1]


def _ways(free: list[int], cards: tuple[int, ...]) -> int:
    """In how many ways ``free`` supplies ``cards`` (as copies)."""
    if len(cards) == 2 and cards[0] == cards[1]:
        return free[cards[0]] * (free[cards[0]] - 1) // 2
    ways = 1
    for k in cards:
        ways *= free[k]
    return ways


def _pick(free: list[int], kinds: frozenset[int], m: int, rng: random.Random) -> list[int] | None:
    """``m`` cards drawn at random from the ``free`` ones of these kinds (taken out of ``free``);
    ``None`` if there are fewer."""
    cards = [k for k in sorted(kinds) for _ in range(free[k])]
    if len(cards) < m:
        return None
    picked = rng.sample(cards, m)
    for k in picked:
        free[k] -= 1
    return picked
