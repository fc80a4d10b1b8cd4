"""Import / Export's State with its rules: ``ImportExportState``, assembled from the game's
modules.

``ImportExportState`` is the state's fields and the methods the steps and the powers act through
(``state.py``), with the turn bound to it: the step and the steps the powers reuse (``steps.py``),
the perfect-recall resample (``resample.py``), final scoring (``scoring.py``), the text table
(``render.py``), the texts for people and language models (``text.py``: the card glossary, a
score's text, the private cards, the step notes). It is declared, with the layout and the encoder,
on ``ImportExportGame`` (``game.py``), below.

Imports go one way: a module imports only modules before it in this list (at run time or for
types): the vocabulary, data and actions; ``game.py``; ``hooks.py`` (the tables through which the
engine calls the powers) and ``matching.py``; ``state.py``; the powers (``powers/``, which
register in ``hooks`` and act on the state through its methods); ``scoring.py``; ``steps.py``;
``resample.py``; ``scenarios.py``, ``encoder.py`` and ``render.py``; ``text.py``; this module.

Quotations are from the rulebook; "R5.n" refers to resolution n of section 5 of the project's
rule resolutions. ``docs/rules/import_export.md`` quotes both, and maps every rule to the code
and to its test.
"""

from __future__ import annotations

from . import steps
from .encoder import ImportExportEncoder, build_layout
from .game import ImportExportGame
from .render import render
from .resample import resample
from .scoring import final_scores
from .state import ImportExportStateBase
from .text import card_glossary, private_cards, score_text, step_notes


class ImportExportState(ImportExportStateBase):
    """An Import / Export position (see ``ImportExportStateBase`` for its fields): the functions
    of ``steps.py`` and ``resample.py`` bound as its methods. Binding them here, rather than
    calling them from methods, keeps the hot path at one call per decision."""

    game: ImportExportGame

    def __init__(self, game: ImportExportGame, seed: int | None) -> None:
        super().__init__(game, seed)  # the table set up
        steps.run(self)  # the first turn, up to its first decision

    _apply = steps.apply
    _resample = resample
    _render = render
    _private_cards = private_cards
    _step_notes = step_notes

    # the engine's steps the powers reuse (declared in ``ImportExportStateBase``)
    declare = steps.declare
    ask_contract_ship = steps.ask_contract_ship
    ask_load_ship = steps.ask_load_ship
    pirated = steps.pirated
    won_import = steps.won_import

    def scores(self) -> list[float]:
        return [float(s) for s in final_scores(self)]


ImportExportGame.declare(
    state_class=ImportExportState,
    build_layout=build_layout,
    encoder_class=ImportExportEncoder,
    card_glossary=card_glossary,
    score_text=score_text,
)
