"""Import / Export's rules engine: ``ImportExportGame`` and ``ImportExportState``, assembled from
the game's modules.

``ImportExportState`` is the state's fields and the methods the steps and the powers act through
(``state.py``), with the turn bound to it: the step and the steps the powers reuse
(``steps.py``), the perfect-recall resample (``resample.py``), final scoring (``scoring.py``),
the text table (``render.py``), the texts for people and language models (``text.py``: the card
glossary, a score's text, the private cards, the step notes) and, for tests and tutorials,
``arrange`` (``scenarios.py``).
``ImportExportGame`` adds to ``ImportExportGameBase`` (``game.py``) the parts that need the state
or the encoder.

Imports go one way: a module imports only modules before it in this list (at run time or for
types): the vocabulary, data and actions; ``game.py``; ``hooks.py`` (the tables through which the
engine calls the powers) and ``matching.py``; ``state.py``; the powers (``powers/``, which
register in ``hooks`` and act on the state through its methods); ``scoring.py``; ``steps.py``;
``resample.py``; ``scenarios.py``, ``encoder.py`` and ``render.py``; ``text.py``; this module.

Quotations are from the rulebook; "R5.n" refers to resolution n of section 5 of the project's
rule resolutions. ``docs/rules/import_export.md`` quotes both, and maps every rule to the code
and to its test. The vocabulary stays importable from here
(``from smuggle_envs.games.import_export.rules import P_BID``).
"""

from __future__ import annotations

from ...core.layout import ObservationLayout
from . import steps
from .encoder import ImportExportEncoder, build_layout
from .game import ImportExportConfig, ImportExportGameBase
from .render import render
from .resample import resample
from .scenarios import arrange
from .scoring import final_scores
from .state import UNLIMITED, Ask, AutoListener, ImportExportStateBase, Task
from .text import card_glossary, private_cards, score_text, step_notes
from .vocab import (
    CHOOSE,
    CONTRACT,
    GREY,
    IMPORT,
    ISLAND,
    LOAD,
    LUXURY,
    NUM_ACTION_TYPES,
    NUM_PHASES,
    NUM_TYPES,
    P_BID,
    P_CONTRACT_CARD,
    P_CONTRACT_SHIP,
    P_FOLLOW,
    P_IMPORT_PICK,
    P_IMPORT_SHIP,
    P_IMPORT_ZONE,
    P_LEAD,
    P_LOAD_CARD,
    P_LOAD_SHIP,
    P_PIRATE_PLACE,
    P_PIRATE_TAKE,
    P_POWER,
    P_SUPPLY,
    P_WILD1,
    P_WILD2,
    P_WILD_ACTION,
    PHASE_NAMES,
    PIRATE,
    SUPPLY,
    TECHNOLOGY,
)

__all__ = [  # the game, and the vocabulary and types that were always importable from here
    "CHOOSE",
    "CONTRACT",
    "GREY",
    "IMPORT",
    "ISLAND",
    "LOAD",
    "LUXURY",
    "NUM_ACTION_TYPES",
    "NUM_PHASES",
    "NUM_TYPES",
    "PHASE_NAMES",
    "PIRATE",
    "P_BID",
    "P_CONTRACT_CARD",
    "P_CONTRACT_SHIP",
    "P_FOLLOW",
    "P_IMPORT_PICK",
    "P_IMPORT_SHIP",
    "P_IMPORT_ZONE",
    "P_LEAD",
    "P_LOAD_CARD",
    "P_LOAD_SHIP",
    "P_PIRATE_PLACE",
    "P_PIRATE_TAKE",
    "P_POWER",
    "P_SUPPLY",
    "P_WILD1",
    "P_WILD2",
    "P_WILD_ACTION",
    "SUPPLY",
    "TECHNOLOGY",
    "UNLIMITED",
    "Ask",
    "AutoListener",
    "ImportExportConfig",
    "ImportExportGame",
    "ImportExportState",
    "Task",
]


class ImportExportGame(ImportExportGameBase):
    """A game of Import / Export: ``ImportExportGameBase`` (config, card tables, the rulebook's
    numbers) and what needs the state or the encoder."""

    def _build_layout(self) -> ObservationLayout:
        return build_layout(self)

    def _make_encoder(self) -> ImportExportEncoder:
        return ImportExportEncoder(self)

    def new_initial_state(self, seed: int | None = None) -> ImportExportState:
        return ImportExportState(self, seed)

    card_glossary = card_glossary
    score_text = score_text


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
    arrange = arrange

    # the engine's steps the powers reuse (declared in ``ImportExportStateBase``)
    declare = steps.declare
    ask_contract_ship = steps.ask_contract_ship
    ask_load_ship = steps.ask_load_ship
    pirated = steps.pirated
    won_import = steps.won_import

    def scores(self) -> list[float]:
        return [float(s) for s in final_scores(self)]
