"""Smuggle's rules engine: ``SmuggleGame`` and ``SmuggleState``, assembled from the game's modules.

``SmuggleState`` is the state's fields and card moves (``state.py``) with the rules bound to it
as methods: legal actions and the step (``steps.py``), the perfect-recall resample
(``resample.py``), the text table (``render.py``), the private cards and step notes of the text
interface (``text.py``) and, for tests and tutorials, ``stack_pack`` (``scenarios.py``).
``SmuggleGame`` adds to ``SmuggleGameBase`` (``game.py``) the parts that need the state or the
encoder, and the card glossary (``text.py``). Every module of the game imports only modules below
it; this one is the top.

Rule numbers in comments are those of the rulebook and "R2.n" the resolutions of its ambiguities,
both quoted and mapped to the code and to their tests in ``docs/rules/smuggle.md``. The
vocabulary (phases, outcomes, the search record) lives in ``vocab.py``; it stays importable from
here (``from smuggle_envs.games.smuggle.rules import DECLARE``).
"""

from __future__ import annotations

from ...core.layout import ObservationLayout
from . import steps, text
from .actions import BAG, HAND_SIZE, NUM_ITEMS, NUM_KINDS
from .encoder import SmuggleEncoder, build_layout
from .game import SmuggleConfig, SmuggleGameBase
from .render import render
from .resample import resample
from .scenarios import stack_pack
from .state import SmuggleStateBase
from .vocab import (
    DECLARE,
    DISCARD,
    DUTY_UNIT,
    LYING,
    NUM_PHASE_FLAGS,
    NUM_SEARCH_RECORDS,
    OFFICER,
    OVER,
    R_BAG_FALSE,
    R_CAUGHT,
    R_INFORM_HIT,
    R_INFORMED_ON,
    R_INFORMS,
    R_NEXT_DECISIONS,
    R_OFF_HIT,
    R_OFF_SEARCH,
    R_SEARCHED,
    R_TRUTHFUL,
    REAL_BAG,
    RECEIVE,
    TRUTHFUL,
    Reveal,
)

__all__ = [  # the game, and the vocabulary that was always importable from here
    "BAG",
    "DECLARE",
    "DISCARD",
    "DUTY_UNIT",
    "HAND_SIZE",
    "LYING",
    "NUM_ITEMS",
    "NUM_KINDS",
    "NUM_PHASE_FLAGS",
    "NUM_SEARCH_RECORDS",
    "OFFICER",
    "OVER",
    "REAL_BAG",
    "RECEIVE",
    "R_BAG_FALSE",
    "R_CAUGHT",
    "R_INFORMED_ON",
    "R_INFORMS",
    "R_INFORM_HIT",
    "R_NEXT_DECISIONS",
    "R_OFF_HIT",
    "R_OFF_SEARCH",
    "R_SEARCHED",
    "R_TRUTHFUL",
    "TRUTHFUL",
    "Reveal",
    "SmuggleConfig",
    "SmuggleGame",
    "SmuggleState",
]


class SmuggleGame(SmuggleGameBase):
    """A game of Smuggle: ``SmuggleGameBase`` (config, tables, byte fields) and what needs the
    state or the encoder."""

    def _build_layout(self) -> ObservationLayout:
        return build_layout(self)

    def _make_encoder(self) -> SmuggleEncoder:
        return SmuggleEncoder(self)

    def new_initial_state(self, seed: int | None = None) -> SmuggleState:
        return SmuggleState(self, seed)

    card_glossary = text.card_glossary


class SmuggleState(SmuggleStateBase):
    """A Smuggle position (see ``SmuggleStateBase`` for its fields): the functions of
    ``steps.py`` and ``resample.py`` bound as its methods. Binding them here, rather than
    calling them from methods, keeps the hot path at one call per decision."""

    game: SmuggleGame

    def __init__(self, game: SmuggleGame, seed: int | None):
        super().__init__(game, seed)
        steps.start_round(self)  # the first round: shuffle, and the first hand is dealt

    legal_actions = steps.legal_actions
    legal_action_mask = steps.legal_action_mask
    _is_legal = steps.is_legal
    _apply = steps.apply
    _resample = resample
    _render = render
    _private_cards = text.private_cards
    _step_notes = text.step_notes
    stack_pack = stack_pack
