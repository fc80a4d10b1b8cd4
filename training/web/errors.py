"""The app's refusals: an HTTP status and one short line, echoing little of what was sent.

A client can send anything (a megabyte of text for an action, a table id of thousands of
characters); an error message that repeated it would hand the work back to every page that
shows it. So there is one quoting rule: a message quotes a client's input only through ``shown``
(at most ``SHOWN`` characters of it), and ``refusal`` builds every refusal the API answers
(``app._error``): it bounds the line (``clip``) and cuts any longer run of the request's own text
(``scrub``), so that a text an engine wrote about the input (a config error, an agent option,
an action) quotes no more of it than ``shown`` would.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SHOWN = 40  # characters of a client's input an error message may quote
MESSAGE_LIMIT = 240  # characters of any error message


class TableError(Exception):
    """A request the server refuses: an HTTP status and a one-line reason. Nothing was changed."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = clip(message)


def shown(value: object, limit: int = SHOWN) -> str:
    """How errors quote input: a string's ``repr`` cut to ``limit`` characters (with ``...``), a
    number or ``None`` as itself (a huge integer by its size), anything else by its type."""
    if isinstance(value, str):
        quoted = repr(value[:limit])
        return quoted if len(value) <= limit else quoted[:-1] + "...'"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)[:limit]
    return f"a JSON {type(value).__name__}"


def clip(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """One line of at most ``limit`` characters."""
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def sent_texts(parts: Iterable[str], body: Any = None) -> str:
    """What a request sent, as one text ``scrub`` looks in: its raw ``parts`` (path, query, body
    text) and every string and number inside its decoded JSON ``body``, each also as Python's
    ``repr`` writes it (engines quote with ``!r``)."""
    texts = [p for p in parts if p]
    stack = [body]
    while stack:  # iterative: the body's depth is bounded, but no recursion is needed
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and len(item) > SHOWN:
            texts += [item, repr(item)]
        elif isinstance(item, (int, float)) and not isinstance(item, bool) and len(str(item)) > SHOWN:
            texts.append(str(item))
    return "\x00".join(texts)


def scrub(message: str, sent: str, limit: int = SHOWN) -> str:
    """``message`` with every run of more than ``limit`` characters that also occurs in ``sent``
    cut to its first ``limit`` characters and ``...`` (as ``shown`` cuts a long string)."""
    if len(sent) <= limit:
        return message
    out, i = [], 0
    while i < len(message):
        end = i + limit + 1
        if end <= len(message) and message[i:end] in sent:
            while end < len(message) and message[i : end + 1] in sent:
                end += 1
            out.append(message[i : i + limit] + "...")
            i = end
        else:
            out.append(message[i])
            i += 1
    return "".join(out)


def refusal(message: str, sent: str = "") -> dict[str, str]:
    """The body of every refusal: ``{"error": one line}``, quoting at most ``SHOWN`` characters
    of what the request sent (``sent``, from ``sent_texts``)."""
    return {"error": clip(scrub(clip(message), sent))}


__all__ = ["SHOWN", "TableError", "clip", "refusal", "scrub", "sent_texts", "shown"]
