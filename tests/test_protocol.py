"""The wire: codec limits, message validation, error codes, and that docs/protocol.md covers them all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import (
    ERROR_CODES,
    REQUEST_LIMITS,
    REQUESTS,
    SERVER_MESSAGES,
    Act,
    Error,
    Hello,
    Limits,
    ProtocolError,
    Sit,
    decode_frame,
    encode_frame,
    parse_request,
    parse_server_message,
    request_id,
)

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def _code(data: bytes | str, limits: Limits = REQUEST_LIMITS) -> str:
    with pytest.raises(ProtocolError) as info:
        decode_frame(data, limits)
    return info.value.code


def test_roundtrip() -> None:
    message = {"type": "act", "id": 7, "room": "3", "seat": "N", "action": {"action": "play", "card": "QS"}}
    assert decode_frame(encode_frame(message)) == message


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("hello", "bad-frame"),
        (b"\xc1", "bad-frame"),
        (b"\x92\x01", "bad-frame"),
        (msgpack.packb({"a": 1}) + b"\x01", "bad-frame"),
        (msgpack.packb([1, 2]), "bad-frame"),
        (msgpack.packb({1: 2}), "bad-frame"),
        (msgpack.packb({"a": list(range(65))}), "limit"),
        (msgpack.packb({"a": "x" * 3000}), "limit"),
        (msgpack.packb({"a": b"bytes"}), "limit"),
        (msgpack.packb({"a": msgpack.ExtType(1, b"xy")}), "limit"),
        (msgpack.packb({"a": [[[[[[1]]]]]]}), "limit"),
        (
            msgpack.packb({"a": "x" * 2000, "b": "y" * 2000, "c": "z" * 2000, "d": "w" * 2000}) * 3,
            "too-large",
        ),
        (b"\x91" * 2000 + b"\x01", "limit"),
    ],
)
def test_bad_frames(data: bytes | str, code: str) -> None:
    assert _code(data) == code


def test_depth_limit_boundary() -> None:
    ok: Any = 1
    for _ in range(REQUEST_LIMITS.max_depth - 1):
        ok = [ok]
    assert decode_frame(msgpack.packb({"a": ok}))
    assert _code(msgpack.packb({"a": [ok]})) == "limit"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_decode_or_typed_error(data: bytes) -> None:
    try:
        assert isinstance(decode_frame(data), dict)
    except ProtocolError as exc:
        assert exc.code in ("bad-frame", "limit", "too-large")


def test_parse_valid_requests() -> None:
    assert parse_request({"type": "hello", "id": 1, "version": 1, "client": "c"}) == Hello(1, 1, "c")
    assert parse_request({"type": "sit", "id": 2, "room": "1"}) == Sit(2, "1", None)
    act = {"type": "act", "id": 3, "room": "1", "seat": "E", "action": {"action": "pass"}}
    assert parse_request(act) == Act(3, "1", "E", {"action": "pass"})


@pytest.mark.parametrize(
    ("wire", "code", "field"),
    [
        ({"id": 1}, "bad-message", "type"),
        ({"type": 5, "id": 1}, "bad-message", "type"),
        ({"type": "fly", "id": 1}, "unknown-type", "type"),
        ({"type": "welcome", "id": 1}, "unknown-type", "type"),
        ({"type": "hello", "id": 1, "client": "c"}, "bad-message", "version"),
        ({"type": "hello", "id": 1, "version": "1", "client": "c"}, "bad-message", "version"),
        ({"type": "hello", "id": 1, "version": True, "client": "c"}, "bad-message", "version"),
        ({"type": "hello", "id": -1, "version": 1, "client": "c"}, "bad-message", "id"),
        ({"type": "hello", "id": 1, "version": 1, "client": "c", "x": 1}, "bad-message", "x"),
        ({"type": "login", "id": 1, "name": ""}, "bad-message", "name"),
        ({"type": "login", "id": 1, "name": "n" * 25}, "bad-message", "name"),
        ({"type": "sit", "id": 1, "room": "1", "seat": "X"}, "bad-message", "seat"),
        ({"type": "act", "id": 1, "room": "1", "seat": "N", "action": "play"}, "bad-message", "action"),
        ({"type": "create-table", "id": 1, "name": "t", "turn_time": 0.5}, "bad-message", "turn_time"),
        ({"type": "chat", "id": 1, "room": "1", "text": "x" * 501}, "bad-message", "text"),
    ],
)
def test_parse_refusals(wire: dict[str, Any], code: str, field: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_request(wire)
    assert (info.value.code, info.value.field) == (code, field)


def test_request_id_only_when_valid() -> None:
    assert request_id({"id": 4}) == 4
    assert request_id({"id": True}) is None
    assert request_id({"id": "4"}) is None
    assert request_id({}) is None


def test_server_messages_roundtrip_and_ignore_extra_fields() -> None:
    error = Error(id=None, code="bad-frame", message="m")
    wire = error.to_wire()
    assert wire == {
        "type": "error",
        "id": None,
        "code": "bad-frame",
        "message": "m",
        "field": None,
        "rule": None,
        "retry_after": None,
    }
    assert parse_server_message({**wire, "later": 1}) == error


def test_error_codes_are_checked() -> None:
    with pytest.raises(ValueError):
        ProtocolError("no-such-code", "x")


def test_doc_names_every_message_and_error_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    for kind in [*REQUESTS, *SERVER_MESSAGES]:
        assert f"`{kind}`" in text, kind
    for code in ERROR_CODES:
        assert f"`{code}`" in text, code
