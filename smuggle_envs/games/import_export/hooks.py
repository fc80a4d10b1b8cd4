"""The hooks through which the engine calls the cards' powers: registration tables, filled by
the power modules (``powers/``) and read by the state, the steps, the resample and scoring; see
``powers/__init__.py`` for what each one means.

This module imports nothing of the game, so the state can read the tables and the power modules
can register in them and import the state, without a cycle. The state a hook receives is typed
``Any`` here for that reason: it is an ``ImportExportStateBase`` (``state.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

Immediate = Callable[[Any, int], None]
"""``fn(st, p)``: a one-time power run when p's shipment completes."""
WinCheck = Callable[[Any, int], bool]
"""``fn(st, holder)``: True when the holder wins outright."""
EndGame = Callable[[Any, int], int]
"""``fn(st, holder)``: the holder's extra credits at the end (scoring step 2)."""
HiddenChoice = Callable[[Any, int, tuple[Any, ...], int], "str | None"]
"""``fn(st, player, args, action)``: what the other seats see of ``player``'s choice ``action`` in
the power's decision with ``args`` (what ``ask_power`` was given), or None when it is public."""
HandReask = Callable[[Any, tuple[Any, ...]], None]
"""``fn(st, args)``: state again a power's decision whose options come from the decider's hidden
hand (``args`` as ``ask_power`` was given them), from the hand as it is now: how ``resample``
asks it of a redrawn hand."""
Handler = Callable[..., None]
"""A listener ``fn(st, holder, *event_args)``, a resume ``fn(st, action, *args)`` or a task
``fn(st, *args)``."""

IMMEDIATE: dict[str, Immediate] = {}
LISTENERS: dict[str, list[tuple[str, Handler]]] = {}
END_GAME: dict[str, EndGame] = {}
WIN_CHECKS: dict[str, WinCheck] = {}
POWER_RESUME: dict[str, Handler] = {}
POWER_TASK: dict[str, Handler] = {}
HIDDEN_CHOICES: dict[str, HiddenChoice] = {}
HAND_REASKS: dict[str, HandReask] = {}

EVENTS = {
    "completed": "(p, ship, contracts): p completed ship's shipment; payout done, before sailing",
    "contracted": "(p, ship, card): p contracted card onto ship",
    "loaded": "(p, ship, card, via): a container was loaded onto p's ship; via: load, pirate, power",
    "good_added": "(p, card): card was added to p's goods",
    "imported": "(p, ship, card): p imported card from ship (to imports, goods or the discard)",
    "pirated": "(p, card, ship): p pirated card from ship (-1: the supply island)",
    "taken": "(p, card, ship): a power of p's took card off ship (Printed Money)",
    "draw_action": "(p): p took a draw action (as leader or follower)",
    "drew": "(p, k): p drew k cards (any reason)",
    "ship_returned": "(ship): a ship came back from the open sea to its owner's harbor",
    "spent": "(p, amount): p paid or lost credits (to the bank or a player)",
    "execute": "(leader, action): everyone has followed or drawn; the actions are about to be carried out",
    "import_done": "(p, ship): p finished taking the containers it won (or took free) from ship",
}

F = TypeVar("F", bound=Callable[..., Any])


def _registrar(table: dict[str, Any], what: str) -> Callable[[str], Callable[[F], F]]:
    """A decorator factory that files a function under a key in ``table``, once."""

    def by_key(key: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            if key in table:
                raise ValueError(f"{what} {key!r} registered twice")
            table[key] = fn
            return fn

        return register

    return by_key


immediate = _registrar(IMMEDIATE, "immediate power")
resume = _registrar(POWER_RESUME, "power resume")
task = _registrar(POWER_TASK, "power task")
win_check = _registrar(WIN_CHECKS, "win check")
end_game = _registrar(END_GAME, "end-game power")
hidden_choice = _registrar(HIDDEN_CHOICES, "hidden choice")
hand_reask = _registrar(HAND_REASKS, "hand re-ask")


def listener(event: str, key: str) -> Callable[[F], F]:
    """Register ``fn(st, holder, *args)`` for ``event``, on behalf of the card ``key``."""
    if event not in EVENTS:
        raise ValueError(f"unknown event {event!r}; events are {list(EVENTS)}")

    def register(fn: F) -> F:
        LISTENERS.setdefault(event, []).append((key, fn))
        return fn

    return register
