"""CIQ's State with its rules: ``CIQState``, assembled from the game's modules.

``CIQState`` is the state's fields and card moves (``state.py``) with the rules bound to it as
methods: legal actions and the step (``steps.py``), the perfect-recall resample (``resample.py``),
the text table (``render.py``), the texts for people and language models (``text.py``: the card
glossary, a score's text, the private cards, the step notes). It is declared, with the layout and
the encoder, on ``CIQGame`` (``game.py``), below. Every module of the game imports only modules
below it; this one is the top.

"R1.n" refers to resolution n of the rulebook resolutions; quotations are from the rulebook.
``docs/rules/ciq.md`` quotes both, maps every rule to the code and to its test, and records
every interpretation with its reason.

Every decision is public: shipped, Sabotage, Hire, Fire and transferred cards are all played face
up, a target is named aloud, and a draw does not show the card. So ``CIQState`` keeps core's
``_public_action_string`` (the full text for every seat).
"""

from __future__ import annotations

from . import steps
from .encoder import CIQEncoder, build_layout
from .game import CIQGame
from .render import render
from .resample import resample
from .state import CIQStateBase
from .text import card_glossary, private_cards, score_text, step_notes


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


CIQGame.declare(
    state_class=CIQState,
    build_layout=build_layout,
    encoder_class=CIQEncoder,
    card_glossary=card_glossary,
    score_text=score_text,
)
