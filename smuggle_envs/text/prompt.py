"""The prompt for one seat at its decision, for a language model or a person at a terminal.

``observe(state, seat)`` lays the prompt out in this order, one blank line between the parts:

1. **Header**: the game, its env id, the player count and the seat (``You are P1.``).
2. **History**: the last ``history`` lines of what the seat has been told (its ``SeatLog``: every
   action as the seat may see it, and the game's notes on each step).
3. **Table**: ``state.render(seat)``, the table as the seat sees it.
4. **Your cards**: ``state.private_cards(seat)``, each kind once with its count and its text from
   ``game.card_glossary()`` beside it.
5. **Scores**: every seat's score as the game writes it (``game.score_text``).
6. **Menu**: the legal actions, numbered from 1, in full (the decision is the seat's own).
7. **Instruction**: one line, answer with the number or the text.

Parts 1 and 3 to 7 are the seat's *situation*: a function of what the seat may know now, so they
read the same in any world ``state.resample(seat)`` could draw (the text family tests it). The
prompt is deterministic: no timestamps, no randomness.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core.checks import check_seat
from ..core.game import Game, State
from ..registry import describe
from .log import SeatLog

DEFAULT_HISTORY = 40


@dataclasses.dataclass(frozen=True)
class TextObservation:
    """One seat's decision as text: the prompt, and the menu behind it (``legal[i]`` is menu item
    ``i + 1`` and reads ``texts[i]``), which ``parse_action`` reads an answer against."""

    env_id: str
    seat: int
    prompt: str
    legal: tuple[int, ...]
    texts: tuple[str, ...]

    def menu(self) -> str:
        """The numbered list of legal actions, one a line: ``"  1. search"``."""
        return menu_text(self.texts)


def menu_text(texts: tuple[str, ...] | list[str]) -> str:
    """``texts`` as the numbered menu of a prompt."""
    return "\n".join(f"  {i}. {text}" for i, text in enumerate(texts, 1))


def game_title(game: Game) -> str:
    """The game's name as the registry lists it ("Smuggle (MB Games 1981)"), else its env id."""
    titles = {row["env_id"]: row["game"] for row in describe()}
    return titles.get(game.env_id, game.env_id)


def observe(
    state: State[Any], seat: int, log: SeatLog | None = None, *, history: int | None = DEFAULT_HISTORY
) -> TextObservation:
    """The prompt-ready text of ``seat`` at its decision (``state.current_player() == seat``).

    ``log``: the seat's log, brought up to ``state`` here (``SeatLog.follow``, so ``state`` must be
    a true state); without one a fresh log replays the game. ``history``: how many of its last
    lines to show (None: all; 0: none, and then no log is read, so ``state`` may be resampled)."""
    game = state.game
    seat = check_seat(seat, game.num_players, "seat")
    if state.is_terminal() or state.current_player() != seat:
        who = "nobody (the game is over)" if state.is_terminal() else game.seat_name(state.current_player())
        raise ValueError(f"{game.seat_name(seat)} has no decision to make now: {who} decides")
    if history is not None and history < 0:
        raise ValueError(f"history must be None or a count of lines >= 0, got {history}")
    legal = tuple(state.legal_actions())
    texts = tuple(state.action_to_string(a, seat) for a in legal)
    parts = [header(game, seat)]
    if history != 0:
        parts.append(history_text(_followed(state, seat, log).lines, history))
    parts.append(situation(state, seat, texts))
    return TextObservation(game.env_id, seat, "\n\n".join(parts) + "\n", legal, texts)


def _followed(state: State[Any], seat: int, log: SeatLog | None) -> SeatLog:
    if log is None:
        log = SeatLog(state.game, seat)
    elif log.seat != seat:
        raise ValueError(f"this log is seat {log.seat}'s, not seat {seat}'s")
    log.follow(state)
    return log


def header(game: Game, seat: int) -> str:
    """Part 1 of a prompt: the game, its env id, the table and who the reader is."""
    title = game_title(game)
    named = game.env_id if title == game.env_id else f"{title} ({game.env_id})"
    return f"{named}, {game.num_players} players. You are {game.seat_name(seat)}."


def history_text(lines: list[str], history: int | None) -> str:
    """Part 2 of a prompt: the last ``history`` lines of a seat's log (None: all of them)."""
    shown = lines if history is None else lines[max(0, len(lines) - history) :]
    if not lines:
        return "What has happened so far: nothing yet."
    title = "What has happened so far"
    if len(shown) < len(lines):
        title += f" (the last {len(shown)} of {len(lines)} lines)"
    return title + ":\n" + "\n".join(f"  {line}" for line in shown)


def situation(state: State[Any], seat: int, texts: tuple[str, ...] | None = None) -> str:
    """Parts 3 to 7 of ``seat``'s prompt: the table, its cards, the scores, the menu of its legal
    actions (``texts``, computed when not given) and the instruction. Only what the seat may know."""
    if texts is None:
        texts = tuple(state.action_to_string(a, seat) for a in state.legal_actions())
    parts = [
        "The table:\n" + state.render(seat).rstrip("\n"),
        cards_text(state.game, state.private_cards(seat)),
        scores_text(state, seat),
        "Your legal actions:\n" + menu_text(texts),
        f"Answer with the number of your action (1 to {len(texts)}) or its text.",
    ]
    return "\n\n".join(parts)


def cards_text(game: Game, cards: list[str]) -> str:
    """Part 4 of a prompt: the seat's private cards, each kind once (first-seen order) with its
    count and its glossary text."""
    if not cards:
        return "Your cards: none (you hold no cards in private)."
    glossary = dict(game.card_glossary())
    counts: dict[str, int] = {}
    for name in cards:
        counts[name] = counts.get(name, 0) + 1
    rows = []
    for name, count in counts.items():
        label = name if count == 1 else f"{name} x{count}"
        text = glossary.get(name)
        rows.append(f"  - {label}: {text}" if text else f"  - {label}")
    return "Your cards:\n" + "\n".join(rows)


def scores_text(state: State[Any], seat: int) -> str:
    """Part 5 of a prompt: every seat's score, the reader's marked."""
    game = state.game
    shown = []
    for p, score in enumerate(state.scores()):
        you = " (you)" if p == seat else ""
        shown.append(f"{game.seat_name(p)}{you} {game.score_text(score)}")
    return "Scores: " + ", ".join(shown)


def card_table(game: Game) -> str:
    """The game's card glossary as a two-column text table (the ``cards`` command)."""
    glossary = game.card_glossary()
    if not glossary:
        return f"{game_title(game)} names no cards in its texts."
    width = max(len("card"), *(len(name) for name, _ in glossary))
    rows = [f"{'card':<{width}}  what it is or does", f"{'-' * width}  {'-' * 18}"]
    rows += [f"{name:<{width}}  {text}" for name, text in glossary]
    return "\n".join(rows)
