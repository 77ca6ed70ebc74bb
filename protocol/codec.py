"""The msgpack codec: one map per binary WebSocket frame, decoded under strict limits.

``decode_frame`` turns bytes into a ``dict`` or raises ``ProtocolError`` (``bad-frame``, ``too-large`` or
``limit``); ``encode_frame`` does the reverse. msgpack's own length limits (``max_str_len``,
``max_array_len``, ...) are applied during decoding; extension types are refused (``max_ext_len=0``) and so
are binary strings unless ``Limits.max_bin`` allows them. A map holding one key twice is refused
(``unique_keys``, usable as any decoder's ``object_pairs_hook``). Nesting depth is checked after decoding.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import msgpack

from protocol.errors import ProtocolError


@dataclass(frozen=True)
class Limits:
    """Decoding limits for one direction of the protocol.

    Attributes:
        max_frame: longest frame accepted, in bytes.
        max_str: longest string, in bytes of UTF-8.
        max_bin: longest binary string, in bytes (0: binary strings are refused).
        max_array: most elements in one array.
        max_map: most keys in one map.
        max_depth: deepest nesting of arrays/maps (the top-level map is depth 1).
    """

    max_frame: int = 16384
    max_str: int = 2048
    max_bin: int = 0
    max_array: int = 64
    max_map: int = 32
    max_depth: int = 6

    def to_wire(self) -> dict[str, int]:
        """The limits as a wire map (sent in ``welcome``), keys as the attribute names."""
        return asdict(self)


#: What the server accepts from clients (requests are small).
REQUEST_LIMITS = Limits()
#: What clients accept from the server (snapshots and views are larger).
REPLY_LIMITS = Limits(max_frame=1 << 20, max_str=8192, max_array=4096, max_map=512, max_depth=16)


def encode_frame(message: dict[str, Any]) -> bytes:
    """Pack ``message`` (a map of msgpack-ready values) into one frame's bytes."""
    data: bytes = msgpack.packb(message, use_bin_type=True)
    return data


def prepacked(message: dict[str, Any], key: str) -> Callable[[Any], bytes]:
    """A fast encoder of ``message`` with only the value of ``key`` changing (a reply sent to many, whose
    ``id`` differs): everything else is packed once. ``prepacked(m, "id")(7)`` equals
    ``encode_frame({**m, "id": 7})`` when ``m`` holds ``id``, byte for byte."""
    return filler(*packed_around(message, key))


def packed_around(message: dict[str, Any], key: str) -> tuple[bytes, bytes]:
    """``message`` packed (msgpack) but for the value of ``key``: the bytes before that value and after it
    (``filler`` puts a value between them). Plain bytes, so a worker process can pack a large reply."""
    packer = msgpack.Packer(use_bin_type=True)
    head = bytearray(packer.pack_map_header(len(message)))
    tail = bytearray()
    part = head
    for name, value in message.items():
        if name == key:
            head += packer.pack(name)
            part = tail
            continue
        part += packer.pack(name) + packer.pack(value)
    return bytes(head), bytes(tail)


def filler(before: bytes, after: bytes) -> Callable[[Any], bytes]:
    """The encoder of the message ``packed_around`` split into ``before`` and ``after``: a value in, the
    whole frame out."""
    packer = msgpack.Packer(use_bin_type=True)
    return lambda value: before + packer.pack(value) + after


def unique_keys(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    """The map of ``pairs`` (key, value), refusing a key given twice: a decoder's ``object_pairs_hook``
    (msgpack's and ``json``'s), so that no two layers can read different values from one map.

    Raises:
        ProtocolError: ``bad-frame`` naming the repeated key.
    """
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[Any] = set()
        for key, _ in pairs:
            if key in seen:
                raise ProtocolError("bad-frame", f"map key {key!r} appears twice")
            seen.add(key)
    return out


def _too_deep(value: dict[str, Any], limit: int) -> int | None:
    """The nesting depth of map ``value`` (itself depth 1) if it exceeds ``limit``, else None; walks only
    containers and stops at the first one too deep."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if level > limit:
            return level
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, dict | list):
                stack.append((child, level + 1))
    return None


def decode_frame(data: bytes | str, limits: Limits = REQUEST_LIMITS) -> dict[str, Any]:
    """Decode one frame into a map, enforcing ``limits``.

    Raises:
        ProtocolError: ``bad-frame`` (a text frame, invalid msgpack, trailing bytes, not a map, a non-string
            or repeated map key), ``too-large`` (longer than ``limits.max_frame``) or ``limit`` (a length or depth limit).
    """
    if isinstance(data, str):
        raise ProtocolError("bad-frame", "text frames are refused: send one msgpack map in a binary frame")
    if len(data) > limits.max_frame:
        raise ProtocolError("too-large", f"frame of {len(data)} bytes exceeds max_frame {limits.max_frame}")
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            max_str_len=limits.max_str,
            max_bin_len=limits.max_bin,
            max_array_len=limits.max_array,
            max_map_len=limits.max_map,
            max_ext_len=0,
            object_pairs_hook=unique_keys,
        )
    except ProtocolError:
        raise
    except msgpack.ExtraData:
        raise ProtocolError("bad-frame", "trailing bytes after the first msgpack object") from None
    except msgpack.StackError:
        raise ProtocolError("limit", "nesting too deep for the msgpack decoder") from None
    except ValueError as exc:
        text = str(exc)
        if "exceeds max_" in text:
            raise ProtocolError("limit", f"msgpack limit exceeded: {text}") from None
        raise ProtocolError("bad-frame", f"invalid msgpack: {text or type(exc).__name__}") from None
    except Exception as exc:
        raise ProtocolError("bad-frame", f"invalid msgpack: {exc or type(exc).__name__}") from None
    if not isinstance(value, dict):
        raise ProtocolError("bad-frame", f"a frame must hold a map, not {type(value).__name__}")
    depth = _too_deep(value, limits.max_depth)
    if depth is not None:
        raise ProtocolError("limit", f"nesting depth {depth} exceeds max_depth {limits.max_depth}")
    return value
