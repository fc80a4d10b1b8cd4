"""Reading a player's answer to a menu of legal actions: a person's or a language model's.

An answer names an action by

* its number in the menu, 1-based (``"3"``, ``"#3"``, ``"3."``, or ``"3. search"`` when the text
  after the number fits action 3);
* its text, exact up to case, spacing and decoration (``"Let pass"``, ``"[let pass]"``,
  ``"`search`"``), or the start of exactly one action's text (``"let"``).

A chatty reply (a language model that reasons first) is read too: when the whole reply names no
action, the last line of the form ``Answer: ...`` (also ``Final answer``, ``Action``, ``Choice``,
``Move``), then the last ``**bold**`` span, then the last non-empty line are tried in turn.

``parse_action`` never raises on any string: an answer it cannot read gives ``action=None`` and a
one-line reason that can be shown to the player (out of range, matches several, matches none).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

_ANSWER_LINE = re.compile(
    r"(?:final\s+answer|answer|action|choice|move)\s*(?:is\b|[:=]|-\s)\s*[:=]?\s*(.+)", re.IGNORECASE
)
_BOLD = re.compile(r"\*\*([^*\n]+)\*\*")
_NUMBER = re.compile(r"(?:#|no\.?\s*|number\s+|option\s+)?(\d+)[.):]?", re.IGNORECASE)
_NUMBER_THEN_TEXT = re.compile(r"#?(\d+)\s*[.):\-]\s*(.+)")
# Decoration a model or a wrapper puts around an answer (TextArena's ActionFormattingWrapper adds
# brackets; Markdown adds bold and code marks), removed before comparing with the menu.
_EDGES = " \t\r\n\"'`*[]<>.!:"
# A reply longer than this is read from its end: the answer is where a reply ends, and the cap
# keeps the work bounded whatever is sent.
_MAX_CHARS = 20_000
_MAX_DIGITS = 9


@dataclasses.dataclass(frozen=True)
class Parsed:
    """The action an answer names (``None`` when it names none) and a one-line reason."""

    action: int | None
    reason: str


def parse_action(answer: str, legal: Sequence[int], texts: Sequence[str]) -> Parsed:
    """The legal action that ``answer`` names, given the menu: ``legal[i]`` is item ``i + 1``,
    read ``texts[i]``. See the module docstring for what is accepted."""
    if len(legal) != len(texts):
        raise ValueError(f"legal and texts must be parallel: {len(legal)} actions, {len(texts)} texts")
    if not isinstance(answer, str):
        return Parsed(None, f"the answer must be text, got {type(answer).__name__}")
    if not legal:
        return Parsed(None, "there is no action to choose")
    answer = answer[-_MAX_CHARS:]
    menu = [_normalise(t) for t in texts]
    first = _match(answer, legal, texts, menu)
    if first.action is not None:
        return first
    for candidate in _final_answers(answer):
        found = _match(candidate, legal, texts, menu)
        if found.action is not None:
            return found
    return first


def _final_answers(answer: str) -> list[str]:
    """Where a chatty reply states its answer, most explicit first."""
    lines = [line.strip() for line in answer.splitlines() if line.strip()]
    found = []
    marked = [m.group(1) for line in lines if (m := _ANSWER_LINE.search(line))]
    if marked:
        found.append(marked[-1])
    bold = _BOLD.findall(answer)
    if bold:
        found.append(bold[-1])
    if len(lines) > 1:
        found.append(lines[-1])
    return found


def _normalise(text: str) -> str:
    return " ".join(text.split()).strip(_EDGES).casefold()


def _match(answer: str, legal: Sequence[int], texts: Sequence[str], menu: list[str]) -> Parsed:
    said = _normalise(answer)
    if not said:
        return Parsed(None, "the answer is empty: give the number of an action or its text")
    exact = [i for i, text in enumerate(menu) if text == said]
    if len(exact) == 1:
        return Parsed(legal[exact[0]], "the text of an action")
    bare = _NUMBER.fullmatch(said)
    numbered = _by_number(said, legal, texts, menu)
    # A bare number is a menu number, whatever texts start with its digits; a number followed by
    # text that does not fit that item may still be the start of an action's text ("2-3 ...").
    if numbered is not None and (bare is not None or numbered.action is not None):
        return numbered
    starts = exact or [i for i, text in enumerate(menu) if text.startswith(said)]
    if len(starts) == 1:
        return Parsed(legal[starts[0]], "the start of an action's text")
    if starts:
        named = ", ".join(repr(texts[i]) for i in starts[:3])
        more = f" and {len(starts) - 3} more" if len(starts) > 3 else ""
        return Parsed(None, f"{_quote(answer)} matches several actions: {named}{more}; give its number")
    if numbered is not None:
        return numbered
    return Parsed(
        None, f"{_quote(answer)} matches none of the {len(legal)} actions; give a number from 1 to {len(legal)}"
    )


def _by_number(answer: str, legal: Sequence[int], texts: Sequence[str], menu: list[str]) -> Parsed | None:
    """The answer read as a menu number, optionally followed by the action's text; None when
    it does not start with a number."""
    whole = _NUMBER.fullmatch(answer)
    rest = ""
    if whole is None:
        pair = _NUMBER_THEN_TEXT.fullmatch(answer)
        if pair is None:
            return None
        digits, rest = pair.group(1), _normalise(pair.group(2))
    else:
        digits = whole.group(1)
    # int() of thousands of digits raises in Python 3.11+; such a number is out of range anyway.
    number = int(digits) if len(digits) <= _MAX_DIGITS else 0
    if not 1 <= number <= len(legal):
        return Parsed(None, f"{digits[:_MAX_DIGITS]} is out of range: give a number from 1 to {len(legal)}")
    if rest and not menu[number - 1].startswith(rest):
        return Parsed(None, f"{number} is {texts[number - 1]!r}, not {rest!r}: give one or the other")
    return Parsed(legal[number - 1], f"number {number} of the menu")


def _quote(answer: str) -> str:
    shown = " ".join(answer.split())
    return repr(shown if len(shown) <= 60 else shown[:57] + "...")
