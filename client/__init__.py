"""The barbu client library: ``Connection`` (connect, hello, login, resume, lobby calls, actions, pushes)
and ``play_match`` (a bot: an engine policy acting on its seat's view: from the ``update`` pushes of
protocol version 2, reduced into a ``RoomState``, or the ``turn`` pushes of version 1). Shared by the
terminal client (version 1) and the bots (version 2); the wire itself is specified in ``docs/protocol.md``."""

from client.bot import play_match
from client.connection import BadReply, Connection, ConnectionLost, ServerError
from client.room_state import RoomState

__all__ = ["BadReply", "Connection", "ConnectionLost", "RoomState", "ServerError", "play_match"]
