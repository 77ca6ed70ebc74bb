"""What a protocol version 2 client knows of one room: a reducer over the server's ``snapshot`` and
``update`` messages (``docs/protocol.md`` "Version 2").

A ``RoomState`` starts from a snapshot and takes each ``update`` in turn: the update's ``view`` holds the
keys of the view that the action changed, merged into the view held; ``seq`` moves on by one. An update that does not follow (a ``seq`` skipped: the client lost
frames, which the server never drops on a live connection) leaves the state ``stale``: the client asks for
a ``snapshot`` with ``since`` its ``seq`` and starts again from it. A snapshot asked with ``since`` carries
the updates missed meanwhile; their events are kept in ``missed``, so that a client can tell "while you were
away" from what the server says happened, in order, with who played (``by``), never by guessing.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from protocol import Players, Snapshot, Update


class RoomState:
    """One room as a version 2 client knows it.

    Attributes:
        room: the room id.
        seq: the action number of the last update taken (or of the snapshot).
        view: the member's own view after it (None before a Barbu match starts).
        snapshot: the last snapshot taken (seats, players, chat...: what updates do not change).
        missed: the events of the updates the last snapshot carried back (``since``), oldest first.
        stale: an update came that did not follow ``seq``: ask a snapshot ``since`` ``seq``.
    """

    def __init__(self, snapshot: Snapshot):
        self.room = snapshot.room
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.snapshot = snapshot
        self.missed: list[dict[str, Any]] = []
        self.stale = False
        self.reset(snapshot)

    def reset(self, snapshot: Snapshot) -> None:
        """Start again from ``snapshot`` (a reply or a push); its missed updates' events go to ``missed``."""
        self.snapshot = snapshot
        self.seq = snapshot.seq
        self.view = snapshot.view
        self.stale = False
        self.missed = [event for update in snapshot.updates or [] for event in update.get("events", [])]

    def take(self, update: Update) -> list[dict[str, Any]]:
        """Take ``update``; returns its events, or ``[]`` when it is one already taken (an older ``seq``) or
        does not follow (then ``stale``)."""
        if update.seq <= self.seq:
            return []
        if update.seq != self.seq + 1 and not _solitaire_batch(update, self.seq):
            self.stale = True
            return []
        self.seq = update.seq
        if update.view is not None:
            self.view = {**(self.view or {}), **update.view}
        return update.events

    def seats_changed(self, push: Players) -> None:
        """Take a ``players`` push (seat changes are no actions: they have no ``seq``) into ``snapshot``:
        its ``players``, ``away``, ``state`` and ``paused``."""
        self.snapshot = dataclasses.replace(
            self.snapshot, players=push.players, away=push.away, state=push.state, paused=push.paused
        )

    @property
    def over(self) -> bool:
        """Whether the room's game is over (a Barbu match's ``phase`` ``over``, a solitaire ``result``)."""
        view = self.view or {}
        return self.snapshot.state == "over" or view.get("phase") == "over" or view.get("result") is not None


def _solitaire_batch(update: Update, seq: int) -> bool:
    """Whether ``update`` is a solitaire request of several logged actions (``auto``: one event each) that
    follows action ``seq``: its ``seq`` is that of the last."""
    return update.seq == seq + len(update.events) and bool(update.events)
