"""Text interface of the games, for language models and people at a terminal.

=====================  ========================================================================
``observe``            the prompt of one seat at its decision (``TextObservation``: the prompt
                       and the numbered menu of legal actions behind it); layout in ``prompt``
``parse_action``       the action an answer names (a number, a text, a chatty reply), or why none
``SeatLog``            what one seat has been told so far, line by line
``rules_brief``        the rules in brief for a prompt, generated from ``docs/rules/<game>.md``
``card_table``         the card glossary as a table
``TextArenaEnv``       the games behind TextArena's env protocol (``smuggle_envs.text.textarena``)
=====================  ========================================================================

An env-layer package: it reads the games through the core contract (``State.render``,
``action_to_string``, ``private_cards``, ``step_notes``; ``Game.seat_name``, ``score_text``,
``card_glossary``) and the registry, and imports nothing above it.
"""

from .brief import rules_brief
from .log import SeatLog
from .parse import Parsed, parse_action
from .prompt import TextObservation, card_table, observe, situation
from .textarena import TextArenaEnv

__all__ = [
    "Parsed",
    "SeatLog",
    "TextArenaEnv",
    "TextObservation",
    "card_table",
    "observe",
    "parse_action",
    "rules_brief",
    "situation",
]
