"""The files and folders a ``smuggle`` command writes, checked before any work is done: a folder
that can take new files (``writable_dir``, created if missing), a file that can be written
(``check_writable_file``); each failure is a one-line ``UsageError`` naming the option and why."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import UsageError


def _file_in_the_way(path: Path) -> Path | None:
    """The nearest of ``path`` and its ancestors that exists, if it is not a folder (a file where
    a folder is needed); None otherwise."""
    for p in (path, *path.parents):
        if p.exists():
            return None if p.is_dir() else p
    return None


def unwritable_reason(folder: str | os.PathLike[str]) -> str | None:
    """Why no file can be created in the existing folder ``folder`` (None if one can). Probes
    with a nameless temporary file (``O_TMPFILE`` on Linux): nothing is left there."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def writable_dir(path: str | os.PathLike[str], what: str, hint: str = "") -> Path:
    """Create the folder ``path`` if it is missing and check that files can be written in it,
    before any work is done; ``UsageError("cannot write to WHAT PATH: REASON; HINT")`` if not."""
    folder = Path(path)
    blocker = _file_in_the_way(folder)
    reason: str | None
    if blocker is not None:
        reason = "it is a file, not a folder" if blocker == folder else f"{blocker} is a file, not a folder"
    else:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            reason = exc.strerror or str(exc)
        else:
            reason = unwritable_reason(folder)
    if reason is not None:
        raise UsageError(f"cannot write to {what} {path}: {reason}" + (f"; {hint}" if hint else ""))
    return folder


def check_writable_file(path: str | os.PathLike[str], what: str) -> None:
    """Check, before any work is done, that the file ``path`` can be written (its folder exists
    and takes new files, it is not a folder); ``UsageError`` naming ``what`` and the reason if not."""
    file = Path(path)
    folder = file.parent
    blocker = _file_in_the_way(folder)
    reason: str | None = None
    if file.is_dir():
        reason = "it is a folder"
    elif blocker is not None:
        reason = f"{blocker} is a file, not a folder"
    elif not folder.is_dir():
        reason = f"the folder {folder} does not exist"
    elif file.exists():
        if not os.access(file, os.W_OK):
            reason = "Permission denied"
    else:
        reason = unwritable_reason(folder)
    if reason is not None:
        raise UsageError(f"cannot write {what} {path}: {reason}")


def write_text(path: str, text: str) -> None:
    """Write ``text`` and a newline to ``path`` (a replay a command saves); a failure is a
    one-line ``UsageError`` (exit code 2)."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}", 2) from None
