"""Illegal's rules engine: ``IllegalGame`` and ``IllegalState``, assembled from the game's modules.

``IllegalState`` is the state's fields and card moves (``state.py``) with the rules bound to it
as methods: legal actions and the step (``steps.py``), the perfect-recall resample
(``resample.py``), the text table (``render.py``), the private cards and step notes of the text
interface (``text.py``) and, for tests and tutorials, ``arrange`` (``scenarios.py``).
``IllegalGame`` adds to ``IllegalGameBase`` (``game.py``) the parts that need the state or the
encoder, and the card glossary (``text.py``). Every module of the game imports only modules
below it; this one is the top.

Quotations are from the rulebook; "R4.n" refers to resolution n of the rulebook resolutions.
``docs/rules/illegal.md`` quotes both, maps every rule and card to the code and to its test, and
records every interpretation with its reason.

What other seats see of a decision (``action_to_string(action, viewer)``): everything but the
card passed left after a Paranoia card, which goes face down ("each player passes a card face
down to the player on his left"); cards played, discarded, offered and traded are all shown.
"""

from __future__ import annotations

from ...core.layout import ObservationLayout
from . import steps, text
from .encoder import IllegalEncoder, build_layout
from .game import FULL_GAME, IllegalConfig, IllegalGameBase
from .render import render
from .resample import resample
from .scenarios import arrange
from .state import IllegalStateBase
from .vocab import (
    AFTER_PARANOIA,
    AFTER_TURN,
    EXTRA,
    LOSE,
    LOSES_ALL,
    LOSES_ONE,
    LOSES_TOP,
    LOSS_ANY,
    LOSS_ILLEGAL,
    LOSS_NONE,
    NUM_PHASES,
    OVER,
    PASS,
    PAY,
    PHASE_NAMES,
    PLAY,
    REACT,
    T_ACCOUNTING,
    T_BRIBE,
    T_HASSLE,
    T_ILLEGAL,
    T_LEGAL,
    T_MAGNUM,
    T_MARKET,
    T_PARANOIA,
    T_RELATIVES,
    T_SOLUTION,
    T_TAKEOVER,
    TAKE,
    TARGET,
    TRADE_ANSWER,
    TRADE_GIVE,
    TRADE_PARTNER,
    TRADE_WANT,
    W_HASSLE,
    W_TAKEOVER,
)

__all__ = [  # the vocabulary stays importable from here (``from ...illegal.rules import PLAY``)
    "AFTER_PARANOIA",
    "AFTER_TURN",
    "EXTRA",
    "FULL_GAME",
    "LOSE",
    "LOSES_ALL",
    "LOSES_ONE",
    "LOSES_TOP",
    "LOSS_ANY",
    "LOSS_ILLEGAL",
    "LOSS_NONE",
    "NUM_PHASES",
    "OVER",
    "PASS",
    "PAY",
    "PHASE_NAMES",
    "PLAY",
    "REACT",
    "TAKE",
    "TARGET",
    "TRADE_ANSWER",
    "TRADE_GIVE",
    "TRADE_PARTNER",
    "TRADE_WANT",
    "T_ACCOUNTING",
    "T_BRIBE",
    "T_HASSLE",
    "T_ILLEGAL",
    "T_LEGAL",
    "T_MAGNUM",
    "T_MARKET",
    "T_PARANOIA",
    "T_RELATIVES",
    "T_SOLUTION",
    "T_TAKEOVER",
    "W_HASSLE",
    "W_TAKEOVER",
    "IllegalConfig",
    "IllegalGame",
    "IllegalState",
]


class IllegalGame(IllegalGameBase):
    """A game of Illegal: ``IllegalGameBase`` (config, tables, byte fields) and what needs the
    state or the encoder."""

    def _build_layout(self) -> ObservationLayout:
        return build_layout(self)

    def _make_encoder(self) -> IllegalEncoder:
        return IllegalEncoder(self)

    def new_initial_state(self, seed: int | None = None) -> IllegalState:
        return IllegalState(self, seed)

    card_glossary = text.card_glossary


class IllegalState(IllegalStateBase):
    """An Illegal position (see ``IllegalStateBase`` for its fields): the functions of
    ``steps.py`` and ``resample.py`` bound as its methods. Binding them here, rather than
    calling them from methods, keeps the hot path at one call per decision."""

    game: IllegalGame

    def __init__(self, game: IllegalGame, seed: int | None):
        super().__init__(game, seed)
        steps.new_hand(self)  # the first deal, and the first turn

    legal_actions = steps.legal_actions
    legal_action_mask = steps.legal_action_mask
    _apply = steps.apply
    _resample = resample
    _render = render
    _private_cards = text.private_cards
    _step_notes = text.step_notes
    arrange = arrange
