"""Finished Barbu matches, listed and laid out for a replay from their stored records (``list-matches`` and
``replay`` requests; the engine's ``match_replay`` replays the record, checking every rule)."""

from __future__ import annotations

import contextlib
from typing import Any

from engine.barbu import RecordError, match_replay
from protocol import ProtocolError
from server.barbu_table import BarbuTable
from server.store import RoomRow, Store, StoreError


def finished_matches(store: Store, limit: int) -> list[dict[str, Any]]:
    """The ``limit`` newest finished matches as ``matches`` entries: ``match``, ``name``, ``players``,
    ``totals``, ``hands`` and ``finished`` (Unix time, seconds)."""
    rows = [row for row in store.rooms(BarbuTable.kind, ("over",)) if row.record is not None]
    rows.sort(key=lambda row: (row.updated, row.id), reverse=True)
    return [
        {
            "match": str(row.id),
            "name": row.name,
            "players": row.record.get("players", row.players) if row.record else row.players,
            "totals": row.record.get("totals") if row.record else None,
            "hands": len(row.record.get("deals", [])) if row.record else 0,
            "finished": row.updated,
        }
        for row in rows[:limit]
    ]


def replay_of(store: Store, match: str) -> tuple[RoomRow, dict[str, Any]]:
    """The store row of finished match ``match`` and its replay (``engine.barbu.match_replay``).

    Raises:
        ProtocolError: ``no-such-match`` (field ``match``) when no finished Barbu match has this id, or its
            record does not replay.
    """
    row = None
    if match.isdecimal() and len(match) < 19:
        with contextlib.suppress(StoreError):
            row = store.room(int(match))
    if row is None or row.kind != BarbuTable.kind or row.status != "over" or row.record is None:
        raise ProtocolError("no-such-match", f"no finished match {match!r}", field="match")
    try:
        replay = match_replay(row.record)
    except RecordError as exc:
        raise ProtocolError(
            "no-such-match", f"match {match}'s record does not replay: {exc}", field="match"
        ) from None
    if replay["players"] is None:
        replay["players"] = dict(row.players)
    return row, replay
