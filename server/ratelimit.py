"""A sliding window of recent events: at most ``limit`` in any ``window`` seconds (chat floods, password
guessing)."""

from __future__ import annotations

import time
from collections import deque


class EventWindow:
    """The times (``time.monotonic()`` seconds) of the events of the last ``window`` seconds.

    Args:
        limit: how many events the window holds before it is full (at least 1).
        window: the span in seconds over which events count.
    """

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._times: deque[float] = deque()

    def _prune(self, now: float) -> None:
        while self._times and now - self._times[0] >= self.window:
            self._times.popleft()

    def full(self) -> bool:
        """Whether ``limit`` events happened within the last ``window`` seconds."""
        self._prune(time.monotonic())
        return len(self._times) >= self.limit

    def empty(self) -> bool:
        """Whether no event of the last ``window`` seconds is left (the window may be forgotten)."""
        self._prune(time.monotonic())
        return not self._times

    def add(self) -> None:
        """Count one event now."""
        self._times.append(time.monotonic())

    def retry_after(self) -> float:
        """Seconds until the window has room again (0 when it has room now)."""
        now = time.monotonic()
        self._prune(now)
        if len(self._times) < self.limit:
            return 0.0
        return self._times[-self.limit] + self.window - now
