"""The form a decision takes in the browser, from the legal actions of the seat to move.

Built only from ``legal_actions()`` and ``action_to_string(action, seat)`` of the seat whose turn
it is (what that seat may know of its own options) and the games' public action tables:

``declare``  Smuggle's declaration: a multiset of up to four goods (one counter per good), or
             the Diplomatic Bag claim; the page maps the counts to the action id.
``bid``      Import / Export's sealed bid: a number among the legal bids (even credits).
``yesno``    a yes/no reaction (accept a trade, stop a takeover with the Magnum, take an optional
             power, search or let pass, inform or accept): two big buttons and the question.
``choice``   anything else: one button per legal action (with a filter when there are many).

Every form still ends in one action id, checked by the server like any other.
"""

from __future__ import annotations

from typing import Any

# (env id, "yes" action, "no" action, question): a decision whose legal actions are exactly these two
_YES_NO: tuple[tuple[str, str, str, str], ...] = (
    ("smuggle_v0", "SEARCH", "LET_PASS", "Search the luggage?"),
    ("smuggle_v0", "INFORM", "ACCEPT", "Become Informer and search the passed cards?"),
    ("illegal_v0", "ACCEPT", "DECLINE", "Accept the trade?"),
    ("illegal_v0", "CANCEL", "LET_PASS", "Play your Magnum and stop it?"),
    ("import_export_v0", "YES", "DONE", "Use the power?"),
)


def _actions_module(env_id: str) -> Any:
    import importlib

    return importlib.import_module(f"smuggle_envs.games.{env_id.removesuffix('_v0')}.actions")


def _yes_no(env_id: str, legal: tuple[int, ...]) -> dict[str, Any] | None:
    if len(legal) != 2:
        return None
    for env, yes, no, question in _YES_NO:
        if env != env_id:
            continue
        module = _actions_module(env_id)
        ids = (getattr(module, yes), getattr(module, no))
        if set(ids) == set(legal):
            return {"kind": "yesno", "question": question, "yes": ids[0], "no": ids[1]}
    return None


def _declare(state: Any, legal: tuple[int, ...]) -> dict[str, Any] | None:
    from smuggle_envs.games.smuggle import actions as A

    declarations = [a for a in legal if a < A.NUM_DECLARATIONS]
    if not declarations:
        return None
    data = state.game.data
    return {
        "kind": "declare",
        "items": [{"name": n, "duty": d} for n, d in zip(data.item_names, data.duties)],
        "max": A.HAND_SIZE,
        "options": [{"id": a, "counts": list(A.DECLARATIONS[a])} for a in declarations],
        "bag": A.CLAIM_BAG if A.CLAIM_BAG in legal else None,
    }


def _bid(legal: tuple[int, ...]) -> dict[str, Any] | None:
    from smuggle_envs.games.import_export import actions as A

    bids = [a for a in legal if A.BID <= a < A.TYPE]
    if not bids:
        return None
    return {"kind": "bid", "bids": [{"id": a, "amount": 2 * (a - A.BID)} for a in bids], "step": 2}


def decision(state: Any, seat: int) -> dict[str, Any]:
    """The decision of ``seat``, which must be the seat to move: its form and every legal action
    with its text (the full text: the seat is the actor)."""
    legal = state.legal_actions()
    actions = [{"id": a, "text": state.action_to_string(a, seat)} for a in legal]
    env_id = state.game.env_id
    form: dict[str, Any] | None = None
    if env_id == "smuggle_v0":
        form = _yes_no(env_id, legal) or _declare(state, legal)
    elif env_id == "import_export_v0":
        form = _bid(legal) or _yes_no(env_id, legal)
    else:
        form = _yes_no(env_id, legal)
    result: dict[str, Any] = {"kind": "choice"}
    if form is not None:
        result.update(form)
    result["actions"] = actions
    return result
