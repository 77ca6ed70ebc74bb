"""What happened, as the engine reports it: one :class:`Event` per fact, addressed to everyone or one seat."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One fact about the game. ``kind`` is kebab-case (``card-played``); ``data`` holds wire-ready values
    (seats as ``"N"``, cards as ``"QS"``); ``to`` is ``None`` for a public event (every seat and spectator)
    or the one seat (0..3) that may see it (``hand-dealt`` carries that seat's 13 cards)."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    to: int | None = None

    def to_wire(self) -> dict[str, Any]:
        """The event as a wire map: ``{"event": kind, **data}``."""
        return {"event": self.kind, **self.data}

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may receive this event."""
        return self.to is None or self.to == seat
