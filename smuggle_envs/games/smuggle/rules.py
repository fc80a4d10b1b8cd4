"""Smuggle's State with its rules: ``SmuggleState``, assembled from the game's modules.

``SmuggleState`` is the state's fields and card moves (``state.py``) with the rules bound to it as
methods: legal actions and the step (``steps.py``), the perfect-recall resample (``resample.py``),
the text table (``render.py``), the private cards and step notes of the text interface
(``text.py``). It is declared, with the layout and the encoder, on ``SmuggleGame`` (``game.py``),
below. Every module of the game imports only modules below it; this one is the top.

Rule numbers in comments are those of the rulebook and "R2.n" the resolutions of its ambiguities,
both quoted and mapped to the code and to their tests in ``docs/rules/smuggle.md``. The
vocabulary (phases, outcomes, the search record) lives in ``vocab.py``.
"""

from __future__ import annotations

from . import steps, text
from .encoder import SmuggleEncoder, build_layout
from .game import SmuggleGame
from .render import render
from .resample import resample
from .state import SmuggleStateBase


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


SmuggleGame.declare(
    state_class=SmuggleState,
    build_layout=build_layout,
    encoder_class=SmuggleEncoder,
    card_glossary=text.card_glossary,
)
