"""A room's recent actions as protocol version 2 tells them: one ``update`` per action, and the updates a
member missed, handed back when it comes back with ``since`` (``docs/protocol.md`` "Coming back: since").

Each room keeps the events of its last ``MISSED_UPDATES_MAX`` actions, as the engine addressed them
(``Event.to``), in a ``RecentActions``; the room fills it as it commits actions, and again from its action
log when it is restored, so a member coming back after a server restart is told the same. What a member may
see of them is decided by the events' addressing alone (``Event.visible_to``): the server builds no view.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from engine.barbu.events import Event
from protocol import MISSED_UPDATES_MAX


@dataclass(frozen=True, slots=True)
class Told:
    """What action number ``seq`` of a room caused: its ``events``, in order, as the engine addressed them
    (a room adds what the engine cannot know, such as who played for the seat: ``by``)."""

    seq: int
    events: tuple[Event, ...]


def visible(events: tuple[Event, ...] | list[Event], seat: int | None) -> list[dict[str, Any]]:
    """The wire maps of the ``events`` that ``seat`` (0..3; None for a spectator) may see, in order."""
    return [event.to_wire() for event in events if event.visible_to(seat)]


class RecentActions:
    """The last ``bound`` actions of a room (``Told``), oldest first.

    Args:
        bound: how many are kept; a member that missed more gets a plain snapshot.
    """

    def __init__(self, bound: int = MISSED_UPDATES_MAX):
        self.bound = bound
        self._told: deque[Told] = deque(maxlen=bound)

    def add(self, seq: int, events: tuple[Event, ...] | list[Event]) -> None:
        """Keep the events of action number ``seq`` (one more than the last one kept)."""
        self._told.append(Told(seq, tuple(events)))

    def missed(self, room: str, since: int, now: int, seat: int | None) -> list[dict[str, Any]] | None:
        """The updates after action ``since`` up to ``now`` (the room's action number), oldest first, as
        ``seat`` (None: a spectator) may see them: ``{"type": "update", "room", "seq", "events"}`` each,
        without a view (the snapshot that carries them holds the view after the last). ``[]`` when nothing was
        missed; None when more than ``bound`` were, or ``since`` is not one of this room's action numbers (a
        plain snapshot then tells the member everything).
        """
        if since == now:
            return []
        if since > now or now - since > self.bound:
            return None
        kept = [told for told in self._told if told.seq > since]
        if len(kept) != now - since:  # the room kept fewer (restored from a log it could not read back)
            return None
        return [
            {"type": "update", "room": room, "seq": told.seq, "events": visible(told.events, seat)}
            for told in kept
        ]
