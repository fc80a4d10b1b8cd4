"""The form a decision takes in the browser, from the legal actions of the seat to move.

Built only from ``legal_actions()`` and ``action_to_string(action, seat)`` of the seat whose turn
it is (what that seat may know of its own options) and the games' public action tables:

``declare``  Smuggle's declaration: a multiset of up to four goods (one counter per good), or
             the Diplomatic Bag claim; the page maps the counts to the action id.
``bid``      Import / Export's sealed bid: a number among the legal bids (even credits), with
             the ship (or the island) being auctioned and its cargo, from the seat's own
             observation and table text.
``yesno``    a yes/no reaction (accept a trade, stop a takeover with the Magnum, take an optional
             power, search or let pass, inform or accept): two big buttons and the question.
``choice``   anything else: one button per legal action (with a filter when there are many).

Every form has a ``question``: the yes/no form's own, else the game's words for the step
(``WebGame.question``: "Choose whom to play raid on", naming the people), so no page asks a bare
"Your move". A button names the people an action names relative to its actor ("target P1
Bob", not "the player 1 seat clockwise": ``WebGame.name_seats``).

Every form still ends in one action id, checked by the server like any other. A game's own forms
(``WebGame.form``) and yes/no questions (``WebGame.yes_no``) are in its plugin module,
``training/web/games/<game>.py``; this module asks them in that order.

``engine_prompt`` is the engine's own line for the decision in progress (Import / Export's
"P1 to decide: import: sealed bid"), read from the seat's table text by the game's plugin
(``WebGame.prompt``), so a page shows what the terminal shows above the options.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .games import web_game
from .games._common import Namer


def yes_no(questions: tuple[tuple[int, int, str], ...], legal: tuple[int, ...]) -> dict[str, Any] | None:
    """The yes/no form of the first ``(yes, no, question)`` whose two actions are exactly the
    legal ones, or None."""
    if len(legal) != 2:
        return None
    for yes, no, question in questions:
        if {yes, no} == set(legal):
            return {"kind": "yesno", "question": question, "yes": yes, "no": no}
    return None


def engine_prompt(state: Any, seat: int | None) -> dict[str, Any] | None:
    """The engine's line for the decision in progress, as ``seat`` reads it in its own table text
    (``None``: the full text): who decides and what (without the options, which the page lists),
    and for a power's decision the card and its power. Import / Export only: the other games'
    forms and log say it."""
    return web_game(state.game.env_id).prompt(state, seat)


def namer(seat: int | None, labels: Sequence[str] | None) -> Namer:
    """How a page names seat ``p`` to ``seat``: "P2 Bob", the reader's own "P0 Ann (you)";
    without labels "P2"."""

    def name(p: int) -> str:
        named = f"P{p} {labels[p]}" if labels else f"P{p}"
        return f"{named} (you)" if p == seat else named

    return name


def decision(state: Any, seat: int, labels: Sequence[str] | None = None) -> dict[str, Any]:
    """The decision of ``seat``, which must be the seat to move: its form, the ``question`` (the
    step it is asked to take, naming the people by ``labels``), the ids of every legal action
    (``legal``), and the text of each (the full text: the seat is the actor; a seat it names
    relative to itself named as the page names it) except those a form covers with controls of
    its own (``_covers``: Smuggle's ~500 declarations are counters on the page; their texts would
    be most of every view's bytes)."""
    legal = state.legal_actions()
    web = web_game(state.game.env_id)
    name = namer(seat, labels)
    form = web.form(state, seat, legal) or yes_no(web.yes_no, legal)
    result: dict[str, Any] = {"kind": "choice"}
    if form is not None:
        result.update(form)
    covered = set(result.pop("_covers", ()))
    asked = web.question(state, seat, legal, name)
    result["question"] = result.pop("question", None) or asked or f"Your move: one of {len(legal)} actions"
    result["legal"] = list(legal)
    n = state.game.num_players
    result["actions"] = [
        {"id": a, "text": web.name_seats(state.action_to_string(a, seat), seat, n, name)}
        for a in legal
        if a not in covered
    ]
    return result
