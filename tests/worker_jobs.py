"""Jobs for the worker-pool tests: top-level functions a spawned worker process imports by name. Each takes
the ``budget`` keyword every pool job receives."""

from __future__ import annotations

import os
import time


def square(x: int, *, budget: float) -> int:
    """``x * x``."""
    return x * x


def given_budget(*, budget: float) -> float:
    """The budget the job was given, in seconds."""
    return budget


def pid(*, budget: float) -> int:
    """The worker's process id."""
    return os.getpid()


def niceness(*, budget: float) -> int:
    """The worker's niceness."""
    return os.nice(0)


def nap(seconds: float, *, budget: float) -> int:
    """Sleep ``seconds``, then return the worker's process id."""
    time.sleep(seconds)
    return os.getpid()


def spin(seconds: float, *, budget: float) -> int:
    """Keep a core busy for ``seconds``, whatever the budget (a job that does not stop itself)."""
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
    return n


def fail(*, budget: float) -> None:
    """Raise ``ValueError``."""
    raise ValueError("this job fails")
