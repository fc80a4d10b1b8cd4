"""What the browser is shown: one seat's view, or the full view of a replay or an all-bot table.

A seat's view is built only from the engine's per-seat interfaces: ``state.observation(seat)``
(the drawn cards, ``cards.py``), ``state.render(seat)`` (the game's own table text from that
seat), ``state.action_to_string(action, seat)`` (the log, computed when each action was taken,
and the seat's own options), ``legal_actions()`` when it is the seat's turn, and the public
``current_player()`` and ``scores()`` (before the end, scores are public by the engine's
contract). It never reads a hidden field, so redrawing what the seat cannot see
(``state.resample(seat)``) leaves it unchanged: ``tests/training/web/test_no_leak.py`` checks
exactly that, for every game. What the terminal shows beyond the cards comes from the same
sources: the players' ``badges`` (public roles: Smuggle's Officer and bag holder, ...) from the
public pieces of the seat's observation; ``outcomes`` (what came of a logged move: a Smuggle
search's bag, searcher and verdict from the seat's own table text just after it, and the money
that changed hands from the public scores before and after); ``prompt`` (Import / Export's own
line for the decision in progress, from the seat's table text). What each game adds is declared
by its plugin module, ``training/web/games/<game>.py`` (a ``WebGame``); this module is the same
for every game.

A stored game names its seats ``human:NAME`` and ``rule#2``; ``stored_seats`` turns them into
the labels and kinds the live table shows.

The full view (``full_view``) reads everything, and marks the log where the truth is worth
seeing (``marks.py``; one marker per game, in its plugin): each Smuggle declaration true or false and each
search caught or not, and each other game's hidden moments (a Smuggle's target able to Fire, a
Magnum held while letting pass, the Humble smuggle reveal, the sealed Import bids). It is
served only for finished games and for tables without a human seat.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import marks
from .cards import seat_of, seat_zones
from .decisions import decision, engine_prompt, namer
from .games import game_name, web_game

LogEntry = dict[str, Any]

MINUS = "\u2212"


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
    entry["_before"] = (action, [float(x) for x in state.scores()])
    return entry


def settle_entry(entry: LogEntry, state: Any) -> None:
    """Complete ``entry`` from the position its action led to: a search's verdict (the mark) and
    what each seat then saw come of it (``after``)."""
    settle = entry.pop("_settle", None)
    if settle is not None:
        entry["mark"] = settle(state)
    before = entry.pop("_before", None)
    if before is not None:
        entry["after"] = outcomes(state, *before)


# ----- what came of an action, as each seat saw it --------------------------------------------------
def money_moved(env_id: str, before: Sequence[float], after: Sequence[float]) -> str:
    """Who gained and who paid, from the public scores before and after one action ("" if none):
    only for games whose scores are money (the plugin's ``WebGame.currency``)."""
    unit = web_game(env_id).currency
    if unit is None:
        return ""
    parts = []
    for p, (a, b) in enumerate(zip(before, after)):
        delta = b - a
        if abs(delta) > 1e-9:
            amount = f"{abs(delta):,.0f}" if float(delta).is_integer() else f"{abs(delta):,.1f}"
            parts.append(f"P{p} {'+' if delta > 0 else MINUS}{unit}{amount}")
    return ", ".join(parts)


def outcomes(state: Any, action: int, before: Sequence[float]) -> dict[str, Any]:
    """What came of ``action`` (now applied to ``state``), in words: ``seen`` per seat (built from
    that seat's own table text and the public scores) and ``full``: the game's own words
    (``WebGame.outcome``: Smuggle's search, its bag, cards and verdict), and the money that
    changed hands (``WebGame.currency``); other games: nothing yet (their log texts and tables
    say it)."""
    n = state.game.num_players
    env_id = state.game.env_id
    web = web_game(env_id)
    moved = money_moved(env_id, before, [float(x) for x in state.scores()])

    def say(seat: int | None) -> str | None:
        text = "; ".join(t for t in (web.outcome(state, action, seat), f"money: {moved}" if moved else "") if t)
        return text or None

    return {"full": say(None), "seen": [say(v) for v in range(n)]}


def apply_logged(state: Any, action: int, log: list[LogEntry]) -> None:
    """Apply ``action`` (checked by the engine) and append its log entry."""
    entry = log_entry(state, action)
    try:
        state.apply_action(action)
    finally:  # settled even if the engine refuses the action: a marker may hold on to the state
        settle_entry(entry, state)
    log.append(entry)


def _naming(state: Any, seat: int | None, labels: Sequence[str]) -> Callable[[LogEntry, str], str]:
    """A log text as ``seat`` reads it: the seats it names relative to its actor named as the
    page names them ("target P2 Bob")."""
    web, n, name = web_game(state.game.env_id), state.game.num_players, namer(seat, labels)
    return lambda e, text: web.name_seats(text, e["seat"], n, name)


def seat_log(
    log: list[LogEntry], seat: int, named: Callable[[LogEntry, str], str] | None = None
) -> list[dict[str, Any]]:
    said = named or (lambda e, text: text)
    return [{"n": e["n"], "seat": e["seat"], "text": said(e, e["seen"][seat])} for e in log]


def full_log(log: list[LogEntry], named: Callable[[LogEntry, str], str] | None = None) -> list[dict[str, Any]]:
    said = named or (lambda e, text: text)
    return [{"n": e["n"], "seat": e["seat"], "text": said(e, e["full"]), "mark": e["mark"]} for e in log]


def seat_outcomes(log: list[LogEntry], seat: int | None) -> list[dict[str, Any]]:
    """What came of the logged actions, as ``seat`` saw it (``None``: the full view): entry
    number and text, only where something did (a search's verdict, money paid)."""
    shown = []
    for e in log:
        after = e.get("after")
        text = None if after is None else after["full"] if seat is None else after["seen"][seat]
        if text:
            shown.append({"n": e["n"], "text": text})
    return shown


# ----- seat labels ---------------------------------------------------------------------------------------
def stored_seats(stored: Sequence[str]) -> list[tuple[str, str]]:
    """A stored game's seat labels as the live table shows them: (label, kind) per seat.

    The games table names a person ``human:NAME`` and makes labels unique within a game as
    tournaments do (``rule``, ``rule#2``; two people named Ann: ``human:Ann``, ``human:Ann#2``);
    the table calls the person NAME (kind ``human``) and a bot by its label (kind ``agent``),
    with no ``#k``. A replay passes them to ``full_view``/``seat_view``::

        labels, kinds = (list(x) for x in zip(*stored_seats(record["seating"])))
        view = full_view(state, labels, log, kinds)
    """
    seats = []
    for label in stored:
        plain = re.sub(r"#\d+$", "", label)
        if plain.startswith("human:"):
            seats.append((plain[len("human:") :], "human"))
        else:
            seats.append((plain, "agent"))
    return seats


# ----- views --------------------------------------------------------------------------------------
def _status(state: Any) -> str:
    if not state.is_terminal():
        return "playing"
    return "truncated" if state.is_truncated() else "over"


def _common(state: Any, labels: list[str], kinds: list[str] | None, seat: int | None) -> dict[str, Any]:
    terminal = state.is_terminal()
    scores = [float(s) for s in state.scores()]
    to_move = None if terminal else int(state.current_player())
    roles = badges(state, seat)
    players = []
    for p in range(len(labels)):
        player = {
            "seat": p,
            "label": labels[p],
            "score": scores[p],
            "score_text": state.game.score_text(scores[p]),  # as the terminal writes it
            "to_move": p == to_move,
            "badges": roles[p],
        }
        if kinds is not None:
            player["kind"] = kinds[p]
        players.append(player)
    view: dict[str, Any] = {
        "env_id": state.game.env_id,
        "game_name": game_name(state.game.env_id),
        "num_players": state.game.num_players,
        "status": _status(state),
        "revision": len(state.history),  # the position: decisions played so far
        "to_move": to_move,
        "players": players,
        "score_note": web_game(state.game.env_id).score_note,
    }
    if terminal:
        view["result"] = {"winners": list(state.winning_seats()), "scores": scores, "truncated": state.is_truncated()}
    return view


# ----- badges on the player boxes -----------------------------------------------------------------------
def badges(state: Any, seat: int | None) -> list[list[str]]:
    """Each seat's public role now (Smuggle's Officer and bag holder, Import / Export's leader and
    bidders, a CIQ or Illegal target and whose turn it is while another seat answers, Humble
    smuggle's first player), read from the public pieces of ``seat``'s own observation (seat 0's
    for the full view: the pieces are the same) by the game's plugin: its ``roles`` (one-hot
    pieces), its other ``badges``, then its ``turn_piece``."""
    game = state.game
    n = game.num_players
    viewer = 0 if seat is None else seat
    layout = game.observation_layout
    obs = state.observation(viewer)
    names = {piece.name for piece in layout.pieces}
    get = lambda name: np.asarray(layout.get(obs, name))
    shown: list[list[str]] = [[] for _ in range(n)]
    if state.is_terminal():
        return shown
    web = web_game(game.env_id)
    for piece, badge in web.roles:
        if piece in names:
            p = seat_of(get(piece), viewer, n)
            if p is not None:
                shown[p].append(badge)
    web.badges(state, get, viewer, shown)
    if web.turn_piece is not None:  # whose turn it is, when another seat answers (a reaction, a Fire decision)
        p = seat_of(get(web.turn_piece), viewer, n)
        if p is not None and p != state.current_player():
            shown[p].append("their turn")
    return shown


def seat_view(
    state: Any,
    seat: int,
    labels: list[str],
    log: list[LogEntry],
    kinds: list[str] | None = None,
    log_from: int = 0,
) -> dict[str, Any]:
    """Everything seat ``seat`` is shown (see the module docstring). ``kinds`` (``human`` or
    ``agent`` per seat) is given where the labels do not say it (a replay: ``stored_seats``).
    ``log_from``: the log (and its outcomes) from that entry on only: a page that has the
    earlier entries asks for the rest (log entries never change once written)."""
    view = _common(state, labels, kinds, seat)
    view["viewer"] = seat
    view["table_text"] = state.render(seat)
    view["zones"] = seat_zones(state.game, state.observation(seat), seat)
    view["log_from"] = log_from
    view["log"] = seat_log(log[log_from:], seat, _naming(state, seat, labels))
    view["outcomes"] = seat_outcomes(log[log_from:], seat)
    view["prompt"] = engine_prompt(state, seat)
    view["decision"] = decision(state, seat, labels) if view["to_move"] == seat else None
    return view


def full_view(
    state: Any, labels: list[str], log: list[LogEntry], kinds: list[str] | None = None, log_from: int = 0
) -> dict[str, Any]:
    """The whole table: every seat's cards, the full log with its marks (from ``log_from`` on,
    as in ``seat_view``). Never for a seat."""
    view = _common(state, labels, kinds, None)
    view["viewer"] = None
    view["table_text"] = state.render()
    public: list[dict[str, Any]] = []
    private: list[dict[str, Any]] = []
    for p in range(state.game.num_players):
        for zone in seat_zones(state.game, state.observation(p), p):
            title = zone["title"]
            if title.startswith("Your "):  # a seat's own cards: one zone per seat that has any
                if zone["cards"]:
                    # a note that speaks to the seat ("if you hold it") is not the onlooker's
                    note = "" if re.search(r"\byou", zone["note"], re.IGNORECASE) else zone["note"]
                    private.append({**zone, "title": f"P{p} {labels[p]}: {title[5:]}", "note": note})
            elif p == 0:  # the same public cards in every seat's view: once
                public.append(zone)
    view["zones"] = private + public
    view["log_from"] = log_from
    view["log"] = full_log(log[log_from:], _naming(state, None, labels))
    view["outcomes"] = seat_outcomes(log[log_from:], None)
    view["prompt"] = engine_prompt(state, None)
    view["decision"] = None
    return view


def replay_states(game: Any, seed: int, actions: list[int]) -> tuple[Any, list[LogEntry]]:
    """Play a stored game through; returns the final state and the log."""
    state = game.new_initial_state(seed)
    log: list[LogEntry] = []
    for action in actions:
        apply_logged(state, action, log)
    return state, log
