"""Import / Export's perfect-recall resample: a world drawn from what one seat has seen, never
copied from the truth (``State.resample``; ``rules.ImportExportState`` binds ``resample`` as its
``_resample``). What each seat saw go into the other hands is kept by the state
(``seen_in_hand``); a hidden decision in progress is asked again of the redrawn hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from . import actions as A
from .hooks import HAND_REASKS
from .state import Ask, ImportExportStateBase
from .steps import ask_lead, ask_load_ship, card_actions, t_act, t_follow
from .vocab import (
    P_CONTRACT_CARD,
    P_FOLLOW,
    P_LEAD,
    P_LOAD_CARD,
    P_LOAD_SHIP,
    P_POWER,
    P_SUPPLY,
    P_WILD1,
    P_WILD2,
)

# Asking again from a redrawn hand (``State.resample``): how each hand-based decision is made,
# given the decision that was in progress.
_REDRAWS = 200  # random redraws before dealing the decider a card that fits


def _reask_wild(st: ImportExportStateBase, ask: Ask) -> None:
    phase, p, ctx = ask.phase, ask.player, ask.context
    if phase == P_WILD1:
        options = st.wild_firsts(p)
    else:
        t = st.game.ctype[st.played[p][-1]]
        options = [c for c in st.hands[p] if st.game.ctype[c] == t]
    st._ask(phase, p, card_actions(options), ctx)


def _reasker(ask: Ask) -> Callable[[ImportExportStateBase, Ask], None]:
    """How to ask ``ask`` again of a redrawn hand; every decision that is not public has one."""
    if ask.phase == P_POWER:
        fn = HAND_REASKS.get(ask.context[0])
        if fn is not None:
            return lambda st, old: fn(st, old[3][1:])
    elif ask.phase in REASK:
        return REASK[ask.phase]
    raise RuntimeError(
        f"the hidden decision {(ask.phase, ask.player)} (power {ask.context[:1]}) cannot be asked again of a redrawn hand"
    )


REASK: dict[int, Callable[[ImportExportStateBase, Ask], None]] = {
    P_LEAD: lambda st, ask: ask_lead(st),
    P_FOLLOW: lambda st, ask: t_follow(st, ask.player),
    P_CONTRACT_CARD: lambda st, ask: t_act(st, ask.player),
    P_LOAD_CARD: lambda st, ask: t_act(st, ask.player),
    P_SUPPLY: lambda st, ask: t_act(st, ask.player),
    P_WILD1: _reask_wild,
    P_WILD2: _reask_wild,
    P_LOAD_SHIP: lambda st, ask: ask_load_ship(st, *ask.context),  # with Robot Cats: a pair in the hand
}


def resample(st: ImportExportStateBase, player: int, rng: random.Random) -> ImportExportStateBase:
    """Redraw what ``player`` cannot see: the other hands, the deck's order, sealed bids.

    Every other hand keeps the cards ``player`` saw go into it and has not seen leave
    (``seen_in_hand``: a Hawaiian Salt reveal, a card taken from the island or a ship, a card
    it handed over); the rest of each hand is dealt at random from the cards ``player`` cannot
    see. A decision in progress that is not public belongs to another seat's hand: it is asked
    again from the redrawn hand (``_reasker``), and the redraw must fit what the table saw
    (the decision has options: a two-card wild's first card has a partner of its type, a
    Robot Cats pair has its second card). Redrawn until it fits, then dealt with one card
    that makes it fit. No hand is ever copied from the real one.
    """
    ask = st.ask
    reask = None
    if ask is not None and not ask.public and ask.player != player:
        reask = _reasker(ask)
    others = [q for q in range(st.n) if q != player]
    known = {q: _known_hand(st, player, q, rng) for q in others}
    other = None
    for _ in range(_REDRAWS):
        other = _dealt(st, _deal(st, others, known, rng), ask, reask)
        if other is not None:
            break
    else:
        # Rare: few hands fit. Put each candidate card into the decider's hand in turn.
        d = ask.player if ask is not None else -1
        fixed = {c for cards in known.values() for c in cards}
        hidden = [c for c in st.deck + [c for q in others for c in st.hands[q]] if c not in fixed]
        for card in rng.sample(hidden, len(hidden)):
            other = _dealt(st, _deal(st, others, {**known, d: known[d] + [card]}, rng), ask, reask)
            if other is not None:
                break
        else:
            raise RuntimeError(f"no hand of seat {d} fits the decision in progress: {ask}")
    for q in others:
        if other.bids[q] >= 0:
            other.bids[q] = rng.randrange(min(other.credits[q] // 2, A.MAX_BID_STEPS) + 1)
    other.rng = random.Random(rng.getrandbits(64))
    other._not_replayable = "a resampled state is a hypothetical deal"
    return other


def _known_hand(st: ImportExportStateBase, viewer: int, q: int, rng: random.Random) -> list[int]:
    """The cards ``viewer`` knows are in q's hand. More than q holds (a known card went on
    face down to a third seat, and the viewer cannot tell which): a random choice of them."""
    cards = st.seen_in_hand(viewer, q)
    k = len(st.hands[q])
    return cards if len(cards) <= k else rng.sample(cards, k)


def _deal(
    st: ImportExportStateBase, others: list[int], known: dict[int, list[int]], rng: random.Random
) -> dict[int, list[int]]:
    """New hands for ``others`` (key -1: the deck): each keeps its ``known`` cards, and the
    rest is dealt at random, class by class. A card's class is the reshuffle that last put
    it into the deck (0: the first deal), public since the discard pile is face up: after a
    reshuffle the deck holds only its cards, and each hand holds as many cards of each class
    as it drew of it and did not play (only a face-down hand-to-hand gift, whose class the
    table cannot see, is dealt as the real hand's counts)."""
    epoch = st.epoch
    fixed = {c for cards in known.values() for c in cards}
    pools: dict[int, list[int]] = {}
    for c in st.deck + [c for q in others for c in st.hands[q]]:
        if c not in fixed:
            pools.setdefault(epoch[c], []).append(c)
    for pool in pools.values():
        rng.shuffle(pool)
    hands: dict[int, list[int]] = {}
    for q in others:
        need = Counter(epoch[c] for c in st.hands[q])
        need.subtract(epoch[c] for c in known[q])
        hand = known[q][:]
        for e, k in need.items():
            pool = pools.get(e, [])
            k = min(k, len(pool))
            if k > 0:
                hand += pool[-k:]
                del pool[-k:]
        hands[q] = hand
    rest = [c for pool in pools.values() for c in pool]
    rng.shuffle(rest)
    for q in others:  # a known card handed on face down leaves its class short: top up
        short = len(st.hands[q]) - len(hands[q])
        if short > 0:
            hands[q] += rest[:short]
            del rest[:short]
    hands[-1] = rest
    return hands


def _dealt(
    st: ImportExportStateBase,
    hands: dict[int, list[int]],
    ask: Ask | None,
    reask: Callable[[ImportExportStateBase, Ask], None] | None,
) -> ImportExportStateBase | None:
    """A copy holding ``hands`` (key -1: the deck) with the decision in progress asked again;
    None if it no longer fits (or a hand has the wrong size: a card forced into it)."""
    other = st.clone()
    for q, cards in hands.items():
        if q < 0:
            other.deck = cards
        elif len(cards) != len(st.hands[q]):
            return None
        else:
            other.hands[q] = cards
    if reask is None or ask is None:
        return other
    other.ask = None
    reask(other, ask)
    new = other.ask
    if new is None or new.phase != ask.phase or new.player != ask.player or not new.options or new.public != ask.public:
        return None
    return other
