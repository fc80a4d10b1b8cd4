"""Fixtures for scripted Smuggle scenarios."""

import pytest

import smuggle_envs
from smuggle_envs.games.smuggle import actions as A


class Table:
    """A 4-player (by default) game with a stacked pack, driven by rulebook-named moves."""

    def __init__(self, draws=(), seed=0, **config):
        config.setdefault("num_players", 4)
        self.game = smuggle_envs.make_game("smuggle_v0", **config)
        self.state = self.game.new_initial_state(seed)
        self.state.arrange(list(draws))

    # moves -------------------------------------------------------------------------------
    def declare(self, *items):
        counts = [0] * A.NUM_ITEMS
        for item in items:
            counts[self.game.kind(item)] += 1
        self.state.apply_action(A.declare(counts))
        return self

    def claim_bag(self):
        self.state.apply_action(A.CLAIM_BAG)
        return self

    def search(self):
        self.state.apply_action(A.SEARCH)
        return self

    def let_pass(self):
        self.state.apply_action(A.LET_PASS)
        return self

    def accept(self):
        self.state.apply_action(A.ACCEPT)
        return self

    def inform(self):
        self.state.apply_action(A.INFORM)
        return self

    def discard(self, item):
        self.state.apply_action(A.discard(self.game.kind(item)))
        return self

    # reading -------------------------------------------------------------------------------
    @property
    def money(self):
        return list(self.state.money)

    def hand(self):
        return sorted(self.game.kind_names[k] for k in self.state.hand_cards())

    def suitcase(self, item):
        return self.state.suitcase[self.game.kind(item)]


@pytest.fixture
def table():
    return Table
