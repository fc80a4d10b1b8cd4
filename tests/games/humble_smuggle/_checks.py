"""Consistency checks of a Humble smuggle state, shared by the invariant and resampling tests."""

from collections import Counter

from smuggle_envs.games.humble_smuggle.vocab import DISCARD, DRAFT, OVER, PLAY, SELECT


def check_state(state):
    """Every card is somewhere exactly once, and the byte mirror matches the lists."""
    game, n = state.game, state.n
    whites = (
        state.deck
        + state.centre
        + [c for h in state.hands for c in h]
        + [c for c in state.sel if c]
        + [c for sc in state.scored for c in sc]
        + state.white_discards
    )
    assert sorted(whites) == list(range(1, 80)), "each white card is in exactly one place"
    blacks = Counter(state.bdeck) + Counter(state.bdisc_public) + Counter(k for _, k in state.bdisc_hidden)
    for s in range(n):
        blacks += Counter({k: c for k, c in enumerate(state.black[s]) if c})
        blacks += Counter(k for _, k in state.attached[s])
    assert blacks == Counter(game.black_template), "each black card is in exactly one place"
    assert all(k < 7 for t in state.attached for _, k in t), "only Play cards are attached"
    assert all(k < 7 for k in state.bdisc_public), "only revealed Play cards lie face up"
    assert bytes(state.buf) == bytes(state._rebuild_fields()), "byte mirror in step with the lists"
    for s in range(n):
        held = state.hands[s] + ([state.sel[s]] if state.sel[s] else [])
        assert set(state.known[s]) <= set(held), "publicly known cards are in hand or face down"
        limit = game.limit
        if not (state.phase == DISCARD and s == state.current_player()):
            assert sum(state.black[s]) <= limit, "the black hand limit holds between decisions"
    if state.phase == OVER:
        assert state.centre == [] and all(len(h) == 3 for h in state.hands) and not any(state.sel)
        return
    assert state.phase in (DRAFT, SELECT, PLAY, DISCARD)
    sizes = [len(h) + bool(state.sel[s]) for s, h in enumerate(state.hands)]
    if state.phase == DRAFT:
        assert len(state.centre) == n + 1 - state.drafts
        assert sizes == [4 if (s - state.first) % n < state.drafts else 3 for s in range(n)]
    elif state.phase in (SELECT, PLAY):
        assert len(state.centre) == 1 and sizes == [4] * n
        selected = [bool(c) for c in state.sel]
        if state.phase == PLAY:
            assert all(selected)
    else:
        assert state.centre == [] and sizes == [3] * n and not any(state.sel)
