"""An analysis of fewer than ``MIN_DEALS`` games says under its tables that its intervals are too
coarse to read; one of enough games does not."""

from __future__ import annotations

import random
from types import SimpleNamespace

from smuggle_envs import GameSpec
from training.analytics import analyze_games
from training.stats import MIN_DEALS


def _games(n: int) -> list[SimpleNamespace]:
    """``n`` CIQ games of seeded random moves, as the stored records ``analyze_games`` reads."""
    spec = GameSpec("ciq_v0", {"num_players": 3})
    found = []
    for seed in range(n):
        state, rng = spec.make_game().new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        found.append(SimpleNamespace(spec=spec, seed=seed, actions=list(state.history), seating=["a", "b", "c"]))
    return found


def test_few_games_warn_under_the_tables():
    text = analyze_games("ciq_v0", ["a", "b", "c"], _games(2)).text()
    assert text.endswith(
        f"warning: only 2 games (fewer than {MIN_DEALS}): the intervals are too coarse to "
        "rank agents by; play more games"
    )
    assert "warning: only" not in analyze_games("ciq_v0", ["a", "b", "c"], _games(MIN_DEALS)).text()
