"""CIQ's rules engine: ``CIQGame`` and ``CIQState``, assembled from the game's modules.

``CIQState`` is the state's fields and card moves (``state.py``) with the rules bound to it as
methods: legal actions and the step (``steps.py``), the perfect-recall resample
(``resample.py``), the text table (``render.py``), the texts for people and language models
(``text.py``: the card glossary, a score's text, the private cards, the step notes) and, for
tests and tutorials, ``arrange`` (``scenarios.py``). ``CIQGame`` adds to ``CIQGameBase``
(``game.py``) the parts that need the state or the encoder. Every module of the game imports
only modules below it; this one is the top.

"R1.n" refers to resolution n of the rulebook resolutions; quotations are from the rulebook.
``docs/rules/ciq.md`` quotes both, maps every rule to the code and to its test, and records
every interpretation with its reason.

Every decision is public: shipped, Sabotage, Hire, Fire and transferred cards are all played face
up, a target is named aloud, and a draw does not show the card. So ``CIQState`` keeps core's
``_public_action_string`` (the full text for every seat).
"""

from __future__ import annotations

from ...core.layout import ObservationLayout
from . import steps
from .encoder import CIQEncoder, build_layout
from .game import CIQConfig, CIQGameBase
from .render import render
from .resample import resample
from .scenarios import arrange
from .state import CIQStateBase, Shown
from .text import card_glossary, private_cards, score_text, step_notes
from .vocab import (
    ACE,
    AFTER_SABOTAGE,
    FIRE_DECISION,
    GIVE_FROM_HAND,
    JACK,
    KING,
    MAIN,
    NO_EFFECT,
    NUM_PHASES,
    NUMBER,
    OPEN,
    OVER,
    PHASE_NAMES,
    QUEEN,
    SABOTAGE2,
    SHIPPING,
)

__all__ = [  # the vocabulary stays importable from here (``from ...ciq.rules import MAIN``)
    "ACE",
    "AFTER_SABOTAGE",
    "FIRE_DECISION",
    "GIVE_FROM_HAND",
    "JACK",
    "KING",
    "MAIN",
    "NO_EFFECT",
    "NUMBER",
    "NUM_PHASES",
    "OPEN",
    "OVER",
    "PHASE_NAMES",
    "QUEEN",
    "SABOTAGE2",
    "SHIPPING",
    "CIQConfig",
    "CIQGame",
    "CIQState",
    "Shown",
]


class CIQGame(CIQGameBase):
    """A game of CIQ: ``CIQGameBase`` (config, tables, byte fields) and what needs the state or
    the encoder."""

    def _build_layout(self) -> ObservationLayout:
        return build_layout(self)

    def _make_encoder(self) -> CIQEncoder:
        return CIQEncoder(self)

    def new_initial_state(self, seed: int | None = None) -> CIQState:
        return CIQState(self, seed)

    card_glossary = card_glossary
    score_text = score_text


class CIQState(CIQStateBase):
    """A CIQ position (see ``CIQStateBase`` for its fields): the functions of ``steps.py`` and
    ``resample.py`` bound as its methods. Binding them here, rather than calling them from
    methods, keeps the hot path at one call per decision."""

    game: CIQGame

    def __init__(self, game: CIQGame, seed: int | None):
        super().__init__(game, seed)  # the table dealt
        steps.start_turn(self, game.config.first_player)

    legal_actions = steps.legal_actions
    _apply = steps.apply
    _resample = resample
    _render = render
    _private_cards = private_cards
    _step_notes = step_notes
    shipment_transfers = steps.shipment_transfers
    smuggled_worth = steps.smuggled_worth
    arrange = arrange
