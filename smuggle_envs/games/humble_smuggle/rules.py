"""Humble smuggle's State with its rules: ``HumbleSmuggleState``, assembled from the game's
modules.

``HumbleSmuggleState`` is the state's fields and draws (``state.py``) with the rules bound to it as
methods: legal actions and the step (``steps.py``), the perfect-recall resample (``resample.py``),
the text table (``render.py``), the private cards and step notes of the text interface
(``text.py``). It is declared, with the layout and the encoder, on ``HumbleSmuggleGame``
(``game.py``), below. Every module of the game imports only modules below it; this one is the top.

Section numbers in comments are those of the rulebook and "R3.n" the resolutions of its
ambiguities, both quoted and mapped to the code and to their tests in
``docs/rules/humble_smuggle.md``, which also records each interpretation. The vocabulary (phases,
round rules, symbols, Play effects, the reveal record) lives in ``vocab.py``.

``action_to_string(action, viewer)`` follows the rulebook's split of what is hidden: a seat
other than the actor reads "player 1 selects a card face down", "player 1 plays a Play card face
down on player 2's card", "player 1 discards a black card face down"; drafts and passes are
public in full.

Python lists hold the state (the hot path is plain ints and lists); every fact an observation
shows is mirrored in one byte buffer (the fields its observation pieces read) that the encoder
gathers from.
"""

from __future__ import annotations

from . import steps, text
from .encoder import HumbleSmuggleEncoder, build_layout
from .game import HumbleSmuggleGame
from .render import render
from .resample import resample
from .state import HumbleSmuggleStateBase


class HumbleSmuggleState(HumbleSmuggleStateBase):
    """A Humble smuggle position (see ``HumbleSmuggleStateBase`` for its fields): the functions
    of ``steps.py`` and ``resample.py`` bound as its methods. Binding them here, rather than
    calling them from methods, keeps the hot path at one call per decision."""

    game: HumbleSmuggleGame

    def __init__(self, game: HumbleSmuggleGame, seed: int | None):
        super().__init__(game, seed)  # the hands dealt
        steps.start_game(self)

    legal_actions = steps.legal_actions
    legal_action_mask = steps.legal_action_mask
    _is_legal = steps.is_legal
    _apply = steps.apply
    _resample = resample
    _render = render
    _private_cards = text.private_cards
    _step_notes = text.step_notes


HumbleSmuggleGame.declare(
    state_class=HumbleSmuggleState,
    build_layout=build_layout,
    encoder_class=HumbleSmuggleEncoder,
    card_glossary=text.card_glossary,
    score_text=text.score_text,
)
