"""Policy specs: a built-in policy's name and its options, written ``NAME[:KEY=VALUE[:KEY=VALUE...]]``.

``heuristic``, ``random``, ``search``, ``search:time=0.5``, ``search:playouts=200``,
``search:playouts=200:exact=12`` (the last 12 cards of each simulated hand played exactly). This module is the one
place where a spec is read and checked; the CLI, the server (``create-table.bot_policy``, ``add-bot.policy``)
and the benchmarks all call :func:`parse_policy_spec` and show its :class:`PolicySpecError` message.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from engine.barbu.bots import Heuristic2026Policy, HeuristicPolicy, Policy, RandomPolicy
from engine.barbu.search import DEFAULT_TIME, SearchPolicy
from engine.barbu.search.kernels import MAX_EXACT

#: The built-in policies, weakest first.
POLICIES = ("random", "heuristic", "search")

#: Earlier versions of the built-in policies, kept so that a benchmark can play them beside today's in one
#: run; a spec names one only when read with ``benchmark=True`` (never by a player, a table or the CLI).
BENCHMARK_POLICIES = ("heuristic-2026",)

#: Each policy's options: key -> (type, lowest, highest, what it means). ``search`` takes ``time`` or
#: ``playouts``, not both: a playout count makes its choices the same on every machine, a time does not.
OPTIONS: dict[str, dict[str, tuple[type, float, float, str]]] = {
    "random": {},
    "heuristic": {},
    "heuristic-2026": {},
    "search": {
        "time": (float, 0.001, 60.0, "seconds per decision, default 0.5"),
        "playouts": (int, 1, 1_000_000, "simulated hands per decision, deterministic"),
        "exact": (int, 0, MAX_EXACT, "the last cards of each simulated hand played exactly, default 0"),
    },
}
EXCLUSIVE = {"search": ("time", "playouts")}

#: Longest spec text accepted (the protocol's field limit too).
MAX_SPEC_LEN = 64


class PolicySpecError(ValueError):
    """A spec that names no built-in policy, an option it does not take, or a value out of range; the
    message says which, in one line."""


@dataclass(frozen=True, slots=True)
class PolicySpec:
    """A parsed spec: the policy ``name`` (one of :data:`POLICIES`) and its ``options`` (key -> int or float),
    as given. ``str(spec)`` is the canonical text (options in the order given)."""

    name: str
    options: tuple[tuple[str, float | int], ...] = ()

    def get(self, key: str) -> float | int | None:
        """The value of option ``key``, or ``None`` when not given."""
        for k, v in self.options:
            if k == key:
                return v
        return None

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{k}={_number(v)}" for k, v in self.options)])


def _number(value: float | int) -> str:
    """``value`` written short (``0.5``, ``2``) but exactly: ``2.0000000001`` stays itself, so a bound
    checked on the canonical text is checked on the value."""
    if isinstance(value, int):
        return str(value)
    short = f"{value:g}"
    return short if float(short) == value else repr(value)


#: A value as a spec writes it: ASCII digits, and for a number of seconds maybe one decimal point.
#: (Python's ``float`` and ``int`` would also take spaces, ``_`` separators, exponents and other scripts' digits.)
_VALUE = {int: re.compile(r"[0-9]+", re.ASCII), float: re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+", re.ASCII)}


def parse_policy_spec(text: str, benchmark: bool = False) -> PolicySpec:
    """Read ``NAME[:KEY=VALUE...]``; with ``benchmark``, NAME may also be one of :data:`BENCHMARK_POLICIES`.

    Raises:
        PolicySpecError: not text, too long, an unknown policy, an unknown or repeated option, a value that is
            not a finite number in the option's range, or ``search`` given both ``time`` and ``playouts``.
    """
    if not isinstance(text, str):
        raise PolicySpecError(f"a policy spec is text such as 'search:time=0.5', not {type(text).__name__}")
    if len(text) > MAX_SPEC_LEN:
        raise PolicySpecError(f"a policy spec is at most {MAX_SPEC_LEN} characters")
    name, *parts = text.split(":")
    if name not in POLICIES and not (benchmark and name in BENCHMARK_POLICIES):
        raise PolicySpecError(f"unknown policy {name!r} (policies: {', '.join(POLICIES)})")
    allowed = OPTIONS[name]
    options: list[tuple[str, float | int]] = []
    for part in parts:
        key, eq, raw = part.partition("=")
        if key not in allowed:
            takes = f"options: {', '.join(allowed)}" if allowed else "it takes no options"
            raise PolicySpecError(f"{name}: unknown option {key!r} ({takes})")
        if not eq or not raw:
            raise PolicySpecError(f"{name}: option {key} needs a value ({key}=VALUE)")
        if any(k == key for k, _ in options):
            raise PolicySpecError(f"{name}: option {key} given twice")
        kind, low, high, meaning = allowed[key]
        if not _VALUE[kind].fullmatch(raw):
            what = "an integer" if kind is int else "a decimal number"
            raise PolicySpecError(
                f"{name}: {key}={raw} is not {what} in ASCII digits; {key} must be from {low:g} to {high:g}"
                f" ({meaning})"
            )
        value: float | int = kind(raw)
        if not math.isfinite(value) or not low <= value <= high:
            raise PolicySpecError(f"{name}: {key} must be from {low:g} to {high:g} ({meaning})")
        options.append((key, value))
    both = EXCLUSIVE.get(name)
    if both and all(any(k == b for k, _ in options) for b in both):
        raise PolicySpecError(f"{name}: give {both[0]} or {both[1]}, not both")
    return PolicySpec(name, tuple(options))


def make_policy(spec: str | PolicySpec, seed: int = 0) -> Policy:
    """The built-in policy a spec names (text or parsed), its randomness fixed by ``seed``.

    Raises:
        PolicySpecError: the text is not a valid spec (see :func:`parse_policy_spec`).
    """
    parsed = parse_policy_spec(spec) if isinstance(spec, str) else spec
    if parsed.name == "random":
        return RandomPolicy(seed)
    if parsed.name == "search":
        playouts = parsed.get("playouts")
        seconds = parsed.get("time")
        exact = parsed.get("exact")
        return SearchPolicy(
            seed,
            seconds=DEFAULT_TIME if seconds is None else float(seconds),
            playouts=None if playouts is None else int(playouts),
            exact=0 if exact is None else int(exact),
        )
    if parsed.name == "heuristic-2026":
        return Heuristic2026Policy(seed)
    return HeuristicPolicy(seed)
