"""Rooms the server cannot restore now: kept as they are in the store, out of the lobby, back when they can be.

A room whose config or action log does not replay (an action that does not decode, a row edited by hand, an
action a later version of the rules refuses) is never rewritten at start-up: closing it would end the match
for good, even once the row is repaired or the version that accepted the action runs again. The lobby keeps
an ``Unrestorable`` for it instead (not listed, not joinable: a request naming it gets ``room-unavailable``),
logs one WARNING naming the room, the action and the error, and tries again at the next start.
``barbu store check`` lists the same rooms from a store opened read-only (``check_rooms``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from server.config import ServerConfig
from server.room import Room
from server.store import BadLog, RoomRow, Store

#: What rebuilding a room from a stored row that does not replay raises (``Room.restore``).
RESTORE_ERRORS = (ValueError, KeyError, TypeError)
#: The statuses of the rooms a start-up restores: the others are over.
RESTORED = ("waiting", "playing")


@dataclass(frozen=True)
class Unrestorable:
    """Room ``room`` of ``kind`` does not restore: action ``seq`` (None: its config, not one action) fails
    with ``error`` (a few words)."""

    room: int
    kind: str
    seq: int | None
    error: str

    @classmethod
    def of(cls, row: RoomRow, exc: Exception) -> Unrestorable:
        """The problem that ``exc`` (one of ``RESTORE_ERRORS``) raised by rebuilding ``row`` is."""
        if isinstance(exc, BadLog):
            return cls(row.id, row.kind, exc.seq, exc.reason)
        return cls(row.id, row.kind, None, f"{type(exc).__name__} {exc}")

    @classmethod
    def no_kind(cls, row: RoomRow) -> Unrestorable:
        """``row`` is of a kind of room this server does not have."""
        return cls(row.id, row.kind, None, f"no room kind {row.kind!r} on this server")

    def where(self) -> str:
        """``action SEQ`` or ``its config``, for a message."""
        return "its config" if self.seq is None else f"action {self.seq}"


def unrestorable(row: RoomRow, kinds: Mapping[str, type[Room]], store: Store) -> Unrestorable | None:
    """Why the room of ``row`` would not restore (its kind unknown, its config or log not replaying), or
    None when it would; rebuilt with ``Room.replayed``, which writes nothing and starts nothing."""
    kind = kinds.get(row.kind)
    if kind is None:
        return Unrestorable.no_kind(row)
    try:
        kind.replayed(row, store, ServerConfig(db=store.path))
    except RESTORE_ERRORS as exc:
        return Unrestorable.of(row, exc)
    return None


def check_rooms(store: Store, kinds: Mapping[str, type[Room]]) -> tuple[int, list[Unrestorable]]:
    """The rooms of ``store`` a start-up restores (waiting or playing), counted, and those of them that
    would not restore now, oldest first.

    Raises:
        sqlite3.Error: the store cannot be read.
    """
    rows = store.rooms(statuses=RESTORED)
    found = [problem for row in rows if (problem := unrestorable(row, kinds, store)) is not None]
    return len(rows), found
