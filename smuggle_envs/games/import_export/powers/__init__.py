"""The goods cards' powers, registered by card key (``data/cards.json``'s ``key``).

A power is a few small functions hooked into the engine (``rules.py``) in one of four ways:

* ``IMMEDIATE[key](st, p)``: runs once when ``key``'s shipment completes for seat p, in contract
  order, before the ship sails (the Ⓢ-marked immediate powers).
* ``LISTENERS[event]``: ``(key, fn)`` pairs; ``st.emit(event, *args)`` calls ``fn(st, holder, *args)``
  for every key whose card is in a player's completed shipments. The events and their
  arguments are listed in ``EVENTS``.
* ``END_GAME``: read by ``scoring.final_scores``.
* ``WIN_CHECKS[key](st, holder) -> bool``: checked between every two steps once any such card
  is held; True wins the game outright (``st.win``).
* Rule changes that alter a basic rule (wild containers, rainbow requirements, capacities,
  ties...) are asked for where the rule lives, with ``st.has(p, key)``.

A power that needs a decision calls ``st.ask_power(key, player, options, args)``; the engine then
calls ``POWER_RESUME[key](st, action, *args)`` with the choice. A power with several steps pushes
``("power", task_name, *args)`` tasks, run by ``POWER_TASK[task_name](st, *args)``. Tasks and asks
hold only public card ids (see ``rules.py``).
"""

from __future__ import annotations

from collections.abc import Callable

IMMEDIATE: dict[str, Callable] = {}
LISTENERS: dict[str, list[tuple[str, Callable]]] = {}
END_GAME: dict[str, Callable] = {}
WIN_CHECKS: dict[str, Callable] = {}
POWER_RESUME: dict[str, Callable] = {}
POWER_TASK: dict[str, Callable] = {}

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


def _registrar(table: dict, what: str):
    """A decorator factory that files a function under a key in ``table``, once."""

    def by_key(key: str):
        def register(fn):
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


def listener(event: str, key: str):
    if event not in EVENTS:
        raise ValueError(f"unknown event {event!r}; events are {list(EVENTS)}")

    def register(fn):
        LISTENERS.setdefault(event, []).append((key, fn))
        return fn

    return register


from . import end_games, events, immediates  # noqa: E402,F401  (registration)
