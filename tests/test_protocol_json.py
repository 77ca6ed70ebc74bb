"""The JSON encoding (``protocol.encodings``): the same limits and error codes as msgpack, in text frames."""

from __future__ import annotations

import json

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import REQUEST_LIMITS, Limits, ProtocolError, encode_frame
from protocol.encodings import decode, decode_json, encode, encode_json, frame_encoding, transcode


def _code(data: str, limits: Limits = REQUEST_LIMITS) -> str:
    with pytest.raises(ProtocolError) as info:
        decode_json(data, limits)
    return info.value.code


def test_roundtrip_and_the_first_frame_chooses() -> None:
    wire = {"type": "chat", "id": 3, "room": "12", "text": "ស្ត្រី café ♠", "n": None, "x": 1.5}
    text = encode(wire, "json")
    assert isinstance(text, str) and "♠" in text
    assert decode(text, "json") == wire
    assert decode(encode(wire, "msgpack"), "msgpack") == wire
    assert (frame_encoding(text), frame_encoding(b"\x80")) == ("json", "msgpack")
    assert transcode(encode_frame(wire), "json") == text
    assert transcode(encode_frame(wire), "msgpack") == encode_frame(wire)
    for frame, encoding in ((text, "msgpack"), (msgpack.packb(wire), "json")):
        with pytest.raises(ProtocolError) as info:
            decode(frame, encoding)  # type: ignore[arg-type]
        assert info.value.code == "bad-frame"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("", "bad-frame"),
        ("{", "bad-frame"),
        ("[]", "bad-frame"),
        ('"text"', "bad-frame"),
        ('{"a": 1} {"b": 2}', "bad-frame"),
        ('{"type": "x", "type": "y"}', "bad-frame"),  # a repeated key: no two readers disagree
        ('{"a": {"k": 1, "k": 1}}', "bad-frame"),
        ('{"a": NaN}', "bad-frame"),
        ('{"a": Infinity}', "bad-frame"),
        ('{"a": 1e999}', "bad-frame"),
        ('{"a": "\\ud800"}', "bad-frame"),  # a lone surrogate is not text
        ('{"a": 1' + "0" * 30 + "}", "limit"),  # more than msgpack can carry
        ('{"a": "' + "x" * 20000 + '"}', "too-large"),
        ('{"a": "' + "é" * 1100 + '"}', "limit"),  # max_str counts UTF-8 bytes
        ('{"a": "' + "x" * 2049 + '"}', "limit"),
        ('{"' + "k" * 2049 + '": 1}', "limit"),
        ('{"a": [' + ",".join(["1"] * 65) + "]}", "limit"),
        ("{" + ",".join(f'"k{i}": 1' for i in range(33)) + "}", "limit"),
        ('{"a": [[[[[[1]]]]]]}', "limit"),
        ("[" * 5000 + "]" * 5000, "limit"),
    ],
)
def test_refusals(data: str, code: str) -> None:
    assert _code(data) == code


def test_limits_are_the_msgpacks() -> None:
    assert decode_json('{"a": [[[[[1]]]]]}') == {"a": [[[[[1]]]]]}  # depth 6 is allowed, as in msgpack
    assert decode_json('{"a": "' + "x" * 2048 + '"}')["a"] == "x" * 2048
    assert decode_json('{"a": [' + ",".join(["1"] * 64) + "]}")["a"] == [1] * 64
    assert decode_json('{"id": 9007199254740992}')["id"] == 2**53


@given(st.text(max_size=200))
def test_any_text_decodes_or_gets_a_typed_error(data: str) -> None:
    try:
        assert isinstance(decode_json(data), dict)
    except ProtocolError as exc:
        assert exc.code in ("bad-frame", "limit", "too-large")


def test_server_messages_are_plain_json() -> None:
    with pytest.raises(ValueError):
        encode_json({"a": float("nan")})
    assert json.loads(encode_json({"view": {"hand": ["QS"]}})) == {"view": {"hand": ["QS"]}}
