"""Consistency checks of a CIQ state, shared by the invariant, hidden-information and bot tests."""

from smuggle_envs.games.ciq.actions import CARD_BITS, JOKER, NUM_KINDS
from smuggle_envs.games.ciq.vocab import OVER


def card_totals(state) -> list[int]:
    """Cards of each kind wherever they are; the sabotage card in flight included."""
    n = state.n
    totals = [0] * NUM_KINDS
    for k in state.stock + state.box:
        totals[k] += 1
    for q in range(n):
        for k in state.exp[q] + state.tol[q]:
            totals[k] += 1
        for k in range(NUM_KINDS):
            totals[k] += state.hand[q][k] + state.imp[q][k]
    if state.sab_card >= 0:
        totals[state.sab_card] += 1
    return totals


def check_state(state) -> None:
    game, n = state.game, state.n
    assert card_totals(state) == list(game.kind_counts), "cards are conserved"
    public = [0] * NUM_KINDS
    for q in range(n):
        hand, imp, exp_cnt, pub, tol_cnt = (
            state.hand[q].tolist(),
            state.imp[q].tolist(),
            state.exp_cnt[q].tolist(),
            state.exp_pub[q].tolist(),
            state.tol_cnt[q].tolist(),
        )
        assert sum(hand) == state.hand_size[q]
        assert sum(imp) == state.imp_size[q]
        assert exp_cnt == [state.exp[q].count(k) for k in range(NUM_KINDS)]
        assert tol_cnt == [state.tol[q].count(k) for k in range(NUM_KINDS)]
        assert all(c <= b for c, b in zip(exp_cnt, pub)), "the public record bounds the Export pile"
        assert all(b <= game.kind_counts[k] - state.public[k] for k, b in enumerate(pub))
        if not state.exp[q]:
            assert not any(pub)
        if state.tol[q]:
            top = state.tol[q][-1]
            assert top != JOKER and state.tol_value[q] == game.values[top]
            assert bytes(state.tol_top[q]) == game.card_bits[top]
        else:
            assert state.tol_value[q] == 0 and bytes(state.tol_top[q]) == bytes(CARD_BITS)
        for k in range(NUM_KINDS):
            public[k] += imp[k] + tol_cnt[k]
    if state.sab_card >= 0:
        public[state.sab_card] += 1  # played face up, not yet on the Tolerance pile
    assert state.public.tolist() == public
    check_views(state)
    assert state.counters.tolist() == [len(state.stock), min(state.turns, 65535)]
    if state.phase != OVER:
        assert state.f_phase.tolist() == [int(i == state.phase) for i in range(7)]
        assert state.f_turn.tolist() == [int(s == state.turn) for s in range(n)]
        assert state.legal_actions(), "a player to move always has a legal action"
    else:
        assert not any(state.f_phase)
        assert state.drawn_game or state.winners
        for w in state.winners:
            assert not state.stock and not state.hand_size[w] and not state.imp_size[w] and not state.exp[w]


def check_views(state) -> None:
    """The derived fields: unseen cards per seat, sizes and hand kinds."""
    game = state.game
    for r in range(state.n):
        expect = [
            game.kind_counts[k] - state.hand[r][k] - state.exp_cnt[r][k] - state.public[k] for k in range(NUM_KINDS)
        ]
        assert state.unseen[r].tolist() == expect, f"unseen cards of seat {r}"
        assert state.exp_size[r] == len(state.exp[r]) and state.tol_size[r] == len(state.tol[r])
        assert state.kinds[r] == {k for k in range(NUM_KINDS) if state.hand[r][k]}
