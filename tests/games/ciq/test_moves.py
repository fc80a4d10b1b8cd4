"""Compound moves: every masked-legal sequence is a legal move and every legal move is reachable.

From positions where a player is to choose an action, every complete sequence of atomic actions
the mask allows (target, Sabotage cards, shipment cards, up to STOP or the smuggled card that
ends a shipment; Hire; draw; pass) is enumerated through ``legal_actions`` and compared with the
moves a second, independent reading of the rulebook generates from the same hand and table.
"""

import random
from collections import Counter

import pytest

import smuggle_envs
from smuggle_envs.games.ciq import actions as A
from smuggle_envs.games.ciq.actions import JOKER, NUM_RANKS
from smuggle_envs.games.ciq.vocab import FIRE_DECISION, MAIN

LIMIT = 30000


def mask_moves(state):
    """Every complete move through the mask, as tuples of actions (STOP left out)."""
    mover = state.current_player()
    moves = set()

    def rec(st, seq):
        assert len(moves) < LIMIT
        legal = st.legal_actions()
        assert legal, "a masked-legal sequence never gets stuck"
        for a in legal:
            if a == A.STOP:
                moves.add(tuple(seq))
            elif a in (A.DRAW, A.PASS) or A.HIRE <= a < A.FIRE:
                moves.add(tuple(seq + [a]))
            else:
                nxt = st.clone()
                nxt.apply_action(a)
                if nxt.phase == FIRE_DECISION or nxt.current_player() != mover or nxt.turns != st.turns:
                    moves.add(tuple(seq + [a]))  # a smuggled card ended the shipment
                else:
                    rec(nxt, seq + [a])

    rec(state, [])
    return moves


def _legal(values, k, tv):
    return k != JOKER and (not tv or values[k] <= tv)


def _shipments(hand, values, cfg, tv):
    """Every shipment from ``hand`` against a Tolerance of value ``tv`` (rules, not the engine)."""
    out = []

    def rec(seq, prev, bribe):
        for k in sorted(c for c in hand if hand[c]):
            smuggled = False
            if not seq:
                ok = _legal(values, k, tv) or (k == JOKER and cfg.joker_opens_shipment)
            elif bribe or k == JOKER:
                ok = True  # Bribing: anything after a Joker
            elif k // NUM_RANKS == prev // NUM_RANKS:
                ok, smuggled = True, not _legal(values, k, tv)  # same suit: Legal, or the one smuggle
            else:
                ok = k % NUM_RANKS == prev % NUM_RANKS and _legal(values, k, tv)
            if not ok:
                continue
            hand[k] -= 1
            out.append(seq + [k])
            if not smuggled:
                rec(seq + [k], prev if k == JOKER else k, k == JOKER)
            hand[k] += 1

    rec([], -1, False)
    return out


def _sabotages(hand, values, face, cfg, tv):
    """Every Sabotage pair from ``hand`` against a Tolerance of value ``tv``, with the value after."""
    if not tv:
        return []
    pairs = []
    for a in [c for c in hand if hand[c]]:
        if a != JOKER and values[a] > tv:
            continue
        hand[a] -= 1
        for b in [c for c in hand if hand[c] and c != JOKER]:
            if a == JOKER or b // NUM_RANKS == a // NUM_RANKS:
                wipe = values[b] > tv and face[b] and (a != JOKER or cfg.bribed_face_wipes)
                pairs.append((a, b, 0 if wipe else values[b]))
        hand[a] += 1
    return pairs


def rule_moves(state):
    """The same moves generated from the rules (see docs/rules/ciq.md), not from the engine."""
    game, n, p = state.game, state.n, state.turn
    values, face, cfg = game.values, game.face, game.config
    hand = Counter(state.cards_of(state.hand[p]))

    def shipments(tv):
        return _shipments(hand, values, cfg, tv)

    def sabotages(tv):
        return _sabotages(hand, values, face, cfg, tv)

    moves = set()
    targets = [(1 - p, ())] if n == 2 else [((p + off) % n, (A.target(off),)) for off in range(1, n)]
    for q, prefix in targets:
        tv = state.tol_value[q]
        for seq in shipments(tv):
            moves.add(prefix + tuple(A.SHIP + k for k in seq))
        for a, b, new_tv in sabotages(tv):
            sab = prefix + (A.SABOTAGE + a, A.SABOTAGE + b)
            moves.add(sab)
            hand[a] -= 1
            hand[b] -= 1
            for seq in shipments(new_tv):
                moves.add(sab + tuple(A.SHIP + k for k in seq))
            hand[a] += 1
            hand[b] += 1
    top = state.tol[p][-1] if state.tol[p] else None
    for k in hand:
        if hand[k] and k != JOKER and (top is None or k // NUM_RANKS == top // NUM_RANKS):
            moves.add((A.HIRE + k,))
    if state.stock or state.exp[p]:
        moves.add((A.DRAW,))
    if not moves:
        moves.add((A.PASS,))
    return moves


def positions(n, count, seed, max_hand=7, **config):
    game = smuggle_envs.make_game("ciq_v0", num_players=n, **config)
    rng = random.Random(seed)
    found = 0
    for g in range(200):
        state = game.new_initial_state(1000 * seed + g)
        while not state.is_terminal() and found < count:
            if state.phase == MAIN and state.hand_size[state.turn] <= max_hand and rng.random() < 0.3:
                found += 1
                yield state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
        if found >= count:
            return


VARIANTS = [(2, {}), (3, {}), (2, {"joker_opens_shipment": True, "bribed_face_wipes": False})]


@pytest.mark.parametrize("n, config", VARIANTS)
def test_masked_sequences_are_exactly_the_legal_moves(n, config):
    sizes = []
    for state in positions(n, 25, seed=n, **config):
        expected = rule_moves(state)
        assert mask_moves(state) == expected
        sizes.append(len(expected))
    assert len(sizes) == 25 and max(sizes) > 20, "positions with many possible moves were checked"


def test_masked_sequences_with_jokers_and_no_tolerance():
    game = smuggle_envs.make_game("ciq_v0", num_players=2, decks=2)
    state = game.new_initial_state(0)
    state.arrange(hands={0: ["joker", "joker", "6h", "6d", "Kd", "2h", "Qs"]}, tolerance={0: [], 1: ["9c"]})
    expected = rule_moves(state)
    assert mask_moves(state) == expected
    assert (A.sabotage("joker"), A.sabotage("Qs")) in expected  # Joker, then any card
    assert (A.ship("6h"), A.ship("joker"), A.ship("Kd")) in expected  # a bribed King ...
    assert (A.ship("6h"), A.ship("joker"), A.ship("Kd"), A.ship("6d")) in expected  # ... then its suit
    assert (A.ship("6h"), A.ship("joker"), A.ship("Kd"), A.ship("2h")) not in expected  # not a heart
    state.arrange(hands={0: ["joker", "joker", "6h", "6d", "Kd", "2h", "Qs"]}, tolerance={0: [], 1: []})
    assert mask_moves(state) == rule_moves(state)
