"""Finished Barbu matches, listed and laid out for a replay from their stored records (``list-matches`` and
``replay`` requests; the engine's ``match_replay`` replays the record, checking every rule).

A finished match never changes, so ``FinishedMatches`` keeps each listed match's summary and the encoded
``replay`` replies of the last few matches asked for: a flood of either request reads no record twice.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from engine.barbu import RecordError, match_replay
from protocol import ProtocolError, Replay
from protocol.codec import prepacked
from server.barbu_table import BarbuTable
from server.store import RoomRow, Store, StoreError

#: How many encoded ``replay`` replies ``FinishedMatches`` keeps (least recently asked for goes first).
REPLAY_CACHE = 32


def summary(row: RoomRow) -> dict[str, Any]:
    """The ``matches`` entry of finished match ``row``: ``match``, ``name``, ``players``, ``totals``,
    ``hands`` and ``finished`` (Unix time, seconds)."""
    record = row.record or {}
    return {
        "match": str(row.id),
        "name": row.name,
        "players": record.get("players", row.players),
        "totals": record.get("totals"),
        "hands": len(record.get("deals", [])),
        "finished": row.updated,
    }


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


class FinishedMatches:
    """The server's finished matches, with what was worked out from their records kept: each listed
    match's summary (keyed by id and the time it finished) and the last ``replays`` encoded ``replay``
    replies (msgpack, the request id filled in per reply).

    Args:
        store: the server's store.
        replays: how many encoded replays to keep (at least 1).
    """

    def __init__(self, store: Store, replays: int = REPLAY_CACHE) -> None:
        self.store = store
        self.replays = replays
        self._summaries: dict[tuple[int, float], dict[str, Any]] = {}
        self._replies: OrderedDict[str, Callable[[int], bytes]] = OrderedDict()

    def listing(self, limit: int) -> list[dict[str, Any]]:
        """The ``limit`` newest finished matches as ``matches`` entries (``summary``): one query for the
        ids, and a record read only for a match not listed before."""
        keys = self.store.finished(BarbuTable.kind, limit)
        known = self._summaries
        self._summaries = {key: known.get(key) or summary(self.store.room(key[0])) for key in keys}
        return list(self._summaries.values())

    def reply(self, match: str) -> Callable[[int], bytes]:
        """The encoded ``replay`` reply for ``match`` as a function of the request id.

        Raises:
            ProtocolError: ``no-such-match`` (``replay_of``).
        """
        found = self._replies.get(match)
        if found is not None:
            self._replies.move_to_end(match)
            return found
        row, replay = replay_of(self.store, match)
        found = prepacked(Replay(id=0, match=match, name=row.name, **replay).to_wire(), "id")
        self._replies[match] = found
        while len(self._replies) > self.replays:
            self._replies.popitem(last=False)
        return found
