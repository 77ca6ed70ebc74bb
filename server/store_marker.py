"""What says a store was at a path: a store that had data never silently becomes an empty one.

SQLite creates a new, empty database in a missing or empty file, so a store deleted (with its ``-wal`` beside
it, the last writes in it) or truncated to 0 bytes would come back empty and its rooms be gone without a
word. Two things say a store was there:

- its marker, ``REALPATH.id`` beside the store's real file: the store's id (``meta`` key ``store-id``, 32
  hex digits drawn when the store is created), written once the store has it (a store from before markers
  gets its id and marker at its next opening for writing);
- the files SQLite and the lock leave beside a store: ``-wal`` (the log of its last writes), ``-shm`` and
  ``.lock`` (left by a server that was killed).

``server.store.Store`` refuses to open for writing a missing or empty file with any of them beside it, and a
store whose id is not its marker's (the file was replaced by another store); both errors say what to do: put
the store back (from a backup), or remove the files named to start a new one. A path with none of them
(a new store) is created as before.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def marker_path(path: str) -> str:
    """The marker file of the store at ``path``: ``REALPATH.id`` (beside the real file, as the lock)."""
    return os.path.realpath(path) + ".id"


def traces(path: str) -> list[str]:
    """The files beside the store at ``path`` that say a store was there (marker, ``-wal``, ``-shm``,
    ``.lock``), when the store file itself is missing or empty; [] when it holds data or none is there."""
    real = os.path.realpath(path)
    with contextlib.suppress(FileNotFoundError):
        if os.stat(real).st_size > 0:
            return []
    return [f for f in (real + ".id", real + "-wal", real + "-shm", real + ".lock") if os.path.lexists(f)]


def lost(path: str, found: list[str]) -> str:
    """The one-line refusal of a missing or empty store file at ``path`` with ``found`` beside it."""
    what = "missing" if not os.path.lexists(os.path.realpath(path)) else "empty"
    names = " ".join(found)
    say = "says" if len(found) == 1 else "say"
    return (
        f"{path}: the store file is {what}, but {names} beside it {say} a store was there (its last writes may "
        f"be in the -wal): put the store back (a backup: deploy/README.md), or remove {names} to start a new, "
        "empty store"
    )


def mismatch(path: str, found: str | None) -> str:
    """The one-line refusal of a store at ``path`` whose id ``found`` (None: it has none) is not its
    marker's."""
    marker = marker_path(path)
    return (
        f"{path}: this is not the store {marker} was kept for (its id is {found or 'none'}, the marker says "
        f"{kept_id(path) or 'nothing readable'}): put that store back, or remove {marker} to use this one"
    )


def kept_id(path: str) -> str | None:
    """The store id the marker of ``path`` holds, or None when there is no marker (one that cannot be read
    holds ``""``, which is no store's id)."""
    try:
        return Path(marker_path(path)).read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        return ""


def keep_id(path: str, store_id: str) -> None:
    """Write ``store_id`` as the marker of ``path``, whole or not at all (a temporary file renamed into
    place, both fsynced, then the folder), so a crash never leaves a marker naming no store.

    Raises:
        OSError: the marker cannot be written.
    """
    marker = marker_path(path)
    temporary = f"{marker}.{os.getpid()}.tmp"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
    try:
        os.write(fd, f"{store_id}\n".encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.replace(temporary, marker)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    folder = os.open(os.path.dirname(marker) or ".", os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
