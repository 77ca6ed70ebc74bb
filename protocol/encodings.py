"""The protocol's two encodings of the same messages, and how a connection picks one.

- ``msgpack``: one msgpack map per binary WebSocket frame (``protocol.codec``): the terminal client and bots.
- ``json``: one JSON object per text frame (UTF-8): the browser client, which has no msgpack.

A connection speaks the encoding of its first frame for its whole life (``frame_encoding``); a frame of the
other kind is ``bad-frame``. Both are decoded under the same ``Limits`` with the same error codes: the JSON
decoder checks the limits after parsing (the frame is at most ``max_frame`` bytes, so that is cheap),
refuses a key given twice (``unique_keys``), ``NaN``/``Infinity`` and numbers out of range, and strings that
are not Unicode text (lone surrogates written as ``\\ud800`` escapes).

Broadcasts are encoded once in msgpack and passed around as bytes; ``transcode`` turns such a frame into
another encoding for the few connections that speak it.
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal

import msgpack

from protocol.codec import REQUEST_LIMITS, Limits, decode_frame, encode_frame, unique_keys
from protocol.errors import ProtocolError

Encoding = Literal["msgpack", "json"]
ENCODINGS: tuple[Encoding, ...] = ("msgpack", "json")
#: The integers msgpack can carry: a JSON number outside this range could not be stored or echoed.
_INT_RANGE = (-(2**63), 2**64 - 1)


def frame_encoding(frame: bytes | str) -> Encoding:
    """The encoding a connection whose first frame is ``frame`` speaks: JSON for a text frame."""
    return "json" if isinstance(frame, str) else "msgpack"


def encode(message: dict[str, Any], encoding: Encoding) -> bytes | str:
    """``message`` as one frame of ``encoding``: bytes (msgpack, a binary frame) or str (JSON, a text frame)."""
    return encode_json(message) if encoding == "json" else encode_frame(message)


def decode(frame: bytes | str, encoding: Encoding, limits: Limits = REQUEST_LIMITS) -> dict[str, Any]:
    """Decode one frame of a connection speaking ``encoding``, enforcing ``limits``.

    Raises:
        ProtocolError: ``bad-frame`` (a frame of the other kind, or malformed), ``too-large``, ``limit``.
    """
    if encoding == "json":
        if not isinstance(frame, str):
            raise ProtocolError(
                "bad-frame", "this connection speaks JSON (its first frame): send text frames"
            )
        return decode_json(frame, limits)
    if isinstance(frame, str):
        raise ProtocolError(
            "bad-frame", "this connection speaks msgpack (its first frame): send binary frames"
        )
    return decode_frame(frame, limits)


def transcode(frame: bytes, encoding: Encoding) -> bytes | str:
    """A msgpack ``frame`` made by this server (``encode_frame``) in ``encoding``."""
    if encoding == "msgpack":
        return frame
    return encode_json(msgpack.unpackb(frame, raw=False))


def encode_json(message: dict[str, Any]) -> str:
    """``message`` as compact JSON text (non-ASCII kept as is; non-finite numbers are a bug: ValueError)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _no_constant(name: str) -> Any:
    raise ProtocolError("bad-frame", f"invalid JSON: {name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError("bad-frame", f"invalid JSON: number {text[:20]} is out of range")
    return value


def _integer(text: str) -> int:
    value = int(text)
    if not _INT_RANGE[0] <= value <= _INT_RANGE[1]:
        raise ProtocolError("limit", f"integer {text[:20]}... is out of range")
    return value


def decode_json(data: str, limits: Limits = REQUEST_LIMITS) -> dict[str, Any]:
    """Decode one JSON text frame into a map, enforcing ``limits`` (``max_frame`` and ``max_str`` count
    UTF-8 bytes, as for msgpack).

    Raises:
        ProtocolError: ``bad-frame`` (invalid JSON, not an object, a repeated key, NaN or Infinity, a lone
            surrogate), ``too-large`` (longer than ``limits.max_frame``) or ``limit`` (a length or depth limit,
            an integer msgpack could not carry).
    """
    size = len(data.encode("utf-8", "surrogatepass"))
    if size > limits.max_frame:
        raise ProtocolError("too-large", f"frame of {size} bytes exceeds max_frame {limits.max_frame}")
    try:
        value = json.loads(
            data,
            object_pairs_hook=unique_keys,
            parse_constant=_no_constant,
            parse_float=_finite,
            parse_int=_integer,
        )
    except RecursionError:
        raise ProtocolError("limit", f"nesting depth exceeds max_depth {limits.max_depth}") from None
    except ValueError as exc:  # json.JSONDecodeError, or too many digits for an int
        raise ProtocolError("bad-frame", f"invalid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ProtocolError("bad-frame", f"a frame must hold an object, not {type(value).__name__}")
    _check_limits(value, limits)
    return value


def _check_limits(value: dict[str, Any], limits: Limits) -> None:
    """Refuse strings, arrays, maps or nesting beyond ``limits`` (what msgpack's decoder checks as it reads)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, str):
            _check_text(item, limits)
            continue
        if not isinstance(item, dict | list):
            continue
        if level > limits.max_depth:
            raise ProtocolError("limit", f"nesting depth {level} exceeds max_depth {limits.max_depth}")
        if isinstance(item, dict):
            if len(item) > limits.max_map:
                raise ProtocolError("limit", f"map of {len(item)} keys exceeds max_map {limits.max_map}")
            for key in item:
                _check_text(key, limits)
            children: Any = item.values()
        else:
            if len(item) > limits.max_array:
                raise ProtocolError(
                    "limit", f"array of {len(item)} elements exceeds max_array {limits.max_array}"
                )
            children = item
        stack.extend((child, level + 1) for child in children)


def _check_text(text: str, limits: Limits) -> None:
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise ProtocolError("bad-frame", "invalid JSON: a string holds a lone surrogate") from None
    if size > limits.max_str:
        raise ProtocolError("limit", f"string of {size} bytes exceeds max_str {limits.max_str}")
