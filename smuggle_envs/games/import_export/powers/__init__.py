"""The goods cards' powers, registered by card key (``data/cards.json``'s ``key``).

A power is a few small functions hooked into the engine (``state.py``, ``steps.py``) in one of
four ways:

* ``IMMEDIATE[key](st, p)``: runs once when ``key``'s shipment completes for seat p, in contract
  order, before the ship sails (the Ⓢ-marked immediate powers).
* ``LISTENERS[event]``: ``(key, fn)`` pairs; ``st.emit(event, *args)`` calls ``fn(st, holder, *args)``
  for every key whose card is in a player's completed shipments. The events and their
  arguments are listed in ``EVENTS``.
* ``END_GAME``: read by ``scoring.final_scores``.
* ``WIN_CHECKS[key](st, holder) -> bool``: checked between every two steps once any such card
  is held; True wins the game outright (``st.win``).
* ``HIDDEN_CHOICES[key](st, player, args, action) -> str | None``: a power whose decision is
  secret (a card handed over face down) says what the other seats see of it
  (``State.action_to_string`` with a viewer); None, or no entry, means the choice is public.
* ``HAND_REASKS[key](st, args)``: a power whose decision's options come from the decider's
  hidden hand states it again from the hand as it is now; ``State.resample`` uses it on a
  redrawn hand, so that another seat's sampled world never keeps the decider's real hand. Every
  power decision that is not public needs one (a test checks).
* Rule changes that alter a basic rule (wild containers, rainbow requirements, capacities,
  ties...) are asked for where the rule lives, with ``st.has(p, key)``; the options such powers
  add to a decision, and the "any time" powers, are in ``modifiers.py``.

A power that needs a decision calls ``st.ask_power(key, player, options, args)``; the engine then
calls ``POWER_RESUME[key](st, action, *args)`` with the choice. A power with several steps pushes
``("power", task_name, *args)`` tasks, run by ``POWER_TASK[task_name](st, *args)``. Tasks and asks
hold only public card ids (see ``steps.py``).

The tables and the decorators live in ``hooks.py`` (one level up), which imports nothing of the
game: the state reads the tables, and the power modules register in them and import only
``hooks``, ``state`` (the type they act on), ``vocab``, ``data``, ``actions`` and ``ties``. They
receive the state as an argument and act through its methods, so the steps import the powers and
never the other way round (the import graph of the game has no cycle, type-only imports
included). Importing this package registers every power.
"""

from __future__ import annotations

from ..hooks import (
    END_GAME,
    EVENTS,
    HAND_REASKS,
    HIDDEN_CHOICES,
    IMMEDIATE,
    LISTENERS,
    POWER_RESUME,
    POWER_TASK,
    WIN_CHECKS,
    end_game,
    hand_reask,
    hidden_choice,
    immediate,
    listener,
    resume,
    task,
    win_check,
)
from . import end_games, events, immediates, modifiers  # registration

__all__ = [
    "END_GAME",
    "EVENTS",
    "HAND_REASKS",
    "HIDDEN_CHOICES",
    "IMMEDIATE",
    "LISTENERS",
    "POWER_RESUME",
    "POWER_TASK",
    "WIN_CHECKS",
    "end_game",
    "end_games",
    "events",
    "hand_reask",
    "hidden_choice",
    "immediate",
    "immediates",
    "listener",
    "modifiers",
    "resume",
    "task",
    "win_check",
]
