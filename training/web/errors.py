"""The app's refusals: an HTTP status and one short line, echoing little of what was sent.

A client can send anything (a megabyte of text for an action, a table id of thousands of
characters); an error message that repeated it would hand the work back to every page that
shows it. So messages quote a client's input only through ``shown`` (a few dozen characters),
and ``clip`` bounds any message as a last guard (an engine's error may list many actions).
"""

from __future__ import annotations

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


__all__ = ["TableError", "clip", "shown"]
