"""The protocol version and the features this implementation offers (``docs/protocol.md`` "Versions")."""

PROTOCOL_VERSION = 1
#: Versions this server accepts in ``hello``.
SUPPORTED_VERSIONS = frozenset({1})
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
)
