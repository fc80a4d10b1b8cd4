"""What the browser is shown: one seat's view, or the full view of a replay or an all-bot table.

A seat's view is built only from the engine's per-seat interfaces: ``state.observation(seat)``
(the drawn cards, ``cards.py``), ``state.render(seat)`` (the game's own table text from that
seat), ``state.action_to_string(action, seat)`` (the log, computed when each action was taken,
and the seat's own options), ``legal_actions()`` when it is the seat's turn, and the public
``current_player()`` and ``scores()`` (before the end, scores are public by the engine's
contract). It never reads a hidden field, so redrawing what the seat cannot see
(``state.resample(seat)``) leaves it unchanged: ``tests/training/web/test_no_leak.py`` checks
exactly that, for every game.

The full view (``full_view``) reads everything, and marks the log where the truth is worth
seeing (``marks.py``, one marker per game): each Smuggle declaration true or false and each
search caught or not, and each other game's hidden moments (a Smuggle's target able to Fire, a
Magnum held while letting pass, the Humble smuggle reveal, the sealed Import bids). It is
served only for finished games and for tables without a human seat.
"""

from __future__ import annotations

from typing import Any

from . import marks
from .cards import seat_zones
from .decisions import decision
from .rules import illegal_card_texts

LogEntry = dict[str, Any]


# ----- the log ----------------------------------------------------------------------------------
def log_entry(state: Any, action: int) -> LogEntry:
    """The record of ``action``, taken now by ``state.current_player()``: its full text, the text
    each seat sees, and (full view only) a mark of the truth. Call before applying it, then
    ``settle_entry`` after."""
    n = state.game.num_players
    entry: LogEntry = {
        "n": len(state.history),
        "seat": int(state.current_player()),
        "full": state.action_to_string(action),
        "seen": [state.action_to_string(action, v) for v in range(n)],
        "mark": None,
    }
    mark = marks.mark(state, action)
    if callable(mark):
        entry["_settle"] = mark  # known only after the action (a search's verdict)
    else:
        entry["mark"] = mark
    return entry


def settle_entry(entry: LogEntry, state: Any) -> None:
    """Complete ``entry`` from the position its action led to (a search's verdict)."""
    settle = entry.pop("_settle", None)
    if settle is not None:
        entry["mark"] = settle(state)


def apply_logged(state: Any, action: int, log: list[LogEntry]) -> None:
    """Apply ``action`` (checked by the engine) and append its log entry."""
    entry = log_entry(state, action)
    try:
        state.apply_action(action)
    finally:  # settled even if the engine refuses the action: a marker may hold on to the state
        settle_entry(entry, state)
    log.append(entry)


def seat_log(log: list[LogEntry], seat: int) -> list[dict[str, Any]]:
    return [{"n": e["n"], "seat": e["seat"], "text": e["seen"][seat]} for e in log]


def full_log(log: list[LogEntry]) -> list[dict[str, Any]]:
    return [{"n": e["n"], "seat": e["seat"], "text": e["full"], "mark": e["mark"]} for e in log]


# ----- views --------------------------------------------------------------------------------------
def _status(state: Any) -> str:
    if not state.is_terminal():
        return "playing"
    return "truncated" if state.is_truncated() else "over"


def _common(state: Any, labels: list[str]) -> dict[str, Any]:
    terminal = state.is_terminal()
    scores = [float(s) for s in state.scores()]
    to_move = None if terminal else int(state.current_player())
    view: dict[str, Any] = {
        "env_id": state.game.env_id,
        "num_players": state.game.num_players,
        "status": _status(state),
        "version": len(state.history),
        "to_move": to_move,
        "players": [
            {"seat": p, "label": labels[p], "score": scores[p], "to_move": p == to_move} for p in range(len(labels))
        ],
    }
    if terminal:
        view["result"] = {"winners": list(state.winning_seats()), "scores": scores, "truncated": state.is_truncated()}
    return view


def _texts(env_id: str) -> dict[str, str]:
    return illegal_card_texts() if env_id == "illegal_v0" else {}


def seat_view(state: Any, seat: int, labels: list[str], log: list[LogEntry]) -> dict[str, Any]:
    """Everything seat ``seat`` is shown (see the module docstring)."""
    view = _common(state, labels)
    view["viewer"] = seat
    view["table_text"] = state.render(seat)
    view["zones"] = seat_zones(state.game, state.observation(seat), _texts(state.game.env_id))
    view["log"] = seat_log(log, seat)
    view["decision"] = decision(state, seat) if view["to_move"] == seat else None
    return view


def full_view(state: Any, labels: list[str], log: list[LogEntry]) -> dict[str, Any]:
    """The whole table: every seat's cards, the full log with its marks. Never for a seat."""
    view = _common(state, labels)
    view["viewer"] = None
    view["table_text"] = state.render()
    texts = _texts(state.game.env_id)
    public: list[dict[str, Any]] = []
    private: list[dict[str, Any]] = []
    for p in range(state.game.num_players):
        for zone in seat_zones(state.game, state.observation(p), texts):
            title = zone["title"]
            if title.startswith("Your "):  # a seat's own cards: one zone per seat that has any
                if zone["cards"]:
                    private.append({**zone, "title": f"P{p} {labels[p]}: {title[5:]}"})
            elif p == 0:  # the same public cards in every seat's view: once
                public.append(zone)
    view["zones"] = private + public
    view["log"] = full_log(log)
    view["decision"] = None
    return view


def replay_states(game: Any, seed: int, actions: list[int]) -> tuple[Any, list[LogEntry]]:
    """Play a stored game through; returns the final state and the log."""
    state = game.new_initial_state(seed)
    log: list[LogEntry] = []
    for action in actions:
        apply_logged(state, action, log)
    return state, log
