"""Fixtures for scripted CIQ scenarios."""

import pytest

import smuggle_envs
from smuggle_envs.games.ciq import actions as A


def names(kinds) -> list[str]:
    return sorted(A.card_name(k) for k in kinds)


class Table:
    """A game laid out with ``state.arrange`` (``scenarios.arrange``) and driven by rulebook-named moves.

    Two players by default: P0 plays first. ``hands``, ``tolerance``, ``imports``, ``exports``
    map seats to card names; ``stock`` lists the Stock from the top (None: every other card).
    Scenarios play with 6 decks unless told otherwise, so that any card a scenario names has
    copies to spare; the rules do not depend on the number of decks.
    """

    def __init__(
        self,
        num_players=2,
        *,
        hands=None,
        tolerance=None,
        imports=None,
        exports=None,
        stock=None,
        turn=None,
        seed=0,
        **config,
    ):
        config.setdefault("decks", 6)
        self.game = smuggle_envs.make_game("ciq_v0", num_players=num_players, **config)
        self.state = self.game.new_initial_state(seed)
        self.state.arrange(hands=hands, tolerance=tolerance, imports=imports, exports=exports, stock=stock, turn=turn)

    # moves -------------------------------------------------------------------------------
    def act(self, action):
        self.state.apply_action(action)
        return self

    def target(self, offset):
        return self.act(A.target(offset))

    def ship(self, *cards):
        for c in cards:
            self.act(A.ship(c))
        return self

    def sabotage(self, first, second):
        return self.act(A.sabotage(first)).act(A.sabotage(second))

    def stop(self):
        return self.act(A.STOP)

    def hire(self, c):
        return self.act(A.hire(c))

    def draw(self):
        return self.act(A.DRAW)

    def fire(self, c):
        return self.act(A.fire(c))

    def keep(self):
        return self.act(A.KEEP)

    def give(self, *cards):
        for c in cards:
            self.act(A.give(c))
        return self

    def pass_(self):
        return self.act(A.PASS)

    # reading -------------------------------------------------------------------------------
    def hand(self, p):
        return names(self.state.cards_of(self.state.hand[p]))

    def imports(self, p):
        return names(self.state.cards_of(self.state.imp[p]))

    def exports(self, p):
        return names(self.state.exp[p])

    def tolerance(self, p):
        return [A.card_name(k) for k in self.state.tol[p]]

    def legal(self):
        return set(self.state.legal_actions())

    def can(self, action) -> bool:
        return action in self.state.legal_actions()


@pytest.fixture
def table():
    return Table
