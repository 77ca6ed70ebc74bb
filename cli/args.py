"""Argparse types shared by the sub-commands: numbers of seconds, whole numbers in a range, TCP ports,
bot policy specs.

Each returns the parsed value or raises ``argparse.ArgumentTypeError``, which argparse prints as one line
naming the option, with exit status 2.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from engine.barbu import PolicySpecError, parse_policy_spec


def seconds(low: float, high: float, *, above_low: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds from ``low`` to ``high`` (``above_low``: more than
    ``low``, so ``seconds(0, 60, above_low=True)`` refuses 0). NaN and infinities are refused."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        too_low = value <= low if above_low else value < low
        if not math.isfinite(value) or too_low or value > high:
            span = f"more than {low:g} and at most {high:g}" if above_low else f"from {low:g} to {high:g}"
            raise argparse.ArgumentTypeError(f"{text} must be a number of seconds {span}")
        return value

    return parse


def positive(text: str) -> float:
    """An argparse type: a finite number more than 0 (requests per second, a burst of them, days)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be a number more than 0")
    return value


def port(text: str) -> int:
    """An argparse type: a TCP port, an integer from 0 (any free port) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text} must be a port from 0 to 65535")
    return value


def policy_spec(text: str) -> str:
    """An argparse type: a bot policy spec ``NAME[:KEY=VALUE...]`` (``engine.barbu.spec``), kept as text."""
    try:
        return str(parse_policy_spec(text))
    except PolicySpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (``whole(1, 64)`` for a worker count)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} must be from {low} to {high}")
        return value

    return parse
