"""Strict JSON text for the records (``docs/formats.md``: "Readers must reject anything else with a clear
error naming the field, never guess"): duplicate keys, ``NaN``/``Infinity``, numbers too long to convert and
nesting too deep for the parser are refused with a one-line :class:`JsonTextError`, never a traceback."""

from __future__ import annotations

import json
from typing import Any


class JsonTextError(ValueError):
    """Text that is not JSON this program reads. ``line`` is the 1-based line of the fault when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise JsonTextError(
                f"not JSON this program reads: the key {show(key)} appears twice in one object"
            )
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise JsonTextError(f"not JSON: {name} is not a JSON number")


def loads(text: str) -> Any:
    """Parse one JSON value from ``text``.

    Raises:
        JsonTextError: malformed JSON (with its line), a duplicate key, NaN or Infinity, a number of more
            than 4300 digits, or nesting deeper than the parser's recursion limit.
    """
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise JsonTextError(
            f"not JSON: {err.msg} at line {err.lineno} column {err.colno}", err.lineno
        ) from None
    except JsonTextError:
        raise
    except RecursionError:
        raise JsonTextError("not JSON this program reads: nested too deeply") from None
    except ValueError:
        # int() refuses numbers of more than sys.get_int_max_str_digits() digits (4300 by default).
        raise JsonTextError("not JSON this program reads: a number with too many digits") from None


def show(value: Any, limit: int = 24) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for echoing bad input in one-line errors."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
