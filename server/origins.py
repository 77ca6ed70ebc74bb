"""Which web pages may open the server's WebSocket: the ``Origin`` check, against cross-site WebSocket
hijacking.

A browser sends ``Origin`` (the ``scheme://host[:port]`` of the page whose script opens the WebSocket) with
every handshake, and the page's script cannot change it; programs (the terminal client, bots) send none.
Without the check any web page a player visits could open a WebSocket to the server from the player's
browser, and so from the player's address: log in where the server has no password, chat, create tables,
hold the address's connections, spend its wrong passwords. A handshake goes on when it carries no
``Origin``, when its ``Origin`` is the server's own (the request's ``Host``, over http or https: behind a TLS
proxy that passes ``Host`` on, the page is https), or when it is one the server was told to allow
(``barbu serve --allowed-origin``: a proxy serving the page under another name). Anything else is refused
(``server.app``: HTTP 403, before any WebSocket work, counted against nothing). That the ``Host`` itself is
one of the server's names, so that a DNS-rebinding page's matching ``Origin`` and ``Host`` do not pass, is
``server.hosts``'s check, made first.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from websockets.http11 import Request

#: The schemes a page may be served over, with their default ports.
DEFAULT_PORTS = {"http": 80, "https": 443}
#: How much of a refused ``Origin`` the refusal quotes (the header may be kilobytes long).
QUOTED = 100

#: An origin compared: its scheme, host (lower case, an IPv6 address without brackets) and port.
OriginKey = tuple[str, str, int]


def origin_key(origin: str) -> OriginKey:
    """``origin`` (``http://HOST[:PORT]`` or ``https://...``, as a browser sends it) as compared: the port
    its scheme's default when none is written.

    Raises:
        ValueError: ``origin`` is not such an origin (another scheme, no host, a port out of range, a user,
            a path, a query or a fragment after it); the message says which rule.
    """
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"{origin!r} is not an origin ({exc}): write it as http(s)://HOST[:PORT]") from None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"{origin!r} is not an origin: write it as http(s)://HOST[:PORT]")
    if parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        raise ValueError(f"{origin!r} is not an origin: nothing comes after http(s)://HOST[:PORT]")
    return parts.scheme, parts.hostname, DEFAULT_PORTS[parts.scheme] if port is None else port


def host_key(host: str, scheme: str) -> OriginKey | None:
    """The origin a request's ``Host`` header (``HOST[:PORT]``) names when the page came over ``scheme``;
    None when ``host`` is not a host and port."""
    try:
        return origin_key(f"{scheme}://{host}")
    except ValueError:
        return None


class OriginCheck:
    """Says whether a WebSocket handshake's ``Origin`` may connect (see the module docstring).

    Args:
        allowed: origins let through besides the server's own (``ServerConfig.allowed_origins``).

    Raises:
        ValueError: one of ``allowed`` is not an origin (``origin_key``).
    """

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = frozenset(origin_key(origin) for origin in allowed)

    def refusal(self, request: Request) -> str | None:
        """None when ``request`` (a WebSocket handshake) may go on: no ``Origin``, the server's own, or an
        allowed one; else the one-line reason it is refused."""
        origins = request.headers.get_all("Origin")
        if not origins:
            return None
        if len(origins) > 1:
            return "a WebSocket handshake carries one Origin header at most"
        origin = origins[0]
        try:
            key = origin_key(origin)
        except ValueError:
            key = None
        if key is not None and (key in self.allowed or self._own(key, request)):
            return None
        return (
            f"a page from {origin[:QUOTED]!r} may not open this server's WebSocket: only the server's own page"
            " may (barbu serve --allowed-origin names another)"
        )

    @staticmethod
    def _own(key: OriginKey, request: Request) -> bool:
        """Whether ``key`` is the origin of the request's ``Host`` over the origin's own scheme."""
        hosts = request.headers.get_all("Host")
        return len(hosts) == 1 and host_key(hosts[0], key[0]) == key
