"""The barbu client library: ``Connection`` (connect, hello, login, resume, lobby calls, actions, pushes)
and ``play_match`` (a bot: an engine policy answering ``turn`` pushes). Shared by the terminal client and the
bots; the wire itself is specified in ``docs/protocol.md``."""

from client.bot import play_match
from client.connection import BadReply, Connection, ConnectionLost, ServerError

__all__ = ["BadReply", "Connection", "ConnectionLost", "ServerError", "play_match"]
