"""A room's recent actions as protocol version 2 tells them: one ``update`` per action, and the updates a
member missed, handed back when it comes back with ``since`` (``docs/protocol.md`` "Coming back: since").

An update's ``view`` holds only the keys of the member's view that the action changed (``changed``): the
member holds the whole view from its last snapshot and merges them in. A view changes only by actions (a
member whose view switches, sitting down or coming back, gets a snapshot), so the room compares the views
after each action with those before it, kept per kind of member (``ViewCache``).

Each room keeps the events of its last ``MISSED_UPDATES_MAX`` actions, as the engine addressed them
(``Event.to``), in a ``RecentActions``; the room fills it as it commits actions, and again from its action
log when it is restored, so a member coming back after a server restart is told the same. What a member may
see of them is decided by the events' addressing alone (``Event.visible_to``): the server builds no view.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.barbu.events import Event
from protocol import MISSED_UPDATES_MAX

K = TypeVar("K", bound=Hashable)


class ViewCache(Generic[K]):
    """The views a room last told its kinds of member (a key each: a seat, the spectators...), so that an
    update carries only what an action changed.

    Args:
        view: the view of a kind of member now (the engine's: ``Match.view``), by key.
    """

    def __init__(self, view: Callable[[K], dict[str, Any]]):
        self._view = view
        self._last: dict[K, dict[str, Any]] = {}

    def before(self, keys: Iterable[K]) -> None:
        """Call before an action is applied: keep the views of ``keys`` not kept yet, as they are now."""
        for key in keys:  # many spectators share a key: their view is made once
            if key not in self._last:
                self._last[key] = self._view(key)

    def after(self, keys: Iterable[K]) -> dict[K, dict[str, Any]]:
        """Call once the action is applied, with the keys given to ``before``: each one's changed keys
        (``changed``); the views now are kept for the next action, and only those of ``keys``."""
        last, self._last = self._last, {}
        out = {}
        for key in dict.fromkeys(keys):  # once per key, however many members share it
            now = self._view(key)
            out[key] = changed(last.get(key), now)
            self._last[key] = now
        return out

    def clear(self) -> None:
        """Forget every view kept (the game was replaced: a match started)."""
        self._last = {}


@dataclass(frozen=True, slots=True)
class Told:
    """What action number ``seq`` of a room caused: its ``events``, in order, as the engine addressed them
    (a room adds what the engine cannot know, such as who played for the seat: ``by``)."""

    seq: int
    events: tuple[Event, ...]


def changed(before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any]:
    """The keys of view ``after`` whose values differ from ``before``'s (all of them when there is no
    ``before``), each with its whole new value."""
    if before is None:
        return dict(after)
    return {key: value for key, value in after.items() if key not in before or before[key] != value}


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
