"""The fast gather encoder against a slow, obvious reference written piece by piece from the
state's Python lists (not from the byte buffer the encoder reads)."""

import random

import numpy as np
import pytest

import smuggle_envs
from smuggle_envs.games.humble_smuggle.vocab import DRAFT, OVER, PLAY, SELECT


def reference(state, p):
    game, n = state.game, state.n
    seats = [(p + i) % n for i in range(n)]

    def one_hot(seat):
        return [1.0 if s == seat else 0.0 for s in seats]

    def cards(values):
        v = [0.0] * 79
        for c in values:
            v[c - 1] = 1.0
        return v

    over = state.phase == OVER
    phase = [0.0] * 4
    if not over:
        phase[state.phase] = 1.0
    drafted = [(s - state.first) % n < state.drafts for s in range(n)]
    rule = [0.0] * 9
    if state.phase in (SELECT, PLAY):
        rule[game.rule_of[state.centre[0]]] = 1.0
    centre_rules = [0.0] * 9
    for c in state.centre:
        centre_rules[game.rule_of[c]] += 1 / (n + 1)
    bdisc_seen = [state.bdisc_public.count(k) / game.black_kind_counts[k] for k in range(7)]
    attached, my_attached = [], []
    for t in seats:
        attached += [sum(1 for a, _ in state.attached[t] if a == s) / 3 for s in seats]
        my_attached += [sum(1 for a, k in state.attached[t] if a == p and k == kind) / 3 for kind in range(7)]
    symbols, points = [], []
    for s in seats:
        counts = [0] * 6
        for c in state.scored[s]:
            if game.symbol[c] >= 0:
                counts[game.symbol[c]] += 1
        symbols += [c / 8 for c in counts]
        points.append(sum(game.points[c] for c in state.scored[s]) / 50)
    last = state.last
    if last is None:
        last_card, last_mods, last_disc = [0] * n, [0] * (7 * n), [0] * n
        last_centre, last_centre_out, last_rule = [0], [0], [0] * 9
    else:
        sel, _, att, disc, centre_card, centre_out, r = last
        last_card = [sel[s] / 80 for s in seats]
        last_mods = [sum(1 for _, k in att[s] if k == kind) / 3 for s in seats for kind in range(7)]
        last_disc = [s in disc for s in seats]
        last_centre, last_centre_out = [centre_card / 80], [centre_out]
        last_rule = [float(i == r) for i in range(9)]
    rounds_left = 0 if over else (1 if state.final else 2 + state.end_left // (n + 1))
    pieces = {
        "phase": phase,
        "first_player": one_hot(state.first),
        "to_act": one_hot(-1 if over else state.current_player()),
        "drafted": [drafted[s] for s in seats],
        "selected": [state.sel[s] > 0 for s in seats],
        "passes": [state.passes / n],
        "round": [state.rounds_played / 20],
        "rounds_left": [rounds_left / 20],
        "final_round": [state.final],
        "white_deck": [len(state.deck) / 79],
        "black_deck": [len(state.bdeck) / 40],
        "black_discard": [(len(state.bdisc_public) + len(state.bdisc_hidden)) / 40],
        "black_discard_seen": bdisc_seen,
        "centre": cards(state.centre),
        "centre_rules": centre_rules,
        "round_rule": rule,
        "my_hand": cards(state.hands[p]),
        "my_selection": cards([state.sel[p]] if state.sel[p] else []),
        "known_hands": [x for s in seats for x in cards(state.known[s])],
        "out_of_play": cards([c for sc in state.scored for c in sc] + state.white_discards),
        "my_black": [c / 3 for c in state.black[p]],
        "black_counts": [sum(state.black[s]) / 3 for s in seats],
        "attached": attached,
        "my_attached": my_attached,
        "scored_symbols": symbols,
        "scored_points": points,
        "scored_cards": [len(state.scored[s]) / 20 for s in seats],
        "last_card": last_card,
        "last_modifiers": last_mods,
        "last_discarded": last_disc,
        "last_centre": last_centre,
        "last_centre_discarded": last_centre_out,
        "last_rule": last_rule,
    }
    layout = game.observation_layout
    assert list(pieces) == [piece.name for piece in layout.pieces]
    for name, values in pieces.items():
        assert len(values) == layout.pieces[list(pieces).index(name)].size, name
    return np.concatenate([np.asarray(v, np.float32) for v in pieces.values()])


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_fast_encoder_matches_reference(n):
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=n)
    rng = random.Random(n)
    phases = set()
    for seed in range(3):
        state = game.new_initial_state(seed)
        while True:
            phases.add(state.phase)
            for p in range(n):
                obs = state.observation(p)
                assert obs.dtype == np.float32 and obs.shape == (game.observation_layout.size,)
                np.testing.assert_allclose(obs, reference(state, p), rtol=1e-6, atol=1e-6)
                assert (obs >= game.observation_layout.low).all() and (obs <= game.observation_layout.high).all()
            if state.is_terminal():
                break
            legal = state.legal_actions()
            # play Play cards often, so attachments and the discard phase are exercised
            state.apply_action(legal[0] if state.phase == PLAY and rng.random() < 0.6 else rng.choice(legal))
    assert phases == {0, 1, 2, 3, OVER}


def test_observation_rejects_bad_seats():
    state = smuggle_envs.make_game("humble_smuggle_v0", num_players=3).new_initial_state(0)
    for bad in (-1, 3):
        with pytest.raises(ValueError):
            state.observation(bad)


def test_layout_size_and_table():
    for n in (2, 3, 4, 5):
        layout = smuggle_envs.make_game("humble_smuggle_v0", num_players=n).observation_layout
        assert layout.size == 386 + 108 * n + n * n
        table = layout.table()
        for piece in layout.pieces:
            assert f"`{piece.name}`" in table


def test_observation_of_the_draft_phase_by_name():
    game = smuggle_envs.make_game("humble_smuggle_v0", num_players=4, first_player=1)
    state = game.new_initial_state(3)
    layout = game.observation_layout
    obs = layout.split(state.observation(2))
    assert obs["phase"].tolist() == [1, 0, 0, 0] and state.phase == DRAFT
    assert obs["first_player"].tolist() == [0, 0, 0, 1]  # P1 is three to P2's left
    assert obs["to_act"].tolist() == [0, 0, 0, 1]
    assert sorted(np.flatnonzero(obs["centre"]) + 1) == sorted(state.centre)
    assert sorted(np.flatnonzero(obs["my_hand"]) + 1) == sorted(state.hands[2])
    assert obs["my_black"].sum() * 3 == 2 and obs["black_counts"].tolist() == pytest.approx([2 / 3] * 4)
