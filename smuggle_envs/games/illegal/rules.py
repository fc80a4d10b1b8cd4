"""Illegal's State with its rules: ``IllegalState``, assembled from the game's modules.

``IllegalState`` is the state's fields and card moves (``state.py``) with the rules bound to it as
methods: legal actions and the step (``steps.py``), the perfect-recall resample (``resample.py``),
the text table (``render.py``), the private cards and step notes of the text interface
(``text.py``). It is declared, with the layout and the encoder, on ``IllegalGame`` (``game.py``),
below. Every module of the game imports only modules below it; this one is the top.

Quotations are from the rulebook; "R4.n" refers to resolution n of the rulebook resolutions.
``docs/rules/illegal.md`` quotes both, maps every rule and card to the code and to its test, and
records every interpretation with its reason.

What other seats see of a decision (``action_to_string(action, viewer)``): everything but the
card passed left after a Paranoia card, which goes face down ("each player passes a card face
down to the player on his left"); cards played, discarded, offered and traded are all shown.
"""

from __future__ import annotations

from . import steps, text
from .encoder import IllegalEncoder, build_layout
from .game import IllegalGame
from .render import render
from .resample import resample
from .state import IllegalStateBase


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


IllegalGame.declare(
    state_class=IllegalState,
    build_layout=build_layout,
    encoder_class=IllegalEncoder,
    card_glossary=text.card_glossary,
)
