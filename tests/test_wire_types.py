"""Bad input never reaches the rules as the wrong type: every field of every request, sent over a real
connection to a real server with a value of a wrong type, gets a typed error naming it (never ``internal``,
never a traceback), and the connection carries on."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import threading
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from protocol import REPLY_LIMITS, REQUESTS, ProtocolError, decode_frame, parse_request
from protocol.messages import ACTION_KEYS
from protocol.schema import _matches
from server import BarbuServer, ServerConfig


class _Errors(logging.Handler):
    """Keeps the server's log records of level ERROR and above (a traceback is logged at ERROR)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Live:
    """A real server running in its own thread and one logged-in client connection to it, seated at a
    started table (``table``, seat N, three bots that never move) and playing a solitaire room
    (``solitaire``)."""

    def __init__(self, db: Path) -> None:
        self.loop = asyncio.new_event_loop()
        config = ServerConfig(
            host="127.0.0.1",
            port=0,
            db=str(db),
            bot_delay=3600.0,
            ping_interval=None,
            bad_password_delay=0.0,
            request_rate=1e6,
            request_burst=1e6,
        )
        self.server = BarbuServer(config)
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        assert ready.wait(20), "the server did not start"
        self._stack = contextlib.ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(self.server.url, compression=None, max_size=1 << 20, proxy=None)
        )
        self.ids = iter(range(1, 1 << 40))
        self.call({"type": "hello", "version": 1, "client": "types"})
        self.call({"type": "login", "name": "typer"})
        self.table = self.call({"type": "create-table", "name": "types"})["room"]
        self.call({"type": "sit", "room": self.table, "seat": "N"})
        for seat in "ESW":
            self.call({"type": "add-bot", "room": self.table, "seat": seat})
        self.solitaire = self.call({"type": "open-solitaire", "game": "forty-thieves", "seed": 7})["room"]

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.start())
        ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(self.server.stop())

    def close(self) -> None:
        self._stack.close()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(20)

    def send(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` as is and return the reply: the next frame carrying its ``id`` (or an error with
        a nil ``id``, when the ``id`` itself is what is wrong); pushes in between are skipped."""
        self.ws.send(msgpack.packb(message))
        rid = message.get("id")
        while True:
            reply = decode_frame(self.ws.recv(timeout=10), _LOOSE)
            if reply.get("id") == rid and (rid is not None or reply["type"] == "error"):
                return reply
            if reply["type"] == "error" and reply["id"] is None:
                return reply

    def call(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` with a fresh ``id`` and return its reply, which must not be an error."""
        reply = self.send({**message, "id": next(self.ids)})
        assert reply["type"] != "error", reply
        return reply


_LOOSE = REPLY_LIMITS


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    errors = _Errors()
    logging.getLogger("server").addHandler(errors)
    server = Live(tmp_path_factory.mktemp("types") / "barbu.sqlite3")
    try:
        yield server
    finally:
        server.close()
        logging.getLogger("server").removeHandler(errors)
    assert [r.getMessage() for r in errors.records] == [], "the server logged an error"


def _base(live: Live, kind: str) -> dict[str, Any]:
    """A well-typed request of ``kind`` for ``live``'s rooms (its values may still be refused)."""
    table, solitaire = live.table, live.solitaire
    bases: dict[str, dict[str, Any]] = {
        "hello": {"version": 1, "client": "x"},
        "login": {"name": "someone", "password": None},
        "resume": {"token": "t" * 40},
        "list-rooms": {},
        "create-table": {
            "name": "another",
            "variants": {"rotation": "block"},
            "turn_time": 30,
            "grace": 10,
        },
        "sit": {"room": table, "seat": "N"},
        "watch": {"room": table},
        "leave": {"room": table},
        "add-bot": {"room": table, "seat": "E", "policy": "random"},
        "remove-bot": {"room": table, "seat": "E"},
        "remove-player": {"room": table, "seat": "E"},
        "chat": {"room": table, "text": "hi"},
        "act": {"room": table, "seat": "N", "action": {"action": "play", "card": "QS"}},
        "snapshot": {"room": table},
        "open-solitaire": {"game": "pyramid", "options": {}, "seed": 3},
        "move": {"room": solitaire, "move": "t1>t2"},
        "undo": {"room": solitaire},
        "redo": {"room": solitaire},
        "auto": {"room": solitaire},
        "hint": {"room": solitaire},
        "new-deal": {"room": solitaire, "seed": 1},
        "resign": {"room": solitaire},
        "rematch": {"room": table},
        "list-games": {},
        "list-matches": {},
        "standings": {},
        "replay": {"match": table},
    }
    return {"type": kind, "id": 1, **bases[kind]}


#: Any value msgpack carries (strings, numbers, booleans, nil, arrays and maps of them).
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats()
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _targets() -> list[tuple[str, str, str | None, Any]]:
    """(request type, field, key inside a map field or None, the wire type the value must have)."""
    out: list[tuple[str, str, str | None, Any]] = []
    for kind, cls in REQUESTS.items():
        hints = typing.get_type_hints(cls)
        out.append((kind, "type", None, str))
        for f in dataclasses.fields(cls):
            out.append((kind, f.name, None, hints[f.name]))
    out.extend(("act", "action", key, tp) for key, tp in ACTION_KEYS.items())
    out.append(("create-table", "variants", "rotation", str | bool))
    out.append(("open-solitaire", "options", "redeals", str | int | bool))
    return out


TARGETS = _targets()


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.sampled_from(TARGETS), st.data())
def test_every_field_of_every_request_with_a_wrong_type_is_refused_by_name(
    live: Live, target: tuple[str, str, str | None, Any], data: st.DataObject
) -> None:
    kind, field, key, tp = target
    wrong = data.draw(VALUES.filter(lambda v: not _matches(v, tp)), label="wrong value")
    request = _base(live, kind)
    request["id"] = next(live.ids)
    if key is None:
        request[field] = wrong
    else:
        request[field] = {**request[field], key: wrong}
    reply = live.send(request)
    assert reply["type"] == "error" and reply["code"] != "internal", reply
    if field != "type":
        assert reply["code"] == "bad-message" and reply["field"] == field, reply
    # The connection carries on: the next request is answered as usual.
    assert live.call({"type": "snapshot", "room": live.table})["type"] == "snapshot"


@pytest.mark.parametrize("action", [{"action": ["x"]}, {"action": {"a": 1}}, {"action": "play", "card": 7}])
def test_an_action_field_of_the_wrong_type_is_bad_message(action: dict[str, Any]) -> None:
    wire = {"type": "act", "id": 3, "room": "1", "seat": "N", "action": action}
    with pytest.raises(ProtocolError) as info:
        parse_request(wire)
    assert (info.value.code, info.value.field) == ("bad-message", "action")


def test_a_repeated_map_key_is_a_bad_frame() -> None:
    # {"type": "hello", "type": "act"}: two layers could read two different requests from it.
    frame = (
        b"\x82"
        + msgpack.packb("type")
        + msgpack.packb("hello")
        + msgpack.packb("type")
        + msgpack.packb("act")
    )
    with pytest.raises(ProtocolError) as info:
        decode_frame(frame)
    assert info.value.code == "bad-frame" and "'type'" in info.value.message
    nested = b"\x81\xa1a\x82\xa1b\x01\xa1b\x02"  # {"a": {"b": 1, "b": 2}}
    with pytest.raises(ProtocolError) as info:
        decode_frame(nested)
    assert info.value.code == "bad-frame"
