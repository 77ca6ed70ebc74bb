"""Finished Barbu matches, listed and laid out for a replay from their stored records (``list-matches`` and
``replay`` requests; the engine's ``match_replay`` replays the record, checking every rule).

A finished match never changes, so ``FinishedMatches`` keeps each listed match's summary, the encoded
``matches`` reply until a match finishes (``changed``), and the encoded ``replay`` replies of the last few
matches asked for: a flood of either request reads no record twice, and one of ``list-matches`` neither
queries the store nor encodes the list again.
Laying a replay out takes about 0.1 s of CPU (the engine checks all 28 hands) and packing it 25 ms, so both
run in a worker process (``server.workers``, the requesting player's job), never in the event loop.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from engine.barbu import RecordError, match_replay
from protocol import Matches, ProtocolError, Replay, prepacked
from protocol.codec import filler, packed_around
from server.barbu_table import BarbuTable
from server.store import RoomRow, Store, StoreError
from server.workers import WorkerBusy, WorkerClosed, WorkerError, WorkerExpired, WorkerPool

#: How many encoded ``replay`` replies ``FinishedMatches`` keeps (least recently asked for goes first).
REPLAY_CACHE = 32
#: Seconds a worker may take to lay out and pack one replay (about 0.15 s of CPU when the worker is free).
REPLAY_BUDGET = 10.0


def summary(row: RoomRow) -> dict[str, Any]:
    """The ``matches`` entry of finished match ``row``: ``match``, ``name``, ``host`` (who may open its
    ``rematch``; None for a table stored before hosts were kept), ``players``, ``totals``, ``hands`` and
    ``finished`` (Unix time, seconds)."""
    record = row.record or {}
    return {
        "match": str(row.id),
        "name": row.name,
        "host": row.config.get("host"),
        "players": record.get("players", row.players),
        "totals": record.get("totals"),
        "hands": len(record.get("deals", [])),
        "finished": row.updated,
    }


def finished_row(store: Store, match: str) -> RoomRow:
    """The store row of finished Barbu match ``match`` (its record read).

    Raises:
        ProtocolError: ``no-such-match`` (field ``match``) when no finished Barbu match has this id.
    """
    row = None
    if match.isdecimal() and len(match) < 19:
        with contextlib.suppress(StoreError):
            row = store.room(int(match))
    if row is None or row.kind != BarbuTable.kind or row.status != "over" or row.record is None:
        raise ProtocolError("no-such-match", f"no finished match {match!r}", field="match")
    return row


def packed_replay(
    record: dict[str, Any], players: dict[str, str], match: str, name: str, *, budget: float
) -> tuple[bytes, bytes] | str:
    """The ``replay`` reply of finished match ``match`` (table ``name``, seats ``players`` when the record
    names none) from its ``record``, packed around its ``id`` (``protocol.codec.packed_around``); or, when
    the record does not replay, the engine's reason. A worker job (``budget`` unused: the work is short)."""
    del budget
    try:
        replay = match_replay(record)
    except RecordError as exc:
        return str(exc)
    if replay["players"] is None:
        replay["players"] = dict(players)
    return packed_around(Replay(id=0, match=match, name=name, **replay).to_wire(), "id")


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
        self._listed: tuple[int, Callable[[int], bytes]] | None = None  # (limit, the encoded reply)

    def changed(self) -> None:
        """A match may have finished (its record stored): the next ``listing_reply`` lists afresh."""
        self._listed = None

    def listing_reply(self, limit: int) -> Callable[[int], bytes]:
        """The encoded ``matches`` reply (msgpack) listing the ``limit`` newest finished matches, as a
        function of the request id: kept until ``changed``; built with one query for the ids, and a record
        read only for a match not listed before."""
        if self._listed is not None and self._listed[0] == limit:
            return self._listed[1]
        keys = self.store.finished(BarbuTable.kind, limit)
        known = self._summaries
        self._summaries = {key: known.get(key) or summary(self.store.room(key[0])) for key in keys}
        reply = prepacked(Matches(id=0, matches=list(self._summaries.values())).to_wire(), "id")
        self._listed = (limit, reply)
        return reply

    async def reply(
        self, match: str, workers: WorkerPool, owner: str, group: str | None = None
    ) -> Callable[[int], bytes]:
        """The encoded ``replay`` reply for ``match`` as a function of the request id; laid out by
        ``workers`` as ``owner``'s job (in ``group``: ``WorkerPool.run``) when it is not kept.

        Raises:
            ProtocolError: ``no-such-match`` (``finished_row``, or the record does not replay), ``busy``
                (the workers cannot take the job now, or it ran out of time).
        """
        found = self._replies.get(match)
        if found is not None:
            self._replies.move_to_end(match)
            return found
        row = finished_row(self.store, match)
        assert row.record is not None
        try:
            packed = await workers.run(
                owner,
                packed_replay,
                row.record,
                dict(row.players),
                match,
                row.name,
                budget=REPLAY_BUDGET,
                group=group,
            )
        except (WorkerBusy, WorkerClosed) as exc:
            waited = exc.waited if isinstance(exc, WorkerExpired) else None  # queued past its longest wait
            raise ProtocolError(
                "busy", f"no replay now: {exc}; ask again shortly", retry_after=waited
            ) from None
        except WorkerError as exc:
            raise ProtocolError("busy", f"no replay this time: {exc}") from None
        if isinstance(packed, str):
            raise ProtocolError(
                "no-such-match", f"match {match}'s record does not replay: {packed}", field="match"
            )
        found = filler(*packed)
        self._replies[match] = found
        while len(self._replies) > self.replays:
            self._replies.popitem(last=False)
        return found
