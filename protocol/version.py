"""The protocol version and the features this implementation offers (``docs/protocol.md`` "Versions")."""

#: The version a client of this library speaks unless it asks for another (``Connection.connect``): the
#: terminal client and the browser still speak version 1.
PROTOCOL_VERSION = 1
#: The newest version: room news as one ``update`` per action, ``since`` on coming back (``docs/protocol.md``
#: "Version 2"); the bots speak it.
LATEST_VERSION = 2
#: Versions this server accepts in ``hello``; ``welcome`` answers with the one asked for.
SUPPORTED_VERSIONS = frozenset({1, 2})
#: The most missed updates a ``snapshot`` carries back (``since``); past it, a plain snapshot.
MISSED_UPDATES_MAX = 200
#: Optional parts of the protocol this server implements, listed in ``welcome``.
FEATURES = (
    "barbu",
    "chat",
    "spectators",
    "server-bots",
    "resume",
    "turn-timer",
    "solitaire",
    "json",
    "replays",
    "rematch",
    "secrets",
    "standings",
)
