"""Card data files: reading a game's packaged JSON and turning every problem into a ``DataError``.

Each game keeps its cards in ``games/<game>/data/*.json`` and validates them in its ``data.py``;
this module is what those loaders share, so a broken file reads the same in every game:
``<file>: malformed (...)`` for a file that does not parse or lacks a field, ``<file>: <why>`` for
one that parses but breaks a rule of the data.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Any

from .errors import DataError


def read_json(package: str, filename: str, text: str | None = None) -> Any:
    """The JSON of ``package``'s ``data/filename`` (or of ``text``, which overrides it in tests)."""
    if text is None:
        text = resources.files(package).joinpath("data").joinpath(filename).read_text(encoding="utf-8")
    with parsing(filename):
        return json.loads(text)


@contextmanager
def parsing(filename: str) -> Iterator[None]:
    """Inside: a missing key, a wrong type or an unparsable value is a ``DataError`` naming the
    file; a ``DataError`` raised on purpose passes through unchanged."""
    try:
        yield
    except DataError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:  # JSONDecodeError is a ValueError
        raise DataError(f"{filename}: malformed ({exc!r})") from exc


def data_error(filename: str, message: str) -> DataError:
    """The error of a data file that parses but breaks a rule: ``raise data_error(FILE, why)``."""
    return DataError(f"{filename}: {message}")
