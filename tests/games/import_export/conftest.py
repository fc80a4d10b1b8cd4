"""Fixtures for scripted Import / Export scenarios.

``table(num_players=3, colours=[...], leader=0, **arrange)`` lays out a position with
``state.arrange`` (``scenarios.arrange``) and returns a ``Table``, whose ``do(...)`` applies moves named the
rulebook's way: ``"draw"``, ``"done"``, ``"yes"``, ``"wild"``, a card key (``"laptops"``),
``("ship", s)``, ``("bid", credits)``, ``("action", "load")``, ``("type", "luxury")``,
``("seat", r)``, ``("zone", "goods")``, ``("option", i)``, or a raw action int.
"""

import pytest

from smuggle_envs.games.import_export import ImportExportGame
from smuggle_envs.games.import_export import actions as A
from smuggle_envs.games.import_export.data import ACTIONS, GOOD_TYPES
from smuggle_envs.games.import_export.scoring import _best_harbor

# Harbor colours for seats 0, 1, 2, ...: green (technology), yellow, black, blue, red, grey.
DEFAULT_COLOURS = [0, 1, 2, 3, 4, 5]


class Table:
    def __init__(self, num_players=3, *, seed=0, colours=None, leader=0, modules=(), **arrange):
        self.game = ImportExportGame(num_players=num_players, modules=tuple(modules))
        self.state = self.game.new_initial_state(seed)
        colours = DEFAULT_COLOURS[:num_players] if colours is None else colours
        self.state.arrange(colours=colours, leader=leader, **arrange)

    def action(self, move) -> int:
        g = self.game
        if isinstance(move, int):
            return move
        if isinstance(move, tuple):
            kind, value = move
            if kind == "ship":
                return A.SHIP + value
            if kind == "bid":
                assert value % 2 == 0, "bids are in steps of 2 credits"
                return A.BID + value // 2
            if kind == "action":
                return A.ACTION + ACTIONS.index(value)
            if kind == "type":
                return A.TYPE + GOOD_TYPES.index(value)
            if kind == "seat":
                return A.SEAT + value
            if kind == "zone":
                return A.ZONE + A.ZONES.index(value)
            if kind == "option":
                return A.OPTION + value
            if kind == "card":
                return A.CARD + g.card_id(value)
            raise ValueError(move)
        named = {"draw": A.DRAW, "done": A.DONE, "yes": A.YES, "wild": A.WILD}
        if move in named:
            return named[move]
        return A.CARD + g.card_id(move)

    def do(self, *moves):
        for move in moves:
            self.state.apply_action(self.action(move))
        return self

    def legal(self):
        return [self.game.action_to_string(a) for a in self.state.legal_actions()]

    def can(self, move) -> bool:
        return self.action(move) in self.state.legal_actions()

    def id(self, card) -> int:
        return self.game.card_id(card)

    @property
    def decider(self):
        return self.state.current_player()

    @property
    def phase(self):
        return self.state.phase


@pytest.fixture
def table():
    return Table


@pytest.fixture(autouse=True)
def _fresh_scoring_cache():
    """Each test scores from scratch: ``_best_harbor`` remembers answers across tests, so a test
    whose position an earlier test (or mutmut's stats run, inherited by every forked mutant
    run) already scored would never reach the code under test."""
    _best_harbor.cache_clear()
