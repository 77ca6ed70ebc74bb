"""Rate limits: a sliding window of recent events (at most ``limit`` in any ``window`` seconds: chat floods,
password guessing), token buckets (a connection's and an address's request budgets), throttled log lines,
retry pauses."""

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


class TokenBucket:
    """A request budget: up to ``burst`` requests at once, refilled at ``rate`` per second.

    Args:
        rate: tokens added per second (at least some; 0 would never refill).
        burst: most tokens held (the longest run of requests allowed back to back).
    """

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._at = time.monotonic()

    def take(self, cost: float = 1.0) -> float:
        """Spend ``cost`` tokens when there are that many and return 0; otherwise spend nothing and return the
        seconds until they are back. A cost above ``burst`` costs ``burst`` (it must be payable at all)."""
        cost = min(cost, self.burst)
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= cost:
            self._tokens -= cost
            return 0.0
        return (cost - self._tokens) / self.rate


class AddressBudgets:
    """One ``TokenBucket`` per IP address with connections open, shared by all of them: opening more
    connections does not buy more requests. A bucket lives while its address has a connection open.

    Args:
        rate: requests per second an address's budget refills.
        burst: requests an address's connections may send back to back.
    """

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[TokenBucket, int]] = {}

    def open(self, address: str) -> None:
        """A connection from ``address`` opened (it shares the address's bucket, made if none)."""
        bucket, users = self._buckets.get(address) or (TokenBucket(self.rate, self.burst), 0)
        self._buckets[address] = (bucket, users + 1)

    def close(self, address: str) -> None:
        """A connection from ``address`` closed (the bucket goes with the last one)."""
        bucket, users = self._buckets[address]
        if users > 1:
            self._buckets[address] = (bucket, users - 1)
        else:
            del self._buckets[address]

    def take(self, address: str, cost: float = 1.0) -> float:
        """``TokenBucket.take`` of ``cost`` on ``address``'s bucket (0: allowed, spent; else seconds to wait);
        an address with no connection open is not limited."""
        held = self._buckets.get(address)
        return 0.0 if held is None else held[0].take(cost)


class Throttle:
    """Lets something happen at most once every ``interval`` seconds (a log line repeated in a flood or an
    outage), counting what it held back.

    Args:
        interval: the least time, in seconds (``time.monotonic()``), between two events let through.
    """

    def __init__(self, interval: float = 1.0) -> None:
        self.interval = interval
        self._last = -interval
        self.held = 0

    def ready(self) -> int | None:
        """None when the last event let through is under ``interval`` seconds old (this one is held back);
        otherwise the number of events held back since then (the count starts again)."""
        now = time.monotonic()
        if now - self._last < self.interval:
            self.held += 1
            return None
        self._last, held, self.held = now, self.held, 0
        return held


class Backoff:
    """Growing pauses between retries of something that failed (a store write): ``first`` seconds, doubled
    after each failure up to ``most``; ``reset`` after a success.

    Args:
        first: the first pause in seconds.
        most: the longest pause in seconds.
    """

    def __init__(self, first: float = 0.25, most: float = 2.0) -> None:
        self.first = first
        self.most = most
        self.failures = 0

    def next(self) -> float:
        """The pause before the next retry (counts one more failure)."""
        delay = min(self.most, self.first * 2.0 ** min(self.failures, 30))
        self.failures += 1
        return delay

    def reset(self) -> None:
        """The thing succeeded: the next failure waits ``first`` again."""
        self.failures = 0
